"""Calculator's display takes a swipe anywhere on it (red team 115, RT115-1): a sideways swipe that
goes down beside the digits or above them, in the display's area (the full width above the
keypad), deletes a digit on a phone, so "4 8, swipe, 7 × 9 =" shows 423 there and `tapped_keys`
replays the swipe as that delete, placing its logged start point against the keypad of the
end-state source. One that goes down on a key, or between the keys, deletes nothing.

Played on the simulated iPhone through the bridge with facebook-wda, graded as the suite's
Calculator tasks.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
import wda
from attempt_rig import run_one
from audit_logs import CALC

from phoneshell.agents import AgentContext, AgentResult
from phoneshell.audit import actions
from phoneshell.device.device_state import read_device_state
from phoneshell.evidence import Claim
from phoneshell.records import ResultRow
from phoneshell.runner import AttemptPlan, open_rig, run_attempt
from phoneshell.sim import SimServer
from phoneshell.tasks import Task

Frame = tuple[int, int, int, int]
Start = Callable[[Frame, Frame], tuple[int, int, int]]
"""Where a swipe goes down and which way it goes (-1 left, 1 right), from the display text's
frame and the 7 key's (the top digit row's left key)."""

BESIDE: dict[str, Start] = {
    "right of the digits, leftwards across them": lambda r, k: (r[0] + r[2] + 8,
                                                                r[1] + r[3] // 2, -1),
    "left of the digits, rightwards": lambda r, k: (60, r[1] + r[3] // 2, 1),
    "left of the digits, leftwards": lambda r, k: (250, r[1] + r[3] // 2, -1),
    "above the digits": lambda r, k: (r[0] + r[2] - 10, r[1] - 40, -1),
}


class Swiper:
    """Keys 4 8, swipes sideways from where `start` says by W3C actions, then 7 × 9 =; turned
    to `held` first when given, and left so."""

    name = "swiper"

    def __init__(self, start: Start, held: str = "") -> None:
        self.start, self.held = start, held

    def run(self, context: AgentContext) -> AgentResult:
        """Key, swipe, key, and claim done."""
        c = wda.Client(context.wda_url)
        c.app_launch(CALC)
        if self.held:
            c._session_http.post("/orientation", data={"orientation": self.held})
        for key in ("4", "8"):
            c(className="XCUIElementTypeButton", name=key).click()
        text = c(name="Result").get(timeout=1).bounds
        seven = c(className="XCUIElementTypeButton", name="7").get(timeout=1).bounds
        x, y, way = self.start(tuple(text), tuple(seven))
        c._session_http.post("/actions", data={"actions": [{
            "type": "pointer", "id": "finger1", "parameters": {"pointerType": "touch"},
            "actions": [{"type": "pointerMove", "duration": 0, "x": x, "y": y},
                        {"type": "pointerDown", "button": 0},
                        {"type": "pointerMove", "duration": 200, "x": x + 100 * way, "y": y},
                        {"type": "pointerUp", "button": 0}]}]})
        for key in ("7", "multiply", "9", "equals"):
            c(className="XCUIElementTypeButton", name=key).click()
        return AgentResult(ran=True, turns=1, claim=Claim(status="done", answer="423"))


def played(sim: SimServer, runs: Path, task: Task, start: Start, held: str = "") -> ResultRow:
    row: ResultRow = run_one(sim, runs, task, Swiper(start, held)).row
    assert row.outcome != "skipped", row.skip_reason
    return row


@pytest.mark.parametrize("where", sorted(BESIDE))
def test_a_swipe_that_goes_down_on_the_display_beside_the_digits_deletes_one(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task], where: str) -> None:
    """4 8, a swipe on the display off the digits' own frame, 7 × 9 =: the phone shows 423,
    and the check replays the swipe as the 8 it deleted."""
    row = played(sim, tmp_path, suite["calculator.arithmetic"], BESIDE[where])
    assert row.outcome == "passed", {c.kind: c.detail for c in row.checks if not c.passed}
    worked = next(c for c in row.checks if c.kind == "tapped_keys")
    assert "48 ⌫(swipe) 7 × 9 = was the last keyed" in worked.detail, worked.detail


@pytest.mark.parametrize("start", [
    lambda r, k: (k[0] + k[2] // 2, k[1] + k[3] // 2, 1),  # on the 7
    lambda r, k: (k[0] + k[2] + 6, k[1] + k[3] // 2, 1),  # between the 7 and the 8
], ids=["on a key", "between keys"])
def test_a_swipe_that_goes_down_on_the_keypad_deletes_nothing(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task], start: Start) -> None:
    """The keypad is no display: the phone keeps the 8 (487 × 9 shows 4,383), and the check
    does not replay the swipe as a delete."""
    row = played(sim, tmp_path, suite["calculator.arithmetic"], start)
    assert row.outcome == "failed"
    worked = next(c for c in row.checks if c.kind == "tapped_keys")
    # the bridge may log a swipe that ends within a key's reach as that key's press: either
    # way no digit was deleted
    assert not worked.passed and "⌫" not in worked.detail, worked.detail
    assert "48 swipe 7 × 9 =" in worked.detail or "4877 × 9 =" in worked.detail, worked.detail
    shown = next(c for c in row.checks if c.kind == "regex_on_screen")
    assert not shown.passed, shown.detail



def test_a_swipe_beside_the_digits_of_a_phone_left_turned_deletes_one(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    """Turned to landscape, 4 8, a swipe on the display left of the digits, 7 × 9 =, and the
    phone left turned (red team 119, RT119-5): the end state is read turned, and the runner
    turns the phone back after it (phase `teardown`). That turn is no turn the end-state source
    saw, so the source still places the swipe, and the check replays it as the 8 it deleted."""
    task = suite["calculator.arithmetic"]
    installed = frozenset(str(b) for b in sim.state()["installed"])  # type: ignore[union-attr]
    with open_rig(sim.url, tmp_path, effect_timeout_s=0.5) as rig:
        # as a run's start reads it, so the turn is set back after the capture
        rig.device_start.update(read_device_state(rig.phone))
        done = run_attempt(AttemptPlan("r1", tmp_path / "r1", task, 1, installed), rig,
                           Swiper(BESIDE["left of the digits, leftwards"], "LANDSCAPE"))
    row, evidence = done.row, done.evidence
    assert evidence is not None and evidence.final is not None
    assert evidence.final.source.width > evidence.final.source.height, "read turned"
    turned_back = [a for a in actions(evidence.events) if a.phase == "teardown"
                   and a.params.get("route") == "/orientation"]
    assert turned_back and turned_back[0].t > evidence.final.taken_at, evidence.events
    assert row.outcome == "passed", {c.kind: c.detail for c in row.checks if not c.passed}
    worked = next(c for c in row.checks if c.kind == "tapped_keys")
    assert "48 ⌫(swipe) 7 × 9 = was the last keyed" in worked.detail, worked.detail
