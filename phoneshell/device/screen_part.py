"""Where the harness's own gestures take their points from an element's frame: inside the part of
that frame on the screen. Pure: never touches the device.

A frame may reach past the screen (the cover sheet's scroll view, behind the Lock Screen and
Notification Centre, starts 437 pt above it in iOS 26 and is 1311 pt tall; a sheet's list may
be laid out below the bottom edge), and the bridge refuses a touch off the screen, the
harness's as an agent's (`bridge.aiming`): a phone clamps such a point its own way. So every
point the harness derives from a frame is taken from `screen_part`, never from the frame.
"""

from __future__ import annotations

from typing import NamedTuple

from phoneshell.tree import Element, PageSource


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


__all__ = ["Part", "screen_part"]
