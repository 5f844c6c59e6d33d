"""WDA's unnamed alert routes, through the bridge: the log names the button WDA presses (an
Alert's last for accept and first for dismiss, an action Sheet's first and last), and the
bridge's refusals apply to it, as they do to a button named in the body or tapped."""

from __future__ import annotations

import pytest
import wda
from bridge_rig import Rig

from phoneshell.sim import SimServer
from phoneshell.sim.apps.home_menu import Prompt
from phoneshell.sim.ui import Rect
from phoneshell.xcui import CONTACTS, SPRINGBOARD

WEATHER = "com.apple.weather"


def pressed(rig: Rig) -> list[tuple[str, str, str]]:
    """(stage, gesture, target label) of each alert press the log holds."""
    return [(e.stage, str(e.params.get("gesture")), e.target.label if e.target else "")
            for e in rig.events()
            if e.stage in ("intent", "refused") and str(e.params.get("gesture")).startswith(
                "alert_")]


def remove_alert(sim: SimServer) -> None:
    """SpringBoard's Remove alert for Weather [Delete App, Remove from Home Screen, Cancel],
    opened around the bridge (a person at the phone: the bridge refuses Remove App)."""
    menu = sim.phone.running[SPRINGBOARD].state.menu
    with sim.lock:
        menu.prompt = Prompt("remove", WEATHER, "Weather", Rect(40, 120, 64, 64))
        sim.phone.changed()


def test_an_unnamed_dismiss_of_the_remove_alert_is_refused_as_delete_app(
        rig: Rig, sim: SimServer) -> None:
    client = wda.Client(rig.bridge.url)
    client.session()
    remove_alert(sim)
    assert client.alert.buttons() == ["Delete App", "Remove from Home Screen", "Cancel"]
    with pytest.raises(wda.WDARequestError, match="nothing brings an app back"):
        client.alert.dismiss()  # WDA: an Alert's first button
    assert WEATHER in sim.state()["installed"] and client.alert.exists
    client.alert.accept()  # WDA: an Alert's last button, Cancel
    assert not client.alert.exists and WEATHER in sim.state()["installed"]
    assert pressed(rig) == [("refused", "alert_dismiss", "Delete App"),
                            ("intent", "alert_accept", "Cancel")]


def test_an_action_sheets_dismiss_is_logged_at_its_last_button(rig: Rig) -> None:
    session = wda.Client(rig.bridge.url).session(CONTACTS)
    session(label="Kate Bell").click()
    session(label="Edit").click()
    session(name="Company", className="TextField").set_text(" XYZ")
    session(label="Cancel").click()  # asks: Discard Changes, Keep Editing
    session.alert.dismiss()  # WDA: a Sheet's last button
    assert session(name="Company", className="TextField").exists  # still editing
    session(label="Cancel").click()
    session.alert.accept()  # WDA: a Sheet's first button
    assert not session(name="Company", className="TextField").exists
    assert pressed(rig) == [("intent", "alert_dismiss", "Keep Editing"),
                            ("intent", "alert_accept", "Discard Changes")]
