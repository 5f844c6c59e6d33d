"""W3C pointer chains the bridge refuses because WDA reads them otherwise than the W3C spec,
sent to the bare simulator too (red team 95, RT95-8): a client built against `phoneshell sim`
alone learns what a phone does. WDA (FBW3CActionsSynthesizer) starts a touch at a pointer's
first move, so a move while up that no pointerDown follows right after is refused by both with
the same reason; a pointerDown's or pointerUp's duration, which WDA waits out, the simulator
waits out too (the bridge refuses it, asking for a pause)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

import pytest
import wda
from bridge_rig import TOUCH, Rig, perform

from phoneshell.sim import SimServer
from phoneshell.xcui import SETTINGS

FIRST_MOVE = "WDA starts a touch at a pointer's first move"
ACCESSIBILITY = "com.apple.settings.accessibility"


def finger(*steps: dict[str, Any]) -> dict[str, Any]:
    return {"type": "pointer", "id": "f1", "parameters": TOUCH, "actions": list(steps)}


def move(x: float, y: float, origin: str = "viewport") -> dict[str, Any]:
    return {"type": "pointerMove", "duration": 0, "x": x, "y": y, "origin": origin}


DOWN, UP = {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0}
PAUSE = {"type": "pause", "duration": 80}


def bare(sim: SimServer, sid: str, *sources: dict[str, Any]) -> tuple[int, str]:
    """POST the actions straight to the simulator: status and WDA's message ("" on success)."""
    request = urllib.request.Request(f"{sim.url}/session/{sid}/actions", method="POST",
                                     data=json.dumps({"actions": list(sources)}).encode())
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            return reply.status, ""
    except urllib.error.HTTPError as exc:
        return exc.code, str(json.loads(exc.read())["value"]["message"])


def _row(session: wda.Client) -> tuple[float, float]:
    return session(name=ACCESSIBILITY).get(timeout=5).bounds.center


@pytest.mark.parametrize("steps", [
    # the red team's chain: a move, a move from there by the pointer, then the press
    pytest.param(lambda x, y: [move(10, 10), move(x - 10, y - 10, "pointer"), DOWN, PAUSE, UP],
                 id="two-moves-then-down"),
    pytest.param(lambda x, y: [move(x, y), PAUSE, DOWN, PAUSE, UP], id="pause-before-down"),
    pytest.param(lambda x, y: [move(x, y), DOWN, PAUSE, UP, move(10, 10)], id="move-after-up"),
    pytest.param(lambda x, y: [move(x, y), UP], id="move-then-up"),
])
def test_a_move_while_up_not_right_before_the_press_is_refused_by_both(
        rig: Rig, steps: Any) -> None:
    session = wda.Client(rig.sim.url).session(SETTINGS)
    chain = finger(*steps(*_row(session)))
    status, message = bare(rig.sim, session.session_id, chain)
    assert (status, FIRST_MOVE in message) == (400, True), message
    status, message = perform(rig, session.session_id, chain)
    assert status >= 400, message  # after a lift, as a second gesture; else by the first move
    assert FIRST_MOVE in message or "again after it lifted" in message, message
    # neither played it: Accessibility never opened
    assert session(name=ACCESSIBILITY).exists
    assert not session(className="NavigationBar", name="Accessibility").exists


def test_the_same_tap_with_its_move_right_before_the_press_plays(rig: Rig) -> None:
    session = wda.Client(rig.sim.url).session(SETTINGS)
    x, y = _row(session)
    assert bare(rig.sim, session.session_id, finger(move(x, y), DOWN, PAUSE, UP)) == (200, "")
    assert session(className="NavigationBar", name="Accessibility").get(timeout=5)


def test_a_press_with_a_duration_is_held_as_wda_holds_it(sim: SimServer) -> None:
    """WDA adds a pointerDown's duration to the finger's clock: down 1.3 s, up is a long press,
    which opens a home-screen icon's menu (the spec's reading, a tap, would open the app)."""
    client = wda.Client(sim.url)
    session = client.session()
    x, y = session(className="Icon", label="Weather").get(timeout=5).bounds.center
    held = finger(move(x, y), {"type": "pointerDown", "duration": 1300}, UP)
    assert bare(sim, session.session_id, held) == (200, "")
    assert session(className="Menu").get(timeout=5)
    assert client.app_current()["bundleId"] == "com.apple.springboard"
