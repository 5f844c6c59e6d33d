"""A SpringBoard overlay an agent leaves over a task's app whose capture scrolls (the Lock Screen,
Notification Centre: the cover sheet, whose scroll view reaches 437 pt above the screen) is
graded as left: the capture's own drags stay on the screen, a lock the agent pressed is named
and undone before the next attempt, and a drag of the harness's that is refused is said to be
that, never a screen that "could not be read" (red team 114, RT114-1)."""

from __future__ import annotations

from pathlib import Path

import pytest
import wda

from phoneshell.agents import make_agent
from phoneshell.agents.base import AgentContext, AgentResult
from phoneshell.audit import read_audit, refusals
from phoneshell.device.capture import ScrollRefused, scroll_captures
from phoneshell.evidence import Claim
from phoneshell.runner import AttemptPlan, open_rig, run_attempt
from phoneshell.runner.endstate import UnreadableEndState, capture_or_blame
from phoneshell.sim import SimServer
from phoneshell.tasks import Task

MAPS, BOOKS, SETTINGS = "com.apple.Maps", "com.apple.iBooks", "com.apple.Preferences"


class Overlaid:
    """Opens `app`, then leaves a SpringBoard overlay over it, and claims it is done."""

    name = "overlaid"

    def __init__(self, app: str, overlay: str) -> None:
        self.app, self.overlay = app, overlay

    def run(self, context: AgentContext) -> AgentResult:
        client = wda.Client(context.wda_url)
        session = client.session()
        session.app_activate(self.app)
        if self.overlay == "lock":
            client.lock()
        else:  # Notification Centre, pulled down from the top edge
            session.swipe(200, 1, 200, 700, 0.3)
        return AgentResult(ran=True, claim=Claim(status="done", summary="it is up"))


def _harness_refused(runs: Path) -> list[str]:
    return [f"{e.kind}: {e.error}" for e in refusals(read_audit(runs / "audit.jsonl").records)
            if e.phase != "agent"]


def test_a_lock_left_over_maps_fails_naming_it_and_the_next_attempt_is_played(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    with open_rig(sim.url, tmp_path, effect_timeout_s=0.3) as rig:
        locked = run_attempt(AttemptPlan("R", tmp_path / "R", suite["maps.search_place"], 1),
                             rig, Overlaid(MAPS, "lock"))
        after = run_attempt(AttemptPlan("R", tmp_path / "R", suite["multi.app_switch"], 1),
                            rig, make_agent("solution"))
    row = locked.row
    assert row.outcome == "failed" and not locked.rig_down, row.skip_reason
    assert "the agent locked the phone (#" in row.error, row.error
    assert "could not be read" not in row.error and "home screen whole" not in row.error
    assert after.row.outcome == "passed", after.row.skip_reason  # unlocked: the run goes on
    assert _harness_refused(tmp_path / "R") == []  # every drag of the harness was on screen


def test_notification_centre_left_over_books_fails_on_what_it_shows(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    with open_rig(sim.url, tmp_path, effect_timeout_s=0.3) as rig:
        done = run_attempt(AttemptPlan("R", tmp_path / "R", suite["books.search"], 1), rig,
                           Overlaid(BOOKS, "nc"))
    row = done.row
    assert row.outcome == "failed" and not done.rig_down, row.skip_reason
    assert "could not be read" not in row.error and "refused" not in row.error, row.error
    # SpringBoard's cover sheet is not Books' screen: graded as it shows, unscrolled, named
    assert done.evidence is not None and [c.role for c in done.evidence.captures] == ["final"]
    found = next(c for c in row.checks if c.kind == "element_exists_anywhere")
    assert not found.passed and "the cover sheet" in found.detail, found.detail
    assert _harness_refused(tmp_path / "R") == []


class SessionEnder:
    """Opens Settings, then (a screen WDA then chokes on) ends WDA's session: a rig-breaking
    action the capture meets only after a read it cannot make."""

    name = "session-ender"

    def __init__(self, sim: SimServer) -> None:
        self.sim = sim

    def run(self, context: AgentContext) -> AgentResult:
        session = wda.Client(context.wda_url).session()
        session.app_activate(SETTINGS)
        self.sim.set_faults([f"unreadable={SETTINGS}"])
        session.close()
        return AgentResult(ran=True, claim=Claim(status="done", summary="done"))


@pytest.mark.slow  # 2.6 s measured: the README's command stays quick
def test_what_broke_the_rig_is_named_before_an_end_state_nobody_can_read(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    with open_rig(sim.url, tmp_path, effect_timeout_s=0.3) as rig:
        done = run_attempt(AttemptPlan("R", tmp_path / "R", suite["settings.about.reach"], 1),
                           rig, SessionEnder(sim))
        sim.set_faults([])
    row = done.row
    assert row.outcome == "failed" and not done.rig_down, row.skip_reason
    assert row.error.startswith("the agent ended WDA's session (#"), row.error
    assert "and then the screen the agent left could not be read" in row.error


TALL = ('<?xml version="1.0" encoding="UTF-8"?><XCUIElementTypeApplication type='
        '"XCUIElementTypeApplication" name="Maps" label="Maps" enabled="true" visible="true" '
        'x="0" y="0" width="402" height="2000"><XCUIElementTypeScrollView type='
        '"XCUIElementTypeScrollView" enabled="true" visible="true" x="0" y="0" width="402" '
        'height="2000"/></XCUIElementTypeApplication>')
"""A page whose root names a screen taller than the phone's: the capture's drag, taken from it,
lands below the real screen, and the bridge refuses it."""


def test_a_refused_drag_of_the_capture_is_said_to_be_that_and_fails_the_attempt(
        sim: SimServer, tmp_path: Path) -> None:
    # the agent's failure, not "not scored": what the drag touched is what the agent left, and
    # a skip would let an agent turn a failure into one by the screen it leaves
    with open_rig(sim.url, tmp_path, effect_timeout_s=0.3) as rig:
        rig.phone.source()  # the bridge knows the real screen
        with pytest.raises(ScrollRefused):
            scroll_captures(rig.phone, TALL)
        with pytest.raises(UnreadableEndState) as failed:
            capture_or_blame(rig.phone, lambda: scroll_captures(rig.phone, TALL),
                             lambda app: False)
    said = str(failed.value)
    assert said.startswith("the harness's own drag scrolling the end screen, from (201, 1500)")
    assert said.endswith("an end state nobody can grade"), said
    assert "home screen" not in said
