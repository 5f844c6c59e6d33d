"""Log what you forward, forward what you log: every request shape the bridge and a phone could read
two ways (or that holds more than one gesture, or a touch the log could not name) is refused,
and for every shape the phone's own ledger of inputs agrees with the log."""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable

import pytest
import wda
from bridge_rig import LOGIN, Rig, request

from bridge.gate import Refused, admit
from phoneshell.audit import actions, refusals

Shape = Callable[[str], tuple[str, str, bytes, dict[str, str]]]
"""Given the session id: method, path, body and headers of one request."""


def _tap_chain(*points: tuple[int, int]) -> dict[str, object]:
    steps: list[dict[str, object]] = []
    for x, y in points:
        steps += [{"type": "pointerMove", "x": x, "y": y}, {"type": "pointerDown"},
                  {"type": "pointerUp"}]
    return {"type": "pointer", "id": "f1", "parameters": {"pointerType": "touch"},
            "actions": steps}


def _pointer(*steps: dict[str, object]) -> dict[str, object]:
    return {"type": "pointer", "id": "f1", "parameters": {"pointerType": "touch"},
            "actions": list(steps)}


DOWN, UP = {"type": "pointerDown"}, {"type": "pointerUp"}


def _at(x: int, y: int, **more: object) -> dict[str, object]:
    return {"type": "pointerMove", "x": x, "y": y, **more}


def _pause(ms: int) -> dict[str, object]:
    return {"type": "pause", "duration": ms}


def _actions(*sources: dict[str, object]) -> Shape:
    return lambda s: ("POST", f"/session/{s}/actions", js({"actions": list(sources)}), {})


def _legacy(*steps: dict[str, object]) -> Shape:
    return lambda s: ("POST", f"/session/{s}/wda/touch/perform", js({"actions": list(steps)}), {})


def _keys(*values: object) -> dict[str, object]:
    return {"type": "key", "id": "k", "actions": [{"type": kind, "value": v} for v in values
                                                  for kind in ("keyDown", "keyUp")]}


def js(value: object) -> bytes:
    return json.dumps(value).encode()


# Each shape some reader has taken one way and another reader another.
AMBIGUOUS: dict[str, Shape] = {
    "value and text": lambda s: ("POST", f"/session/{s}/wda/keys",
                                 js({"value": ["a"], "text": "xyz"}), {}),
    "a number among the characters": lambda s: ("POST", f"/session/{s}/wda/keys",
                                                 js({"value": ["h", 1, "i"]}), {}),
    "a fragment": lambda s: ("POST", f"/session/{s}/wda/tap#x", js({"x": 300, "y": 6}), {}),
    "a number and more as a string": lambda s: ("POST", f"/session/{s}/wda/tap",
                                                js({"x": "300px", "y": "6"}), {}),
    "a boolean as a number": lambda s: ("POST", f"/session/{s}/wda/tap",
                                        js({"x": True, "y": 6}), {}),
    "a repeated key": lambda s: ("POST", f"/session/{s}/wda/tap",
                                 b'{"x": 1, "x": 300, "y": 6}', {}),
    "NaN": lambda s: ("POST", f"/session/{s}/wda/tap", b'{"x": NaN, "y": 6}', {}),
    "a percent-escape": lambda s: ("POST", f"/session/{s}/wda/%74ap", js({"x": 300, "y": 6}), {}),
    "an empty segment": lambda s: ("POST", "//wda//homescreen", b"", {}),
    "a dot segment": lambda s: ("POST", "/wda/../wda/homescreen", b"", {}),
    "a query on an action": lambda s: ("POST", "/wda/homescreen?then=lock", b"", {}),
    "a key that is not a string": lambda s: ("POST", f"/session/{s}/actions",
                                             js({"actions": [_keys("a", 7)]}), {}),
    "touches with keys": lambda s: ("POST", f"/session/{s}/actions",
                                    js({"actions": [_tap_chain((100, 230)), _keys("p", "w")]}),
                                    {}),
    "one finger tapping twice": lambda s: ("POST", f"/session/{s}/actions",
                                           js({"actions": [_tap_chain((300, 6), (100, 230))]}),
                                           {}),
    "two apps in one session": lambda s: ("POST", "/session", js({
        "capabilities": {"alwaysMatch": {"bundleId": "com.apple.calculator"}},
        "desiredCapabilities": {"bundleId": "com.apple.Preferences"}}), {}),
    "a bundle id as a list": lambda s: ("POST", f"/session/{s}/wda/apps/launch",
                                        js({"bundleId": ["com.apple.", "calculator"]}), {}),
    "a compressed body": lambda s: ("POST", f"/session/{s}/wda/tap",
                                    gzip.compress(js({"x": 300, "y": 6})),
                                    {"Content-Encoding": "gzip"}),
    "a body on a read": lambda s: ("GET", "/source", js({"format": "json"}), {}),
    "a body that is not an object": lambda s: ("POST", f"/session/{s}/wda/tap", b"[300, 6]", {}),
    "not UTF-8": lambda s: ("POST", f"/session/{s}/wda/keys", b'{"value": ["\xff"]}', {}),
    "the legacy tap without a session": lambda s: ("POST", "/wda/tap/0",
                                                   js({"x": 300, "y": 6}), {}),
    "a lone surrogate typed": lambda s: ("POST", f"/session/{s}/wda/keys",
                                         b'{"value": ["a", "\\ud800"]}', {}),
    "a lone surrogate in a W3C key": lambda s: ("POST", f"/session/{s}/actions",
                                                b'{"actions": [{"type": "key", "id": "k", '
                                                b'"actions": [{"type": "keyDown", "value": '
                                                b'"\\udfff"}]}]}', {}),
    # several gestures in one request: each would land on what the one before left on screen
    "one finger tapping twice, a pause apart": _actions(_pointer(
        _at(300, 6), DOWN, UP, _pause(400), _at(100, 230), DOWN, UP)),
    "one finger moving after it lifted": _actions(_pointer(
        _at(100, 230), DOWN, UP, _at(300, 6))),
    "two fingers, one after the other": _actions(
        _pointer(_at(300, 6), DOWN, _pause(50), UP),
        {**_pointer(_pause(300), _at(100, 230), DOWN, _pause(50), UP), "id": "f2"}),
    "a legacy tap with a count": _legacy({"action": "tap", "options": {"x": 100, "y": 230,
                                                                       "count": 2}}),
    "a legacy finger pressing twice": _legacy(
        {"action": "tap", "options": {"x": 300, "y": 6}},
        {"action": "press", "options": {"x": 100, "y": 230}}, {"action": "release"}),
    # W3C shapes WDA reads otherwise than the spec (or the simulator)
    "a move before the move it goes down at": _actions(_pointer(
        _at(300, 6), _pause(100), _at(100, 230), DOWN, UP)),
    "a pointerCancel": _actions(_pointer(
        _at(100, 230), DOWN, _at(100, 600), {"type": "pointerCancel"}, UP)),
    "a pointerDown with a duration": _actions(_pointer(
        _at(100, 230), {"type": "pointerDown", "duration": 500}, UP)),
    "a touch that never lifts": _actions(_pointer(_at(100, 230), DOWN)),
    "a negative pause": _actions(_pointer(_at(100, 230), DOWN, _pause(-300), UP)),
    # touches the log could not name
    "a legacy touch offset from an element": lambda s: (
        "POST", f"/session/{s}/wda/touch/perform",
        js({"actions": [{"action": "tap", "options": {"element": "E1", "x": 0, "y": 0}}]}), {}),
    "a tap at no point": lambda s: ("POST", f"/session/{s}/wda/tap", js({}), {}),
    "several taps with no element": lambda s: ("POST", f"/session/{s}/wda/tapWithNumberOfTaps",
                                               js({"numberOfTaps": 1, "numberOfTouches": 1,
                                                   "x": 100, "y": 230}), {}),
    "a pinch of the whole app": lambda s: ("POST", f"/session/{s}/wda/pinch",
                                           js({"scale": 2, "velocity": 1}), {}),
    "a tap offset from an element": lambda s: ("POST", f"/session/{s}/wda/element/E1/tap",
                                               js({"x": 100, "y": 230}), {}),
    "a drag offset from an element": lambda s: (
        "POST", f"/session/{s}/wda/element/E1/dragfromtoforduration",
        js({"fromX": 30, "fromY": 132, "toX": 376, "toY": 132, "duration": 0}), {}),
}

# Shapes read one way only: forwarded in their canonical form.
CLEAR: dict[str, Shape] = {
    "a trailing slash": lambda s: ("POST", f"/session/{s}/wda/tap/", js({"x": 300, "y": 6}), {}),
    "keys as a list": lambda s: ("POST", f"/session/{s}/wda/keys", js({"value": ["o", "k"]}), {}),
    "a chunk-free tap with extra keys": lambda s: ("POST", f"/session/{s}/wda/tap",
                                                   js({"x": 300, "y": 6, "note": "x"}), {}),
    "W3C keys": lambda s: ("POST", f"/session/{s}/actions", js({"actions": [_keys("h", "i")]}),
                           {}),
    "a point as strings of plain numbers": lambda s: ("POST", f"/session/{s}/wda/tap",
                                                      js({"x": "300", "y": "6"}), {}),
}


@pytest.mark.parametrize("name", sorted(AMBIGUOUS))
def test_an_ambiguous_request_is_refused_and_never_reaches_the_phone(rig: Rig, name: str) -> None:
    session = wda.Client(rig.bridge.url).session(LOGIN)
    session.tap(100, 170)  # the user name field has focus: keys would type into it
    inputs, _ = rig.sim.ledger()
    logged = len(actions(rig.events()))
    method, path, body, headers = AMBIGUOUS[name](session.session_id)
    status, _, data = request(rig.bridge.url, method, path, body, headers)
    assert status in (400, 403, 404), (name, status, data)
    assert "phoneshell bridge refused" in json.loads(data)["value"]["message"]
    assert rig.sim.ledger()[0] == inputs, f"{name}: the phone got an input"
    assert len(actions(rig.events())) == logged, f"{name}: an action was logged"
    assert refusals(rig.events())[-1].error, name
    field = rig.sim.phone.focused
    assert field is not None and field.text == "", f"{name}: something was typed"


@pytest.mark.parametrize("name", sorted(CLEAR))
def test_what_is_forwarded_is_what_is_logged(rig: Rig, name: str) -> None:
    session = wda.Client(rig.bridge.url).session(LOGIN)
    session.tap(100, 170)
    inputs, _ = rig.sim.ledger()
    logged = len(actions(rig.events()))
    method, path, body, headers = CLEAR[name](session.session_id)
    status, _, data = request(rig.bridge.url, method, path, body, headers)
    assert status == 200, (name, data)
    total, received = rig.sim.ledger(inputs)
    new = actions(rig.events())[logged:]
    assert total - inputs == len(new) == 1, name
    assert received[0]["path"] == path.rstrip("/"), name  # the canonical form reached the phone
    if new[0].kind == "type":  # and what was typed is what the log says was typed
        field = rig.sim.phone.focused
        assert field is not None and field.text == new[0].params["text"], name


def test_the_canonical_form_is_rebuilt_from_what_was_parsed() -> None:
    found = admit("GET", "/source/?format=json&excluded_attributes=visible", {}, b"")
    assert found.target == "/source?format=json&excluded_attributes=visible"
    assert found.data is None
    tap = admit("POST", "/session/S1/wda/tap", {}, b'{ "y" : 6,\n "x": 300 }')
    assert (tap.target, tap.data) == ("/session/S1/wda/tap", b'{"y":6,"x":300}')
    assert admit("POST", "/wda/homescreen", {}, b"").data == b"{}"
    with pytest.raises(Refused, match="repeats a key"):
        admit("GET", "/source?format=json&format=xml", {}, b"")
    with pytest.raises(Refused, match="nests deeper"):
        admit("POST", "/session/S1/actions", {}, b'{"actions": ' + b"[" * 70 + b"]" * 70 + b"}")
