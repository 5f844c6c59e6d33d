"""Where XCTest's touch on an element lands: THE hit-point rule, shared by the simulated iPhone
(`sim.in_view.hit_point`, which plays every touch by id there) and the bridge (`bridge.hits`,
which logs and refuses such a touch by that point), so that the two never place one touch by
two geometries (red team 68: a row its list cut at the top, dragged from by id, was a scroll in
the log and a swipe left on the phone). Where a touch chain's finger placed from an element lands
is shared the same way (`origin_point`).

Pure: no I/O, imports nothing of phoneshell.
"""

from __future__ import annotations

from collections.abc import Iterable

Frame = tuple[float, float, float, float]
"""x, y, width, height in points."""


def visible_part(frame: Frame, bounds: Iterable[Frame]) -> Frame | None:
    """The part of `frame` inside every one of `bounds` (the screen, and every list around the
    element: a list clips its rows); None when no part of it is."""
    left, top, right, bottom = frame[0], frame[1], frame[0] + frame[2], frame[1] + frame[3]
    for x, y, width, height in bounds:
        left, top = max(left, x), max(top, y)
        right, bottom = min(right, x + width), min(bottom, y + height)
    if right <= left or bottom <= top:
        return None
    return left, top, right - left, bottom - top


def hit_point(frame: Frame, bounds: Iterable[Frame]) -> tuple[float, float] | None:
    """Where XCUITest touches an element whose frame (of the part holding its activation point)
    is `frame`: the middle of its `visible_part`, in whole points (floored, as the simulator's
    integer frames give it); None when no part of it shows."""
    part = visible_part(frame, bounds)
    if part is None:
        return None
    left, top, width, height = part
    return (left + left + width) // 2, (top + top + height) // 2


def origin_point(frame: Frame, hit: tuple[float, float] | None,
                 centred: bool) -> tuple[float, float] | None:
    """Where WDA's touch chains place a finger measured from an element (a W3C `pointerMove`
    whose origin is an element, a legacy touch action's `element`), before its offset is
    added: THE rule by which the simulated iPhone touches and the bridge logs such a touch,
    as one at the point it lands on (red team 84: a row hidden under a floating search bar was
    logged as tapped while the phone touched the search field over its middle).

    With `x` and `y` sent (`centred`), WDA's FBW3CActionsSynthesizer measures from the centre of
    the element's whole frame (`coordinateWithNormalizedOffset:(0.5, 0.5)`), wherever that lies
    and whatever is drawn there; without them (FBBaseActionsSynthesizer), from the element's
    hit point (`hit`: XCTest's, the middle of the part of it that shows), else from the centre
    of its frame. Never scrolled into view first.

    Args:
        frame: the element's frame (x, y, width, height in points).
        hit: its hit point; None when no part of it shows.
        centred: the move sent `x` and `y`.

    Returns:
        the point, in fractions where the frame's middle falls between points; None for an
        empty frame, which WDA answers as not visible, touching nothing.
    """
    if not centred and hit is not None:
        return hit
    x, y, width, height = frame
    if width <= 0 or height <= 0:
        return None
    return x + width / 2, y + height / 2
