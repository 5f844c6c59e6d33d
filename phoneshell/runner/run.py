"""A run: attempts of tasks against one or more phones, recorded in one folder.

Every phone gets its own bridge (all writing the run's one audit.jsonl) and its own worker; the
attempts are shared out as workers free up. A phone whose rig goes down stops its worker, and
its attempt in flight is recorded as skipped; the run stops early only when no phone is left.
After every attempt the run's files are sealed into run.json (`phoneshell.seal`). `--resume`
continues a run whose seal holds, running only attempts not yet scored.
"""

from __future__ import annotations

import fnmatch
import functools
import threading
import traceback
from collections import Counter, deque
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path

from bridge import shared_writer
from phoneshell.agents import make_agent
from phoneshell.agents.command import CommandAgent
from phoneshell.agents.sandbox import Sandbox, choose
from phoneshell.device.input_probe import probe_input
from phoneshell.errors import DeviceError, RunError
from phoneshell.phones.open import DeviceHandle, open_phones
from phoneshell.records import ResultRow, SandboxKind
from phoneshell.runner.attempt import AttemptPlan, run_attempt
from phoneshell.runner.folder import (
    RESULTS,
    RunFolder,
    append_result,
    check_run_id,
    check_task_ids,
    create_folder,
    load_manifest,
    new_run_id,
    read_results,
    resume_folder,
)
from phoneshell.runner.rig import Rig, RigDown, open_rig
from phoneshell.seal import Sealer, load_key, verify_run
from phoneshell.tasks import Task, load_tasks

Progress = Callable[[str], None]


@dataclass(frozen=True)
class RunOptions:
    """What `phoneshell run` was asked to do."""

    paths: tuple[str, ...] = ("environments",)
    agent: str = "solution"
    device: str | None = None
    """`sim`, `sim:N`, a WDA URL, a udid or `all`; None: one in-process simulated iPhone."""
    task_globs: tuple[str, ...] = ()
    runs_dir: Path = Path("runs")
    run_id: str | None = None
    repeat: int = 1
    resume: bool = False
    """Continue the run `run_id` (its agent, tasks and repeat count come from its run.json)."""
    sandbox: str = "auto"
    """How `command:` agents are confined: auto, bwrap, sandbox-exec or none."""


@dataclass
class RunSummary:
    """What a run did, for the closing lines and `--format json`."""

    run_id: str
    run_dir: Path
    rows: list[ResultRow] = field(default_factory=list)
    stopped: str = ""
    """Why the run stopped early ("" when it ran every attempt)."""
    already_scored: int = 0
    """Attempts a resumed run found scored and did not run again."""
    all_passed: bool = False
    """Every planned attempt of the run (not just this invocation's) is recorded and passed."""

    def counts(self) -> Counter[str]:
        """Attempts by outcome (this invocation's)."""
        return Counter(row.outcome for row in self.rows)


def select_tasks(tasks: Sequence[Task], globs: Sequence[str]) -> list[Task]:
    """Tasks whose id matches any glob (all tasks when there are none)."""
    if not globs:
        return list(tasks)
    chosen = [t for t in tasks if any(fnmatch.fnmatchcase(t.id, g) for g in globs)]
    if not chosen:
        raise RunError(f"no task id matches {' or '.join(globs)}",
                       hint="`phoneshell check-tasks PATHS` lists the tasks")
    return chosen


class _Run:
    """Shared state of a run's workers: the queue of attempts, the results file, the seal."""

    def __init__(self, folder: RunFolder, plans: list[tuple[Task, int]], agent_spec: str,
                 progress: Progress, summary: RunSummary, sandbox: Sandbox,
                 sealer: Sealer) -> None:
        self.folder, self.agent_spec, self.progress, self.summary = (
            folder, agent_spec, progress, summary)
        self.sandbox, self.sealer = sandbox, sealer
        self.manifest = folder.manifest
        self.queue: deque[tuple[Task, int]] = deque(plans)
        self.total = len(plans)
        self.done = 0
        self.down: list[str] = []
        self.lock = threading.Lock()

    def next_plan(self) -> tuple[Task, int] | None:
        with self.lock:
            return self.queue.popleft() if self.queue else None

    def record(self, row: ResultRow, folder: Path) -> None:
        """Append the row, then seal the run with it and the attempt's files."""
        with self.lock:
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
            trace.write_text(traceback.format_exc())
            with self.lock:
                self.down.append(f"{device.info.label}: harness error ({type(exc).__name__}): "
                                 f"{exc}; see {trace.name}")

    def _work(self, device: DeviceHandle) -> None:
        agent = make_agent(self.agent_spec)  # one agent per phone: adapters may keep state
        with rig_for(device, self.folder.run_dir.parent) as rig:
            try:
                preflight(rig, self.folder.run_id)
            except RigDown as exc:
                with self.lock:
                    self.down.append(f"{device.info.label}: {exc.message} (before any "
                                     "attempt)")
                return
            while (item := self.next_plan()) is not None:
                task, attempt = item
                plan = AttemptPlan(self.folder.run_id, self.folder.run_dir, task, attempt,
                                   device.installed, device.info.label, self.sandbox)
                self._keep_earlier_try(plan, self.folder.tried.get((task.id, attempt), 0))
                done = run_attempt(plan, rig, agent)
                self.record(done.row, plan.folder)
                if done.rig_down:
                    with self.lock:
                        self.down.append(f"{device.info.label}: "
                                         f"{done.row.skip_reason or done.row.error}")
                    return


    def _keep_earlier_try(self, plan: AttemptPlan, tries: int) -> None:
        """Move an earlier, skipped try of this attempt aside, so nothing recorded is lost (and
        its sealed files are sealed where they now are)."""
        if tries and plan.folder.exists():
            aside = plan.folder.with_name(f"{plan.attempt}.skipped-{tries}")
            with self.lock:
                plan.folder.rename(aside)
                self.sealer.moved(plan.folder, aside)
                self.manifest = self.sealer.seal(self.manifest)


def rig_for(device: DeviceHandle, runs_dir: Path) -> AbstractContextManager[Rig]:
    """The rig of a phone the run opened: a simulator the harness started sits behind a secret
    path, and a USB phone behind usbmuxd, so only the bridge reaches either."""
    private = device.info.kind == "sim" or device.url.startswith("http+usbmux://")
    return open_rig(device.url, runs_dir, "sim" if device.simulated else device.info.kind,
                    private)


def preflight(rig: Rig, run_id: str) -> None:
    """Before any attempt: the phone is unlocked and takes input (logged under the run).

    Raises:
        RigDown: it does not.
    """
    rig.enter(run_id, "", 0, "probe")
    try:
        rig.phone.require_unlocked()
        probe = probe_input(rig.phone, timeout_s=rig.phone.effect_timeout_s)
    except DeviceError as exc:
        raise RigDown(exc.message, hint=exc.hint) from exc
    finally:
        rig.bridge.clear_context()
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




def run_suite(options: RunOptions, progress: Progress) -> RunSummary:
    """Run every selected task `repeat` times; record each attempt as it ends."""
    agent_spec, paths, globs, repeat = options.agent, options.paths, options.task_globs, \
        options.repeat
    if options.resume:
        if not options.run_id:
            raise RunError("--resume needs the run id", hint="phoneshell run --resume RUN_ID")
        recorded = load_manifest(options.runs_dir, options.run_id)
        agent_spec, paths, globs, repeat = (recorded.agent, recorded.paths,
                                            recorded.task_globs, recorded.repeat)
    tasks = select_tasks(load_tasks(paths).tasks, globs)
    if options.resume:
        problems = verify_run(options.runs_dir / recorded.run_id)
        if problems and recorded.seal is not None:
            raise RunError(f"run {options.run_id} does not match its seal, so it cannot be "
                           "continued: " + "; ".join(problems[:3]),
                           hint="start a new run; `phoneshell report` says what changed")
    if options.resume:  # the run's tasks only: one added to the folder since was never planned
        planned = {ref.id for ref in recorded.tasks}
        added = [t.id for t in tasks if t.id not in planned]
        if added:
            progress(f"not part of run {options.run_id}, left out: {', '.join(added)}")
        tasks = [t for t in tasks if t.id in planned]
    check_task_ids(tasks)
    sandbox, kind, why = sandbox_for(agent_spec, options.sandbox)  # also: an unknown agent
    run_id = check_run_id(options.run_id or new_run_id())
    key = load_key(create=True)
    if unconfined_line(kind, why):
        progress(unconfined_line(kind, why))
    with open_phones(options.device, run_id) as (devices, note):
        progress(note)
        infos = [d.info for d in devices]
        folder = (resume_folder(options.runs_dir, recorded, tasks, infos, kind, why)
                  if options.resume else
                  create_folder(options.runs_dir, run_id, agent_spec, paths, globs, repeat,
                                tasks, infos, kind, why))
        writer = shared_writer(options.runs_dir)
        chain = functools.partial(writer.chain_state, folder.run_id)  # the bridge's view
        sealer = (Sealer.resume(folder.run_dir, key, chain, folder.manifest) if options.resume
                  else Sealer(folder.run_dir, key, chain))
        plans = [(t, n) for t in tasks for n in range(1, repeat + 1)
                 if (t.id, n) not in folder.scored]
        summary = RunSummary(folder.run_id, folder.run_dir,
                             already_scored=len(tasks) * repeat - len(plans))
        run = _Run(folder, plans, agent_spec, progress, summary, sandbox, sealer)
        run.manifest = sealer.seal(run.manifest)  # a run cut short at once is verifiable too
        if len(devices) == 1:
            run.worker(devices[0])
        else:
            workers = [threading.Thread(target=run.worker, args=(d,), name=d.info.label)
                       for d in devices]
            for thread in workers:
                thread.start()
            for thread in workers:
                thread.join()
        if run.queue or (run.down and len(run.down) == len(devices)):
            summary.stopped = "; ".join(run.down) or "stopped"
            if not summary.rows:
                raise RunError(f"run {folder.run_id} did not start: {summary.stopped}",
                               hint="`phoneshell doctor --device ...` checks the chain; then "
                                    f"`phoneshell run --resume {folder.run_id}`")
    final = latest_rows(read_results(folder.run_dir / RESULTS))
    summary.all_passed = len(final) == len(tasks) * repeat and all(
        row.passed for row in final.values())
    return summary


def latest_rows(rows: Sequence[ResultRow]) -> dict[tuple[str, int], ResultRow]:
    """The row that counts for each (task, attempt): the last one (only skipped rows are ever
    followed by another, when `--resume` ran the attempt again)."""
    return {(row.task_id, row.attempt): row for row in rows}


def progress_line(index: int, total: int, row: ResultRow) -> str:
    """`[ 3/80] settings.about.reach  passed  1.2s`, then why, for a failure or a skip."""
    width = len(str(total))
    line = (f"[{index:>{width}}/{total}] {row.task_id:<34} {row.outcome:<7} "
            f"{row.seconds:5.1f}s")
    if row.device and row.device not in ("sim-1", "phone-1"):
        line += f"  on {row.device}"
    if row.skipped:
        line += f"\n        not scored: {row.skip_reason}"
    elif not row.passed:
        reasons = [f"{r.label}: {r.detail}" for r in row.checks if not r.passed]
        if row.timed_out or row.out_of_turns:
            reasons.insert(0, "ran out of time" if row.timed_out else "ran out of turns")
        elif not reasons and row.error:  # failed whatever its checks say (custody, a sabotage)
            reasons.append(row.error)
        line += "".join(f"\n        {reason}" for reason in reasons)
    if not row.teardown.ok:
        line += f"\n        teardown failed: {row.teardown.error}"
    return line


def summary_lines(summary: RunSummary) -> list[str]:
    """The closing lines: counts, skip reasons, where the files are."""
    counts = summary.counts()
    scored = counts["passed"] + counts["failed"]
    rate = f" ({counts['passed'] / scored:.0%} of scored)" if scored else ""
    lines = [f"{len(summary.rows)} attempt(s): {counts['passed']} passed, {counts['failed']} "
             f"failed, {counts['skipped']} skipped{rate}"]
    if summary.already_scored:
        lines.append(f"  {summary.already_scored} attempt(s) were already scored and not run "
                     "again")
    reasons = Counter(row.skip_reason.split(":")[0] for row in summary.rows if row.skipped)
    lines += [f"  skipped ({n}): {reason}" for reason, n in reasons.most_common()]
    if summary.stopped:
        lines.append(f"the run stopped early: {summary.stopped}")
    lines.append(f"results: {summary.run_dir / RESULTS}")
    return lines
