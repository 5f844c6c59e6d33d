"""Replaying finishes on phones and grading them: the machinery the swap test and the attack
share.

A `Swapper` plays one task's finish on one phone behind its bridge (through the runner, like any
attempt) and grades the evidence as other tasks, capturing once what they all need; a second
play takes probe counts only for the tasks whose other checks held. `open_swappers` opens one
per phone of `--device` in one run folder, and `share_out` runs jobs on whichever phone is free.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TypeVar

from bridge import Trajectory
from phoneshell.agents import Agent, make_agent
from phoneshell.agents.replay import ReplayAgent
from phoneshell.checks import Check, needs_of
from phoneshell.checks.kind import signature
from phoneshell.evidence import Evidence
from phoneshell.phones.open import open_phones
from phoneshell.runner import stop, tidy
from phoneshell.runner.attempt import run_attempt
from phoneshell.runner.folder import new_run_id
from phoneshell.runner.plan import AttemptPlan
from phoneshell.runner.rig import Rig
from phoneshell.runner.run import Progress, labelled, rig_for
from phoneshell.runner.stop import stopped_by
from phoneshell.seal import require_verified, verify_run
from phoneshell.tasks import Task

R = TypeVar("R")
Judge = Callable[[Task, "Evidence | None", str, str], R]
"""Grades one piece of evidence as a task: (task, evidence or None, its folder, why missing)."""

__all__ = ["Judge", "Swapper", "costly", "merged", "open_swappers", "share_out", "stopped"]


class _Attempts:
    """Attempt numbers per task, shared by every phone of a swap run (folders never collide)."""

    def __init__(self) -> None:
        self._next: dict[str, int] = {}
        self._lock = threading.Lock()

    def take(self, task_id: str) -> int:
        with self._lock:
            self._next[task_id] = self._next.get(task_id, 0) + 1
            return self._next[task_id]


class Swapper:
    """Replays finishes on one phone and grades them as other tasks.

    Args:
        rig: the phone behind its bridge.
        run_dir: where the attempts' evidence goes (`attempts/<B>/<n>/`).
        run_id: the id the bridge logs the attempts under.
        replay_from: replay the agent's recorded actions from this run instead of solutions.
        installed: bundle ids installed on the phone, when it can say.
        attempts: attempt numbers shared with the other phones of the run.
    """

    def __init__(self, rig: Rig, run_dir: Path, run_id: str, replay_from: Path | None = None,
                 installed: frozenset[str] | None = None,
                 attempts: _Attempts | None = None) -> None:
        self.rig, self.run_dir, self.run_id = rig, run_dir, run_id
        self.replay_from, self.installed = replay_from, installed
        self._attempts = attempts or _Attempts()
        self.stopped = ""
        """Why the phone stopped being usable ("" while it is): nothing more is played."""
        self.housekeeping = tidy.PhoneTidy(rig, run_id, None)
        """The tabs to close as finishes open them (`open_swappers` counts them)."""
        self.note: Progress = lambda line: None

    @property
    def played(self) -> int:
        """Attempts played on this phone so far."""
        return self.housekeeping.played

    def _agent(self, b: Task) -> Agent:
        if self.replay_from is not None:
            return ReplayAgent(self.replay_from, task_id=b.id)
        return make_agent("solution")

    def play(self, b: Task, extra: Iterable[Check] = (),
             left_by: Task | None = None) -> tuple[Evidence | None, str, str]:
        """Run B's setup and finish, capturing what `extra` checks need too; with `left_by`,
        after an attempt of that task's reference finish (ungraded: its setup, finish and
        teardown, so B starts from what such an attempt leaves on the phone).

        Returns:
            (evidence, its folder relative to the run, why it is missing). An attempt the
            runner skipped (setup failed, a rig fault) has no evidence to grade.
        """
        if left_by is not None:
            self.play(replace(left_by, id=f"{left_by.id}.before", checks=()))
        if self.stopped:
            return None, "", f"not run: {self.stopped}"
        plan = AttemptPlan(self.run_id, self.run_dir, merged(b, extra),
                           self._attempts.take(b.id), self.installed)
        done = run_attempt(plan, self.rig, self._agent(b))
        if done.rig_down or done.interrupted:  # Ctrl-C or SIGTERM: what is left is not run
            self.housekeeping.played += 1
            self.stopped = (done.row.skip_reason if done.rig_down or done.row.skipped else
                            f"interrupted ({stopped_by(stop.again())})")
        else:
            self.note(self.housekeeping.attempt_done())
        if done.evidence is None:
            return None, done.row.evidence, done.row.skip_reason or "no evidence was captured"
        return done.evidence, done.row.evidence, ""

    def graded(self, b: Task, tasks: Sequence[Task], grade_as: Judge[R],
               passed: Callable[[R], bool], left_by: Task | None = None) -> list[R]:
        """B's finish, played with what `tasks` need captured, graded as each of them (each
        play after an attempt of `left_by`, when given: see `play`).

        Pass one replays the finish once with the cheap evidence every task needs (scrolling)
        and grades it on each task's cheap checks; pass two replays it again, with the probes
        they need, for the tasks whose cheap checks all passed. A pass needs both. Rows come in
        the order of `tasks`.
        """
        cheap = [c for t in tasks for c in t.checks if not costly(c)]
        evidence, folder, missing = self.play(b, cheap, left_by)
        rows: dict[str, R] = {}
        pending: list[Task] = []
        for a in tasks:
            light = tuple(c for c in a.checks if not costly(c))
            if len(light) == len(a.checks):
                rows[a.id] = grade_as(a, evidence, folder, missing)
                continue
            first = grade_as(replace(a, checks=light), evidence, folder, missing) if light \
                else None
            if first is None or passed(first):
                pending.append(a)  # its probes decide: replay with them
            else:
                rows[a.id] = first
        if pending:
            evidence, folder, missing = self.play(b, [c for a in pending for c in a.checks],
                                                  left_by)
            rows.update((a.id, grade_as(a, evidence, folder, missing)) for a in pending)
        return [rows[a.id] for a in tasks]


def costly(check: Check) -> bool:
    """Checks whose evidence takes probes (counts before/after, values read off the device)."""
    return any(n.what in ("probe", "read") for n in needs_of((check,)))


def merged(finish: Task, extra: Iterable[Check]) -> Task:
    """B with other tasks' checks added, so its attempt captures what they need too."""
    seen = {signature(c) for c in finish.checks}
    checks = list(finish.checks)
    for check in extra:
        if signature(check) not in seen:
            seen.add(signature(check))
            checks.append(check)
    return replace(finish, checks=tuple(checks))


@contextmanager
def open_swappers(device: str | None, runs_dir: Path, replay_from: Path | None = None,
                  progress: Progress = lambda line: None, kind: str = "swap",
                  unverified: bool = False, trajectory: bool = False,
                  tasks: Sequence[Task] = ()) -> Iterator[list[Swapper]]:
    """A swapper for every phone of `--device` (each behind its own bridge), in one run folder
    named `<kind>-<run id>`; with `trajectory`, the finishes' screens are kept (`--trajectory`).
    Before any finish, each phone's counts of what the tasks start from none of are taken, as a
    run takes them (`runner.counts`); the Safari tabs the finishes open are closed as a run
    closes its own (`runner.tidy`).

    Args:
        tasks: the tasks whose finishes will be played (Safari's tabs are counted when any of
            them uses Safari).
        replay_from: a run whose recorded finishes are replayed; it must match its seal (or,
            with `unverified`, its problems are reported through `progress`).

    Raises:
        RunError: a bad device spec, a phone that does not answer, or a run to replay whose
            files do not match its seal.
    """
    if replay_from is not None:
        require_verified(replay_from, verify_run(replay_from), unverified, progress)
    run_id = f"{kind}-{new_run_id()}"
    attempts = _Attempts()
    frames = Trajectory(runs_dir) if trajectory else None
    with open_phones(device, run_id) as (devices, note), ExitStack() as bridges:
        progress(note)
        swappers = []
        for handle in devices:
            rig = bridges.enter_context(rig_for(handle, runs_dir, frames))
            swapper = Swapper(rig, runs_dir / run_id, run_id, replay_from, handle.installed,
                              attempts)
            swapper.note = functools.partial(labelled, progress, handle.info.label)
            # before any finish, as a run does: what the tasks start from none of (whatever a
            # finish leaves of it is then a finish's), and the tabs the finishes will open
            swapper.housekeeping, lines = tidy.start_phone(rig, run_id, tasks)
            for line in lines:
                swapper.note(line)
            swappers.append(swapper)
        yield swappers
        # the tidy-up protects the phones: a first stop waits for it, a second cuts it short
        with stop.tidying() as tidying:
            for swapper in swappers:
                if not swapper.stopped:
                    swapper.note(swapper.housekeeping.finish())
        if tidying.held is not None:
            raise tidying.held


def share_out(swappers: Sequence[Swapper], jobs: Sequence[Callable[[Swapper], list[R]]],
              progress: Progress = lambda line: None) -> list[list[R]]:
    """Run each job on whichever phone is free; results in job order.

    With several phones, the jobs run on worker threads and this (main) thread waits, as a
    run's several phones do (`runner.run`): a first Ctrl-C (SIGTERM, SIGHUP) hands out no more
    jobs and marks every phone stopped (what is left of a job in flight, and every job not
    handed out, is listed as not run: interrupted), waits for the attempts in flight to end, and
    returns for the summary to be printed; a second leaves them, and the phones are closed under
    them (the worker threads are daemons)."""
    done: list[list[R] | None] = [None] * len(jobs)
    queue = iter(range(len(jobs)))
    lock = threading.Lock()

    def work(swapper: Swapper) -> None:
        while True:
            with lock:
                index = next(queue, None)
            if index is None:
                return
            done[index] = jobs[index](swapper)

    if len(swappers) == 1:
        work(swappers[0])
        return [rows or [] for rows in done]
    finished = threading.Semaphore(0)

    def run(swapper: Swapper) -> None:
        try:
            work(swapper)
        finally:
            finished.release()

    for n, swapper in enumerate(swappers, start=1):
        threading.Thread(target=run, args=(swapper,), name=f"swap-{n}", daemon=True).start()
    working = len(swappers)
    try:
        while working:  # a semaphore, not Thread.join: see `runner.run._Run.go`
            finished.acquire()
            working -= 1
    except KeyboardInterrupt as exc:
        for swapper in swappers:
            swapper.stopped = swapper.stopped or f"interrupted ({stopped_by(exc)})"
        progress(f"{stop.stopped_line(exc)}: waiting for the finishes in flight on {working} "
                 "phone(s) to end (once more to leave them)")
        while working:
            finished.acquire()
            working -= 1
    # a job handed out after the stop found its phone stopped: its rows say not run
    return [rows or [] for rows in done]


def stopped(swappers: Sequence[Swapper]) -> str:
    """Why phones stopped during the swap ("" when none did)."""
    return "; ".join(s.stopped for s in swappers if s.stopped)
