"""Where the harness's own gestures take their points from an element's frame: inside the part of
that frame on the screen. Pure: never touches the device.

A frame may reach past the screen (the cover sheet's scroll view, behind the Lock Screen and
Notification Centre, starts 437 pt above it in iOS 26 and is 1311 pt tall; a sheet's list may
be laid out below the bottom edge), and the bridge refuses a touch off the screen, the
harness's as an agent's (`bridge.aiming`): a phone clamps such a point its own way. So every
point the harness derives from a frame is taken from `screen_part`, never from the frame.

A drag the harness makes (a list read's scroll, the capture's, a probe's) keeps out of the
screen's system edge zones too (`drag_area`, the one definition the device layer has of them,
taken from the facts the bridge and the simulator share: `presses`): iOS takes a slide up from
the bottom edge as home (sideways, as the app switch), one down from the top edge as
Notification Center or Control Center, and one right from the left edge as back, before the
list under the finger sees it. A read whose scroll went home ends as if its list had.
"""

from __future__ import annotations

from typing import NamedTuple

from phoneshell.presses import BOTTOM_EDGE_PT, LEFT_EDGE_PT, TOP_EDGE_PT
from phoneshell.tree import Element, PageSource

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


def screen_part(page: PageSource, element: Element, bottom: float | None = None,
                ) -> Part | None:
    """The part of `element`'s frame on `page`'s screen (its root's frame), above `bottom` when
    given (where a toolbar or the keyboard covers the rest); None when no part of it is there.
    A page that names no screen size (0) clips nothing that way."""
    right, lower = element.x + element.width, element.y + element.height
    part = Part(max(element.x, 0) if page.width > 0 else element.x,
                max(element.y, 0) if page.height > 0 else element.y,
                min(right, page.width) if page.width > 0 else right,
                min(lower, page.height) if page.height > 0 else lower)
    if bottom is not None:
        part = part._replace(bottom=min(part.bottom, bottom))
    return part if part.width > 0 and part.height > 0 else None


def drag_area(width: float, height: float) -> Part:
    """The part of a screen `width` by `height` points (as it is turned: a page's root frame)
    where a drag of the harness's may start and end: clear, by `CLEAR_PT`, of the bottom
    edge's zone (home, the app switch), the top edge's (Notification Center, Control Center)
    and the left edge's (back). The right edge has none."""
    return Part(LEFT_EDGE_PT + CLEAR_PT, TOP_EDGE_PT + CLEAR_PT, width,
                height - BOTTOM_EDGE_PT - CLEAR_PT)


def drag_part(page: PageSource, element: Element, bottom: float | None = None,
              ) -> Part | None:
    """The part of `element` a drag of the harness's may start and end in: its part on the
    screen above `bottom` (`screen_part`) that lies in `drag_area`; None when none does."""
    part = screen_part(page, element, bottom)
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


__all__ = ["CLEAR_PT", "Part", "clear_of_edges", "drag_area", "drag_part", "screen_part"]
