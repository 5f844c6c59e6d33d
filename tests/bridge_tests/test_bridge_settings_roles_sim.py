"""Settings' row roles over HTTP (red team 65): facebook-wda through a guarded bridge in front of
the simulated iPhone, whose rows report as a phone's. A row a phone navigates from has its
chevron here too and opens a page, so honest navigation passes as on a phone (VoiceOver's
Speech, a font, an app's page...); General > AirDrop opens its page, though the share sheet's
AirDrop is refused; a Wi-Fi network's cell is labelled by its network, and the network the
phone is on has its checkmark and More Info; and a list that chooses several, one row checked,
which the bridge cannot tell from a list of options, is set back by the runner's set-back,
never found "as was". Decision-level on real dumps in test_bridge_settings_roles.py."""

from __future__ import annotations

import pytest
import wda
from bridge_rig import Rig
from test_bridge_settings_allow import _open

from phoneshell.changes import changed_settings
from phoneshell.device import Phone
from phoneshell.device.settings_values import set_back
from phoneshell.sim import SimServer
from phoneshell.sim.apps.settings import SettingsState
from phoneshell.xcui import SETTINGS

STUB_ROWS = [("voiceover", "Speech"), ("voiceover", "Braille"),
             ("voiceover", "VoiceOver Recognition"), ("voiceover", "Verbosity"),
             ("voiceover", "Audio"), ("touch", "Haptic Touch"), ("legal", "Legal Notices"),
             ("legal", "Regulatory"), ("keyboards", "English (US)"), ("dnd", "People"),
             ("dnd", "Apps"), ("sleep", "People"), ("location", "Location Alerts"),
             ("system_fonts", "Al Nile")]
"""Rows a phone navigates from (red team 65's enumeration: refused here as bare titles)."""


def _agent(rig: Rig) -> wda.Session:
    return wda.Client(rig.bridge.grant_agent()).session(SETTINGS)


def _title(sim: SimServer) -> str:
    with sim.lock:
        state = sim.phone.running_state(SETTINGS)
        assert isinstance(state, SettingsState)
        return state.stack[-1][1]


def _refused(rig: Rig) -> list[str]:
    return [e.error or "" for e in rig.events("R") if e.stage == "refused"]


def test_rows_a_phone_navigates_from_open_pages_through_the_bridge(guarded: Rig) -> None:
    session = _agent(guarded)
    for page, label in STUB_ROWS:
        _open(guarded.sim, page)
        x, y = session(label=label).get(timeout=5).bounds.center
        session.tap(x, y)
        assert _title(guarded.sim) == label, (page, label)
    assert _refused(guarded) == []


def test_general_airdrop_opens_its_page(guarded: Rig) -> None:
    """The share sheet's AirDrop label rule ran in Settings too and refused the row."""
    session = _agent(guarded)
    _open(guarded.sim, "general")
    session(label="AirDrop").get(timeout=5).tap()
    assert _title(guarded.sim) == "AirDrop"
    assert _refused(guarded) == []


def test_apps_lists_a_row_per_app_that_opens_its_page(guarded: Rig) -> None:
    session = _agent(guarded)
    _open(guarded.sim, "apps")
    for app in ("Calculator", "App Store"):  # near the top: rows below are not made
        session(label=app).get(timeout=5).tap()
        assert _title(guarded.sim) == app
        session(name="BackButton").get(timeout=5).tap()
    assert _refused(guarded) == []


def test_network_rows_are_labelled_by_their_network_and_the_joined_one_has_more_info(
        guarded: Rig) -> None:
    session = _agent(guarded)
    _open(guarded.sim, "wifi")
    cells = {c.label: c for c in session(className="XCUIElementTypeCell").find_elements()}
    assert {"HomeNet, Connected", "Cafe Guest, Open", "Neighbor-5G, Secure"} <= set(cells)
    assert "More Info" not in cells
    infos = session(label="More Info").find_elements()
    assert len(infos) == 4, "the connected network's row has its More Info too"
    with pytest.raises(wda.WDAError, match="phoneshell bridge refused"):
        session.tap(*cells["HomeNet, Connected"].bounds.center)


def test_a_list_that_chooses_several_is_set_back_not_found_as_was(guarded: Rig) -> None:
    """Dictionary chooses several; with one row checked the bridge cannot tell it from a list
    of options and lets a tap on another row through. The set-back finds the option the log
    names still checked, and the row the agent checked beside it, which it unchecks: "set"
    (the owner watch fails the attempt), where it said "as was"."""
    sim = guarded.sim
    session = _agent(guarded)
    _open(sim, "dictionary")
    session(label="Apple Dictionary").get(timeout=5).tap()
    assert _refused(guarded) == []
    with sim.lock:
        store = sim.phone.store(SETTINGS)
        assert store.flag("dictionary:Apple Dictionary")
    changed = changed_settings(guarded.events("R"))
    assert [(c.kind, c.page, c.was) for c in changed] == [
        ("choice", "Dictionary", "New Oxford American Dictionary")]
    guarded.bridge.set_context("R", "t", 1, "teardown")
    phone = Phone(guarded.bridge.url, effect_timeout_s=1.0)
    assert set_back(phone, "choice", "Dictionary", "Dictionary",
                    "New Oxford American Dictionary") == "set"
    with sim.lock:
        store = sim.phone.store(SETTINGS)
        assert not store.flag("dictionary:Apple Dictionary")
        assert store.flag("dictionary:New Oxford American Dictionary", True)
