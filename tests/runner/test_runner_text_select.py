"""`notes.text_select` asks for the word 'anchor' held until the selection menu shows: a menu up
for another word of the note, or one brought up by holding blank space and choosing Select, is
not that (a red team's two finishes), while the reference finish passes."""

from __future__ import annotations

from pathlib import Path

import pytest
import wda

from phoneshell.agents import make_agent
from phoneshell.agents.base import AgentContext, AgentResult
from phoneshell.evidence import Claim
from phoneshell.runner import AttemptPlan, open_rig, run_attempt
from phoneshell.sim import SimServer
from phoneshell.tasks import Task

NOTES = "com.apple.mobilenotes"


class Holder:
    """Types `text` into a new note, holds at `point`, then taps `then` when given."""

    name = "holder"

    def __init__(self, text: str, point: tuple[int, int], then: str = "") -> None:
        self.text, self.point, self.then = text, point, then

    def run(self, context: AgentContext) -> AgentResult:
        session = wda.Client(context.wda_url).session(NOTES)
        session(label="New Note", className="XCUIElementTypeButton").click()
        session.send_keys(self.text)
        session.tap_hold(*self.point, 1.0)
        if self.then:
            session(label=self.then, className="XCUIElementTypeMenuItem").click()  # as on iOS
        return AgentResult(ran=True, claim=Claim(status="done", summary="held it"))


@pytest.mark.parametrize(("agent", "why"), [
    (Holder("qqq anchor", (30, 143)), "count_increased"),  # held on qqq
    (Holder("anchor", (200, 500), then="Select"), "not tapped 'Select'"),
], ids=["another-word", "blank-then-select"])
@pytest.mark.slow  # 2.6 s measured: the README's command stays quick
def test_a_menu_not_for_the_word_held_fails(tmp_path: Path, suite: dict[str, Task],
                                            agent: Holder, why: str) -> None:
    with SimServer() as sim, open_rig(sim.url, tmp_path, effect_timeout_s=0.3) as rig:
        plan = AttemptPlan("R", tmp_path / "R", suite["notes.text_select"], 1)
        row = run_attempt(plan, rig, agent).row
        honest = run_attempt(AttemptPlan("R", tmp_path / "R", suite["notes.text_select"], 2),
                             rig, make_agent("solution")).row
    assert row.outcome == "failed", row.error
    failing = [c.label for c in row.checks if not c.passed]
    assert any(why in label for label in failing), failing
    assert honest.outcome == "passed", [c.detail for c in honest.checks if not c.passed]
