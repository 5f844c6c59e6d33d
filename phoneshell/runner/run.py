"""A run: attempts of tasks against one or more phones, recorded in one folder.

Every phone gets its own bridge (all writing the run's one audit.jsonl) and its own worker; the
attempts are shared out as workers free up. A phone whose rig goes down stops its worker, and
its attempt in flight is recorded as skipped; the run stops early only when no phone is left.
After every attempt the run's files are sealed into run.json (`phoneshell.seal`). `--resume`
continues a run whose seal holds, running only attempts not yet scored (`runner.resume`). One
process writes a run folder: it is locked before anything in it is written or moved
(`folder.writing`), and a second writer is refused.

A task file with an error is left out, named with its file:line, and the other tasks run: one
broken file must not cost a night's run. Ctrl-C, SIGTERM and SIGHUP (`runner.stop`) record the
attempt in flight as skipped (its teardown still runs), keep every row written, and say how to
resume; one more during that tidy-up cuts the teardown short but still records the attempt.
"""

from __future__ import annotations

import functools
import threading
import traceback
from collections import deque
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, ExitStack
from dataclasses import replace
from pathlib import Path

from bridge import Trajectory, shared_writer
from bridge.shares import AGENT_LOG_BYTES
from phoneshell.agents import make_agent
from phoneshell.agents.command import CommandAgent
from phoneshell.agents.sandbox import Sandbox, shared
from phoneshell.agents.sandbox_choice import choose
from phoneshell.device.input_probe import probe_input
from phoneshell.errors import DeviceError, RunError, shown_url
from phoneshell.phones import usbmux
from phoneshell.phones.open import DeviceHandle, open_phones
from phoneshell.records import (
    TRAJECTORY_FILE,
    ResultRow,
    RunManifest,
    SandboxKind,
)
from phoneshell.runner import stop, tidy
from phoneshell.runner.around import around_line
from phoneshell.runner.aside import set_aside
from phoneshell.runner.attempt import run_attempt
from phoneshell.runner.cut import cut_short, tidy_up
from phoneshell.runner.folder import (
    RESULTS,
    RunFolder,
    append_result,
    check_resume,
    check_run_id,
    check_task_ids,
    create_folder,
    load_manifest,
    new_run_id,
    planned_attempts,
    resume_folder,
    write_note,
    writing,
)
from phoneshell.runner.lines import progress_line, resume_command
from phoneshell.runner.plan import AttemptPlan
from phoneshell.runner.resume import agent_setup, planned_tasks, refuse_changed_setup
from phoneshell.runner.rig import Rig, RigDown, open_rig
from phoneshell.runner.selection import load_runnable, select_tasks
from phoneshell.runner.session import RunOptions, RunSummary
from phoneshell.runner.stop import stopped_line
from phoneshell.seal import Sealer, load_key, refuse_stale
from phoneshell.tasks import Task
from phoneshell.untrusted import visible
from phoneshell.xcui import SPRINGBOARD

Progress = Callable[[str], None]

__all__ = ["Progress", "RunInterrupted", "RunOptions", "RunSummary", "captures_frames",
           "labelled", "preflight", "rig_for", "run_suite", "sandbox_for", "unconfined_line"]


class RunInterrupted(RunError):
    """Ctrl-C (or SIGTERM, SIGHUP) stopped the run; what was recorded stays, and the hint says
    how to go on."""


class _Run:
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
        # CPython (before 3.13) taking that thread for ended while it still runs.
        working = len(devices)
        try:
            while working:
                finished.acquire()
                working -= 1
        except KeyboardInterrupt:
            self.stop_handing_out()
            self.progress(f"interrupted: waiting for the attempts in flight on {working} "
                          "phone(s) to end (Ctrl-C again to leave them unrecorded)")
            while working:
                finished.acquire()
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

        A harness error outside any attempt (the bridge cannot bind, the results file cannot be
        written) stops this phone with the reason and a traceback file; it never vanishes.
        """
        try:
            self._work(device)
        except Exception as exc:  # noqa: BLE001 - on a thread nobody else would see it
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
                with self.lock:
                    self.down.append(f"{label}: {exc.message} (before any attempt)")
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
                            say(f"before it stops, the run {housekeeping.tidies} (Ctrl-C "
                                "again to leave them)")
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


def captures_frames(options: RunOptions, recorded: RunManifest | None) -> bool:
    """Whether the run keeps the agent's screens: asked for, or a resumed run that did (its
    seal then goes on vouching for trajectory.jsonl)."""
    sealed = recorded.seal.logs if recorded is not None and recorded.seal is not None else ()
    return options.trajectory or any(log.path == TRAJECTORY_FILE for log in sealed)


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


def sandbox_for(agent_spec: str, choice: str) -> tuple[Sandbox, SandboxKind, str]:
    """The sandbox for the run's agent, and what run.json records: in-process for an agent
    that is harness code (it has no shell to reach anything with).

    Raises:
        RunError: a sandbox asked for by name that this machine cannot give.
    """
    sandbox = choose(choice)
    if not isinstance(make_agent(agent_spec), CommandAgent):
        return sandbox, "in-process", ""
    return sandbox, sandbox.kind, sandbox.note


def unconfined_line(kind: SandboxKind, note: str) -> str:
    """What a run says at start, and reports say of it, when agents ran unconfined."""
    return (f"agents run UNCONFINED ({note}): the agent can reach the run folder and the "
            f"phone around the bridge; this run's results are not tamper-proof"
            if kind in ("none", "unavailable") else "")


def _shown(progress: Progress) -> Progress:
    """`progress` given each line escaped for a terminal (once: escaping is idempotent)."""
    return lambda line: progress(visible(line))


def run_suite(options: RunOptions, progress: Progress) -> RunSummary:
    """Run every selected task `repeat` times; record each attempt as it ends. Each line given
    to `progress` is as a terminal may show it (`untrusted.visible`): it names what agents
    chose (bundle ids, errors, their programs' stderr). The run folder is locked to this
    process (`folder.writing`) from before anything in it is written or moved until the run
    ends: a second writer is refused, naming this one."""
    progress = _shown(progress)
    held = ExitStack()
    try:
        recorded = None
        if options.resume:
            if not options.run_id:
                raise RunError("--resume needs the run id", hint="phoneshell run --resume RUN_ID")
            recorded = load_manifest(options.runs_dir, options.run_id)
            held.enter_context(writing(options.runs_dir / recorded.run_id, recorded.run_id))
        return _run(options, recorded, held, progress)
    finally:
        held.close()


def _run(options: RunOptions, recorded: RunManifest | None, held: ExitStack,
         progress: Progress) -> RunSummary:
    """`run_suite` once the folder of a run to resume is locked (a new one is locked when it
    is made, into `held`)."""
    agent_spec, paths, globs, repeat = options.agent, options.paths, options.task_globs, \
        options.repeat
    if recorded is not None:  # its agent, tasks and repeat count are the run's
        agent_spec, paths, globs, repeat = (recorded.agent, recorded.paths,
                                            recorded.task_globs, recorded.repeat)
    loaded, left_out = load_runnable(paths, progress)
    tasks = select_tasks(loaded, globs)
    setup = agent_setup(agent_spec)
    key = load_key(create=True)
    if recorded is not None:  # every check that can refuse comes before anything is moved
        run_dir = options.runs_dir / recorded.run_id
        # first: a folder put back says so, whatever else; the one check of it a resume makes
        # (its proof is handed to the set-aside and the sealer)
        checked = refuse_stale(run_dir, recorded, key)
        tasks = planned_tasks(recorded, tasks, left_out, run_dir, progress)
        refuse_changed_setup(recorded, setup)
    check_task_ids(tasks)
    sandbox, kind, why = sandbox_for(agent_spec, options.sandbox)  # also: an unknown agent
    sandbox = sandbox.hiding(paths, runs_dir=options.runs_dir)  # and the harness's secrets
    if agent_spec.startswith("command:"):
        sandbox.refuse_named_secrets(agent_spec.removeprefix("command:"), Path.cwd())
    run_id = check_run_id(options.run_id or new_run_id())
    if unconfined_line(kind, why):
        progress(unconfined_line(kind, why))
    for line in setup:
        progress(f"agent setup (recorded in run.json): {line}")
    # a resume starts the simulated phones the run began on: their seeds are recorded
    seeds = [d.seed for d in recorded.devices if d.kind == "sim"] if recorded else []
    with open_phones(options.device, run_id, options.latency, seeds) as (devices, note):
        progress(note)
        infos = [d.info for d in devices]
        writer = shared_writer(options.runs_dir)
        chain = functools.partial(writer.chain_state, run_id)  # the bridge's view
        trajectory = (Trajectory(options.runs_dir)
                      if captures_frames(options, recorded) else None)
        frames = functools.partial(trajectory.chain_state, run_id) if trajectory else None
        # run.json is written signed, in one step with what it records: a stop in between
        # would leave a run.json no seal matches (a resume's), or one no seal vouches for in
        # a folder that held another run (a new run's)
        if recorded is not None:
            check_resume(recorded, tasks, infos)
            checked = set_aside(run_dir, recorded, key, progress, checked)  # moved, recorded
            recorded = checked.manifest
            folder = resume_folder(options.runs_dir, recorded, tasks, infos, kind, why)
            sealer = Sealer.resume(folder.run_dir, key, chain, recorded, frames, checked)
        else:
            held.enter_context(writing(options.runs_dir / run_id, run_id))
            with stop.recording():
                folder = create_folder(options.runs_dir, run_id, agent_spec, paths, globs,
                                       repeat, tasks, infos, kind, why, left_out, setup)
                sealer = Sealer(folder.run_dir, key, chain, frames_chain=frames)
                folder = replace(folder, manifest=sealer.seal(folder.manifest))
        sealer.say = progress  # a record an unconfined agent changed is said as it is found
        plans = [(t, n) for t in tasks for n in range(1, repeat + 1)
                 if (t.id, n) not in folder.scored]
        record = planned_attempts(folder.manifest)  # the plan is run.json's (check_plan)
        summary = RunSummary(folder.run_id, folder.run_dir, left_out=folder.manifest.left_out,
                             already_scored=sum(key in folder.scored for key in record),
                             planned=len(plans))
        run = _Run(folder, plans, agent_spec, progress, summary, sandbox, sealer, trajectory,
                   options.agent_log_bytes)
        _go(run, devices, options.runs_dir)
    from phoneshell.report.runs import record_of  # here: see TYPE_CHECKING above
    from phoneshell.report.tally import agent_numbers

    summary.record = record_of(folder.run_dir)
    summary.numbers = agent_numbers(summary.record)
    return summary


def _go(run: _Run, devices: Sequence[DeviceHandle], runs_dir: Path) -> None:
    """Play the run's attempts, sealed before the first and after the last; a stop (Ctrl-C,
    SIGTERM, SIGHUP) is said with the command that goes on.

    Raises:
        RunInterrupted: it was stopped.
        RunError: no phone ran an attempt.
    """
    summary, folder = run.summary, run.folder
    stopped: KeyboardInterrupt | None = None
    try:
        with stop.recording():
            run.manifest = run.sealer.seal(run.manifest)  # a run cut short at once verifies
        run.go(devices)
    except KeyboardInterrupt as exc:
        stopped = exc
    finally:
        # what the phones logged after the last attempt (a preflight, with nothing left to
        # run or a rig down before any attempt) is sealed too, or the run would not verify;
        # a worker still in flight (a second Ctrl-C) records nothing after it
        try:
            with stop.recording(), run.lock:
                run.manifest = run.sealer.seal(run.manifest)
                run.closed = True
        except KeyboardInterrupt as exc:  # came during the seal, which is whole
            stopped = stopped or exc
    if stopped is not None:
        raise RunInterrupted(
            f"{stopped_line(stopped)}: run {folder.run_id} stopped after {run.done} of "
            f"{run.total} attempt(s); every one recorded is kept in {folder.run_dir}",
            hint=f"continue it: {resume_command(runs_dir, folder.run_id)}")
    if run.queue or (run.down and len(run.down) == len(devices)):
        summary.stopped = "; ".join(run.down) or "stopped"
        if not summary.rows:
            raise RunError(f"run {folder.run_id} did not start: {summary.stopped}",
                           hint="`phoneshell doctor --device ...` checks the chain; then "
                                f"`{resume_command(runs_dir, folder.run_id)}`")
