"""Control Center's controls beyond the four connectivity toggles (Orientation Lock, Focus, the
flashlight, brightness, volume, Silent Mode, Screen Mirroring, the launchers...) outlast the run
and no set-back undoes them: the bridge refuses each, whether tapped at a point, by element id,
by W3C or legacy touch actions, or slid, and logs the refusal with its target; a touch it
cannot place in Control Center is refused too. The connectivity toggles (set back after the
attempt) and the empty space that closes it are forwarded. Driven by facebook-wda against the
simulated iPhone, whose Control Center draws them with their effects."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
import wda
from bridge_rig import Rig, perform, request, touch

from phoneshell.lasting import control_center_lasting, outlasts_run
from phoneshell.sim import SimServer
from phoneshell.xcui import SETTINGS, SPRINGBOARD, SWITCH

REFUSED = ("orientation-lock-button", "focus-button", "flashlight-button",
           "silent-mode-button", "screen-mirroring-button", "now-playing-button",
           "timer-button", "calculator-button", "camera-button", "edit-button",
           "power-off-button", "brightness-slider", "volume-slider")
"""Every control the simulated Control Center draws but the four connectivity toggles."""


def _open(rig: Rig) -> wda.Session:
    """Control Center pulled down over the home screen, through the bridge."""
    session = wda.Client(rig.bridge.url).session()
    session.swipe(362, 2, 362, 300, 0.1)
    session(name="wifi-button").get(timeout=5)
    return session


def _refused(rig: Rig) -> list[tuple[str, str, str]]:
    return [(e.kind, e.target.name if e.target else "", e.error) for e in rig.events()
            if e.stage == "refused"]


def _store(sim: SimServer) -> dict[str, object]:
    with sim.lock:
        return dict(sim.phone.store(SETTINGS).data)


def _centre(session: wda.Session, name: str) -> tuple[int, int]:
    x, y = session(name=name).get(timeout=5).bounds.center
    return int(x), int(y)


def _legacy_tap(rig: Rig, sid: str, x: int, y: int) -> None:
    body = json.dumps({"actions": [{"action": "tap", "options": {"x": x, "y": y}}]}).encode()
    assert request(rig.bridge.url, "POST", f"/session/{sid}/wda/touch/perform", body)[0] == 403


def _w3c_tap(rig: Rig, sid: str, x: int, y: int) -> None:
    assert perform(rig, sid, touch(x, y))[0] == 403


def _refused_by_wda(act: Callable[[], object]) -> None:
    with pytest.raises(wda.WDAError, match="phoneshell bridge refused"):
        act()


WAYS: dict[str, Callable[[Rig, wda.Session, str], None]] = {
    "tap at a point": lambda rig, s, name: _refused_by_wda(lambda: s.tap(*_centre(s, name))),
    "tap by id": lambda rig, s, name: _refused_by_wda(s(name=name).get(timeout=5).tap),
    "w3c touch": lambda rig, s, name: _w3c_tap(rig, s.session_id, *_centre(s, name)),
    "legacy touch": lambda rig, s, name: _legacy_tap(rig, s.session_id, *_centre(s, name)),
    "slide": lambda rig, s, name: _refused_by_wda(lambda: s.swipe(
        *_centre(s, name), _centre(s, name)[0] + 5, _centre(s, name)[1] - 60, 0.2)),
}


@pytest.mark.parametrize("way", WAYS)
def test_every_control_but_the_connectivity_toggles_is_refused(rig: Rig, sim: SimServer,
                                                               way: str) -> None:
    session = _open(rig)
    before = _store(sim)
    for name in REFUSED:
        WAYS[way](rig, session, name)
    assert _store(sim) == before, "nothing reached the phone"
    refused = _refused(rig)
    assert sorted({name for _, name, _ in refused}) == sorted(REFUSED), refused
    assert all(why.endswith("no task needs it, and nothing after the run sets it back")
               for _, _, why in refused)
    lock = next(why for _, name, why in refused if name == "orientation-lock-button")
    assert lock == ("it would lock the screen upright, so later tasks could not turn an app "
                    "sideways (Calculator's scientific keypad): no task needs it, and nothing "
                    "after the run sets it back")
    with sim.lock:
        assert sim.phone.foreground == SPRINGBOARD


def test_the_connectivity_toggles_and_the_empty_space_are_forwarded(rig: Rig,
                                                                    sim: SimServer) -> None:
    session = _open(rig)
    session(name="wifi-button").get(timeout=5).tap()
    assert _store(sim).get("wifi") is False
    session.tap(*_centre(session, "bluetooth-button"))
    assert _store(sim).get("bluetooth") is False
    session.tap(380, 800)  # below the modules: Control Center closes
    assert not _refused(rig)
    with sim.lock:
        assert sim.phone.foreground == SPRINGBOARD
    assert not session(name="wifi-button").exists


def test_a_touch_between_the_toggles_cannot_be_placed_and_is_refused(rig: Rig,
                                                                     sim: SimServer) -> None:
    session = _open(rig)
    before = _store(sim)
    with pytest.raises(wda.WDAError, match="neither name nor label"):
        session.tap(110, 195)  # inside the connectivity module, on no toggle
    assert _store(sim) == before
    assert _refused(rig)[0][:2] == ("tap", "")


def test_the_rule_fails_closed_on_an_element_it_cannot_name() -> None:
    # a Switch named like a toggle but not a Switch, or not on SpringBoard, is no toggle
    assert control_center_lasting("tap", SPRINGBOARD, SWITCH, "Wi-Fi", "wifi-button", "") == ""
    assert control_center_lasting("tap", SPRINGBOARD, "XCUIElementTypeButton", "Wi-Fi",
                                  "wifi-button", "")
    assert control_center_lasting("tap", "com.apple.calculator", SWITCH, "Wi-Fi",
                                  "wifi-button", "")
    assert "Do Not Disturb" in control_center_lasting("tap", SPRINGBOARD, SWITCH, "",
                                                      "focus-button", "")
    # an unnamed view laid over the screen passes only over Control Center's own space
    assert control_center_lasting("tap", SPRINGBOARD, "XCUIElementTypeOther", "", "",
                                  "ControlCenterLayoutView") == ""
    assert "neither name nor label" in control_center_lasting(
        "tap", SPRINGBOARD, "XCUIElementTypeOther", "", "", "orientation-lock-button")
    assert "'Hearing'" in control_center_lasting("tap", SPRINGBOARD, "XCUIElementTypeButton",
                                                 "Hearing", "", "")


def test_settings_controls_no_set_back_knows_are_refused() -> None:
    # a date picked, a stepper's count, a segment chosen: no set-back knows them
    for kind, target_type, label in (("swipe", "XCUIElementTypePickerWheel", "12"),
                                     ("type", "XCUIElementTypeDatePicker", ""),
                                     ("tap", "XCUIElementTypeSegmentedControl", "Large"),
                                     ("tap", "XCUIElementTypeButton", "Increment")):
        assert "cannot set back" in outlasts_run(kind, SETTINGS, label, target_type=target_type)
    assert outlasts_run("tap", SETTINGS, "Dark", target_type="XCUIElementTypeButton") == ""
