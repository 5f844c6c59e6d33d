"""A failed action is read by what its route can do before failing (red team 59).

WDA's keyboard dismiss presses the key it is named and then answers an error when the keyboard
stays up (a letter, a note's Return): the checks count that press, typed or sent, as the phone
took it. Through the real bridge in front of the simulator (facebook-wda and raw requests). Any
other failed action but a tap or swipe (typing that may have focused its field or typed part of
its text, a clear that may have deleted part) ends the field's editing: what the field holds is
no longer known, so nothing typed before it is carried unless the log shows the field holding it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import wda
from bridge_tests.bridge_rig import Rig, post, runner_bridge

from phoneshell.audit import Action, actions
from phoneshell.checks import Check, grade_check
from phoneshell.checks.keystrokes import editings
from phoneshell.checks.typed_texts import typed_sends
from phoneshell.evidence import Evidence
from phoneshell.records import Target
from phoneshell.sim import SimServer

NOTES, SETTINGS = "com.apple.mobilenotes", "com.apple.Preferences"


@pytest.fixture
def rig(sim: SimServer, tmp_path: Path) -> Iterator[Rig]:
    with runner_bridge(sim, tmp_path) as found:
        yield found


def _dismiss(rig: Rig, session: wda.Session, *names: str) -> int:
    status, _ = post(rig, f"/session/{session.session_id}/wda/keyboard/dismiss",
                     {"keyNames": list(names)})
    return status


def test_a_letter_pressed_by_a_failed_dismiss_is_typed(rig: Rig) -> None:
    session = wda.Client(rig.bridge.url).session(NOTES)
    session(name="New Note").get(timeout=5).click()
    session.send_keys("secre")
    assert _dismiss(rig, session, "t") == 400  # WDA: the keyboard is still up
    assert session(className="TextView").get(timeout=2).value == "secret"
    evidence = Evidence("t", 1.0, events=tuple(rig.events("R")), audited=True)
    result = grade_check(Check.make("typed_into", text="secret"), evidence)  # type: ignore[arg-type]
    assert result.passed, result.detail


def test_a_return_pressed_by_a_dismiss_is_a_send(rig: Rig) -> None:
    session = wda.Client(rig.bridge.url).session(SETTINGS)
    session(className="SearchField").get(timeout=5).click()
    session.send_keys("Wi-Fi")
    _dismiss(rig, session, "Search", "done")  # Appium's hideKeyboard adds "done"
    assert [s.last_line for s in typed_sends(actions(rig.events("R")))] == ["Wi-Fi"]


def test_a_return_in_a_note_is_a_new_line_though_the_dismiss_failed(rig: Rig) -> None:
    session = wda.Client(rig.bridge.url).session(NOTES)
    session(name="New Note").get(timeout=5).click()
    session.send_keys("milk")
    assert _dismiss(rig, session, "Return", "return") == 400
    session.send_keys("eggs")
    assert session(className="TextView").get(timeout=2).value == "milk\neggs"
    assert editings(actions(rig.events("R")))[-1].text == "milk\neggs"


FIELD = Target(type="XCUIElementTypeTextField", label="Search", name="Search", value="")


def _action(seq: int, kind: str, params: dict[str, str], ok: bool,
            target: Target | None = FIELD, field: Target | None = None) -> Action:
    return Action(seq=seq, phase="agent", kind=kind, t=float(seq), params=params,  # type: ignore[arg-type]
                  app_before=SETTINGS, app_after=SETTINGS, target=target, ok=ok, error="",
                  field=field)


def test_a_failed_typing_ends_the_editing_it_may_have_changed() -> None:
    """A type WDA failed may have typed part of its text (or a clear deleted part): the text
    before it is not carried into what follows unless the log shows the field holding it."""
    key = Target(type="XCUIElementTypeKey", label="d", name="d", keyboard=True)
    shown = FIELD.model_copy(update={"value": "abcz"})
    log = [_action(1, "type", {"text": "abc", "via": "keys"}, True),
           _action(2, "type", {"text": "zzz", "via": "keys"}, False),
           _action(3, "tap", {"x": "1", "y": "1", "gesture": "tap"}, True, key, shown)]
    found = editings(log)
    assert [e.text for e in found] == ["abc", "d"]
    assert found[0].end is log[1]


def test_a_failed_tap_still_changes_nothing() -> None:
    """XCTest finds the element before a finger goes down: a failed tap did nothing."""
    key = Target(type="XCUIElementTypeKey", label="d", name="d", keyboard=True)
    log = [_action(1, "type", {"text": "abc", "via": "keys"}, True),
           _action(2, "tap", {"element": "E", "gesture": "tap"}, False, None),
           _action(3, "tap", {"x": "1", "y": "1", "gesture": "tap"}, True, key, FIELD)]
    assert [e.text for e in editings(log)] == ["abcd"]
