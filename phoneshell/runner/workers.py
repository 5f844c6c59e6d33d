"""A run's workers: one per phone, taking attempts from the run's shared queue, recording each.

Every phone gets its own rig (its bridge writing the run's one audit.jsonl) and its own worker;
the attempts are shared out as workers free up. A phone whose rig goes down stops its worker,
and its attempt in flight is recorded as skipped. After every attempt its row and files are
sealed into run.json (`phoneshell.seal`).
"""

from __future__ import annotations

import functools
import threading
import traceback
from collections import deque
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from pathlib import Path

from bridge import Trajectory
from bridge.shares import AGENT_LOG_BYTES
from phoneshell.agents import make_agent
from phoneshell.agents.sandbox import Sandbox, shared
from phoneshell.awake import awake
from phoneshell.device.input_probe import probe_input
from phoneshell.errors import DeviceError, shown_url
from phoneshell.phones import usbmux
from phoneshell.phones.open import DeviceHandle
from phoneshell.records import ResultRow
from phoneshell.records.layout import RESULTS
from phoneshell.runner import stop, tidy
from phoneshell.runner.around import around_line
from phoneshell.runner.attempt import run_attempt
from phoneshell.runner.cut import cut_short, tidy_up
from phoneshell.runner.folder import RunFolder, append_result, write_note
from phoneshell.runner.lines import progress_line
from phoneshell.runner.plan import AttemptPlan
from phoneshell.runner.rig import Rig, RigDown, open_rig
from phoneshell.runner.session import RunSummary
from phoneshell.runner.unwritten import folder_error, kept, said
from phoneshell.seal import Sealer
from phoneshell.tasks import Task
from phoneshell.xcui import SPRINGBOARD

Progress = Callable[[str], None]


class Workers:
    """Shared state of a run's workers: the queue of attempts, the results file, the seal."""

    def __init__(self, folder: RunFolder, plans: list[tuple[Task, int]], agent_spec: str,
                 progress: Progress, summary: RunSummary, sandbox: Sandbox,
                 sealer: Sealer, trajectory: Trajectory | None = None,
                 agent_log_bytes: int = AGENT_LOG_BYTES) -> None:
        self.folder, self.agent_spec, self.progress, self.summary = (
            folder, agent_spec, progress, summary)
        self.agent_log_bytes = agent_log_bytes
        self.sandbox, self.sealer, self.trajectory = sandbox, sealer, trajectory
        self.manifest = folder.manifest
        self.queue: deque[tuple[Task, int]] = deque(plans)
        self.tasks = tuple({task.id: task for task, _ in plans}.values())
        # progress lines count the run's attempts: a resume goes on from those already scored
        self.total = len(plans) + summary.already_scored
        self.done = summary.already_scored
        self.down: list[str] = []
        self.lock = threading.Lock()
        self.closed = False
        """Sealed for the last time: a worker a second Ctrl-C left in flight records nothing
        (a row after the last seal would keep the run from verifying)."""

    def next_plan(self) -> tuple[Task, int] | None:
        with self.lock:
            return self.queue.popleft() if self.queue else None

    def stop_handing_out(self) -> int:
        """Hand out no more attempts (Ctrl-C); return how many were still waiting."""
        with self.lock:
            waiting = len(self.queue)
            self.queue.clear()
            return waiting

    def go(self, devices: Sequence[DeviceHandle]) -> None:
        """Run the queue on every phone; Ctrl-C stops handing out attempts, lets those in flight
        end (they are recorded), and a second Ctrl-C leaves them."""
        if len(devices) == 1:
            self.worker(devices[0])  # on this thread: Ctrl-C reaches the attempt itself
            return
        finished = threading.Semaphore(0)

        def work(device: DeviceHandle) -> None:
            try:
                self.worker(device)
            finally:
                finished.release()

        # daemon: after a second Ctrl-C the process may exit with attempts still in flight
        for device in devices:
            threading.Thread(target=work, args=(device,), name=device.info.label,
                             daemon=True).start()
        # Waited on through a semaphore, not Thread.join: a join that Ctrl-C interrupts leaves
        # CPython (before 3.13) taking that thread for ended while it still runs; and in slices,
        # or a stop another thread took waits for the whole queue (`phoneshell.awake`).
        working = len(devices)
        try:
            while working:
                awake(lambda s: finished.acquire(timeout=s))
                working -= 1
        except KeyboardInterrupt as exc:
            self.stop_handing_out()
            # a CI timeout or systemd stops with SIGTERM: there is no Ctrl-C to press
            self.progress(f"{stop.stopped_line(exc)}: waiting for the attempts in flight on "
                          f"{working} phone(s) to end ({stop.stopped_by(exc)} again to leave "
                          "them unrecorded)")
            while working:
                awake(lambda s: finished.acquire(timeout=s))
                working -= 1
            raise

    def record(self, row: ResultRow, folder: Path) -> None:
        """Append the row, then seal the run with it and the attempt's files; a stop signal
        meanwhile is raised once both are written (`stop.recording`)."""
        with stop.recording(), self.lock:
            if self.closed:
                return
            append_result(self.folder.run_dir / RESULTS, row)
            self.sealer.add_result(row)
            self.sealer.add_attempt(folder)
            self.manifest = self.sealer.seal(self.manifest)
            self.summary.rows.append(row)
            self.done += 1
            self.progress(progress_line(self.done, self.total, row))

    def worker(self, device: DeviceHandle) -> None:
        """Run attempts on one phone until none are left or its rig goes down.

        A harness error outside any attempt (the bridge cannot bind) stops this phone with the
        reason and a traceback file; it never vanishes. The run folder refusing a write there
        (a row of results.jsonl, the seal's run.json, an attempt set aside: `folder_error`)
        is no bug: it is said as an attempt's is (`unwritten.said`), with what was kept.
        """
        try:
            self._work(device)
        except Exception as exc:  # noqa: BLE001 - on a thread nobody else would see it
            refused = folder_error(exc, self.folder.run_dir)
            if refused is not None:  # every row before it is whole (`records.append_whole`)
                with self.lock:  # what was kept, as the folder now holds it (`kept`)
                    rows = bytes(self.sealer.kept.results)
                    self.down.append(f"{device.info.label}: {said(refused)}; "
                                     f"{kept(self.folder.run_dir, rows)}")
                return
            trace = self.folder.run_dir / f"worker-{device.info.label}-traceback.txt"
            write_note(trace, traceback.format_exc())
            with self.lock:
                self.down.append(f"{device.info.label}: harness error ({type(exc).__name__}): "
                                 f"{exc}; see {trace.name}")

    def _work(self, device: DeviceHandle) -> None:
        agent = make_agent(self.agent_spec)  # one agent per phone: adapters may keep state
        label, run_id = device.info.label, self.folder.run_id
        with rig_for(device, self.folder.run_dir.parent, self.trajectory,
                     self.agent_log_bytes) as rig:
            around = around_line(rig, agent, label)
            if around:  # said at the start, kept in run.json, warned of by every report
                self.progress(around)
                with self.lock:
                    self.manifest = self.manifest.model_copy(update={"reached_around": tuple(
                        dict.fromkeys((*self.manifest.reached_around, around)))})
            try:
                preflight(rig, run_id)
                housekeeping, lines = tidy.start_phone(rig, run_id, self.tasks)
            except (RigDown, DeviceError) as exc:
                # the bridge refuses what it cannot log: the folder's fault, not the phone's
                unlogged = rig.bridge.writer.unwritten(run_id)
                with self.lock:
                    self.down.append(f"{label}: {said(unlogged[1]) if unlogged[0] else exc.message}"
                                     " (before any attempt)")
                return
            say = functools.partial(labelled, self.progress, label)
            for line in lines:
                say(line)
            # Between two agents only the harness acts: a read taken in one teardown still
            # holds in the next setup (the rig forgets them around each agent).
            with rig.phone.keeping_reads():
                while (item := self.next_plan()) is not None:
                    task, attempt = item
                    plan = AttemptPlan(run_id, self.folder.run_dir, task, attempt,
                                       device.installed, label, self.sandbox)
                    try:
                        self._keep_earlier_try(plan, self.folder.tried.get((task.id, attempt),
                                                                           0))
                        done = run_attempt(plan, rig, agent, housekeeping.owner)
                    except KeyboardInterrupt as exc:  # one more stop, in its teardown or around
                        self.record(cut_short(plan, agent.name, exc), plan.folder)
                        raise
                    self.record(done.row, plan.folder)
                    if done.interrupted:  # recorded; now stop the run
                        if housekeeping.tidies:
                            say(f"before it stops, the run {housekeeping.tidies} "
                                f"({stop.stopped_by(stop.again())} again to leave them)")
                            tidy_up(say, housekeeping.stop)
                        raise stop.again()
                    if done.rig_down:
                        with self.lock:
                            self.down.append(f"{label}: {done.row.skip_reason or done.row.error}")
                        return
                    tidy_up(say, housekeeping.attempt_done)
                tidy_up(say, housekeeping.finish)

    def _keep_earlier_try(self, plan: AttemptPlan, tries: int) -> None:
        """Move an earlier, skipped try of this attempt aside, so nothing recorded is lost (and
        its sealed files are sealed where they now are)."""
        if tries and plan.folder.exists():
            aside = plan.folder.with_name(f"{plan.attempt}.skipped-{tries}")
            # the move and the seal that has the files where they now are are one step: a
            # stop between them would leave a seal naming files that are no longer there
            with stop.recording(), self.lock:
                plan.folder.rename(aside)
                self.sealer.moved(plan.folder, aside)
                self.manifest = self.sealer.seal(self.manifest)


def labelled(progress: Progress, label: str, line: str) -> None:
    """Say `line` as the phone `label`'s, when there is one."""
    if line:
        progress(f"{label}: {line}")


def rig_for(device: DeviceHandle, runs_dir: Path, trajectory: Trajectory | None = None,
            agent_log_bytes: int = AGENT_LOG_BYTES) -> AbstractContextManager[Rig]:
    """The rig of a phone the run opened: a simulator the harness started sits behind a secret
    path, and a USB phone behind the system's usbmuxd socket, so only the bridge reaches either
    (`Rig.private`); any other (a URL, a usbmuxd reached another way) is not private. With
    `trajectory`, the agent's screens are kept there; each agent's turn may write
    `agent_log_bytes` of the audit log."""
    reach = ""
    if device.url.startswith("http+usbmux://"):  # through the usbmuxd facebook-wda uses here
        reach = usbmux.reachable_usbmuxd(usbmux.wda_usbmuxd(), shared())
    elif device.info.kind != "sim":
        reach = f"a --device URL ({shown_url(device.url)})"
    return open_rig(device.url, runs_dir, "sim" if device.simulated else device.info.kind,
                    not reach, trajectory=trajectory, agent_log_bytes=agent_log_bytes,
                    reach=reach)


def preflight(rig: Rig, run_id: str) -> None:
    """Before any attempt: the phone is unlocked and takes input (logged under the run).

    Raises:
        RigDown: it does not.
    """
    with rig.under_run(run_id, "probe"):
        try:
            rig.phone.require_unlocked()
            rig.seen.unlocked = True
            with rig.phone.keeping_reads():  # the probe's first look reuses this read
                home = rig.phone.page()
                if not home.complete and home.bundle_id in (SPRINGBOARD, ""):
                    # every attempt would be skipped for it: the rig, said before any
                    raise RigDown(f"WDA sends the home screen's page source cut off "
                                  f"({home.problem}): nothing on this phone could be graded",
                                  hint="`phoneshell doctor` checks the chain; restart WDA")
                probe = probe_input(rig.phone, timeout_s=rig.phone.effect_timeout_s)
        except DeviceError as exc:
            raise RigDown(exc.message, hint=exc.hint) from exc
    if not probe.reached:
        raise RigDown(f"{probe.detail} (checked before the run)",
                      hint="`phoneshell doctor` checks the chain; a wedged phone needs a restart")
