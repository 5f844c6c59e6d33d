"""Replaying finishes on phones and grading them: the machinery the swap test and the attack
share.

A `Swapper` plays one task's finish on one phone behind its bridge (through the runner, like any
attempt) and grades the evidence as other tasks, capturing once what they all need; a second
play takes probe counts only for the tasks whose other checks held. `open_swappers` opens one
per phone of `--device` in one run folder, and `share_out` runs jobs on whichever phone is free.

Between replays the phone is put back, so each replay finds it as the replays before it found
it, whatever a finish did. A finish, or the attempt a `residue` or `leaver` finish starts after,
may leave on the phone what outlasts its app: a timer running, the stopwatch going. The teardown
it is played under deletes only what that task's own counts saw grow (a leaver's earlier attempt
leaves its agent's timer by design; a sibling finish in `swap` runs under its own task's
teardown, which need not count timers), so the next replay on that phone, its second pass for
probes included, would find it. A task that starts from none of it then refuses to start (not
scored: it cannot be told from the owner's), and one that does not shows a running timer where
its wheels should be (failed, by nothing its finish did). Either way a pair or a hole goes
unlooked for, and which one depends on which phone played what before.

So after each play (a finish, with the attempt it starts after when it has one), what the swap
or attack counted at none before its first replay (`PhoneTidy.none_at_start`: what its tasks
start from none of) is counted again, and whatever is there is deleted, as a run deletes it when
it ends (`leftovers.delete_left`). A residue or leaver finish still starts from what its own
earlier attempt left: that attempt belongs to its play. Only counts in an app the play's agents
went near are taken (two cost about 40 ms on the simulator, seconds on a phone, and most finishes
never touch them): an app the last agent of the play had in front (`LastSeen.agent_apps`: a
finish reaching Clock from the home screen counts), or any app the task of its earlier attempt
names (its app, and the apps its steps launch, stop or open: that agent's apps are not kept);
and not a count the finish took at none after its agent (its teardown, which came after, makes
nothing). A setup or teardown is the task file's, not a finish's: what it leaves, its task's own
runs leave too. Nothing is reset that was not counted at none before the first replay, so this
holds on a real phone too.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal, TypeVar

from bridge import Trajectory
from phoneshell.agents import Agent, make_agent
from phoneshell.agents.replay import ReplayAgent
from phoneshell.awake import awake
from phoneshell.checks import Check, Need, needs_of
from phoneshell.checks.implied import signature
from phoneshell.device import COUNTED_IN
from phoneshell.device.probes import HIDDEN_BY
from phoneshell.errors import RIG_DOWN, PhoneshellError
from phoneshell.evidence import Evidence
from phoneshell.phones.open import open_phones
from phoneshell.runner import stop, tidy
from phoneshell.runner.attempt import run_attempt
from phoneshell.runner.folder import new_run_id
from phoneshell.runner.leftovers import delete_left
from phoneshell.runner.plan import AttemptPlan
from phoneshell.runner.rig import Rig, RigDown
from phoneshell.runner.stop import stopped_by
from phoneshell.runner.unwritten import REASON
from phoneshell.runner.workers import Progress, labelled, rig_for
from phoneshell.seal import verify_run
from phoneshell.seal_refusal import require_verified
from phoneshell.tasks import Task

R = TypeVar("R")
StopKind = Literal["down", "folder", "interrupted"]
"""What stopped a phone's replays: the phone went down (`phoneshell doctor` checks it), the run
folder would not take a write (`runner.unwritten`: its storage, never the phone), or a stop
signal (Ctrl-C, SIGTERM, SIGHUP)."""


@dataclass(frozen=True)
class Unplayed:
    """Why a play has no evidence to grade ("" when it has some)."""

    why: str = ""
    failed: bool = False
    """The run failed the attempt without evidence: before its finish ran, the phone was not in
    the task's start state by an earlier attempt's doing (`runner.counts.Leftover`), or after it
    the phone read elsewhere at capture. A judgement, as a run would record it; not a hole the
    play could not look at."""

    earlier: str = ""
    """Why the attempt the play started after (`Swapper.play`'s `left_by`) did not play its
    finish to its end ("" when it did, or there was none): the finish did not start from what
    it was made to start from."""

    def __str__(self) -> str:
        return self.why

    def __bool__(self) -> bool:
        return bool(self.why)


def unfinished(evidence: Evidence) -> str:
    """Why the solution agent did not play every step of its finish ("" when it did): its claim
    when not `done` (a step that raised: the step and its error), or that it made none."""
    claim = evidence.claim
    if claim is None:
        return "its agent ended without a claim, before the finish's end"
    return "" if claim.status == "done" else claim.summary or f"its agent's claim: {claim.status}"


Judge = Callable[[Task, "Evidence | None", str, Unplayed], R]
"""Grades one piece of evidence as a task: (task, evidence or None, its folder, why missing)."""

__all__ = ["Judge", "StopKind", "Stopped", "Swapper", "Unplayed", "costly", "merged",
           "open_swappers", "share_out", "stopped", "unfinished"]


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
        self.stop_kind: StopKind | None = None
        """What stopped it: the phone went down, or a stop signal (None while it is usable)."""
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

    def play(self, b: Task, extra: Iterable[Check] = (), left_by: Task | None = None,
             name: str = "") -> tuple[Evidence | None, str, Unplayed]:
        """Run B's setup and finish, capturing what `extra` checks need too; with `left_by`,
        after an attempt of that task's reference finish (ungraded: its setup, finish and
        teardown, so B starts from what such an attempt leaves on the phone). Then put the phone
        back for the next replay (the module's docstring says what goes), saying what went as
        "after `name`" (default: B's id).

        Returns:
            (evidence, its folder relative to the run, why it is missing, and why the attempt
            before it stopped short). An attempt the runner skipped (setup failed, a rig
            fault) has no evidence to grade.
        """
        agent_before = self.rig.seen.agent_of  # whose agent acted last before this play
        earlier = ""
        if left_by is not None:
            before, _, missing = self._attempt(replace(left_by, id=f"{left_by.id}.before",
                                                       checks=()))
            earlier = unfinished(before) if before is not None else str(missing)
        evidence, folder, missing = self._attempt(b, extra)
        said = self._put_back(agent_before, evidence, left_by)
        self.note(f"after {name or b.id}: {said}" if said else "")
        return evidence, folder, replace(missing, earlier=earlier)

    def _attempt(self, b: Task, extra: Iterable[Check] = ()
                 ) -> tuple[Evidence | None, str, Unplayed]:
        """One attempt of B's finish, capturing what `extra` checks need too (see `play`)."""
        if self.stopped:
            return None, "", Unplayed(f"not run: {self.stopped}")
        plan = AttemptPlan(self.run_id, self.run_dir, merged(b, extra),
                           self._attempts.take(b.id), self.installed, resumable=False)
        done = run_attempt(plan, self.rig, self._agent(b))
        if done.rig_down or done.interrupted:  # Ctrl-C or SIGTERM: what is left is not run
            self.housekeeping.played += 1
            folder = done.row.skip_reason.startswith(REASON)  # `unwritten.said`'s words
            self.halt(("folder" if folder else "down") if done.rig_down else "interrupted",
                       done.row.skip_reason if done.rig_down or done.row.skipped else
                       f"interrupted ({stopped_by(stop.again())})")
        else:
            self.note(self.housekeeping.attempt_done())
        if done.evidence is None:
            if done.row.outcome == "failed":  # before its finish: the row says why
                return None, done.row.evidence, Unplayed(done.row.error or "failed", failed=True)
            return None, done.row.evidence, Unplayed(done.row.skip_reason
                                                     or "no evidence was captured")
        return done.evidence, done.row.evidence, Unplayed()

    def _put_back(self, agent_before: str, last: Evidence | None, left_by: Task | None) -> str:
        """After a play, with `agent_before` the phone's last agent before it
        (`LastSeen.agent_of`), `last` its finish's evidence (when it has some) and `left_by`
        the task of the attempt it started after (when it did): delete what was counted at
        none before the first replay and the play may have left. A line for the user (""
        when nothing was there); a stop that came meanwhile, or a rig that went down, stops
        the phone."""
        rig = self.rig
        if self.stopped or not self.housekeeping.none_at_start:
            return ""
        agent_apps = rig.seen.agent_apps if rig.seen.agent_of != agent_before else ()
        probes = last.probes if last else ()
        hiding = {p.name for p in probes if p.after}  # a count another's items hide proves none
        none_after = {Need("probe", p.name, p.arg) for p in probes
                      if p.after == 0 and not p.error and HIDDEN_BY.get(p.name) not in hiding}
        needs = [need for need in self.housekeeping.none_at_start if need not in none_after and (
            need.name not in COUNTED_IN or COUNTED_IN[need.name] in agent_apps
            or left_by is not None and tidy.uses_app(left_by, COUNTED_IN[need.name]))]
        if not needs:
            return ""
        with stop.tidying() as tidying:  # a first stop waits for it, as for a teardown
            try:
                said = delete_left(rig, self.run_id, needs)
            except RIG_DOWN as exc:  # the attempts after it would find it down too
                return self.halt("down",
                                  f"the phone stopped answering between finishes: {exc}")
            except PhoneshellError as exc:  # the next replays say what they find
                said = f"what the finishes left could not be counted: {exc}"
        if tidying.held is not None:
            self.halt("interrupted", f"interrupted ({stopped_by(tidying.held)})")
        return said

    def halt(self, kind: StopKind, why: str) -> str:
        """Stop the phone for `why` (a stop already made stands); the reason it stopped for."""
        if not self.stopped:
            self.stopped, self.stop_kind = why, kind
        return self.stopped

    def graded(self, b: Task, tasks: Sequence[Task], grade_as: Judge[R],
               passed: Callable[[R], bool], left_by: Task | None = None,
               name: str = "") -> list[R]:
        """B's finish, played with what `tasks` need captured, graded as each of them (each
        play after an attempt of `left_by`, when given, and named `name`: see `play`).

        Pass one replays the finish once with the cheap evidence every task needs (scrolling)
        and grades it on each task's cheap checks; pass two replays it again, with the probes
        they need, for the tasks whose cheap checks all passed. A pass needs both. Rows come in
        the order of `tasks`.
        """
        cheap = [c for t in tasks for c in t.checks if not costly(c)]
        evidence, folder, missing = self.play(b, cheap, left_by, name)
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
                                                  left_by, name)
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
    closes its own (`runner.tidy`). A first stop signal meanwhile waits for the phone being set
    up, and the swappers come stopped (every finish not run), as after a stop during the
    finishes (`share_out`). The closing tidy-up runs after a stop too; a first stop during it
    waits for it, then stops the swappers, and one after another cuts it short, said: read
    `stopped(swappers)` after the `with`, so the finishes played are still reported.

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
        require_verified(replay_from, verify_run(replay_from), unverified, progress,
                         anyway="`--unverified` replays it anyway, marked")
    run_id = f"{kind}-{new_run_id()}"
    attempts = _Attempts()
    frames = Trajectory(runs_dir) if trajectory else None
    with open_phones(device, run_id) as (devices, note), ExitStack() as bridges:
        swappers: list[Swapper] = []
        # a first stop waits for the phone being set up, and no other phone is set up after
        # it: every finish is then listed as not run, as after a stop during the finishes
        with stop.tidying() as setting_up:
            progress(note)
            for handle in devices:
                rig = bridges.enter_context(rig_for(handle, runs_dir, frames))
                swapper = Swapper(rig, runs_dir / run_id, run_id, replay_from,
                                  handle.installed, attempts)
                swapper.note = functools.partial(labelled, progress, handle.info.label)
                # before any finish, as a run does: what the tasks start from none of (whatever
                # a finish leaves of it is then a finish's), and the tabs the finishes will open
                swapper.housekeeping, lines = tidy.start_phone(rig, run_id, tasks)
                for line in lines:
                    swapper.note(line)
                swappers.append(swapper)
                if stop.waiting() is not None:
                    break
        if setting_up.held is not None:
            halt_all(swappers, setting_up.held)
            progress(f"{stop.stopped_line(setting_up.held)} while the phones were set up: "
                     "no finish is played")
        yield swappers
        # the tidy-up protects the phones: a first stop waits for it, one after another cuts it
        # short; a phone a stop signal stopped still answers and is tidied too, not one that
        # went down or whose folder refused a write
        try:
            with stop.tidying() as tidying:
                for swapper in swappers:
                    if swapper.stop_kind in (None, "interrupted"):
                        try:
                            swapper.note(swapper.housekeeping.finish())
                        except RigDown as exc:  # the run folder's, said so; the others tidy
                            swapper.note(f"{exc.message}; {exc.hint}")
        except KeyboardInterrupt as exc:  # the summary is still printed
            halt_all(swappers, exc)
            progress(f"the tidy-up was cut short ({stopped_by(exc)} again): what the finishes "
                     "left (Safari tabs, notes, reminders) may still be on the phones")
            return
        if tidying.held is not None:
            # every finish was played and graded by now: the phones stop, so the command prints
            # what it played and ends stopped, as after a stop during the finishes
            halt_all(swappers, tidying.held, "during the closing tidy-up, after the last finish")


def share_out(swappers: Sequence[Swapper], jobs: Sequence[Callable[[Swapper], list[R]]],
              progress: Progress = lambda line: None) -> list[list[R]]:
    """Run each job on whichever phone is free; results in job order.

    The jobs run on worker threads, one a phone, and this (main) thread waits, as a run's
    several phones do (`runner.run`); with one phone too, or a Ctrl-C landing between two
    finishes on this thread lost the one just played and ended the command without its
    summary. A first Ctrl-C (SIGTERM, SIGHUP) hands out no more jobs and marks every phone
    stopped (what is left of a job in flight, and every job not
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

    finished = threading.Semaphore(0)

    def run(swapper: Swapper) -> None:
        try:
            work(swapper)
        finally:
            finished.release()

    # a first stop while the threads start (one may be playing already) is held, and taken
    # as one during the wait
    with stop.tidying() as starting:
        for n, swapper in enumerate(swappers, start=1):
            threading.Thread(target=run, args=(swapper,), name=f"swap-{n}", daemon=True).start()
    working = len(swappers)
    try:
        if starting.held is not None:
            raise starting.held
        while working:  # a semaphore, not Thread.join: see `runner.workers.Workers.go`
            awake(lambda s: finished.acquire(timeout=s))
            working -= 1
    except KeyboardInterrupt as exc:
        halt_all(swappers, exc)
        progress(f"{stop.stopped_line(exc)}: waiting for the finishes in flight on {working} "
                 "phone(s) to end (once more to leave them)")
        while working:
            awake(lambda s: finished.acquire(timeout=s))
            working -= 1
    # a job handed out after the stop found its phone stopped: its rows say not run
    return [rows or [] for rows in done]


def halt_all(swappers: Sequence[Swapper], exc: KeyboardInterrupt, when: str = "") -> None:
    """Stop every phone for the stop signal `exc`, which came `when` (what is left is listed
    as not run)."""
    why = " ".join(filter(None, [f"interrupted ({stopped_by(exc)})", when]))
    for swapper in swappers:
        swapper.halt("interrupted", why)


@dataclass(frozen=True)
class Stopped:
    """Why phones stopped before every replay was played: their reasons, and what stopped them."""

    why: str = ""
    """Their reasons, joined by "; " ("" when none stopped)."""
    kinds: frozenset[StopKind] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.why)


def stopped(swappers: Sequence[Swapper]) -> Stopped:
    """Why phones stopped during the swap (false when none did)."""
    down = [s for s in swappers if s.stopped]
    return Stopped("; ".join(s.stopped for s in down),
                   frozenset(s.stop_kind for s in down if s.stop_kind is not None))
