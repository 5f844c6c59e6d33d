"""The harness takes its gestures' points from the part of a frame on the screen, never from a
frame that reaches past it (the bridge refuses a touch off the screen: red team 114), and drags
only clear of the system's edge zones, upright or turned (red team 117). What a list shows is
the part its bars leave (fixer AZ): a list spans the screen under them, as the real dumps do."""

from __future__ import annotations

import re
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path

import pytest
import wda
from lxml import etree

from phoneshell.device.screen_part import (
    CLEAR_PT,
    SCROLL_BAR,
    Part,
    clear_of_edges,
    drag_area,
    drag_part,
    screen_part,
    shown_part,
)
from phoneshell.presses import BOTTOM_EDGE_PT, system_slide
from phoneshell.sim import SimServer
from phoneshell.tree import PageSource

LISTS = ("XCUIElementTypeTable", "XCUIElementTypeCollectionView")


def _page(*views: tuple[int, int, int, int]) -> PageSource:
    inner = "".join(f'<XCUIElementTypeScrollView type="XCUIElementTypeScrollView" '
                    f'visible="true" enabled="true" x="{x}" y="{y}" width="{w}" height="{h}"/>'
                    for x, y, w, h in views)
    return PageSource.parse(
        '<XCUIElementTypeApplication type="XCUIElementTypeApplication" name="SpringBoard" '
        f'visible="true" enabled="true" x="0" y="0" width="402" height="874">{inner}'
        "</XCUIElementTypeApplication>")


def test_a_frame_reaching_past_the_screen_is_cut_to_it() -> None:
    page = _page((0, -437, 402, 1311), (-50, 800, 500, 300), (0, 900, 402, 400))
    cover, low, below = page.elements[1:]
    part = screen_part(page, cover)  # the cover sheet's scroll view in iOS 26
    assert part == Part(0, 0, 402, 874) and part.at(0.5, 0.25) == (201, 218.5)
    assert screen_part(page, low) == Part(0, 800, 402, 874)
    assert screen_part(page, below) is None  # wholly off the screen: no place to drag


SCREENS = ((402, 874), (874, 402))
"""A phone upright and turned (iOS 26's 402 x 874-point iPhone)."""
SLIDES = ((0, -200), (0, 200), (200, 0), (-200, 0))
"""A slide up, down, right and left, far past the system's travel."""


def test_no_slide_inside_the_drag_area_is_the_systems_upright_or_turned() -> None:
    # The one definition of the zones (`drag_area`) agrees with the rule the simulator plays
    # and the bridge logs (`presses.system_slide`): from anywhere in it, any slide is the app's.
    for width, height in SCREENS:
        area = drag_area(width, height)
        for across in (0, 0.5, 0.999):
            for down in (0, 0.5, 1):
                x, y = area.at(across, down)
                for dx, dy in SLIDES:
                    assert not system_slide((0, 0, width, height), (x, y), (x + dx, y + dy)), \
                        (width, height, x, y, dx, dy)


def test_a_list_reaching_the_screens_bottom_is_dragged_above_its_home_zone() -> None:
    # Contacts' list runs to the screen's end: 40 points above it is the swipe home
    # (red team 117), as it is for a turned phone's
    for width, height in SCREENS:
        page = PageSource.parse(page_xml(width, height, (0, 168, width, height - 168)))
        table = page.elements[1]
        part = drag_part(page, table)
        assert part is not None and part.bottom == height - BOTTOM_EDGE_PT - CLEAR_PT
        assert system_slide((0, 0, width, height), (width / 2, height - 40),
                            (width / 2, 208))  # where the read used to start
        assert clear_of_edges((width / 2, height - 2), width, height) == \
            (width / 2, part.bottom)
        assert clear_of_edges((width / 2, 300), width, height) == (width / 2, 300)
    page = PageSource.parse(page_xml(402, 874, (0, 850, 402, 24)))
    assert drag_part(page, page.elements[1]) is None  # all of it in the zone: no drag there


def page_xml(width: int, height: int, view: tuple[int, int, int, int]) -> str:
    x, y, w, h = view
    return ('<XCUIElementTypeApplication type="XCUIElementTypeApplication" name="Contacts" '
            f'visible="true" enabled="true" x="0" y="0" width="{width}" height="{height}">'
            f'<XCUIElementTypeTable type="XCUIElementTypeTable" visible="true" enabled="true" '
            f'x="{x}" y="{y}" width="{w}" height="{h}"/></XCUIElementTypeApplication>')


def _list(page: PageSource) -> Part | None:
    return shown_part(page, next(e for e in page.elements if e.type in LISTS))


@pytest.mark.parametrize(("dump", "shown"), [
    # the track of its scroll bar: from under the navigation bar to above the home indicator
    ("settings-general-about-ios26.2-sim.xml", Part(0, 116, 402, 812)),
    ("settings-accessibility-motion-ios26.xml", Part(0, 116, 402, 812)),
    # the large title covers the track's top (116 to 168), the toolbar its bottom (788)
    ("settings-root-ios26.2-sim.xml", Part(0, 168, 402, 788))])
def test_a_real_list_shows_between_its_bars_not_its_frame(dump: str, shown: Part,
                                                         ios_sources: Path) -> None:
    xml = (ios_sources / dump).read_text()
    page = PageSource.parse(xml)
    table = next(e for e in page.elements if e.type in LISTS)
    assert screen_part(page, table) == Part(0, 0, 402, 874)  # its frame: the whole screen
    assert _list(page) == shown
    # a row an agent named like the indicator (a note, a reminder) is no track
    fake = ('<XCUIElementTypeCell type="XCUIElementTypeCell" name="Vertical scroll bar, 1 page" '
            'label="Vertical scroll bar, 1 page" enabled="true" visible="true" x="0" y="300" '
            'width="402" height="44" traits="Adjustable"/>')
    opened = re.search(r'<XCUIElementType(Table|CollectionView) [^>]*>', xml)
    assert opened is not None
    assert _list(PageSource.parse(xml[:opened.end()] + fake + xml[opened.end():])) == shown


MARGIN_PT = 12
"""How far inside the part its bars leave a simulated list's scroll bar may lie."""


def _without_scroll_bars(xml: str) -> PageSource:
    root = etree.fromstring(xml.encode())
    for bar in [n for n in root.iter() if SCROLL_BAR.fullmatch(n.get("name") or "")]:
        bar.getparent().remove(bar)
    return PageSource.parse(etree.tostring(root))


def _search(session: wda.Client) -> None:
    session(name="Search").get(timeout=2).click()


@pytest.mark.parametrize(("bundle", "steps", "turned"), [
    ("com.apple.MobileAddressBook", None, False), ("com.apple.MobileAddressBook", None, True),
    ("com.apple.mobilenotes", None, False), ("com.apple.mobilecal", _search, False),
    ("com.apple.mobilecal", _search, True), ("com.apple.reminders", None, False),
    ("com.apple.Preferences", None, False)])
def test_the_simulators_lists_show_between_their_bars_by_either_measure(
        bundle: str, steps: Callable[[wda.Client], None] | None, turned: bool) -> None:
    # The simulator's lists span the screen under their bars, as a phone's: what shows is the
    # part the bars (and keyboard) leave, and its scroll bar's track spans that part, as the
    # real dumps' do (within a margin: Calendar's search insets its rows 10 points below the
    # search field); either measure alone gives nearly it.
    with SimServer() as sim:
        client = wda.Client(sim.url)
        if turned:
            with suppress(wda.WDAError):  # refused over the home screen; the phone turns
                client.orientation = "LANDSCAPE"
        session = client.session(bundle)
        if steps is not None:
            steps(session)
        xml = client.source()
    page = PageSource.parse(xml)
    table = next(e for e in page.elements if e.type in LISTS)
    shown = shown_part(page, table)
    assert screen_part(page, table) == Part(0, 0, page.width, page.height)
    assert shown is not None and shown.height < page.height
    bare = _without_scroll_bars(xml)
    barred = _list(bare)
    assert barred is not None and barred.top <= shown.top <= barred.top + MARGIN_PT
    assert barred.bottom - MARGIN_PT <= shown.bottom <= barred.bottom
