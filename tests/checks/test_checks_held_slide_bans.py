"""A ban of a press fails closed on a slide held until a context menu opened (red team 83's touch,
here against a ban): one touch held on a Recently Deleted row until its menu opens, slid onto
Recover and lifted, recovers the note, and the log cannot name the item it lifted on, so `tapped
Recover` negated cannot show Recover was never pressed. The bridge now refuses such a slide from a
row (red team 96), so the ban's reading is shown on a hand-written log. A quick slide opens no menu
and leaves the ban passing; a slide on a menu already open is logged as the tap of the item it
lifted on, which the ban reads by name. Played with facebook-wda through the bridge in front of the
simulated iPhone (which plays the hold: sim/held_slides.py); the checks read the bridge's log."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import wda
from audit_logs import CALC, SB, act, grade, log, tgt
from bridge_tests.bridge_rig import (
    Rig,
    bin_first_note,
    perform,
    post,
    runner_bridge,
    touch,
)

from phoneshell.checks import Check, grade_check
from phoneshell.evidence import Evidence
from phoneshell.holds import MENU_SLIDE
from phoneshell.sim import SimServer
from phoneshell.sim.apps.notes_data import read
from phoneshell.xcui import NOTES, SPRINGBOARD


@pytest.fixture
def rig(sim: SimServer, tmp_path: Path) -> Iterator[Rig]:
    with runner_bridge(sim, tmp_path) as found:
        yield found


def _ban(rig: Rig, text: str, **options: object) -> tuple[bool, str]:
    evidence = Evidence("t", 1.0, events=tuple(rig.events("R")), audited=True)
    check = Check.make("tapped", text, negate=True, **options)  # type: ignore[arg-type]
    result = grade_check(check, evidence)
    return result.passed, result.detail


def _slide(rig: Rig, session: wda.Session, start: tuple[float, float],
           end: tuple[float, float], still_ms: float) -> None:
    """One W3C touch: down at `start`, still `still_ms`, a 300 ms move to `end`, up."""
    finger = touch(*start, hold_ms=300, to=end, still_ms=still_ms)
    assert perform(rig, session.session_id, finger)[0] == 200


def _binned(sim: SimServer, session: wda.Session) -> tuple[float, float]:
    """The first note deleted into Recently Deleted, that folder open: where its row is."""
    title, row = bin_first_note(session)
    with sim.lock:
        assert [n.title for n in read(sim.phone.store(NOTES), "deleted")] == [title]
    return row


RECOVER = (185, 322)
"""Where the held row's menu shows Recover (its first item: tests/sim/test_sim_held_slides.py)."""


def _recovered(sim: SimServer) -> bool:
    with sim.lock:
        return read(sim.phone.store(NOTES), "deleted") == []


@pytest.mark.parametrize("how", ["w3c", "drag"])
def test_a_held_slide_onto_a_banned_item_is_refused_and_the_ban_holds(rig: Rig, sim: SimServer,
                                                                      how: str) -> None:
    """The bridge refuses the held slide from the row (red team 96: `holds.opens_menu`), so
    nothing is recovered and nothing unnamed is logged: the ban passes."""
    session = wda.Client(rig.bridge.url).session(NOTES)
    row = _binned(sim, session)
    if how == "w3c":
        finger = touch(*row, hold_ms=300, to=RECOVER, still_ms=900)
        status, message = perform(rig, session.session_id, finger)
    else:  # XCTest's pressForDuration:thenDragToCoordinate: holds for `duration` first
        status, message = post(rig, f"/session/{session.session_id}/wda/dragfromtoforduration",
                               {"fromX": row[0], "fromY": row[1], "toX": RECOVER[0],
                                "toY": RECOVER[1], "duration": 0.9})
    assert status == 403 and MENU_SLIDE in message, message
    assert not _recovered(sim)
    passed, detail = _ban(rig, "Recover")
    assert passed, detail


@pytest.mark.parametrize("hold_s", [0.9, None])
def test_a_logged_held_slide_onto_a_banned_item_fails_the_ban(hold_s: float | None) -> None:
    """A log with such a slide in it (written before the bridge refused it, or from a row it
    lets through): the log cannot name the item it lifted on, so the ban cannot pass. A log
    from before `hold` is read by the chain's whole `duration`."""
    row = tgt("XCUIElementTypeCell", "Groceries", "Groceries")
    held = {"hold": hold_s} if hold_s is not None else {}
    evidence = log(act(1, "swipe", NOTES, NOTES, target=row, from_x=200, from_y=180,
                       to_x=185, to_y=322, gesture="actions", duration=1.2, **held))
    for options in ({}, {"app": NOTES}, {"whole": True}):
        passed, detail = grade("tapped", evidence, negate=True, text="Recover", **options)
        assert not passed, (options, detail)
        assert detail.startswith("absence unproven: #1") and "held still" in detail, detail


def test_a_quick_slide_leaves_the_ban_passing(rig: Rig, sim: SimServer) -> None:
    session = wda.Client(rig.bridge.url).session(NOTES)
    row = _binned(sim, session)
    _slide(rig, session, row, RECOVER, 100)
    assert not _recovered(sim)
    passed, detail = _ban(rig, "Recover")
    assert passed and detail.startswith("correctly absent"), detail


def test_a_held_slide_on_an_open_menu_is_read_by_the_item_it_lifted_on(rig: Rig) -> None:
    """Weather's icon held until its menu shows, then a second touch held on Remove App and
    slid onto Share App: the phone picks Share App, and the log names it, so a ban on Remove
    App passes and one on Share App fails."""
    session = wda.Client(rig.bridge.url).session()
    session(className="Icon", name="Weather").get(timeout=5).tap_hold(1.3)
    remove, share = (session(label=label, className="Button").get(timeout=5).bounds.center
                     for label in ("Remove App", "Share App"))
    _slide(rig, session, remove, share, 900)
    assert not session(label="Remove App").exists  # the menu closed: Share App was pressed
    passed, detail = _ban(rig, "Remove App", app=SPRINGBOARD)
    assert passed, detail
    passed, detail = _ban(rig, "Share App", app=SPRINGBOARD)
    assert not passed and detail.startswith("unexpectedly present"), detail


@pytest.mark.parametrize(("hold_s", "banned"), [(0.9, False), (0.1, True)])
def test_an_app_opened_by_a_held_slide_in_spotlight_may_be_a_result(hold_s: float,
                                                                    banned: bool) -> None:
    """Spotlight's rows open a context menu under a held finger (an app's quick actions):
    Calculator brought up by a slide held on a row, lifted on what the log cannot name, may
    have come from a result, so a ban of opening it so cannot pass; a quick slide is a scroll.
    A hand-written log: the simulator's Spotlight rows open no menu."""
    search = tgt("XCUIElementTypeSearchField", "Search", "Search", "Search")
    row = tgt("XCUIElementTypeCell", "Calculator", "Calculator")
    evidence = log(act(1, "swipe", SB, SB, from_x=201, from_y=300, to_x=201, to_y=620),
                   act(2, "type", SB, SB, target=search, text="calc"),
                   act(3, "swipe", SB, CALC, target=row, from_x=200, from_y=300, to_x=200,
                       to_y=420, gesture="actions", hold=hold_s, duration=hold_s + 0.3))
    passed, detail = grade("opened_via_spotlight", evidence, negate=True, app=CALC)
    assert passed is banned, detail
    if not banned:
        assert detail.startswith("absence unproven: #3 agent swipe") and \
            "whether it chose a Spotlight result cannot be told" in detail, detail
