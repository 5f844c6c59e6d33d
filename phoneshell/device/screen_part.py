"""Where the harness's own gestures take their points from an element's frame: inside the part of
that frame on the screen. Pure: never touches the device.

A frame may reach past the screen (the cover sheet's scroll view, behind the Lock Screen and
Notification Centre, starts 437 pt above it in iOS 26 and is 1311 pt tall; a sheet's list may
be laid out below the bottom edge), and the bridge refuses a touch off the screen, the
harness's as an agent's (`bridge.aiming`): a phone clamps such a point its own way. So every
point the harness derives from a frame is taken from `screen_part`, never from the frame.

What a list shows is less than its frame on the screen (`shown_part`): iOS lays a list in a
navigation controller under its bars (all three real Settings dumps frame it 0,0,402,874, the
navigation bar and toolbar drawn over it, its rows inset between them), so a read that takes
the frame for what shows drags by more than shows and skips a row.

A drag the harness makes (a list read's scroll, the capture's, a probe's) keeps out of the
screen's system edge zones too (`drag_area`, the one definition the device layer has of them,
taken from the facts the bridge and the simulator share: `presses`): iOS takes a slide up from
the bottom edge as home (sideways, as the app switch), one down from the top edge as
Notification Center or Control Center, and one right from the left edge as back, before the
list under the finger sees it. A read whose scroll went home ends as if its list had.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from phoneshell.presses import BOTTOM_EDGE_PT, LEFT_EDGE_PT, TOP_EDGE_PT
from phoneshell.tree import KEYBOARD, Element, PageSource

CLEAR_PT = 20.0
"""How far clear of a system edge zone the harness's drags keep: a phone draws no line where
its zone ends (iOS's home gesture starts on the home indicator, about 34 points up, and may
take a finger a little above it)."""


class Part(NamedTuple):
    """A rectangle of the screen, in points."""

    left: float
    top: float
    right: float
    bottom: float

    @property
    def width(self) -> float:
        """How wide it is, in points."""
        return self.right - self.left

    @property
    def height(self) -> float:
        """How tall it is, in points."""
        return self.bottom - self.top

    def at(self, across: float, down: float) -> tuple[float, float]:
        """The point `across` of the way from its left edge and `down` from its top (0 to 1)."""
        return self.left + self.width * across, self.top + self.height * down


def screen_part(page: PageSource, element: Element) -> Part | None:
    """The part of `element`'s frame on `page`'s screen (its root's frame); None when no part of
    it is there. A page that names no screen size (0) clips nothing that way. What a list
    shows is less (`shown_part`)."""
    right, lower = element.x + element.width, element.y + element.height
    part = Part(max(element.x, 0) if page.width > 0 else element.x,
                max(element.y, 0) if page.height > 0 else element.y,
                min(right, page.width) if page.width > 0 else right,
                min(lower, page.height) if page.height > 0 else lower)
    return part if part.width > 0 and part.height > 0 else None


COVERS = frozenset({"XCUIElementTypeNavigationBar", "XCUIElementTypeSearchField",
                    "XCUIElementTypeToolbar", "XCUIElementTypeTabBar", KEYBOARD})
"""What is drawn over a list laid under it, when it lies outside the list: the bars (a search
field above a list, as Calendar's search has, with its Cancel beside it, is one), the keyboard."""

SCROLL_BAR = re.compile(r"Vertical scroll bar, (\d+) pages?")
"""How UIKit names the vertical indicator every scroll view holds ("Vertical scroll bar, 2
pages"), an adjustable `Other` right inside it (`scroll_bar`)."""


def scroll_bar(page: PageSource, element: Element) -> Element | None:
    """Scroll view `element`'s own vertical indicator: an adjustable `Other` right inside it
    named as UIKit names it, which nothing an agent types or names (a note, a reminder: cells
    and their texts) can pass for. Its frame is the track the indicator moves along, the part of
    the view its content is inset to (the real dumps: y=116, 696 and 672 points tall under a
    navigation bar ending at 116); None when the source shows none."""
    return next((e for e in page.elements if e.parent == element.order and is_scroll_bar(e)),
                None)


def is_scroll_bar(element: Element) -> bool:
    """Whether `element` is a vertical scroll indicator, as UIKit makes one (`SCROLL_BAR`)."""
    return element.type == "XCUIElementTypeOther" and "Adjustable" in element.traits \
        and SCROLL_BAR.fullmatch(element.name) is not None


def shown_part(page: PageSource, element: Element) -> Part | None:
    """The part of list (or other scroll view) `element` that shows: its part on the screen
    (`screen_part`) less what is drawn over its top or bottom (`COVERS` outside it that overlap
    it: one whose middle is above the part's middle covers its top, else its bottom), and
    within the span of its own vertical scroll bar where it has one. Both are kept, the least
    part winning: the bar's track is inset by the navigation bar's small height (116 in the
    Settings root's dump, whose large title ends at 168), and a keyboard may cover it; a list
    no bar covers still keeps its content inset by the track. None when nothing shows."""
    part = screen_part(page, element)
    if part is None:
        return None
    middle = (part.top + part.bottom) / 2
    top, bottom = part.top, part.bottom
    for cover in page.on_screen():
        if cover.type not in COVERS or page.holds(element, cover) \
                or cover.x >= part.right or cover.x + cover.width <= part.left \
                or cover.y >= part.bottom or cover.y + cover.height <= part.top:
            continue
        if cover.y + cover.height / 2 < middle:
            top = max(top, cover.y + cover.height)
        else:
            bottom = min(bottom, cover.y)
    track = scroll_bar(page, element)
    if track is not None and track.height > 0:
        top, bottom = max(top, track.y), min(bottom, track.y + track.height)
    return part._replace(top=top, bottom=bottom) if bottom > top else None


def drag_area(width: float, height: float) -> Part:
    """The part of a screen `width` by `height` points (as it is turned: a page's root frame)
    where a drag of the harness's may start and end: clear, by `CLEAR_PT`, of the bottom
    edge's zone (home, the app switch), the top edge's (Notification Center, Control Center)
    and the left edge's (back). The right edge has none."""
    return Part(LEFT_EDGE_PT + CLEAR_PT, TOP_EDGE_PT + CLEAR_PT, width,
                height - BOTTOM_EDGE_PT - CLEAR_PT)


def drag_part(page: PageSource, element: Element) -> Part | None:
    """The part of list `element` a drag of the harness's may start and end in: the part that
    shows (`shown_part`) that lies in `drag_area`; None when none does."""
    part = shown_part(page, element)
    if part is None or page.width <= 0 or page.height <= 0:
        return part
    area = drag_area(page.width, page.height)
    clear = Part(max(part.left, area.left), max(part.top, area.top),
                 min(part.right, area.right), min(part.bottom, area.bottom))
    return clear if clear.width > 0 and clear.height > 0 else None


def clear_of_edges(point: tuple[float, float], width: float, height: float,
                   ) -> tuple[float, float]:
    """`point` moved the least way into `drag_area` of a screen `width` by `height` points (as
    it is: a point already there stays where it is; a screen of no known size moves none)."""
    if width <= 0 or height <= 0:
        return point
    area = drag_area(width, height)
    return (min(max(point[0], area.left), area.right - 1),
            min(max(point[1], area.top), area.bottom))


__all__ = ["CLEAR_PT", "COVERS", "SCROLL_BAR", "Part", "clear_of_edges", "drag_area", "drag_part",
           "is_scroll_bar", "scroll_bar", "screen_part", "shown_part"]
