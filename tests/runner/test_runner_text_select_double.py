"""`notes.text_select` on a double tap: on iOS a double tap on a word being edited selects it and
shows the edit menu, as holding it does, so an agent that double-taps 'anchor' (WDA's
`doubleTap`, through the bridge as the runner sets it up) passes as one that holds it; two
single taps select nothing, and a double tap on blank space brings up the caret's menu, whose
Select the task refuses, as it refuses it after a hold. A W3C chain of two quick taps at the word
(Selenium's and Appium's `double_click`: down, up, down, up in one request) is the same double tap
and passes too (red team 107: the bridge refused it as two gestures; tests/bridge_tests/
test_bridge_quick_taps.py has the bridge's side, tests/sim/test_sim_taps.py the simulator's)."""

from __future__ import annotations

from pathlib import Path

import pytest
import wda
from quick_taps import quick_taps

from phoneshell.agents.base import AgentContext, AgentResult
from phoneshell.evidence import Claim
from phoneshell.runner import AttemptPlan, open_rig, run_attempt
from phoneshell.sim import SimServer
from phoneshell.tasks import Task

NOTES = "com.apple.mobilenotes"
WORD = (30, 143)
"""Where a new note's first word shows."""
BLANK = (200, 500)


class DoubleTapper:
    """Types 'anchor' into a new note, double-taps `point` (or taps it twice, each tap its own
    request, when `single`; by one W3C request of two taps, when `w3c`), then taps `then` when
    given."""

    name = "double-tapper"

    def __init__(self, point: tuple[int, int], single: bool = False, then: str = "",
                 w3c: bool = False) -> None:
        self.point, self.single, self.then, self.w3c = point, single, then, w3c

    def run(self, context: AgentContext) -> AgentResult:
        session = wda.Client(context.wda_url).session(NOTES)
        session(label="New Note", className="XCUIElementTypeButton").click()
        session.send_keys("anchor")
        if self.single:
            session.tap(*self.point)
            session.tap(*self.point)
        elif self.w3c:
            session.http.post("/actions", data={"actions": [quick_taps(*self.point)]})
        else:
            session.double_tap(*self.point)
        if self.then:
            session(label=self.then, className="XCUIElementTypeMenuItem").click()
        return AgentResult(ran=True, claim=Claim(status="done", summary="selected it"))


@pytest.mark.parametrize(("agent", "failing"), [
    (DoubleTapper(WORD), None),
    (DoubleTapper(WORD, w3c=True), None),
    (DoubleTapper(WORD, single=True), "Cut|Look Up"),  # two taps: no selection
    (DoubleTapper(BLANK, then="Select"), "not tapped 'Select'"),
], ids=["doubleTap", "w3c-double-tap", "two-taps", "blank-then-select"])
@pytest.mark.slow  # 1.6 s measured: the README's command stays quick
def test_a_double_tap_on_the_word_selects_it_as_a_hold_does(
        tmp_path: Path, suite: dict[str, Task], agent: DoubleTapper,
        failing: str | None) -> None:
    with SimServer() as sim, open_rig(sim.url, tmp_path, effect_timeout_s=0.3) as rig:
        plan = AttemptPlan("R", tmp_path / "R", suite["notes.text_select"], 1)
        row = run_attempt(plan, rig, agent).row
    failed = [c.label for c in row.checks if not c.passed]
    if failing is None:
        assert row.outcome == "passed", [c.detail for c in row.checks if not c.passed]
    else:
        assert row.outcome == "failed" and any(failing in label for label in failed), failed
