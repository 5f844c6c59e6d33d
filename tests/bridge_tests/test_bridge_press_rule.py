"""One rule says which gestures press a control (`presses.touch_press`): the simulated iPhone
plays every gesture by it and the bridge logs it by it. For every gesture the WDA routes offer,
on a button in no list and on one inside a list, the phone pressed exactly when the audit log
says it did (a `tap` that `press_count` counts, aimed at that button), and a request the bridge
refused never reached the phone. facebook-wda finds the elements; the gestures are raw HTTP to
the bridge in front of the simulator, as any client's would be.

Red team 59: a pinch on Settings' list opened Cellular in the simulator while the log said
`swipe`: the simulator pressed the row under the first finger, the bridge (rightly) took the
list's pan for the fingers' moves."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import wda
from bridge_rig import Rig, post, start_bridge, touch

from phoneshell.audit import actions
from phoneshell.presses import Spot, press_count, touch_press
from phoneshell.sim import SimServer, layout
from phoneshell.sim.apps import AppModel, Host, builtin_apps
from phoneshell.sim.bindings import Scroll
from phoneshell.sim.ui import Node, Rect

APP = "com.example.presses"
SOLO = Rect(100, 200, 200, 80)
"""A button in no list (inside a panel, which a pinch may name)."""
LIST = Rect(0, 420, 402, 240)
ROW = Rect(100, 480, 200, 80)
"""A button inside the list (a Table: it scrolls, so its pan takes a finger that moves)."""
OTHER = Rect(100, 700, 200, 40)
"""A plain text far from both, where a press-and-drag may end."""


@dataclass
class Counts:
    """How often each button was pressed."""

    pressed: dict[str, int] = field(default_factory=dict)
    scroll: Scroll = field(default_factory=Scroll)


def render(state: Counts, host: Host) -> Node:
    """A panel holding Solo, a list holding Row, a text, and a tab bar along the bottom."""
    def press(label: str) -> Callable[[], None]:
        return lambda: state.pressed.__setitem__(label, state.pressed.get(label, 0) + 1)
    panel = Node("Other", Rect(60, 180, 280, 120), name="Panel",
                 children=(layout.button("Solo", SOLO, press("Solo")),))
    table = Node("Table", LIST, scroll=state.scroll, key="rows",
                 children=(layout.button("Row", ROW, press("Row")),))
    return layout.screen(host.facts, [
        layout.nav_bar(host.facts, "Presses"), panel, table,
        layout.text("Elsewhere", OTHER, name="Elsewhere"),
        layout.tab_bar(host.facts, [("Tab", press("Tab")), ("Other tab", press("Other tab"))],
                       0)])


@dataclass
class Bench:
    """The simulator with the app above, the bridge in front, the app's state and ids."""

    rig: Rig
    states: list[Counts]
    sid: str
    ids: dict[str, str]

    def pressed(self) -> dict[str, int]:
        return dict(self.states[-1].pressed)


@pytest.fixture
def bench(tmp_path: Path) -> Iterator[Bench]:
    states: list[Counts] = []

    def make() -> Counts:
        states.append(Counts())
        return states[-1]
    server = SimServer(apps=[*builtin_apps(), AppModel(APP, "Presses", make, render)])
    server.start()
    bridge, writer = start_bridge(server, tmp_path / "runs")
    try:
        session = wda.Client(bridge.url).session(APP)
        ids = {label: session(label=label, className="Button").get(timeout=5).id
               for label in ("Solo", "Row", "Tab")}
        ids["Panel"] = session(name="Panel").get(timeout=5).id
        ids["Table"] = session(className="Table").get(timeout=5).id
        ids["Elsewhere"] = session(label="Elsewhere").get(timeout=5).id
        yield Bench(Rig(server, bridge, tmp_path / "runs"), states, session.session_id, ids)
    finally:
        bridge.stop()
        writer.close()
        server.stop()


Request = tuple[str, object]
"""A path under the session and its body."""
Make = Callable[[dict[str, str], str, Rect], Request]
"""(ids, the button's label, its frame) -> the request."""


def _centre(frame: Rect) -> tuple[float, float]:
    return frame.x + frame.width / 2, frame.y + frame.height / 2


def _on(route: str, body: object = None) -> Make:
    return lambda ids, label, _: (f"/wda/element/{ids[label]}/{route}", body or {})


def _holder(route: str, body: object) -> Make:
    """On what holds the button: Solo's panel, Row's list (the red team's pinch)."""
    return lambda ids, label, _: (
        f"/wda/element/{ids['Panel' if label == 'Solo' else 'Table']}/{route}", body)


def _drag(dx: float, dy: float, duration: float = 0.0) -> Make:
    def make(_: dict[str, str], __: str, frame: Rect) -> Request:
        x, y = _centre(frame)
        return "/wda/dragfromtoforduration", {"fromX": x, "fromY": y, "toX": x + dx,
                                              "toY": y + dy, "duration": duration}
    return make


def _press_and_drag(onto: str | None) -> Make:
    return lambda ids, label, _: (f"/wda/element/{ids[label]}/pressAndDragWithVelocity", {
        "pressDuration": 0.1, "holdDuration": 0.1, "velocity": 500,
        "toElement": ids[onto or label]})


def _fingers(*moves: tuple[float, float, float, float]) -> Make:
    """W3C fingers down together at offsets from the button's centre, each moving (dx, dy)."""
    def make(_: dict[str, str], __: str, frame: Rect) -> Request:
        x, y = _centre(frame)
        return "/actions", {"actions": [
            touch(x + ox, y + oy, 120, to=(x + ox + dx, y + oy + dy) if dx or dy else None,
                  name=f"finger{n}") for n, (ox, oy, dx, dy) in enumerate(moves, 1)]}
    return make


GESTURES: dict[str, Make] = {
    "tap": _on("tap"),
    "tap at its point": lambda _, __, frame: ("/wda/tap", {"x": _centre(frame)[0],
                                                           "y": _centre(frame)[1]}),
    "click": lambda ids, label, _: (f"/element/{ids[label]}/click", {}),
    "double tap": _on("doubleTap"),
    "short touch and hold": _on("touchAndHold", {"duration": 0.2}),
    "touch and hold": _on("touchAndHold", {"duration": 1.0}),
    "two finger tap": _on("twoFingerTap"),
    "one finger taps": _on("tapWithNumberOfTaps", {"numberOfTaps": 1, "numberOfTouches": 1}),
    "two finger taps": _on("tapWithNumberOfTaps", {"numberOfTaps": 1, "numberOfTouches": 2}),
    "swipe up": _on("swipe", {"direction": "up"}),
    "swipe left": _on("swipe", {"direction": "left"}),
    "scroll down": _on("scroll", {"direction": "down", "distance": 0.3}),
    "scroll to visible": _on("scroll", {"toVisible": True}),
    "scrollTo": _on("scrollTo"),
    "pinch": _on("pinch", {"scale": 0.8, "velocity": -1}),
    "rotate": _on("rotate", {"rotation": 0.3, "velocity": 1}),
    "pinch what holds it": _holder("pinch", {"scale": 0.5, "velocity": -1}),
    "rotate what holds it": _holder("rotate", {"rotation": 0.3, "velocity": 1}),
    "drag within the slop": _drag(6, 0),
    "drag held within the slop": _drag(0, 4, 0.8),
    "drag within reach": _drag(40, 0),
    "drag out of reach": _drag(0, 180),
    "press and drag onto itself": _press_and_drag(None),
    "press and drag elsewhere": _press_and_drag("Elsewhere"),
    "W3C tap": _fingers((0, 0, 0, 0)),
    "W3C slide within reach": _fingers((0, 0, 30, 0)),
    "W3C two fingers tap": _fingers((-20, 0, 0, 0), (20, 0, 0, 0)),
    "W3C two fingers slide": _fingers((-20, 0, 30, 0), (20, 0, 30, 0)),
}
"""Every gesture the WDA routes offer, aimed at a button (its id, point or holder)."""


@pytest.mark.parametrize("label", ["Solo", "Row"])
@pytest.mark.parametrize("gesture", list(GESTURES))
def test_the_phone_presses_exactly_when_the_log_says(bench: Bench, gesture: str,
                                                     label: str) -> None:
    """The simulator's presses of the button and the log's agree for every gesture: a press
    is logged as a tap of the button that `press_count` counts; a gesture the log names as no
    press, or as one the phone may or may not take (two fingers), presses nothing; a refused
    one never reaches the phone."""
    frame = SOLO if label == "Solo" else ROW
    path, body = GESTURES[gesture](bench.ids, label, frame)
    rig = bench.rig
    before, inputs = bench.pressed(), rig.sim.ledger()[0]
    logged = len(actions(rig.events()))
    status, message = post(rig, f"/session/{bench.sid}{path}", body)
    now = bench.pressed()
    pressed = {k: now[k] - before.get(k, 0) for k in now if now[k] != before.get(k, 0)}
    if status == 403:
        assert "phoneshell bridge refused" in message, message
        assert rig.sim.ledger()[0] == inputs and not pressed, f"refused, yet the phone got {path}"
        return
    assert status == 200, (status, message)
    new = actions(rig.events())[logged:]
    assert len(new) == 1, [a.kind for a in new]
    action = new[0]
    counted = press_count(action.kind, action.params) if action.kind == "tap" else 0
    said = f"{gesture} on {label}: logged {action.kind} {dict(action.params)}, pressed {pressed}"
    if counted:
        assert action.target is not None and action.target.label == label, said
        assert pressed == {label: pressed.get(label, 0)} and pressed.get(label, 0) >= 1, said
    else:
        assert not pressed, said


def test_the_red_teams_pinch_on_settings_list_opens_nothing(bench: Bench) -> None:
    """Settings' list, pinched through the bridge: logged as the swipe it is, and the phone
    stays on Settings (it opened Cellular: the row under XCTest's first finger)."""
    session = wda.Client(bench.rig.bridge.url).session("com.apple.Preferences")
    listing = session(className="CollectionView").get(timeout=5)
    status, _ = post(bench.rig, f"/session/{session.session_id}/wda/element/{listing.id}/pinch",
                     {"scale": 0.5, "velocity": -1})
    assert status == 200
    assert actions(bench.rig.events())[-1].kind == "swipe"
    assert session(className="NavigationBar", name="Settings").exists
    assert session(className="CollectionView").exists


def test_a_slide_up_from_the_bottom_edge_on_a_tab_goes_home(bench: Bench) -> None:
    """A finger that goes down on a tab within the bottom edge and slides up goes home on a
    phone (the system takes it before the tab bar): logged as the swipe, no tab pressed."""
    height = bench.rig.sim.phone.facts.height
    x = bench.rig.sim.phone.facts.width / 4  # the middle of the first tab
    status, _ = post(bench.rig, f"/session/{bench.sid}/wda/dragfromtoforduration",
                     {"fromX": x, "fromY": height - 35, "toX": x, "toY": height - 110,
                      "duration": 0})
    assert status == 200
    assert actions(bench.rig.events())[-1].kind == "swipe"
    assert bench.pressed() == {}
    assert bench.rig.sim.phone.active()[0] == "com.apple.springboard"


def test_the_rule_for_fingers_that_move_together() -> None:
    """Pure: fingers moving together on a button in no list press it; in a list, none (its pan
    takes them); still together, the rule names no press (the log: may or may not)."""
    screen = Spot("Application", (0, 0, 402, 874))
    button = Spot("Button", (100, 200, 200, 80))
    table = Spot("Table", (0, 100, 402, 600), scrolls=True)
    at = (200.0, 240.0)
    assert touch_press([screen, button], [screen, button], at, at, True, 2) == ("down", 1)
    assert touch_press([screen, table, button], [screen, table, button], at, at, True, 2) is None
    assert touch_press([screen, button], [screen, button], at, at, False, 2) is None
    assert touch_press([screen, button], [screen, button], at, at, False) == ("down", 1)
