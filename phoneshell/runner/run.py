"""A run: attempts of tasks against one or more phones, recorded in one folder.

Every phone gets its own bridge (all writing the run's one audit.jsonl) and its own worker; the
attempts are shared out as workers free up. A phone whose rig goes down stops its worker, and
its attempt in flight is recorded as skipped; the run stops early only when no phone is left.
`--resume` continues a run, running only attempts not yet scored.
"""

from __future__ import annotations

import fnmatch
import threading
import traceback
from collections import Counter, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bridge import BridgeServer
from phoneshell.agents import make_agent
from phoneshell.device import Phone
from phoneshell.errors import RunError
from phoneshell.frames import DEFAULT_LONG_EDGE
from phoneshell.phones.open import DeviceHandle, open_phones
from phoneshell.records import ResultRow
from phoneshell.runner.attempt import AttemptPlan, Rig, RigDown, require_rig, run_attempt
from phoneshell.runner.folder import (
    RESULTS,
    RunFolder,
    append_result,
    create_folder,
    load_manifest,
    new_run_id,
    read_results,
    resume_folder,
)
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
    trajectory: bool = False
    """Capture a screenshot at the start of each agent turn and after each agent action, for
    judges (docs/judges.md). Off by default: it costs a WDA screenshot per action, about a
    quarter of a second on the simulated iPhone (which renders a full-size PNG) and more on a
    real phone."""


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
    """Shared state of a run's workers: the queue of attempts and the results file."""

    def __init__(self, folder: RunFolder, plans: list[tuple[Task, int]], agent_spec: str,
                 progress: Progress, summary: RunSummary, trajectory: bool = False) -> None:
        self.folder, self.agent_spec, self.progress, self.summary = (
            folder, agent_spec, progress, summary)
        self.trajectory = trajectory
        self.queue: deque[tuple[Task, int]] = deque(plans)
        self.total = len(plans)
        self.done = 0
        self.down: list[str] = []
        self.lock = threading.Lock()

    def next_plan(self) -> tuple[Task, int] | None:
        with self.lock:
            return self.queue.popleft() if self.queue else None

    def record(self, row: ResultRow) -> None:
        with self.lock:
            append_result(self.folder.run_dir / RESULTS, row)
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
        with BridgeServer(device.url, runs_dir=self.folder.run_dir.parent,
                          trajectory_px=DEFAULT_LONG_EDGE if self.trajectory else 0) as bridge:
            rig = make_rig(bridge, device)
            bridge.set_context(self.folder.run_id, "", 0, "probe")  # the preflight's actions
            try:
                require_rig(rig)
            except RigDown as exc:
                with self.lock:
                    self.down.append(f"{device.info.label}: {exc.message} (before any "
                                     "attempt)")
                return
            finally:
                bridge.clear_context()
            while (item := self.next_plan()) is not None:
                task, attempt = item
                plan = AttemptPlan(self.folder.run_id, self.folder.run_dir, task, attempt,
                                   device.installed, device.info.label)
                _keep_earlier_try(plan, self.folder.tried.get((task.id, attempt), 0))
                done = run_attempt(plan, rig, agent)
                self.record(done.row)
                if done.rig_down:
                    with self.lock:
                        self.down.append(f"{device.info.label}: {done.row.skip_reason}")
                    return


def make_rig(bridge: BridgeServer, device: DeviceHandle) -> Rig:
    """The harness's view of a phone behind its bridge."""
    # The simulator acts at once; a real phone animates, so give effects time to show.
    effect_s = 1.0 if device.info.kind == "sim" else 5.0
    return Rig(bridge, Phone(bridge.url, effect_timeout_s=effect_s))


def _keep_earlier_try(plan: AttemptPlan, tries: int) -> None:
    """Move an earlier, skipped try of this attempt aside, so nothing recorded is lost."""
    if tries and plan.folder.exists():
        plan.folder.rename(plan.folder.with_name(f"{plan.attempt}.skipped-{tries}"))


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
    if options.resume:  # the run's tasks only: one added to the folder since was never planned
        planned = {ref.id for ref in recorded.tasks}
        added = [t.id for t in tasks if t.id not in planned]
        if added:
            progress(f"not part of run {options.run_id}, left out: {', '.join(added)}")
        tasks = [t for t in tasks if t.id in planned]
    make_agent(agent_spec)  # an unknown agent fails before any phone is touched
    run_id = options.run_id or new_run_id()
    with open_phones(options.device, run_id) as (devices, note):
        progress(note)
        infos = [d.info for d in devices]
        folder = (resume_folder(options.runs_dir, recorded, tasks, infos) if options.resume
                  else create_folder(options.runs_dir, run_id, agent_spec, paths, globs,
                                     repeat, tasks, infos))
        plans = [(t, n) for t in tasks for n in range(1, repeat + 1)
                 if (t.id, n) not in folder.scored]
        summary = RunSummary(folder.run_id, folder.run_dir,
                             already_scored=len(tasks) * repeat - len(plans))
        run = _Run(folder, plans, agent_spec, progress, summary, options.trajectory)
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
