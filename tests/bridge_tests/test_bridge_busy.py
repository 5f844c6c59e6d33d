"""A request may not keep the phone busy longer than a person's gesture or a task's typing needs.

WDA runs one command at a time: a hold of 900 s, a drag at a crawl, a W3C pause with a finger
down, or a novel typed at 60 characters a second keeps the harness's next read waiting until it
times out, and the attempt would be skipped as "rig down" (the adversarial study's finding 2).
Each such request is refused (403, logged `refused`, naming the limit) and never reaches the
phone; the same request just under the limit is forwarded. Sent over real HTTP, as an agent
sends them, to the simulated iPhone behind the bridge.
"""

from __future__ import annotations

import pytest
import wda
from bridge_rig import LOGIN, TOUCH, Rig, refused_unsent, sent, touch

from bridge.limits import MAX_GESTURE_S, MAX_TYPED_CHARS
from phoneshell.audit import actions
from phoneshell.xcui import SETTINGS, SPRINGBOARD

CALCULATOR = "com.apple.calculator"
LIMIT = f"up to {MAX_GESTURE_S:g} s"
TYPING = f"at most {MAX_TYPED_CHARS:,} characters a request"


def _pointer(*steps: dict[str, object], name: str = "f1") -> dict[str, object]:
    return {"type": "pointer", "id": name, "parameters": TOUCH, "actions": list(steps)}


def _held(ms: float, before_ms: float = 0.0, after_ms: float = 0.0) -> dict[str, object]:
    """A finger that waits `before_ms`, taps (200, 400) held `ms`, then waits `after_ms`."""
    return _pointer({"type": "pause", "duration": before_ms},
                    {"type": "pointerMove", "x": 200, "y": 400}, {"type": "pointerDown"},
                    {"type": "pause", "duration": ms}, {"type": "pointerUp"},
                    {"type": "pause", "duration": after_ms})


def _keys(text: str, pause_ms: float = 0.0) -> dict[str, object]:
    steps: list[dict[str, object]] = [{"type": "pause", "duration": pause_ms}]
    for char in text:
        steps += [{"type": "keyDown", "value": char}, {"type": "keyUp", "value": char}]
    return {"type": "key", "id": "keyboard", "actions": steps}


# (route under the session, body over the limit, body just under it)
GESTURES: dict[str, tuple[str, dict[str, object], dict[str, object]]] = {
    "touch and hold": ("/wda/touchAndHold", {"x": 200, "y": 400, "duration": 900},
                       {"x": 200, "y": 400, "duration": 4.9}),
    "drag": ("/wda/dragfromtoforduration",
             {"fromX": 200, "fromY": 600, "toX": 200, "toY": 300, "duration": 600},
             {"fromX": 200, "fromY": 600, "toX": 200, "toY": 300, "duration": 4.9}),
    "press and drag at a crawl": (
        "/wda/pressAndDragWithVelocity",
        {"fromX": 200, "fromY": 600, "toX": 200, "toY": 300, "velocity": 1,
         "pressDuration": 0.5, "holdDuration": 0.1},
        {"fromX": 200, "fromY": 600, "toX": 200, "toY": 300, "velocity": 100,
         "pressDuration": 1, "holdDuration": 0.9}),
    "press and drag held": (
        "/wda/pressAndDragWithVelocity",
        {"fromX": 200, "fromY": 600, "toX": 200, "toY": 300, "pressDuration": 3,
         "holdDuration": 3},
        {"fromX": 200, "fromY": 600, "toX": 200, "toY": 300, "pressDuration": 2,
         "holdDuration": 2.9}),
    "force touch": ("/wda/forceTouch", {"x": 200, "y": 400, "pressure": 1, "duration": 60},
                    {"x": 200, "y": 400, "pressure": 1, "duration": 1}),
    "a pause with the finger down": ("/actions", {"actions": [_held(900_000)]},
                                     {"actions": [_held(4900)]}),
    "a pause before the finger goes down": ("/actions", {"actions": [_held(80, 600_000)]},
                                            {"actions": [_held(80, 4800)]}),
    "a pause after the finger lifts": ("/actions", {"actions": [_held(80, 0, 600_000)]},
                                       {"actions": [_held(80, 0, 4800)]}),
    "a slow move with the finger down": (
        "/actions", {"actions": [touch(200, 600, hold_ms=300_000, to=(200, 300))]},
        {"actions": [touch(200, 600, hold_ms=4900, to=(200, 300))]}),
    "a long legacy press": ("/wda/touch/perform", {"actions": [
        {"action": "longPress", "options": {"x": 200, "y": 400, "duration": 900_000}},
        {"action": "release", "options": {}}]}, {"actions": [
            {"action": "longPress", "options": {"x": 200, "y": 400, "duration": 4900}},
            {"action": "release", "options": {}}]}),
    "a legacy wait": ("/wda/touch/perform", {"actions": [
        {"action": "press", "options": {"x": 200, "y": 400}},
        {"action": "wait", "options": {"ms": 900_000}}, {"action": "release", "options": {}}]},
        {"actions": [{"action": "press", "options": {"x": 200, "y": 400}},
                     {"action": "wait", "options": {"ms": 4900}},
                     {"action": "release", "options": {}}]}),
}


UNMODELLED = frozenset({"/wda/forceTouch", "/wda/touch/perform"})
"""Routes the simulator answers 404 (WDA 16 serves them): still forwarded under the limit."""


@pytest.mark.parametrize("name", sorted(GESTURES))
def test_a_gesture_longer_than_a_person_makes_is_refused(rig: Rig, name: str) -> None:
    route, over, under = GESTURES[name]
    session = wda.Client(rig.bridge.url).session(CALCULATOR)
    path = f"/session/{session.session_id}{route}"
    message = refused_unsent(rig, path, over)
    assert LIMIT in message and "keep the phone busy" in message, message
    sent(rig, path, under, 404 if route in UNMODELLED else 200)


@pytest.mark.parametrize(("name", "route", "over", "under"), [
    ("deactivate", "/wda/deactivateApp", {"duration": 600}, {"duration": 3}),
    ("button held", "/wda/pressButton", {"name": "home", "duration": 300},
     {"name": "home", "duration": 0.5}),
])
def test_the_phone_is_not_held_away_or_pressed_for_minutes(
        rig: Rig, name: str, route: str, over: dict[str, object],
        under: dict[str, object]) -> None:
    session = wda.Client(rig.bridge.url).session(CALCULATOR)
    path = f"/session/{session.session_id}{route}"
    assert LIMIT in refused_unsent(rig, path, over), name
    sent(rig, path, under)
    # deactivating comes back to the app; the home button leaves it
    assert rig.sim.state()["foreground"] == (CALCULATOR if "deactivate" in route else
                                             SPRINGBOARD)


@pytest.mark.parametrize(("name", "route", "over", "under"), [
    ("a swipe at a crawl", "/wda/element/{E}/swipe", {"direction": "up", "velocity": 1},
     {"direction": "up", "velocity": 300}),
    ("a pinch at a crawl", "/wda/element/{E}/pinch", {"scale": 2, "velocity": 0.01},
     {"scale": 2, "velocity": 1}),
    ("a pinch with no velocity", "/wda/element/{E}/pinch", {"scale": 2, "velocity": 0},
     {"scale": 0.5, "velocity": -1}),
    ("a rotation at a crawl", "/wda/element/{E}/rotate", {"rotation": 3.14, "velocity": 0.001},
     {"rotation": 3.14, "velocity": 1}),
    ("a million taps", "/wda/element/{F}/tapWithNumberOfTaps",
     {"numberOfTaps": 1_000_000, "numberOfTouches": 1}, {"numberOfTaps": 3,
                                                          "numberOfTouches": 1}),
    ("a scroll a hundred lists long", "/wda/element/{E}/scroll",
     {"direction": "down", "distance": 100}, {"direction": "down", "distance": 0.5}),
])
def test_a_gesture_paced_to_last_minutes_is_refused(rig: Rig, name: str, route: str,
                                                    over: dict[str, object],
                                                    under: dict[str, object]) -> None:
    session = wda.Client(rig.bridge.url).session(SETTINGS)
    table = session(className="CollectionView").get(timeout=5).id
    field = session(className="SearchField").get().id
    path = f"/session/{session.session_id}" + route.format(E=table, F=field)
    assert "phoneshell bridge refused" in refused_unsent(rig, path, over), name
    sent(rig, path, under)


def _login_field(rig: Rig) -> tuple[wda.Client, str]:
    """The login app, its user name field focused; the session's path."""
    session = wda.Client(rig.bridge.url).session(LOGIN)
    session.tap(100, 170)
    return session, f"/session/{session.session_id}"


def _typed(rig: Rig) -> str:
    field = rig.sim.phone.focused
    assert field is not None
    return field.text


@pytest.mark.slow  # 3.4 s measured: the README's command stays quick
def test_typing_a_novel_is_refused_and_a_long_text_is_typed(rig: Rig) -> None:
    """Over `MAX_TYPED_CHARS` a request, or slower than WDA's 60 a second makes them take, is
    refused and types nothing; the limit itself is typed whole (through every typing route)."""
    session, sid = _login_field(rig)
    # a novel in one text: a body of a million characters split into one value each is
    # refused before it is read (`bridge.gate.MAX_BODY_BYTES`, tests/bridge_tests/
    # test_bridge_body_bounds.py)
    novel, page = "ab " * 200_000, "x" * MAX_TYPED_CHARS
    for path, body in ((f"{sid}/wda/keys", {"value": [novel]}),
                       (f"{sid}/wda/keys", {"value": [page + "y"]}),
                       (f"{sid}/wda/keys", {"value": ["slow" * 50], "frequency": 1}),
                       (f"{sid}/actions", {"actions": [_keys(page + "y")]}),
                       (f"{sid}/actions", {"actions": [_keys("ok", pause_ms=600_000)]})):
        message = refused_unsent(rig, path, body)
        assert TYPING in message or LIMIT in message, message
        assert _typed(rig) == ""
    field = session(className="TextField").get().id
    refused_unsent(rig, f"{sid}/element/{field}/value", {"value": page + "y"})
    sent(rig, f"{sid}/wda/keys", {"value": list(page)})
    assert _typed(rig) == page
    sent(rig, f"{sid}/wda/keys", {"value": ["fast" * 250], "frequency": 120})  # 8.3 s
    typed = actions(rig.events())[-2:]
    assert [len(str(a.params["text"])) for a in typed] == [MAX_TYPED_CHARS, MAX_TYPED_CHARS]
