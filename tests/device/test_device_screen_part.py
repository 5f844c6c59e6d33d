"""The harness takes its gestures' points from the part of a frame on the screen, never from a
frame that reaches past it (the bridge refuses a touch off the screen: red team 114), and drags
only clear of the system's edge zones, upright or turned (red team 117)."""

from __future__ import annotations

from phoneshell.device.screen_part import (
    CLEAR_PT,
    Part,
    clear_of_edges,
    drag_area,
    drag_part,
    screen_part,
)
from phoneshell.presses import BOTTOM_EDGE_PT, system_slide
from phoneshell.tree import PageSource


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
    assert screen_part(page, low, bottom=820) == Part(0, 800, 402, 820)
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
