"""A row whose middle is under a bar takes a touch on the strip of it that shows: UIKit hands a
touch to the view there by geometry, a bar covers only its own frame, and accessibility's
`visible` (a row's own centre against the bars) says nothing about where a finger lands
(red team 135, RT135-1: Settings' Bluetooth row 22 pt below the collapsed bar, tapped there,
did nothing, and the log named an unnamed `Other`). By point, above a tab bar or toolbar as
below the navigation bar, and by id (XCTest scrolls such a row into view first). Through the
bridge, to the simulator, over loopback, facebook-wda as the agent.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import wda
from bridge_rig import Rig

SETTINGS = "com.apple.Preferences"
FILES = "com.apple.DocumentsApp"


def _bars(session: wda.Client) -> list[str]:
    return re.findall(r'NavigationBar[^>]*name="([^"]*)"', session.source())


def _opened(session: wda.Client, bundle: str, drag: tuple[int, int]) -> None:
    session.app_terminate(bundle)
    session.app_activate(bundle)
    if bundle == FILES:
        session(name="Browse", className="XCUIElementTypeButton").click()
    session.swipe(200, drag[0], 200, drag[1], 0.05)


def _hidden_row_across(session: wda.Client, edge: int) -> tuple[int, int]:
    """The frame (top, bottom) of the one hidden row lying across y `edge`."""
    cells = ET.fromstring(session.source()).iter("XCUIElementTypeCell")
    rows = [(int(c.get("y", 0)), int(c.get("y", 0)) + int(c.get("height", 0))) for c in cells
            if c.get("visible") == "false"]
    rows = [(top, bottom) for top, bottom in rows if top < edge < bottom]
    assert len(rows) == 1, rows
    return rows[0]


def test_the_strip_of_bluetooth_below_the_collapsed_bar_opens_it(rig: Rig) -> None:
    session = wda.Client(rig.bridge.url).session()
    _opened(session, SETTINGS, (750, 439))  # 311 pt: Bluetooth at 86..138, the bar to 116
    top, bottom = _hidden_row_across(session, 116)
    assert (top + bottom) // 2 < 116 < bottom, "Bluetooth's middle is not under the bar"
    session.tap(200, 127)
    assert _bars(session) == ["Bluetooth"]
    tap = rig.intents()[-1]
    assert tap.target is not None and tap.target.name == "com.apple.settings.bluetooth", \
        tap.target


def test_every_point_of_a_files_row_below_the_bar_opens_it(rig: Rig) -> None:
    session = wda.Client(rig.bridge.url).session()
    for y in (116, 125, 141):
        _opened(session, FILES, (600, 395))  # iCloud Drive at 89..142, the bar to 116
        assert _hidden_row_across(session, 116) == (89, 142)
        session.tap(200, y)
        assert _bars(session) == ["iCloud Drive"], y
        tap = rig.intents()[-1]
        assert tap.target is not None, y
        assert (tap.target.type, tap.target.name) == ("XCUIElementTypeCell", "iCloud Drive"), y


def test_a_tap_on_the_bar_over_that_row_is_the_bars(rig: Rig) -> None:
    session = wda.Client(rig.bridge.url).session()
    _opened(session, FILES, (600, 395))
    session.tap(300, 110)
    assert _bars(session) == ["Browse"]
    tap = rig.intents()[-1]
    assert tap.target is not None and tap.target.type == "XCUIElementTypeNavigationBar"


def test_the_strip_of_a_row_above_the_bottom_bar_opens_it(rig: Rig) -> None:
    session = wda.Client(rig.bridge.url).session()
    _opened(session, SETTINGS, (700, 670))  # a row at 765..817, the toolbar from 788
    top, bottom = _hidden_row_across(session, 788)
    assert top < 788 <= (top + bottom) // 2, "the row's middle is not under the bottom bar"
    session.tap(200, (top + 788) // 2)
    assert _bars(session) not in ([], ["Settings"]), _bars(session)
    tap = rig.intents()[-1]
    assert tap.target is not None and tap.target.type != "XCUIElementTypeOther", tap.target


def test_a_tap_by_id_scrolls_the_row_into_view_and_opens_it(rig: Rig) -> None:
    session = wda.Client(rig.bridge.url).session()
    _opened(session, FILES, (600, 395))
    row = session(className="XCUIElementTypeCell", name="iCloud Drive").get(timeout=5)
    assert not row.visible
    row.tap()  # POST /element/:id/click, XCUIElement's tap
    assert _bars(session) == ["iCloud Drive"]
    tap = rig.intents()[-1]
    assert tap.target is not None
    assert (tap.target.type, tap.target.name) == ("XCUIElementTypeCell", "iCloud Drive")
