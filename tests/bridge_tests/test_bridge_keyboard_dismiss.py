"""WDA's keyboard dismiss presses keys by name, and the log names the key it pressed (red team 59).

`POST /wda/keyboard/dismiss {"keyNames": [...]}` taps the keyboard's keys the names name until the
keyboard goes: a letter types, Return sends. The bridge logs the one key it presses as a tap on
that key (`via` keyboard_dismiss), aimed and masked as any tap on a key, refuses names naming
several keys (the log could not say after which one the keyboard went), and never logs the names
themselves. Also Selenium 4's send_keys body, `text` and `value` both, taken when they spell the
same text. A dismiss whose names press no key (or with no keyboard up) presses nothing, and its
line says so (`taps` 0, red team 83), so the readers that fail closed on an unnamed touch pass
over it. facebook-wda and raw requests through a bridge on loopback, in front of the simulator.
"""

from __future__ import annotations

import json
import re

import pytest
import wda
from bridge_rig import LOGIN, Rig, post, refused_unsent, written_words

from phoneshell.audit import actions
from phoneshell.checks.typed_texts import typed_sends
from phoneshell.records import AuditEvent

NOTES = "com.apple.mobilenotes"
SAFARI = "com.apple.mobilesafari"
KEY = "XCUIElementTypeKey"


def _note(rig: Rig) -> tuple[wda.Session, str]:
    """A new note open with the keyboard up, through the bridge: the session and its route."""
    session = wda.Client(rig.bridge.url).session(NOTES)
    session(name="New Note").get(timeout=5).click()
    assert session(className="Keyboard").exists
    return session, f"/session/{session.session_id}/wda/keyboard/dismiss"


def _body(session: wda.Session) -> str:
    found = re.findall(r'TextView[^>]*?value="([^"]*)"', session.source())
    return found[0] if found else ""


def _last_action(rig: Rig) -> tuple[AuditEvent, AuditEvent]:
    """The last action's intent and outcome lines."""
    lines = [e for e in rig.events() if e.stage in ("intent", "outcome")]
    return lines[-2], lines[-1]


def test_a_letter_pressed_by_name_is_logged_as_the_key_it_typed(rig: Rig) -> None:
    session, route = _note(rig)
    status, message = post(rig, route, {"keyNames": ["s"]})
    # the keyboard stays up after a letter: WDA answers it could not dismiss it, key pressed
    assert status == 400 and "Did not know how to dismiss" in message
    assert _body(session) == "s"
    intent, outcome = _last_action(rig)
    assert intent.kind == "tap" and intent.params.get("via") == "keyboard_dismiss"
    assert intent.target is not None and intent.target.type == KEY
    assert intent.target.label == "s" and intent.target.keyboard
    assert intent.field is not None and intent.field.label == "Note"
    assert outcome.ok is False  # the checks count the press all the same:
    # tests/checks/test_checks_typing_failed.py
    assert [a.presses for a in actions([intent, outcome])] == [1]


def test_names_naming_several_keys_are_refused_untyped(rig: Rig) -> None:
    session, route = _note(rig)
    message = refused_unsent(rig, route, {"keyNames": list("secret")})
    assert "name 5 keys" in message and "name one key" in message
    assert _body(session) == ""


def test_the_name_field_is_not_what_it_presses(rig: Rig) -> None:
    """WDA's dismiss reads `keyNames` only: a `name` beside them is not logged as pressed."""
    session, route = _note(rig)
    post(rig, route, {"name": "Done", "keyNames": ["a"]})
    assert _body(session) == "a"
    intent, _ = _last_action(rig)
    assert intent.target is not None and intent.target.label == "a"
    assert "Done" not in json.dumps(dict(intent.params))


def test_return_pressed_by_name_is_a_send(rig: Rig) -> None:
    """Appium's hideKeyboard sends `keyNames` with "done" added: ["Go", "done"] on Safari's
    address presses its Go key (named "Go", labelled "go"), which sends what was typed."""
    session = wda.Client(rig.bridge.url).session(SAFARI)
    session(name="TabBarItemTitle").get(timeout=5).click()
    session.send_keys("example.com")
    status, _ = post(rig, f"/session/{session.session_id}/wda/keyboard/dismiss",
                     {"keyNames": ["Go", "done"]})
    assert status == 200 and not session(className="Keyboard").exists
    intent, _ = _last_action(rig)
    assert intent.target is not None and intent.target.name == "Go" and intent.target.keyboard
    assert [s.last_line for s in typed_sends(actions(rig.events()))] == ["example.com"]


@pytest.mark.parametrize("names", [[], ["nothing"], None])
def test_names_that_press_nothing_stay_a_dismiss(rig: Rig, names: list[str] | None) -> None:
    session, route = _note(rig)
    status, _ = post(rig, route, {} if names is None else {"keyNames": names})
    assert status == 400 and _body(session) == ""
    intent, outcome = _last_action(rig)
    assert dict(intent.params) == {"gesture": "keyboard_dismiss", "taps": 0}
    assert intent.target is None and outcome.ok is False
    assert [(a.presses, a.unnamed_press()) for a in actions([intent, outcome])] == [(0, "")]


def test_no_keyboard_no_press(rig: Rig) -> None:
    session = wda.Client(rig.bridge.url).session(NOTES)
    status, _ = post(rig, f"/session/{session.session_id}/wda/keyboard/dismiss",
                     {"keyNames": ["a"]})
    assert status == 200
    intent, outcome = _last_action(rig)
    assert dict(intent.params) == {"gesture": "keyboard_dismiss", "taps": 0}
    # the log says it pressed nothing: no reader takes it for a touch it cannot name
    assert intent.target is None
    assert [(a.presses, a.unnamed_press()) for a in actions([intent, outcome])] == [(0, "")]


@pytest.mark.parametrize("names", ["s", ["s", 1], {"s": 1}])
def test_names_not_a_list_of_strings_are_refused(rig: Rig, names: object) -> None:
    _, route = _note(rig)
    assert "must be a list of strings" in refused_unsent(rig, route, {"keyNames": names})


def test_a_key_pressed_into_a_password_is_masked(rig: Rig) -> None:
    session = wda.Client(rig.bridge.url).session(LOGIN)
    session(name="password").get(timeout=5).click()
    post(rig, f"/session/{session.session_id}/wda/keyboard/dismiss", {"keyNames": ["q"]})
    intent, _ = _last_action(rig)
    assert intent.target is not None and intent.target.type == KEY
    assert intent.target.label != "q" and intent.target.name != "q"
    assert "keyNames" not in json.dumps(dict(intent.params))
    assert "q" not in written_words(rig.runs / "unscoped" / "audit.jsonl"), "the key leaked"


def test_selenium_send_keys_with_text_and_value_types_once(rig: Rig) -> None:
    """Selenium 4 sends `text` and `value` both; WDA types `value`. Same text: taken."""
    session = wda.Client(rig.bridge.url).session(SAFARI)
    field = session(name="TabBarItemTitle").get(timeout=5)
    field.click()
    address = session(className="TextField").get(timeout=5)
    route = f"/session/{session.session_id}/element/{address.id}/value"
    status, _ = post(rig, route, {"text": "apple.com", "value": list("apple.com")})
    assert status == 200
    intent, _ = _last_action(rig)
    assert intent.kind == "type" and intent.params.get("text") == "apple.com"
    assert session(className="TextField").get(timeout=2).value == "apple.com"


@pytest.mark.parametrize(("route", "body", "says"), [
    ("element", {"text": "apple.com", "value": list("evil.com")}, "spell different texts"),
    ("element", {"text": "apple.com", "value": ""}, "spell different texts"),
    ("keys", {"text": "ab", "value": ["a", "c"]}, "spell different texts"),
    ("keys", {"text": "ab"}, "types 'value' only"),
])
def test_value_and_text_that_differ_are_refused(rig: Rig, route: str, body: object,
                                                says: str) -> None:
    session = wda.Client(rig.bridge.url).session(SAFARI)
    session(name="TabBarItemTitle").get(timeout=5).click()
    sid = session.session_id
    address = session(className="TextField").get(timeout=5)
    path = f"/session/{sid}/wda/keys" if route == "keys" else \
        f"/session/{sid}/element/{address.id}/value"
    assert says in refused_unsent(rig, path, body)
