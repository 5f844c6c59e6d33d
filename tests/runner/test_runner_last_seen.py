"""What the harness keeps of the phone between attempts (`runner.rig.LastSeen`): the lock is asked
once while nothing could have changed it (issue 13: a real phone charges a request for it), a
phone locked behind the harness's back still stops the run, and a setup an earlier agent broke
says whose agent it was."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from phoneshell.agents import make_agent
from phoneshell.runner import AttemptPlan, open_rig, run_attempt
from phoneshell.sim import SimServer
from phoneshell.tasks import Step, Task

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



def test_a_setup_an_earlier_agent_broke_says_whose_agent_it_was(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    """An agent can leave an app in a state a later setup does not expect (Calendar keeps its
    view over a terminate) and have that attempt not scored: the skip names the agent that had
    the app in front before it."""
    old = (Step("terminate", "com.apple.mobilecal"), Step("launch", "com.apple.mobilecal"),
           Step("swipe", "right"), Step("home"))  # calendar.today's setup before its day view
    fragile = replace(suite["calendar.today"], setup=old)
    with open_rig(sim.url, tmp_path, effect_timeout_s=0.5) as rig:
        run_attempt(AttemptPlan("R", tmp_path / "R", suite["calendar.month_view"], 1), rig,
                    make_agent("solution"))  # leaves the month view, where a swipe does nothing
        row = run_attempt(AttemptPlan("R", tmp_path / "R", fragile, 1), rig,
                          make_agent("solution")).row
    assert row.outcome == "skipped" and row.skip_reason.startswith("setup failed"), row
    assert ("the agent of calendar.month_view attempt 1 had com.apple.mobilecal in front "
            "before it") in row.skip_reason, row.skip_reason
