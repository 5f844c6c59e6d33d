"""The drag, swipe, scroll, pinch, rotate and picker wheel routes' actions: where each is aimed,
its params as the log names them, and the pace and reach past which it is refused (`limits.py`).
"""

from __future__ import annotations

import math

from bridge.classified import Classified
from bridge.classified import params as _params
from bridge.finds import check_predicate
from bridge.gate import Refused
from bridge.limits import (
    LONGEST_TRAVEL_PT,
    MAX_SCROLL_DISTANCE,
    check_gesture,
    check_paced,
    travel_s,
)
from bridge.pointer import unnamed
from bridge.request_body import Body, Handler
from phoneshell.holds import PRESS_FIELDS


def drag(gesture: str, route: str) -> Handler:
    """A drag by screen points, aimed at what lies where it starts (the slider it moves, the
    list it scrolls); `pressAndDragWithVelocity` on an element drags from that element to
    `toElement` (WDA reads no points then), aimed at the element, `to_element` logged (the
    recorder reads its frame to tell where the finger lifts: `slides._dragged_between`).
    Its `duration` is the press before it drags, read from the one field WDA reads as it on
    `route` (`holds.PRESS_FIELDS`: `duration` on dragfromtoforduration, `pressDuration` on
    pressAndDragWithVelocity), never from the other route's field, which WDA ignores there:
    absent, no press.

    Refused: `dragfromtoforduration` on an element (its points are offsets from the element's
    corner, which may lie outside it), and a screen drag missing a point (WDA reads it as 0).
    """
    press = PRESS_FIELDS[route]

    def handle(b: Body, ids: tuple[str, ...]) -> Classified:
        duration = b.num(press)
        if gesture == "press_and_drag":
            _check_press_and_drag(b, None if ids else ("fromX", "fromY", "toX", "toY"))
        if ids and gesture == "press_and_drag":
            return Classified("swipe", _params(duration=duration, element=ids[0],
                                               to_element=b.text("toElement"),
                                               gesture=gesture), "element")
        if ids:
            raise unnamed("a drag on an element starts and ends at offsets from the element's "
                           "corner, which may lie outside it",
                           "drag by points on screen (/wda/dragfromtoforduration)")
        found = [b.num(key) for key in ("fromX", "fromY", "toX", "toY")]
        ends = [end for end in found if end is not None]
        if len(ends) < 4:
            raise Refused("a drag needs fromX, fromY, toX and toY: WDA reads a missing one as 0")
        from_x, from_y, to_x, to_y = ends
        return Classified("swipe", _params(from_x=from_x, from_y=from_y, to_x=to_x, to_y=to_y,
                                           duration=duration, gesture=gesture), "from",
                          points=((from_x, from_y), (to_x, to_y)))
    return handle


def _check_press_and_drag(b: Body, ends: tuple[str, ...] | None) -> None:
    """Refuse a `pressAndDragWithVelocity` that plays longer than a gesture may: its press, its
    travel at `velocity` (between its points, or at most across the screen between elements)
    and its hold, one after another."""
    points = [b.num(key) or 0.0 for key in ends] if ends else None
    distance = math.dist(points[:2], points[2:]) if points else LONGEST_TRAVEL_PT
    check_gesture("its press, drag and hold", (b.num("pressDuration") or 0.0)
                  + travel_s(b.num("velocity"), distance) + (b.num("holdDuration") or 0.0))


def swipe(gesture: str, needs_element: bool = False) -> Handler:
    """A swipe, scroll, pinch or rotate on the element in the path, or on the whole app.
    `needs_element`: refused without one (a pinch or rotate of the whole app puts two fingers
    at points the log cannot name)."""
    def handle(b: Body, ids: tuple[str, ...]) -> Classified:
        if needs_element and not ids:
            raise unnamed(f"without an element WDA makes the {gesture} on the whole app, with "
                           "two fingers", "name the element")
        if gesture == "swipe" and ("x" in b.data or "y" in b.data):
            raise unnamed("a swipe at a point crosses a frame the size of the screen centred "
                          "there, starting and ending where the log could not name",
                          "drag between points on screen (/wda/dragfromtoforduration)")
        _check_pace(gesture, b)
        direction = b.text("direction")
        if direction is None and b.data.get("toVisible"):
            direction = "visible"
        distance = _distance(b) if gesture == "scroll" and direction in SCROLLED else None
        return Classified("swipe", _params(direction=direction, distance=distance,
                                           element=ids[0] if ids else None, gesture=gesture),
                          "element" if ids else "none")
    return handle


MAX_PICKER_ROWS = 60
"""The most rows one picker wheel select may turn (`maxAttempts`; WDA's default is 25): a
minute or second wheel's round. WDA taps a row at a time and waits for each to settle, and
looks for a value a wheel may never show until the attempts run out."""


def picker_select(b: Body, ids: tuple[str, ...]) -> Classified:
    """`pickerwheel/:id/select`: a swipe on the wheel, logged with every argument WDA reads
    (`order` as the direction, the `value` it turns to, `max_attempts` rows at most, the tap's
    `offset`), since one request may turn it many rows. Each row is a tap inside the wheel's
    frame (at most half its height from its centre), on the wheel only: not a press of
    anything else. Refused past `MAX_PICKER_ROWS` rows."""
    attempts = b.num("maxAttempts")
    if attempts is not None and attempts > MAX_PICKER_ROWS:
        raise Refused(f"maxAttempts {attempts:g}: WDA turns the wheel a row at a time until it "
                      f"shows the value, and the bridge allows up to {MAX_PICKER_ROWS} rows a "
                      "request", 403, "unsupported operation")
    return Classified("swipe", _params(direction=b.text("order"), value=b.text("value"),
                                       max_attempts=attempts,
                                       offset=b.num("offset"), element=ids[0],
                                       gesture="picker_select"), "element")


def _check_pace(gesture: str, b: Body) -> None:
    """Refuse a swipe, pinch or rotation slower than a gesture may be (at most across the
    screen at `velocity`; a scale or an angle at its velocity), or a scroll further than
    `MAX_SCROLL_DISTANCE` list lengths."""
    if gesture == "swipe":
        check_gesture("a swipe at that velocity", travel_s(b.num("velocity")))
    elif gesture == "pinch":
        check_paced("a pinch", abs((b.num("scale") or 1.0) - 1.0), b.num("velocity"))
    elif gesture == "rotate":
        check_paced("a rotation", b.num("rotation"), b.num("velocity"))
    if gesture == "scroll":  # WDA finds the child to scroll to by it
        check_predicate(b.data.get("predicateString"), "scroll's predicateString")
    distance = b.data.get("distance")
    if gesture == "scroll" and not abs(_distance(b)) <= MAX_SCROLL_DISTANCE:
        raise Refused(f"a scroll {distance!s:.20} list lengths long: WDA scrolls it in "
                      "several drags, one after another, and the bridge allows up to "
                      f"{MAX_SCROLL_DISTANCE:g} a request", 403, "unsupported operation")


SCROLLED = frozenset({"up", "down", "left", "right"})
"""The directions WDA's scroll drags in (any other direction does nothing)."""


def _distance(b: Body) -> float:
    """A scroll's `distance` as WDA reads it: 1.0 when absent, else its doubleValue.

    Raises:
        Refused: it is not a number (a string's doubleValue reads a leading number and ignores
            the rest, so "0.5 list" scrolls half a list: where its drags land would be guessed).
    """
    distance = b.data.get("distance", 1.0)
    if isinstance(distance, (int, float)):
        return float(distance)
    raise Refused(f"scroll's distance {distance!r:.30} is not a number: send one (WDA reads "
                  "it with doubleValue, which reads what a string begins with)")
