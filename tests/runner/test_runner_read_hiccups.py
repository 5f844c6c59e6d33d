"""A phone's own hiccups at capture are not the agent's failure (red team 105, RT105-2 and
RT105-4): a read WDA refuses is asked again with a phone's patience; a screenshot that cannot be
had leaves the picture out and the source graded; a route that keeps failing on the home screen
too is the rig down. Played through the runner and the bridge on one simulated iPhone, whose
faults stand for the phone's: the honest finish of clock.tab.alarms, then the fault."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
import wda

from bridge import Trajectory
from phoneshell.agents import AgentContext, AgentResult
from phoneshell.agents.reference import SolutionAgent
from phoneshell.records import TrajectoryFrame, read_lines
from phoneshell.runner import AttemptPlan, AttemptResult, open_rig, run_attempt
from phoneshell.sim import SimServer
from phoneshell.tasks import Task

TASK = "clock.tab.alarms"
CLOCK = "com.apple.mobiletimer"


class FinishThenFault(SolutionAgent):
    """Plays the reference finish, then the phone meets `faults` (switched on the simulator, as
    a phone's own trouble would come): only what follows the turn reads through them. With
    `first`, they come before the finish instead; with `look_last`, a tap on the status bar
    after the finish that nothing reads after (the capture starts with a screenshot then)."""

    def __init__(self, sim: SimServer, faults: list[str], first: bool = False,
                 tap_last: bool = False) -> None:
        super().__init__()
        self.sim, self.faults, self.first, self.tap_last = sim, faults, first, tap_last

    def run(self, context: AgentContext) -> AgentResult:
        """The finish, with the faults before or after it."""
        if self.first:
            self.sim.set_faults(self.faults)
        result = super().run(context)
        if self.tap_last:  # the list is at its top already: it moves nothing
            wda.Client(context.wda_url).session().tap(300, 6)
        if not self.first:
            self.sim.set_faults(self.faults)
        return result


def play(sim: SimServer, runs: Path, suite: dict[str, Task], agent: FinishThenFault,
         trajectory: Trajectory | None = None) -> AttemptResult:
    try:
        with open_rig(sim.url, runs, timeout_s=10, effect_timeout_s=0.3,
                      trajectory=trajectory) as rig:
            return run_attempt(AttemptPlan("r1", runs / "r1", suite[TASK], 1), rig, agent)
    finally:
        sim.set_faults([])


@pytest.mark.parametrize("count", [2, 3])
def test_reads_the_phone_refuses_for_a_moment_at_capture_are_asked_again(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task], count: int) -> None:
    """Two refused reads 24 ms apart failed the honest finish as an end state nobody can grade
    (the capture's one retry came at once)."""
    done = play(sim, tmp_path, suite, FinishThenFault(sim, [f"hiccups={count}"]))
    assert done.row.outcome == "passed", (done.row.skip_reason, done.row.error)
    assert sim.faults.specs() == []  # every hiccup met a read
    assert done.evidence is not None and done.evidence.screenshot_png is not None


@pytest.mark.slow  # 2.0 s measured: the README's command stays quick
def test_refusals_that_outlast_the_capture_and_end_at_home_are_not_the_agents(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    """A burst of refusals longer than the capture's patience that ends while the home screen
    is read: the app opened again shows the screen the agent's last read showed, whole, so that
    screen was readable and is captured again (a count of refusals landing there failed the
    honest finish as an end state nobody can grade)."""
    done = play(sim, tmp_path, suite, FinishThenFault(sim, ["hiccups=7"]))
    assert done.row.outcome == "passed", (done.row.skip_reason, done.row.error)
    assert sim.faults.specs() == []


@pytest.mark.slow  # 1.6 s measured: the README's command stays quick
@pytest.mark.parametrize("tap_last", [False, True])
def test_a_screen_wda_takes_no_screenshot_of_is_graded_by_its_source(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task], tap_last: bool) -> None:
    """Every check reads the page source: a picture WDA refuses is left out, not an end state
    nobody can grade. Settled where the agent's last look shows the same screen; else, with no
    pair of pictures to say it held still, `unsettled` (negated checks cannot pass)."""
    agent = FinishThenFault(sim, [f"screenshot-fails={CLOCK}"], tap_last=tap_last)
    done = play(sim, tmp_path, suite, agent)
    assert done.row.outcome == "passed", (done.row.skip_reason, done.row.error)
    assert done.evidence is not None and done.evidence.screenshot_png is None
    assert ("unsettled" in done.evidence.flags) is tap_last, done.evidence.flags
    saved = tmp_path / "r1" / TASK / "1" / "evidence"
    assert not (saved / "screenshot.png").exists()


@pytest.mark.slow  # 2.4 s measured: the README's command stays quick
def test_a_phone_that_takes_no_screenshot_anywhere_is_the_rig_down(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    """The same route asked on the home screen, which no agent shaped, fails too: the rig's."""
    done = play(sim, tmp_path, suite, FinishThenFault(sim, ["screenshot-fails"]))
    assert done.row.outcome == "skipped" and done.rig_down, done.row
    assert done.row.skip_reason.startswith(
        "rig down: WDA takes no screenshot: not of the screen the agent left, nor of the home "
        "screen ("), done.row.skip_reason


@pytest.mark.slow  # 2.4 s measured: the README's command stays quick
def test_a_source_refused_on_the_home_screen_too_is_the_rig_down(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    """A source refused at capture, and on the home screen after it, is a phone reading no
    screen: never the agent's failure (it was "device error", the run going on)."""
    done = play(sim, tmp_path, suite, FinishThenFault(sim, ["hiccups=100"]))
    assert done.row.outcome == "skipped" and done.rig_down, done.row
    assert done.row.skip_reason.startswith("rig down: WDA reads no screen: at capture ("), \
        done.row.skip_reason
    assert "and on the home screen too (" in done.row.skip_reason


@pytest.mark.slow  # its frames each asked for a second
def test_a_turn_that_meets_broken_screenshots_says_so_and_the_run_stops(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task],
        caplog: pytest.LogCaptureFixture) -> None:
    """With trajectory frames on, screenshots failing in the turn are said (the bridge's log,
    which a run prints), and the capture's then stop the run as the rig's, not fail the finish
    (RT105-4)."""
    agent = FinishThenFault(sim, ["screenshot-fails"], first=True)
    with caplog.at_level(logging.WARNING, logger="bridge"):
        done = play(sim, tmp_path, suite, agent, Trajectory(tmp_path, 200))
    assert done.row.outcome == "skipped" and done.rig_down, done.row
    assert "WDA takes no screenshot" in done.row.skip_reason
    said = [r.getMessage() for r in caplog.records if r.name == "bridge"]
    assert len(said) == 1 and said[0].startswith(f"trajectory: {TASK} attempt 1: "), said
    frames = list(read_lines(tmp_path / "r1" / "trajectory.jsonl", TrajectoryFrame))
    assert frames and all(f.error for f in frames[1:]), frames
