"""Every page sheet's header is a navigation bar, as on a phone, and its list lies under it.

A sheet presents a navigation controller: its header is an `XCUIElementTypeNavigationBar` from
the sheet's top, named by its title, holding the title (a Header StaticText), its bar buttons
and, for a searchable chooser, the search field. A list in the sheet spans it from its top
(`lists.under_bars`) and shows from the bar's bottom: rows under the bar are hidden and a touch
on the bar's blank part lands on the bar. Drawn as bare text, a field and a button, the header
left a blank over the list there (the bridge's hit test named the unnamed list). Every sheet the
simulator builds is opened here (`SHEETS`, which a guard keeps whole), driven through
facebook-wda over HTTP.
"""

from __future__ import annotations

import pytest
import wda

from phoneshell.sim import SimServer
from phoneshell.sim.touch_paths import hit_path
from phoneshell.sim.ui import Node
from tests.sim.test_sim_sheet_swipe import SHEETS


def _walk(node: Node) -> list[Node]:
    return [node, *(n for child in node.children for n in _walk(child))]


def _panel(root: Node) -> Node:
    """The page sheet's panel (`layout.page_sheet`: the node a downward swipe dismisses)."""
    return next(n for n in _walk(root) if n.on_pull_down is not None)


def _title(bar: Node) -> Node:
    return next(n for n in bar.children if n.type == "StaticText" and n.traits == "Header")


@pytest.mark.parametrize("sheet", sorted(SHEETS))
def test_a_page_sheets_header_is_a_navigation_bar_its_list_lies_under(sim: SimServer,
                                                                      sheet: str) -> None:
    bundle, opener, _, _ = SHEETS[sheet]
    opener(wda.Client(sim.url).session(bundle))
    with sim.lock:
        root = sim.phone.screen().root
    panel = _panel(root)
    bars = [n for n in _walk(panel) if n.type == "NavigationBar"]
    assert len(bars) == 1, f"{sheet}: one bar, not {[b.name for b in bars]}"
    bar = bars[0]
    assert (bar.frame.x, bar.frame.y, bar.frame.width) == (0, panel.frame.y, panel.frame.width)
    assert bar.name == _title(bar).label  # named by its title, as the Settings dumps' bars are
    under = bar.frame.y + bar.frame.height
    for listed in (n for n in _walk(panel) if n.scroll is not None):
        assert listed.frame.y == panel.frame.y, f"{sheet}: a list spans the sheet from its top"
        assert listed.open_part.y == under, f"{sheet}: a list shows from the bar's bottom"
    blank = _blank_points(bar)
    assert blank, f"{sheet}: no blank part of the bar to touch"
    for x, y in blank:  # every touch on the bar's blank part is the bar's
        assert hit_path(root, x, y)[-1] is bar, (sheet, x, y)


def _blank_points(bar: Node) -> list[tuple[int, int]]:
    """Points on `bar` that none of its children cover, every 6 points."""
    f = bar.frame
    return [(x, y) for y in range(f.y, f.y + f.height, 6) for x in range(2, f.width, 6)
            if not any(c.frame.contains(x, y) for c in bar.children)]


def test_a_row_scrolled_under_the_choosers_bar_is_hidden_and_the_bar_takes_the_touch(
        sim: SimServer) -> None:
    """The city chooser's list, inset by the keyboard, scrolls its cities under the bar."""
    app = wda.Client(sim.url).session("com.apple.mobiletimer")
    SHEETS["clock_world.py"][1](app)
    app.swipe(200, 500, 200, 300, 0.3)
    bar = app(className="XCUIElementTypeNavigationBar", name="Choose a City.").get(timeout=5)
    bottom = bar.bounds.y + bar.bounds.height
    cells = app(className="XCUIElementTypeCell").find_elements()
    hidden = [c for c in cells if c.bounds.y + c.bounds.height <= bottom and c.bounds.y >= 62]
    assert hidden and not any(c.visible for c in hidden)
    before = sim.state()["stores"]
    cell = hidden[-1].bounds
    app.tap(cell.x + cell.width - 30, cell.y + cell.height // 2)  # beside the title: the bar
    assert sim.state()["stores"] == before  # no city chosen
    assert app(label="Choose a City.").exists
