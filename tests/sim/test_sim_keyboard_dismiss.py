"""WDA's keyboard dismiss on the simulator presses keys as WDA does (red team 59): each key of the
keyboard that `keyNames` names, once however often named, in the keyboard's order, not the
list's, until the keyboard goes; the keys pressed stay pressed when it then fails. facebook-wda
and raw requests to the simulator (the bridge's reading of the same rule:
`tests/bridge_tests/test_bridge_keyboard_dismiss.py`)."""

from __future__ import annotations

NOTES = "com.apple.mobilenotes"


def test_keys_are_pressed_once_each_in_the_keyboard_order(client, raw):
    s = client.session(NOTES)
    s(name="New Note").get(timeout=5).click()
    reply = raw("POST", f"/session/{s.session_id}/wda/keyboard/dismiss",
                {"keyNames": ["t", "e", "s", "t", "s"]})
    assert (reply.status, reply.value["error"]) == (400, "invalid element state")
    # q w e r t y ... then a s d ...: e and t on the top row come before s
    assert s(className="TextView").get(timeout=2).value == "ets"

