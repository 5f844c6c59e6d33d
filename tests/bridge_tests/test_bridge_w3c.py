"""W3C actions through the bridge: a touch tap and key actions land in the audit log as a tap and
a keystroke, aimed at what they touched and typed into, and the path checks grade them."""

from __future__ import annotations

import wda
from bridge_rig import Rig, perform, touch

from phoneshell.audit import actions
from phoneshell.checks import Check, grade_check
from phoneshell.evidence import Evidence

SETTINGS = "com.apple.Preferences"


def _keys(text: str) -> dict[str, object]:
    steps: list[dict[str, object]] = []
    for char in text:
        steps += [{"type": "keyDown", "value": char}, {"type": "keyUp", "value": char}]
    return {"type": "key", "id": "keyboard", "actions": steps}


def _grade(rig: Rig, run_id: str, check: Check) -> tuple[bool, str]:
    evidence = Evidence("t", 1.0, events=tuple(rig.events(run_id)), audited=True)
    result = grade_check(check, evidence)
    return result.passed, result.detail


def test_a_w3c_tap_and_w3c_keys_are_logged_and_graded(rig: Rig) -> None:
    session = wda.Client(rig.bridge.url).session(SETTINGS)
    field = session(className="SearchField").get(timeout=5)
    x, y = field.bounds.center
    rig.bridge.set_context("R1", "settings.search", 1, "agent")
    assert perform(rig, session.session_id, touch(x, y))[0] == 200
    assert perform(rig, session.session_id, _keys("Wi-Fi"))[0] == 200
    tap, typed = actions(rig.events("R1"))[-2:]
    assert (tap.kind, tap.params["x"], tap.params["y"], tap.params["gesture"]) == (
        "tap", x, y, "actions")
    assert tap.target is not None and tap.target.type == "XCUIElementTypeSearchField"
    assert (typed.kind, typed.params["text"], typed.params["via"]) == ("type", "Wi-Fi", "actions")
    assert typed.target is not None and typed.target.type == "XCUIElementTypeSearchField"
    assert session(className="SearchField").get().value == "Wi-Fi"  # the phone typed it too
    passed, detail = _grade(rig, "R1", Check.make("tapped", text="Search", app=SETTINGS))
    assert passed, detail
    passed, detail = _grade(rig, "R1", Check.make("typed_into", text="wi-fi", app=SETTINGS,
                                                  into="search"))
    assert passed, detail
    passed, _ = _grade(rig, "R1", Check.make("typed_into", text="bluetooth", app=SETTINGS))
    assert not passed


def test_a_w3c_tap_the_phone_refuses_is_logged_as_failed(rig: Rig) -> None:
    sid = wda.Client(rig.bridge.url).session(SETTINGS).session_id
    mouse = {**touch(100, 100), "parameters": {"pointerType": "mouse"}}
    assert perform(rig, sid, mouse)[0] == 400  # WDA drives touch screens only
    refused = actions(rig.events())[-1]
    assert (refused.kind, refused.ok) == ("tap", False)
    assert "Only pointer type 'touch' is supported" in refused.error
