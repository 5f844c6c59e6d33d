"""The bridge logs a tap by element id as what the phone acts on: what lies at the element's hit
point (an alert's button, a key, a banner, a menu item), exactly as for a tap at that point.
Typing into a field by id whose focusing tap would land on something over it is refused: the
phone would act there and type nothing. facebook-wda through a bridge on loopback, in front of
the simulator.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import wda
from bridge_rig import LOGIN, LOGIN_APP, Rig, leaked, start_bridge

from phoneshell.records import AuditEvent
from phoneshell.sim import SimServer, layout
from phoneshell.sim.apps import AppModel, Host, builtin_apps
from phoneshell.sim.ui import Node, Rect

SETTINGS, ALERTING = "com.apple.Preferences", "com.example.alerting"


@dataclass
class AlertingState:
    """A button under where its alert comes up."""

    alert: bool = False
    pressed: list[str] = field(default_factory=list)


def _render(state: AlertingState, host: Host) -> Node:
    def press(what: str) -> Callable[[], None]:
        def run() -> None:
            state.pressed.append(what)
            state.alert = what == "Show Alert"
        return run

    kids = [layout.nav_bar(host.facts, "Alerting"),
            layout.button("Show Alert", Rect(16, 210, 200, 44), press("Show Alert")),
            # under the alert's Cancel (its buttons are 140 wide, 8 apart, from x 57 to 345)
            layout.button("Erase", Rect(57, 480, 140, 40), press("Erase"), name="erase")]
    if state.alert:
        kids.append(layout.alert(host.facts, "Sure?", "It cannot be undone.",
                                 [("Cancel", press("Cancel")), ("OK", press("OK"))]))
    return layout.screen(host.facts, kids)


ALERTING_APP = AppModel(ALERTING, "Alerting", AlertingState, _render)


@contextmanager
def _rig(tmp_path: Path, name: str) -> Iterator[Rig]:
    with SimServer(apps=[*builtin_apps(), LOGIN_APP, ALERTING_APP]) as sim:
        bridge, writer = start_bridge(sim, tmp_path / name)
        try:
            yield Rig(sim, bridge, tmp_path / name)
        finally:
            bridge.stop()
            writer.close()


def _last(rig: Rig) -> AuditEvent:
    return [e for e in rig.events() if e.stage in ("intent", "refused")][-1]


def _keyboard(_: Rig, c: wda.Client) -> wda.Session:
    s = c.session(SETTINGS)
    s(className="SearchField").get(timeout=3).tap()
    return s


def _banner(rig: Rig, c: wda.Client) -> wda.Session:
    s = c.session(SETTINGS)
    s(name="com.apple.settings.general").get(timeout=3).tap()
    rig.sim.notify("com.apple.MobileSMS", "Hello", "hi there")
    return s


def _alert(_: Rig, c: wda.Client) -> wda.Session:
    s = c.session(ALERTING)
    s(label="Show Alert").get(timeout=3).tap()
    return s


def _menu(_: Rig, c: wda.Client) -> wda.Session:
    s = c.session()
    c.home()
    rect = s(name="Weather").get(timeout=3).bounds
    s.tap_hold(rect.x + rect.width // 2, rect.y + rect.height // 2, 1.0)
    return s


Overlay = tuple[Callable[[Rig, wda.Client], wda.Session], dict[str, str], str]
OVERLAYS: dict[str, Overlay] = {
    # the overlay, the element it covers, the type of what the tap lands on: windows of their
    # own over the app, which stays visible under them
    "keyboard": (_keyboard, {"name": "com.apple.settings.general"}, "XCUIElementTypeKeyboard"),
    "banner": (_banner, {"name": "BackButton"}, "XCUIElementTypeOther"),
}
MODALS: dict[str, Overlay] = {
    # a modal presentation: what it covers is not visible, as on a phone (the real share
    # sheet's dump), so WDA refuses a tap by its id, and a tap at its point lands on the modal
    "alert": (_alert, {"name": "erase"}, "XCUIElementTypeButton"),
    "alert backdrop": (_alert, {"label": "Show Alert"}, "XCUIElementTypeAlert"),
    "context menu": (_menu, {"name": "Books"}, "XCUIElementTypeButton"),
}


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_a_tap_by_id_is_logged_as_a_tap_at_its_hit_point(tmp_path: Path, overlay: str) -> None:
    setup, covered, landed = OVERLAYS[overlay]
    logged, ends = [], []
    for touch in ("id", "point"):
        with _rig(tmp_path, touch) as rig:
            c = wda.Client(rig.bridge.url)
            s = setup(rig, c)
            element = s(**covered).get(timeout=3)
            rect = element.bounds
            if touch == "id":
                element.tap()
            else:
                s.tap(rect.x + rect.width // 2, rect.y + rect.height // 2)
            tap = _last(rig)
            assert (tap.kind, tap.stage) == ("tap", "intent")
            logged.append(tap.target)
            ends.append(rig.sim.state()["foreground"])
    assert logged[0] == logged[1], "the log names what a tap at the hit point lands on"
    assert logged[0] is not None and logged[0].type == landed
    assert logged[0].name != covered.get("name")
    assert logged[0].keyboard == (overlay == "keyboard")
    assert ends[0] == ends[1]


@pytest.mark.parametrize("modal", MODALS)
def test_a_tap_by_id_on_what_a_modal_covers_is_refused_by_wda_and_changes_nothing(
        tmp_path: Path, modal: str) -> None:
    setup, covered, landed = MODALS[modal]
    with _rig(tmp_path, "id") as rig:
        c = wda.Client(rig.bridge.url)
        s = setup(rig, c)
        element = s(**covered).get(timeout=3)
        assert not element.visible
        before = rig.sim.state()
        with pytest.raises(wda.WDARequestError, match="is not visible on the screen"):
            element.tap()
        assert rig.sim.state() == before  # nothing pressed, nothing dismissed
        rect = element.bounds
        s.tap(rect.x + rect.width // 2, rect.y + rect.height // 2)
        tap = _last(rig)
        assert (tap.kind, tap.stage) == ("tap", "intent")
        assert tap.target is not None and tap.target.type == landed  # the modal's
        assert tap.target.name != covered.get("name")


def test_typing_by_id_into_a_field_whose_focusing_tap_lands_on_a_key_is_refused(
        tmp_path: Path) -> None:
    with _rig(tmp_path, "runs") as rig:
        s = wda.Client(rig.bridge.url).session(LOGIN)
        s.tap(100, 170)  # the user name field: the keyboard comes up over the PIN field
        pin = s(name="pin").get(timeout=5)
        for write in (lambda: pin.set_text("4321"), pin.clear_text):
            with pytest.raises(wda.WDARequestError, match="lands at its hit point .* on Key"):
                write()
            refused = _last(rig)
            assert refused.stage == "refused" and "no keyboard focus" in str(refused.error)
        state = rig.sim.phone.running[LOGIN].state
        assert state.pin.text == state.user.text == ""  # type: ignore[attr-defined]
        assert leaked(rig.runs / "unscoped" / "audit.jsonl", "4321") == []
        s(name="user").get().set_text("alice")  # a field its tap reaches takes the text
        typed = _last(rig)
        assert typed.kind == "type" and typed.target is not None
        assert typed.target.name == "user"
        assert state.user.text == "alice"  # type: ignore[attr-defined]
