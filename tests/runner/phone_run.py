"""Attempts played on one simulated iPhone as `phoneshell run` plays a run on a phone: its
housekeeping before the first (`tidy.start_phone`: the start counts, the owner watch), each
attempt through the bridge (`run_attempt`), and the run's end (`PhoneTidy.finish`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from runner.finish_then import FinishThen

from phoneshell.agents import Agent
from phoneshell.audit import read_audit
from phoneshell.records import ResultRow
from phoneshell.runner import AttemptPlan, open_rig, run_attempt, tidy
from phoneshell.sim import SimServer
from phoneshell.tasks import Task


def play(sim: SimServer, runs: Path, plays: Sequence[tuple[Task, Agent]],
         watched: bool = True) -> tuple[list[ResultRow], str]:
    """`plays` as a run (id R, under `runs`) plays them on one phone (the owner watch from its
    start counts, unless not `watched`: as an attempt the watch does not follow); their rows
    and what the run's end says."""
    tasks = [task for task, _ in plays]
    installed = frozenset(str(b) for b in sim.state()["installed"])  # type: ignore[union-attr]
    with open_rig(sim.url, runs, effect_timeout_s=0.5) as rig:
        housekeeping, _ = tidy.start_phone(rig, "R", tasks)
        owner = housekeeping.owner if watched else None
        rows = []
        for n, (task, agent) in enumerate(plays, 1):
            plan = AttemptPlan("R", runs / "R", task, n, installed)
            rows.append(run_attempt(plan, rig, agent, owner).row)
            housekeeping.attempt_done()
        return rows, housekeeping.finish()


def teardown_requests(runs: Path, attempt: int) -> int:
    """The harness's requests after attempt `attempt`'s agent of run R (its teardown phase,
    the owner watch's reads included)."""
    events = read_audit(runs / "R" / "audit.jsonl").records
    return sum(1 for e in events if e.attempt == attempt and e.phase == "teardown"
               and e.stage == "intent")


def passes_at_no_read(sim: SimServer, runs: Path, task: Task) -> None:
    """`task`'s reference finish passes in a run the owner watch follows and in one it does not,
    with nothing said of the owner's, and its teardown costs as many requests in both: the watch
    read nothing after it."""
    (watched,), _ = play(sim, runs / "watched", [(task, FinishThen())])
    (unwatched,), _ = play(sim, runs / "unwatched", [(task, FinishThen())], watched=False)
    assert watched.passed and unwatched.passed, (watched.error, unwatched.error)
    assert watched.teardown is not None and watched.teardown.owner == ()
    assert teardown_requests(runs / "watched", 1) == teardown_requests(runs / "unwatched", 1)
