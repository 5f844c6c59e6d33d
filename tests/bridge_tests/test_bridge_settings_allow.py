"""Settings is an allow-list (red team 57): the bridge lets an agent through only to navigate
(a row with a chevron, the back button, the search field), to read (a row of a title and a
value, text, empty space), and to change the values the set-back knows (switches, options,
sliders, the appearance). Every other control is refused, by any route, with its name and why:
a button row (Turn Passcode On, Add Card, Add New Keyboard...), a Wi-Fi network's or a
Bluetooth device's row (tapped, the phone joins or connects) and their More Info. Driven by
facebook-wda against the simulated iPhone, whose rows report as a phone's (the Button trait,
More Info) and whose network and device rows join and connect when tapped; the rule on the
iOS 26 dumps of the reference data's ios-sources/ too."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
import wda
from bridge_rig import Rig, perform, touch

from bridge.observe import from_xml
from bridge.settings_controls import settings_at
from bridge.targets import node_at, target_in
from phoneshell.lasting import (
    SETTINGS_ACTS,
    SETTINGS_BACK,
    SETTINGS_LINK,
    SETTINGS_SHOWN,
    outlasts_run,
)
from phoneshell.sim import SimServer
from phoneshell.sim.apps.settings import SettingsState, open_page
from phoneshell.xcui import SETTINGS, walk

WHY = "which neither opens a page nor only shows a value"

LASTING = [("passcode", "Turn Passcode On"), ("wallet", "Add Card"),
           ("wifi", "Cafe Guest, Open"), ("bluetooth", "Car Audio, Not Connected"),
           ("keyboards", "Add New Keyboard\u2026"), ("account", "Sign in Manually"),
           ("activity", "Turn On App & Website Activity")]
"""A page of Settings and a control on it that makes a lasting change on a phone."""


def _open(sim: SimServer, page: str) -> None:
    """Settings' page `page` in front, as a search result opens it (outside any bridge)."""
    with sim.lock:
        state = sim.phone.running_state(SETTINGS)
        assert isinstance(state, SettingsState)
        open_page(state, sim.phone, page)


def _at(rig: Rig, page: str) -> wda.Session:
    """An agent's session on Settings' page `page` (opened as a search result opens it)."""
    session = wda.Client(rig.bridge.grant_agent()).session(SETTINGS)
    _open(rig.sim, page)
    return session


def _centre(session: wda.Session, label: str) -> tuple[int, int]:
    x, y = session(label=label).get(timeout=5).bounds.center
    return int(x), int(y)


def _refused(rig: Rig) -> list[tuple[str, str]]:
    return [(e.kind, e.error) for e in rig.events("R") if e.stage == "refused"]


def _store(sim: SimServer) -> dict[str, object]:
    with sim.lock:
        return dict(sim.phone.store(SETTINGS).data)


def _refuses(act: Callable[[], object]) -> None:
    with pytest.raises(wda.WDAError, match="phoneshell bridge refused"):
        act()


def _w3c(rig: Rig, s: wda.Session, label: str, hold_ms: float = 80) -> None:
    assert perform(rig, s.session_id, touch(*_centre(s, label), hold_ms=hold_ms))[0] == 403


WAYS: dict[str, Callable[[Rig, wda.Session, str], None]] = {
    "tap by id": lambda rig, s, label: _refuses(s(label=label).get(timeout=5).tap),
    "tap at a point": lambda rig, s, label: _refuses(lambda: s.tap(*_centre(s, label))),
    "double tap": lambda rig, s, label: _refuses(lambda: s.double_tap(*_centre(s, label))),
    "hold": lambda rig, s, label: _refuses(lambda: s.tap_hold(*_centre(s, label), 0.6)),
    "w3c touch": _w3c,
    "w3c hold": lambda rig, s, label: _w3c(rig, s, label, hold_ms=700),
}


@pytest.mark.parametrize("way", WAYS)
def test_every_control_that_acts_is_refused_by_any_route(guarded: Rig, way: str) -> None:
    before = _store(guarded.sim)
    for page, label in LASTING:
        WAYS[way](guarded, _at(guarded, page), label)
    assert _store(guarded.sim) == before, "nothing reached the phone"
    refused = _refused(guarded)
    named = [next(label for _, label in LASTING if repr(label) in why or
                  f"named {label.split(',')[0]!r}" in why) for _, why in refused]
    assert sorted(set(named)) == sorted(label for _, label in LASTING), refused
    assert all(WHY in why and why.endswith("nothing after the run sets it back")
               for _, why in refused), refused
    assert "Cell 'Turn Passcode On' in Settings" in refused[0][1]


def test_a_network_or_a_device_row_joins_on_the_simulator_as_on_a_phone(sim: SimServer) -> None:
    """Without the bridge, the rows do what a phone's do: the network is joined, the device
    connected, and each row then reads "Connected" (no set-back undoes either)."""
    session = wda.Client(sim.url).session(SETTINGS)
    _open(sim, "wifi")
    session(label="Cafe Guest, Open").get(timeout=5).tap()
    assert session(label="Cafe Guest, Connected").exists
    assert session(label="More Info").exists
    assert _store(sim).get("wifi_joined") == "Cafe Guest"


def test_a_more_info_button_is_refused(guarded: Rig) -> None:
    session = _at(guarded, "bluetooth")
    _refuses(session(label="More Info").find_elements()[1].tap)
    assert "Button 'More Info'" in _refused(guarded)[0][1]


def test_navigation_reading_and_the_values_the_set_back_knows_are_forwarded(
        guarded: Rig) -> None:
    session = wda.Client(guarded.bridge.grant_agent()).session(SETTINGS)
    session(label="General").get(timeout=5).tap()
    session(label="About").get(timeout=5).tap()
    session(labelContains="Model Number").get(timeout=5).tap()  # shows another number
    session.tap(*_centre(session, "Name, iPhone"))
    session(name="BackButton").get(timeout=5).tap()
    session(name="BackButton").get(timeout=5).tap()
    _open(guarded.sim, "display")
    session(label="Dark").get(timeout=5).tap()
    session(label="Auto-Lock, Never").get(timeout=5).tap()
    session(label="5 minutes").get(timeout=5).tap()
    session.swipe(200, 700, 200, 300, 0.2)  # a scroll
    session.swipe(2, 400, 300, 400, 0.2)  # the edge swipe back
    _open(guarded.sim, "motion")
    session(label="Reduce Motion", type="XCUIElementTypeSwitch").get(timeout=5).tap()
    assert _refused(guarded) == []
    assert _store(guarded.sim).get("reduce_motion") is True


def test_a_swipe_left_on_a_row_is_refused(guarded: Rig) -> None:
    session = _at(guarded, "keyboards")
    x, y = _centre(session, "English (US)")
    _refuses(lambda: session.swipe(x + 100, y, x - 150, y, 0.2))
    assert "left in Settings" in _refused(guarded)[0][1]


def test_the_harness_steps_are_not_held_to_it(sim: SimServer, tmp_path: Path) -> None:
    """The allow-list is the agent's: a setup step that taps a button row is forwarded."""
    from bridge_rig import runner_bridge

    with runner_bridge(sim, tmp_path) as rig:
        rig.bridge.set_context("R", "t", 1, "setup")
        session = wda.Client(rig.bridge.url).session(SETTINGS)
        _open(sim, "wifi")
        session(label="Cafe Guest, Open").get(timeout=5).tap()
        assert _refused(rig) == []


# The rule on the iOS 26 dumps: what a real phone's tree says.

def _dump(path: Path) -> object:
    page = from_xml(path.read_text()).page
    assert page is not None and page.tree is not None, path
    return page.tree


def _role_at(tree: object, x: float, y: float) -> str:
    node = node_at(tree, x, y)
    assert node is not None
    return settings_at(tree, target_in(tree, node), (x, y))


def _centre_of(tree: object, **attrs: str) -> tuple[float, float]:
    found = next(n for _, n in walk(tree) if all(n.get(k) == v for k, v in attrs.items()))
    rect = found["rect"]
    assert isinstance(rect, dict)
    return rect["x"] + rect["width"] / 2, rect["y"] + rect["height"] / 2


def test_on_the_dumps_rows_with_a_chevron_open_pages_and_title_value_rows_only_show(
        ios_sources: Path) -> None:
    root = _dump(ios_sources / "settings-root-ios26.2-sim.xml")
    assert _role_at(root, *_centre_of(root, name="com.apple.settings.general")) == SETTINGS_LINK
    assert _role_at(root, *_centre_of(root, name="com.apple.settings.primaryAppleAccount")) \
        == SETTINGS_LINK
    about = _dump(ios_sources / "settings-general-about-ios26.2-sim.xml")
    assert _role_at(about, *_centre_of(about, type="Cell", name="SW_VERSION_SPECIFIER")) \
        == SETTINGS_LINK
    assert _role_at(about, *_centre_of(about, type="Cell", name="SerialNumber")) \
        == SETTINGS_SHOWN
    assert _role_at(about, *_centre_of(about, name="BackButton")) == SETTINGS_BACK


def _cell(label: str, traits: str, *kids: dict[str, object]) -> dict[str, object]:
    return {"type": "Cell", "label": label, "name": label, "traits": traits,
            "rect": {"x": 16, "y": 300, "width": 370, "height": 52}, "isVisible": "1",
            "children": list(kids)}


def _text(label: str) -> dict[str, object]:
    return {"type": "StaticText", "label": label, "value": label,
            "rect": {"x": 30, "y": 310, "width": 100, "height": 22}}


def _tree(*cells: dict[str, object]) -> dict[str, object]:
    table = {"type": "Table", "rect": {"x": 0, "y": 0, "width": 402, "height": 874},
             "children": list(cells)}
    return {"type": "Application", "rect": {"x": 0, "y": 0, "width": 402, "height": 874},
            "children": [{"type": "NavigationBar", "name": "Passcode",
                          "rect": {"x": 0, "y": 62, "width": 402, "height": 54}}, table]}


@pytest.mark.parametrize(("cell", "allowed"), [
    (_cell("Turn Passcode On", "Button", _text("Turn Passcode On")), False),
    (_cell("Turn Passcode On", "", _text("Turn Passcode On")), False),  # unknown: fails closed
    (_cell("Sign Out, kate@example.com", "Button", _text("Sign Out"), _text("kate@example.com")),
     False),
    (_cell("Time Zone, Cupertino", "", _text("Time Zone"), _text("Cupertino")), True),
])
def test_a_row_without_a_chevron_passes_only_when_it_shows_a_title_and_a_value(
        cell: dict[str, object], allowed: bool) -> None:
    tree = _tree(cell)
    node = cell
    why = outlasts_run("tap", SETTINGS, str(node["label"]), page="Passcode",
                       name=str(node["name"]), target_type="XCUIElementTypeCell",
                       settings=settings_at(tree, target_in(tree, node), (200, 326)))
    assert (why == "") is allowed, why


def test_a_network_row_in_a_list_with_a_checkmark_is_no_option() -> None:
    """A phone's Wi-Fi list marks the network joined with a checkmark: a tap on another row
    would read as an option of a list of options (set back by a tap on the old one), yet it
    joins the network, which the phone then remembers."""
    checkmark: dict[str, object] = {"type": "Button", "label": "checkmark", "name": "checkmark",
                 "rect": {"x": 20, "y": 200, "width": 20, "height": 20}}
    info: dict[str, object] = {"type": "Button", "label": "More Info", "name": "More Info",
            "rect": {"x": 350, "y": 315, "width": 22, "height": 22}}
    joined = _cell("HomeNet", "Button", _text("HomeNet"), checkmark)
    joined["rect"] = {"x": 16, "y": 248, "width": 370, "height": 52}  # the same section
    other = _cell("Cafe Guest", "Button", _text("Cafe Guest"), info)
    tree = _tree(joined, other)
    target = target_in(tree, other)
    assert target.chosen == "HomeNet", "the bridge reads it as a list of options"
    under = settings_at(tree, target, (200, 326))
    assert under == SETTINGS_ACTS
    assert WHY in outlasts_run("tap", SETTINGS, target.label, page="Passcode", name=target.name,
                               target_type=target.type, settings=under, chosen=target.chosen)


def test_the_button_trait_is_read_from_the_xml_source_too(ios_sources: Path) -> None:
    """The bridge's own reads are XML: a row with the Button trait and no chevron (what a
    button row showing a value reports) is refused from it too, not taken for About's rows."""
    xml = (ios_sources / "settings-general-about-ios26.2-sim.xml").read_text().replace(
        'name="SerialNumber" label="Serial Number, LQ2CJVW40P" enabled="true" visible="true" '
        'accessible="true" x="20" y="345" width="362" height="54" index="5" traits=""',
        'name="SerialNumber" label="Serial Number, LQ2CJVW40P" enabled="true" visible="true" '
        'accessible="true" x="20" y="345" width="362" height="54" index="5" traits="Button"')
    assert 'traits="Button"' in xml
    page = from_xml(xml).page
    assert page is not None and page.tree is not None
    tree = page.tree
    assert _role_at(tree, *_centre_of(tree, type="Cell", name="SerialNumber")) == ""
