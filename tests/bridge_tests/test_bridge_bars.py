"""A touch on a bar is logged as the bar's, whatever the source's order: iOS draws a navigation
bar, toolbar or tab bar over the content of its screen, and a phone hands a touch on its blank
part to the bar, never to the list or the full-screen views that hold it, listed after the bar
(red team 131, RT131-2: a tap at (300, 100) on the unscrolled Settings root, and a finger placed
from a row scrolled under the bar, were logged as an unnamed full-screen `Other`). A point
between two keys is the keyboard's the same way. Through the bridge, to the simulator, over
loopback; and on real iOS 26 dumps.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
import wda
from bridge_rig import TOUCH, Rig, perform, touch

from bridge.observe import from_xml
from bridge.targets import node_at
from phoneshell.xcui import short_type

SETTINGS = "com.apple.Preferences"
W3C = "element-6066-11e4-a52e-4f735466cecf"
BAR = "XCUIElementTypeNavigationBar"


def _nothing(session: wda.Client) -> None:
    del session


def _search(session: wda.Client) -> None:
    session(label="Search").click()
    session.send_keys("Display")


@pytest.mark.parametrize(("bundle", "opened", "point", "kind", "name"), [
    (SETTINGS, _nothing, (300, 100), BAR, "Settings"),  # the large title's blank right part
    (SETTINGS, _nothing, (380, 70), BAR, "Settings"),
    ("com.apple.mobiletimer", _nothing, (5, 842), "XCUIElementTypeTabBar", "Tab Bar"),
    ("com.apple.reminders", _nothing, (5, 806), "XCUIElementTypeToolbar", "Toolbar"),
    (SETTINGS, _search, (300, 100), BAR, "Settings"),  # the keyboard's window is over it
    (SETTINGS, _search, (5, 590), "XCUIElementTypeKeyboard", ""),  # beside the first key
])
def test_a_tap_on_a_bars_blank_part_is_logged_as_the_bars(
        rig: Rig, bundle: str, opened: Callable[[wda.Client], None], point: tuple[int, int],
        kind: str, name: str) -> None:
    session = wda.Client(rig.bridge.url).session(bundle)
    opened(session)
    session.tap(*point)
    tap = rig.intents()[-1]
    assert tap.kind == "tap" and tap.target is not None
    assert (tap.target.type, tap.target.name) == (kind, name), tap.target


def test_a_finger_placed_from_a_row_under_the_bar_is_logged_as_the_bars(rig: Rig) -> None:
    """Cellular scrolled under the navigation bar: Selenium's tap on it (x and y 0, 0) places
    the finger at the middle of its frame, on the bar, which takes it (its title, where the
    title lies there): nothing opens."""
    session = wda.Client(rig.bridge.url).session(SETTINGS)
    sid = session.session_id
    assert perform(rig, sid, touch(200, 700, hold_ms=300, to=(200, 300)))[0] == 200
    cellular = session(label="Cellular").get(timeout=5)
    top, height = cellular.bounds.y, cellular.bounds.height
    assert top + height // 2 < 168, "Cellular's middle is not under the bar"
    move = {"type": "pointerMove", "duration": 0, "origin": {W3C: cellular.id}, "x": 0, "y": 0}
    finger = {"type": "pointer", "id": "finger", "parameters": TOUCH, "actions": [
        move, {"type": "pointerDown", "button": 0}, {"type": "pause", "duration": 100},
        {"type": "pointerUp", "button": 0}]}
    assert perform(rig, sid, finger) == (200, "")
    tap = rig.intents()[-1]
    assert tap.target is not None and tap.target.name == "Settings", tap.target
    assert tap.target.type in (BAR, "XCUIElementTypeStaticText"), tap.target
    assert re.findall(r'NavigationBar[^>]*name="([^"]*)"', session.source()) == ["Settings"]


@pytest.mark.parametrize(("dump", "point", "name"), [
    ("settings-root-ios26.2-sim.xml", (300, 100), "Settings"),
    ("settings-root-ios26.2-sim.xml", (380, 80), "Settings"),
    ("settings-general-about-ios26.2-sim.xml", (300, 100), "About"),
    ("settings-accessibility-motion-ios26.xml", (300, 100), "Motion"),
])
def test_a_real_trees_bar_takes_the_touch_on_its_blank_part(ios_sources: Path, dump: str,
                                                             point: tuple[int, int],
                                                             name: str) -> None:
    page = from_xml((ios_sources / dump).read_text()).page
    assert page is not None
    found = node_at(page.tree, *point)
    assert found is not None, point
    assert (short_type(str(found.get("type"))), found.get("name")) == ("NavigationBar", name), found
