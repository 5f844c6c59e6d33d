"""The lock is asked once while nothing could have changed it (issue 13: a real phone charges a
request for it), and a phone locked behind the harness's back still stops the run."""

from __future__ import annotations

from pathlib import Path

from phoneshell.agents import make_agent
from phoneshell.runner import AttemptPlan, open_rig, run_attempt
from phoneshell.sim import SimServer
from phoneshell.tasks import Task

LOCKED = "GET /wda/locked"


def _asked(sim: SimServer) -> int:
    return sum(row.count for routes in sim.latency.tally.take().values()
               for route, row in routes.items() if route == LOCKED)


def test_an_attempt_after_one_that_left_an_app_in_front_asks_no_lock(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    task = suite["settings.about.reach"]
    with open_rig(sim.url, tmp_path, effect_timeout_s=0.5) as rig:
        sim.latency.tally.take()
        first = run_attempt(AttemptPlan("R", tmp_path / "R", task, 1), rig,
                            make_agent("solution")).row
        assert _asked(sim) == 1  # nothing had shown it unlocked yet
        second = run_attempt(AttemptPlan("R", tmp_path / "R", task, 2), rig,
                             make_agent("solution")).row
        assert _asked(sim) == 0  # the first capture showed Settings in front
    assert (first.outcome, second.outcome) == ("passed", "passed")


def test_a_phone_locked_between_attempts_is_the_rig_down_not_a_failed_setup(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    task = suite["settings.about.reach"]
    with open_rig(sim.url, tmp_path, effect_timeout_s=0.5) as rig:
        run_attempt(AttemptPlan("R", tmp_path / "R", task, 1), rig, make_agent("solution"))
        sim.set_faults(["locked"])  # a person, or an Auto-Lock the owner left short
        done = run_attempt(AttemptPlan("R", tmp_path / "R", task, 2), rig,
                           make_agent("solution"))
    assert done.rig_down and done.row.outcome == "skipped", done.row.skip_reason
    assert "is locked" in done.row.skip_reason

