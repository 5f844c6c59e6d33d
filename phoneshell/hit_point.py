"""Where XCTest's touch on an element lands: THE hit-point rule, shared by the simulated iPhone
(`sim.gestures.hit_point`, which plays every touch by id there) and the bridge (`bridge.hits`,
which logs and refuses such a touch by that point), so that the two never place one touch by
two geometries (red team 68: a row its list cut at the top, dragged from by id, was a scroll in
the log and a swipe left on the phone).

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
