"""A run: attempts of tasks against one or more phones, recorded in one folder.

Every phone gets its own bridge (all writing the run's one audit.jsonl) and its own worker; the
attempts are shared out as workers free up. A phone whose rig goes down stops its worker, and
its attempt in flight is recorded as skipped; the run stops early only when no phone is left.
`--resume` continues a run, running only attempts not yet scored.

A task file with an error is left out, named with its file:line, and the other tasks run: one
broken file must not cost a night's run. Ctrl-C records the attempt in flight as skipped (its
teardown still runs), keeps every row written, and says how to resume.
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
from phoneshell.errors import Problem, RunError, TaskFileError
from phoneshell.phones.open import DeviceHandle, open_phones
from phoneshell.records import ResultRow
from phoneshell.registry import close_matches
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
from phoneshell.tasks import Task, check_tasks, default_task_paths

Progress = Callable[[str], None]


@dataclass(frozen=True)
class RunOptions:
    """What `phoneshell run` was asked to do."""

    paths: tuple[str, ...] = field(default_factory=lambda: tuple(default_task_paths()))
    agent: str = "solution"
    device: str | None = None
    """`sim`, `sim:N`, a WDA URL, a udid or `all`; None: one in-process simulated iPhone."""
    task_globs: tuple[str, ...] = ()
    runs_dir: Path = Path("runs")
    run_id: str | None = None
    repeat: int = 1
    resume: bool = False
    """Continue the run `run_id` (its agent, tasks and repeat count come from its run.json)."""


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
    left_out: tuple[str, ...] = ()
    """Task files (or paths) left out because of errors, each printed with its file:line."""

    def counts(self) -> Counter[str]:
        """Attempts by outcome (this invocation's)."""
        return Counter(row.outcome for row in self.rows)


class RunInterrupted(RunError):
    """Ctrl-C stopped the run; what was recorded stays, and the hint says how to go on."""


LIST_HINT = "`phoneshell check-tasks --list PATHS` lists every task id"


def select_tasks(tasks: Sequence[Task], globs: Sequence[str]) -> list[Task]:
    """Tasks whose id matches any glob (all tasks when there are none).

    Raises:
        RunError: a glob matches no task (a typo would silently drop tasks), with the closest
            ids.
    """
    if not globs:
        return list(tasks)
    ids = [t.id for t in tasks]
    for glob in globs:
        if not any(fnmatch.fnmatchcase(i, glob) for i in ids):
            close = close_matches(glob, ids)
            guess = f"; did you mean {close[0]!r}?" if close else ""
            raise RunError(f"no task id matches {glob!r}{guess}", hint=LIST_HINT)
    return [t for t in tasks if any(fnmatch.fnmatchcase(t.id, g) for g in globs)]


def load_runnable(paths: Sequence[str], progress: Progress) -> tuple[list[Task], tuple[str, ...]]:
    """The tasks that load, and the files left out: each error is printed with its file:line.

    Raises:
        TaskFileError: no task loads at all.
    """
    tasks, problems = check_tasks(paths)
    errors = [p for p in problems if p.severity == "error"]
    if not tasks:
        raise TaskFileError(problems or [Problem(", ".join(paths), 0, 0, "no task files")])
    for problem in errors:
        progress(str(problem))
    left_out = tuple(dict.fromkeys(p.file for p in errors))
    if left_out:
        progress(f"left out {len(left_out)} task file(s) with errors; running the other "
                 f"{len(tasks)} task(s)")
    return tasks, left_out


class _Run:
    """Shared state of a run's workers: the queue of attempts and the results file."""

    def __init__(self, folder: RunFolder, plans: list[tuple[Task, int]], agent_spec: str,
                 progress: Progress, summary: RunSummary) -> None:
        self.folder, self.agent_spec, self.progress, self.summary = (
            folder, agent_spec, progress, summary)
        self.queue: deque[tuple[Task, int]] = deque(plans)
        self.total = len(plans)
        self.done = 0
        self.down: list[str] = []
        self.lock = threading.Lock()

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
        with BridgeServer(device.url, runs_dir=self.folder.run_dir.parent) as bridge:
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
                if done.interrupted:
                    raise KeyboardInterrupt  # recorded as skipped; now stop the run
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
    loaded, left_out = load_runnable(paths, progress)
    tasks = select_tasks(loaded, globs)
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
                             already_scored=len(tasks) * repeat - len(plans), left_out=left_out)
        run = _Run(folder, plans, agent_spec, progress, summary)
        try:
            run.go(devices)
        except KeyboardInterrupt:
            raise RunInterrupted(
                f"interrupted: run {folder.run_id} stopped after {len(summary.rows)} of "
                f"{len(plans)} attempt(s); every one recorded is kept in {folder.run_dir}",
                hint=f"continue it: {resume_command(options.runs_dir, folder.run_id)}") from None
        if run.queue or (run.down and len(run.down) == len(devices)):
            summary.stopped = "; ".join(run.down) or "stopped"
            if not summary.rows:
                raise RunError(f"run {folder.run_id} did not start: {summary.stopped}",
                               hint="`phoneshell doctor --device ...` checks the chain; then "
                                    f"`{resume_command(options.runs_dir, folder.run_id)}`")
    final = latest_rows(read_results(folder.run_dir / RESULTS))
    summary.all_passed = len(final) == len(tasks) * repeat and all(
        row.passed for row in final.values())
    return summary


def resume_command(runs_dir: Path, run_id: str) -> str:
    """The command that continues a run (naming --runs when it is not the default)."""
    runs = "" if runs_dir == Path("runs") else f" --runs {runs_dir}"
    return f"phoneshell run --resume {run_id}{runs}"


def report_command(run_dir: Path) -> str:
    """The command that reads a run's results."""
    return f"phoneshell report {run_dir}"


def latest_rows(rows: Sequence[ResultRow]) -> dict[tuple[str, int], ResultRow]:
    """The row that counts for each (task, attempt): the last one (only skipped rows are ever
    followed by another, when `--resume` ran the attempt again)."""
    return {(row.task_id, row.attempt): row for row in rows}


INDENT = " " * 8


def progress_line(index: int, total: int, row: ResultRow) -> str:
    """`[ 3/80] settings.about.reach  passed  1.2s`, then why, for a failure or a skip: the
    failed checks, and what the agent's program said when it crashed (its stderr's end)."""
    width = len(str(total))
    line = (f"[{index:>{width}}/{total}] {row.task_id:<34} {row.outcome:<7} "
            f"{row.seconds:5.1f}s")
    if row.device and row.device not in ("sim-1", "phone-1"):
        line += f"  on {row.device}"
    reasons = []
    if row.skipped:
        reasons.append(f"not scored: {row.skip_reason}")
    elif not row.passed:
        reasons += [f"{r.label}: {r.detail}" for r in row.checks if not r.passed]
        if row.timed_out or row.out_of_turns:
            reasons.insert(0, "ran out of time" if row.timed_out else "ran out of turns")
        if row.error:
            reasons.append(f"agent: {row.error}")
    if not row.teardown.ok:
        reasons.append(f"teardown failed: {row.teardown.error}")
    # a reason may span lines (a traceback's end): keep each under the attempt it belongs to
    return line + "".join(f"\n{INDENT}{part}" for reason in reasons
                          for part in reason.splitlines())


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
    if summary.left_out:
        lines.append(f"left out {len(summary.left_out)} task file(s) with errors (listed above): "
                     f"{', '.join(summary.left_out)}")
    if summary.stopped:
        lines.append(f"the run stopped early: {summary.stopped}")
    lines.append(f"results: {summary.run_dir / RESULTS}")
    lines.append(f"read them: {report_command(summary.run_dir)}  (add --html report.html for "
                 "screenshots and timelines)")
    return lines
