"""The harness takes its gestures' points from the part of a frame on the screen, never from a
frame that reaches past it (the bridge refuses a touch off the screen: red team 114)."""

from __future__ import annotations

from phoneshell.device.screen_part import Part, screen_part
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
