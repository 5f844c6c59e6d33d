"""A long press in Control Center is no tap: on a connectivity toggle it expands the module (six
toggles over Control Center, switching nothing), on the expanded Wi-Fi or Bluetooth it opens the
network or device list, and anywhere else it changes nothing, as on iOS 17-26 (a phone opens
other controls' own views, not modelled). A tap on the space around the expanded panel closes
it, home closes Control Center. Every hold is sent as clients send it: WDA's touchAndHold on an
element id, and a W3C finger held in place, through facebook-wda over HTTP."""

from __future__ import annotations

from collections.abc import Callable
from xml.etree import ElementTree

import pytest
import wda

from phoneshell.sim import SimServer

SETTINGS = "com.apple.Preferences"
EXPANDED = {"airplane-mode-button", "cellular-data-button", "wifi-button", "bluetooth-button",
            "airdrop-button", "personal-hotspot-button"}


def _open(sim: SimServer) -> wda.Session:
    session = wda.Client(sim.url).session()
    session.swipe(380, 2, 380, 450, 0.3)
    _visible(session, "wifi-button")
    return session


def _held(session: wda.Session, name: str, duration_s: float) -> None:
    element = _visible(session, name)
    session.http.post(f"/session/{session.session_id}/wda/element/{element.id}/touchAndHold",
                      data={"duration": duration_s})


def _by_id(session: wda.Session, name: str) -> None:
    _held(session, name, 1.5)


def _by_finger(session: wda.Session, name: str) -> None:
    x, y = _visible(session, name).bounds.center
    finger = {"type": "pointer", "id": "finger1", "parameters": {"pointerType": "touch"},
              "actions": [{"type": "pointerMove", "duration": 0, "x": x, "y": y},
                          {"type": "pointerDown"}, {"type": "pause", "duration": 1500},
                          {"type": "pointerUp"}]}
    session.http.post(f"/session/{session.session_id}/actions", data={"actions": [finger]})


HOLDS: dict[str, Callable[[wda.Session, str], None]] = {"by id": _by_id, "w3c": _by_finger}


def _settings(sim: SimServer) -> dict[str, object]:
    with sim.lock:
        return dict(sim.phone.store(SETTINGS).data)


def _shown(session: wda.Session) -> set[str]:
    """The names of the elements that show (visible), read off the page source."""
    tree = ElementTree.fromstring(session.source())
    return {e.get("name", "") for e in tree.iter() if e.get("visible") == "true"}


def _visible(session: wda.Session, name: str) -> wda.Element:
    """The element named `name` that shows (a covered one of the same name does not)."""
    return session(name=name, visible=True).get(timeout=5)


@pytest.mark.parametrize("hold", HOLDS)
def test_a_long_press_on_a_connectivity_toggle_expands_the_module_and_switches_nothing(
        sim: SimServer, hold: str) -> None:
    session = _open(sim)
    before, wifi = _settings(sim), _visible(session, "wifi-button").value
    for name in ("wifi-button", "airplane-mode-button"):
        HOLDS[hold](session, name)
        assert _settings(sim) == before, f"a long press on {name} switched nothing"
        assert _shown(session) >= EXPANDED, _shown(session)
        assert _visible(session, "airdrop-button").label == "AirDrop, Contacts Only"
        assert "flashlight-button" not in _shown(session), "the first page is covered"
        assert _visible(session, "wifi-button").value == wifi
        session.tap(200, 800)  # below the expanded panel: back to the first page
        assert "airdrop-button" not in _shown(session)
        assert "flashlight-button" in _shown(session)


def test_a_plain_tap_still_switches_a_toggle_and_a_short_hold_is_a_tap(sim: SimServer) -> None:
    session = _open(sim)
    _visible(session, "wifi-button").tap()
    assert _settings(sim).get("wifi") is False
    _held(session, "bluetooth-button", 0.1)
    assert _settings(sim).get("bluetooth") is False
    assert "airdrop-button" not in _shown(session)


@pytest.mark.parametrize("hold", HOLDS)
def test_a_long_press_in_the_expanded_module_opens_its_lists(sim: SimServer, hold: str) -> None:
    session = _open(sim)
    before = _settings(sim)
    HOLDS[hold](session, "bluetooth-button")
    HOLDS[hold](session, "wifi-button")
    assert _settings(sim) == before
    assert {"HomeNet", "Cafe Guest", "Wi-Fi Settings…"} <= _shown(session)
    assert _visible(session, "HomeNet").selected
    _visible(session, "Cafe Guest").tap()  # joining is not modelled
    assert _settings(sim) == before
    session.tap(200, 800)
    HOLDS[hold](session, "wifi-button")
    HOLDS[hold](session, "bluetooth-button")
    assert {"AirPods Pro", "Car Audio", "Bluetooth Settings…"} <= _shown(session)
    _visible(session, "Bluetooth Settings…").tap()
    with sim.lock:
        assert sim.phone.foreground == SETTINGS
    assert session(name="Bluetooth", className="XCUIElementTypeNavigationBar").exists


def test_the_expanded_module_switches_what_settings_shows(sim: SimServer) -> None:
    session = _open(sim)
    _by_id(session, "cellular-data-button")
    hotspot = _visible(session, "personal-hotspot-button")
    assert (hotspot.value, hotspot.label) == ("0", "Personal Hotspot, Not Discoverable")
    hotspot.tap()
    assert _settings(sim).get("hotspot") is True
    _visible(session, "wifi-button").tap()  # the expanded module's own Wi-Fi
    assert _settings(sim).get("wifi") is False
    _visible(session, "airdrop-button").tap()  # its menu is not modelled
    session.tap(200, 210)  # the panel between its toggles takes the tap: it stays
    assert "airdrop-button" in _shown(session)
    session.home()
    assert not session(name="airdrop-button").exists
    session.swipe(380, 2, 380, 450, 0.3)
    assert "airdrop-button" not in _shown(session), "Control Center opens on its first page"


@pytest.mark.parametrize("name", ["flashlight-button", "focus-button", "timer-button",
                                  "brightness-slider", "ControlCenterView"])
def test_a_long_press_elsewhere_changes_nothing(sim: SimServer, name: str) -> None:
    session = _open(sim)
    before = _settings(sim)
    if name == "ControlCenterView":
        session.http.post(f"/session/{session.session_id}/wda/touchAndHold",
                          data={"x": 200, "y": 800, "duration": 1.5})
    else:
        _by_id(session, name)
    assert _settings(sim) == before
    with sim.lock:
        assert sim.phone.foreground == "com.apple.springboard"
    assert "flashlight-button" in _shown(session), "Control Center stays on its first page"
