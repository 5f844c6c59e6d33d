"""A search lasts while its results show: a swipe to another screen ends it, and only a row of
the search's own results opens something "from the search".

A red team's finish (the reference solution's log, edited) typed "x" into Spotlight, pulled
Control Center down from the top-right corner and tapped its Calculator button: it passed
system.spotlight.find_app as "opened from a Spotlight result 'Calculator' for 'x'", for any
swipe kept the typing going and any SpringBoard tap ending it was a result. Hand-written logs
for the finishes a phone allows and the simulator cannot play (its Control Center has no
Calculator), and honest runs through the bridge in front of the simulated iPhone.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import wda
from attempt_rig import run_one
from audit_logs import CALC, PREFS, SAFARI, SB, act, grade, log, tgt
from key_typists import open_spotlight

from phoneshell.agents.base import AgentContext, AgentResult
from phoneshell.audit import AuditEvent, Target
from phoneshell.checks.keystrokes import editings
from phoneshell.evidence import Claim, Evidence
from phoneshell.sim import SimServer
from phoneshell.tasks import Task

SEARCH = tgt("XCUIElementTypeSearchField", "Search", "Search", "Search")
ROW = tgt("XCUIElementTypeCell", "Calculator", "Calculator")
CC_BUTTON = tgt("XCUIElementTypeButton", "Calculator", "Calculator")


def spotlight(*between: list[AuditEvent], result: Target = ROW) -> Evidence:
    """Spotlight opened, "x" typed, then `between`, then a tap on `result` opening Calculator."""
    return log(act(1, "swipe", SB, SB, from_x=201, from_y=300, to_x=201, to_y=620),
               act(2, "type", SB, SB, target=SEARCH, text="x"), *between,
               act(9, "tap", SB, CALC, target=result))


def swipe(x0: int, y0: int, x1: int, y1: int, app: str = SB, after: str = "") -> list[AuditEvent]:
    return act(3, "swipe", app, after or app, from_x=x0, from_y=y0, to_x=x1, to_y=y1,
               gesture="drag")


def test_the_red_teams_control_center_finish_fails() -> None:
    passed, detail = grade("opened_via_spotlight", spotlight(swipe(370, 2, 370, 400),
                                                             result=CC_BUTTON), app=CALC)
    assert not passed and "#3 agent swipe" in detail and "ended that typing first" in detail


def test_a_button_in_springboard_is_no_spotlight_result() -> None:
    """Without the swipe (the log could not show one): a Button is no row of the results."""
    passed, detail = grade("opened_via_spotlight", spotlight(result=CC_BUTTON), app=CALC)
    assert not passed and "a Button is no row of Spotlight's results" in detail, detail
    assert grade("opened_via_spotlight", spotlight(), app=CALC)[0]


@pytest.mark.parametrize("away", [
    swipe(370, 2, 370, 400),  # Control Center
    swipe(60, 2, 60, 500),  # Notification Center
    swipe(200, 860, 200, 400),  # home
    swipe(200, 860, 380, 860),  # the next app, along the bottom edge
    swipe(200, 400, 200, 300, after=SAFARI),  # whatever it was, another app came in front
    swipe(5, 400, 300, 400),  # the left edge's back
    swipe(300, 400, 50, 400),  # sideways: a home screen's paging
    act(3, "swipe", SB, SB, target=tgt("XCUIElementTypeStatusBar"), direction="down",
        element="1", gesture="swipe"),  # the status bar pulled down
    act(3, "swipe", SB, SB, direction="right", gesture="swipe"),  # the whole app, sideways
    act(3, "swipe", SB, SB, target=ROW, direction="left", element="1", gesture="swipe"),
    act(3, "swipe", SB, SB, gesture="press_and_drag"),  # between elements: anywhere
], ids=["control-center", "notification-center", "home", "app-switch", "app-changed",
        "back", "sideways", "status-bar", "app-sideways", "element-sideways", "drag"])
def test_a_swipe_to_another_screen_ends_the_search(away: list[AuditEvent]) -> None:
    passed, detail = grade("opened_via_spotlight", spotlight(away), app=CALC)
    assert not passed and "ended that typing first" in detail, detail


@pytest.mark.parametrize("scroll", [
    swipe(200, 450, 200, 250),
    swipe(200, 250, 210, 450),
    act(3, "swipe", SB, SB, target=ROW, direction="up", element="1", gesture="swipe"),
], ids=["up", "down", "element"])
def test_scrolling_the_results_keeps_the_search(scroll: list[AuditEvent]) -> None:
    assert grade("opened_via_spotlight", spotlight(scroll), app=CALC)[0]


def test_opened_from_search_ends_at_a_swipe_away_too() -> None:
    battery = tgt("XCUIElementTypeButton", "Battery", "Battery")

    def settings(*between: list[AuditEvent]) -> Evidence:
        return log(act(1, "tap", PREFS, PREFS, target=SEARCH),
                   act(2, "type", PREFS, PREFS, target=SEARCH, text="Battery"), *between,
                   act(9, "tap", PREFS, PREFS, target=battery))

    fields = {"text": "Battery", "result": "Battery", "app": PREFS}
    for away in (swipe(370, 2, 370, 400, PREFS), swipe(200, 860, 200, 300, PREFS)):
        assert not grade("opened_from_search", settings(away), **fields)[0], away
    assert grade("opened_from_search", settings(swipe(200, 500, 200, 300, PREFS)), **fields)[0]
    # Spotlight's search through opened_from_search: the same rows
    row = {"text": "x", "result": "Calculator", "app": SB}
    assert grade("opened_from_search", spotlight(), **row)[0]
    assert not grade("opened_from_search", spotlight(result=CC_BUTTON), **row)[0]
    assert not grade("opened_from_search", spotlight(swipe(60, 2, 60, 500)), **row)[0]


GO = {"type": "XCUIElementTypeButton", "name": "Go"}
RESULT = {"type": "XCUIElementTypeCell", "name": "Calculator"}


class SpotlightSearch:
    """Opens Spotlight, types "Calc", scrolls its results up and back, and taps `tap` (the
    Calculator row, or the keyboard's go key)."""

    name = "spotlight-search"

    def __init__(self, tap: dict[str, str]) -> None:
        self.tap = tap

    def run(self, context: AgentContext) -> AgentResult:
        client = wda.Client(context.wda_url)
        open_spotlight(client)
        client.send_keys("Calc")
        for start, end in ((450, 250), (250, 450)):
            client.swipe(200, start, 200, end, 0.2)
        client(**self.tap).click()
        return AgentResult(ran=True, turns=1, claim=Claim(status="done"))


@pytest.mark.slow  # 2.2 s measured: the README's command stays quick
def test_an_honest_spotlight_search_passes_on_the_simulator(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    for tap in (RESULT, GO):
        done = run_one(sim, tmp_path / tap["name"], suite["system.spotlight.find_app"],
                       SpotlightSearch(tap))
        assert done.row.outcome == "passed", [c.detail for c in done.row.checks]
        assert done.evidence is not None
        (search,) = [e for e in editings(done.evidence.agent_actions()) if e.text]
        assert search.text.rstrip("\n") == "Calc"
        assert [a.kind for a in done.evidence.agent_actions()].count("swipe") == 3


class LowScroll:
    """Types "Calc" in Spotlight, drops the keyboard, scrolls the results from low on the
    screen (y 760 of 874: a scroll on this phone, below the smallest iPhone's bottom edge),
    then taps the Calculator row (a red team's honest finish)."""

    name = "low-scroll"

    def run(self, context: AgentContext) -> AgentResult:
        client = wda.Client(context.wda_url)
        open_spotlight(client)
        client.send_keys("Calc")
        client.swipe(201, 250, 201, 450, 0.2)  # the keyboard goes down
        client.swipe(201, 760, 201, 500, 0.2)
        client(**RESULT).click()
        return AgentResult(ran=True, turns=1, claim=Claim(status="done"))


def test_a_scroll_from_low_on_a_tall_phone_keeps_the_search(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    """The bottom edge is the captured screen's (874 points here), not the smallest iPhone's."""
    done = run_one(sim, tmp_path, suite["system.spotlight.find_app"], LowScroll())
    assert done.row.outcome == "passed", [c.detail for c in done.row.checks]
