"""Summarise a touch chain (W3C `/actions`, legacy `/wda/touch/perform`): each finger's one touch.

A finger's touch is reduced to where it went down, how far it moved while down, where it came
up, and when it went down and came up (ms into the request, on the finger's own clock: WDA gives
each pointer source, and each legacy chain, its own event path starting at 0). Pure: reads a
request body, never the phone. A touch that never moves further than `TAP_SLOP_PT` is a tap, as
iOS itself would take it. This module holds what a touch is, follows a finger through its steps
(`Finger`) and reads the legacy TouchAction chains; a W3C body is read by `w3c_chain.py`.

Only chains that WDA (`FBW3CActionsSynthesizer`, `FBAppiumActionsSynthesizer`), the simulator
and this summary read alike are admitted; anything else is refused (`gate.Refused`), never
guessed:

* a finger that touches the screen more than once (several gestures in one request, but for a
  W3C finger's quick double or triple tap at one point: `w3c_chain.quick_taps`), or moves or
  touches again after it lifted;
* a duration that is negative, a touch that never lifts, a legacy `tap` with a `count` (and the
  W3C chain's own refusals: `w3c_chain.py`);
* a touch the log could not name by what it touches (`unnamed`): a legacy touch at x and y
  from an element (WDA measures them from the corner of the part of it that shows, which only
  the phone knows), one that moves between points measured from different elements (or from an
  element and the screen, or from an element's centre and its hit point), or goes down on an
  element and then moves past the slop (where it goes, off the screen or not, the log could
  tell only from the element's frame);
* a coordinate that is not a number, or past a 32-bit float's range, an unknown action type.

Every coordinate is read as WDA reads a chain's, a 32-bit float (`phoneshell.chain_points`, the
simulator's rule too): y=185.999999 is 186, on the row below an edge at 186 (red team 139).

A finger placed from an element (a W3C move whose origin is an element, a legacy touch's
`element`) is kept as measured from it (`Point.element`, `Point.centred`): the recorder turns
it into the point of the screen it lands on, by WDA's rule (`hit_point.origin_point`,
`bridge.origins`), and logs, aims and refuses it as a touch at that point (red team 84).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bridge.gate import Refused, json_type
from bridge.request_body import POINT_FIELDS, coordinate
from phoneshell.chain_points import chain_coordinate
from phoneshell.holds import left_slop_ms

TAP_SLOP_PT = 10.0
"""How far (points) a finger may drift and still tap: UIKit's own slop is about 10 pt."""
LEGACY_TAP_MS = 100.0
"""How long WDA holds a legacy `tap` down (FB_TAP_DURATION_MS)."""
LEGACY_LONG_PRESS_MS = 600.0
"""How long WDA holds a legacy `longPress` without a duration (FB_LONG_TAP_DURATION_MS)."""

W3C_ELEMENT_KEY = "element-6066-11e4-a52e-4f735466cecf"

SEVERAL_GESTURES = "send each gesture in its own request, so each is logged with what it touched"


def several_gestures(what: str) -> Refused:
    """The refusal of a request that holds more than one gesture (`what` says how)."""
    return Refused(f"{what}: that is more than one gesture in one request; {SEVERAL_GESTURES}",
                   403, "unsupported operation")


def unnamed(what: str, instead: str) -> Refused:
    """The refusal of a touch the log could not name by what it touches (`what` says why)."""
    return Refused(f"{what}, so the log could not name what it touches; {instead}", 403,
                   "unsupported operation")


@dataclass(frozen=True)
class Point:
    """A position: absolute screen points, or an offset from an element when `element` is set
    (from the centre of its frame when `centred`, the W3C move sent x and y; else from its hit
    point: `hit_point.origin_point`)."""

    x: float
    y: float
    element: str = ""
    centred: bool = False

    def measured_like(self, other: Point) -> bool:
        """Whether both are measured from the same place (the screen, or one element's centre
        or hit point), so that the distance between them is the finger's."""
        return (self.element, self.centred) == (other.element, other.centred)


@dataclass(frozen=True)
class Touch:
    """One finger's contact: where it went down, came up, whether it moved, and when."""

    down: Point
    up: Point
    moved: bool
    start_ms: float
    end_ms: float
    points: tuple[tuple[float, float], ...] = ()
    """Every point on screen the finger went down at or moved through (absolute points)."""
    left_slop_ms: float | None = None
    """When it first went further than the slop, on its clock (`holds.left_slop_ms`: a finger
    held still long enough first opens a context menu); None when it never did."""
    taps: int = 1
    """How many times the finger went down: 2 or 3 for a quick double or triple tap at one point
    (`w3c_chain.quick_taps`), one gesture from its first press (`start_ms`) to its last lift
    (`end_ms`)."""

    @property
    def held_s(self) -> float:
        """How long the finger stayed down (seconds; a quick double or triple tap's whole run)."""
        return (self.end_ms - self.start_ms) / 1000.0


@dataclass(frozen=True)
class Chain:
    """What a whole action request did: each touching finger's touch, and the keys typed."""

    touches: tuple[Touch, ...]
    """One per finger that touched the screen, in the order of the request's sources."""
    text: str
    length_ms: float = 0.0
    """How long WDA plays the request: its longest source's steps, pauses included (WDA gives
    each source its own clock, and answers once every one has played)."""

    @property
    def fingers(self) -> int:
        """How many fingers touched the screen (2 for a pinch)."""
        return len(self.touches)

    @property
    def together(self) -> bool:
        """Whether every finger is down at one moment (a pinch, a two-finger tap), rather than
        some lifting before others go down: WDA plays those as separate touches, one after
        another, each landing on whatever the one before left on screen."""
        return max(t.start_ms for t in self.touches) < min(t.end_ms for t in self.touches)


def step_number(step: Mapping[str, object], key: str) -> float | None:
    """A step's number `key` as WDA reads it (a point's coordinate, a string's too, rounded to
    a 32-bit float as WDA's floatValue reads it: `chain_points`), or None.

    Raises:
        Refused: a value WDA would read otherwise (`request_body.coordinate`), a coordinate
            past a 32-bit float's range, or a duration that is not a number.
    """
    value = step.get(key)
    if key in POINT_FIELDS:  # a point: WDA reads it with floatValue, a string's too
        found = coordinate(f"an action step's {key!r}", value)
        if found is None:
            return None
        # a 32-bit float, as the phone touches it (and the simulator: `chain_points`): a point
        # a millionth above a row's edge is on the row below it
        point = chain_coordinate(found)
        if not math.isfinite(point):
            raise Refused(f"an action step's {key!r} is past what WDA reads it as (a 32-bit "
                          "float, whose largest is about 3.4e38): it is no point of any screen")
        return point
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise Refused(f"an action step's {key!r} must be a number, not {json_type(value)}")
    return float(value)


def step_duration_ms(step: Mapping[str, object], key: str = "duration") -> float:
    """A step's duration (ms, 0 when missing).

    Raises:
        Refused: it is not a number, or it is negative.
    """
    found = step_number(step, key) or 0.0
    if found < 0:
        raise Refused(f"an action step's {key!r} must not be negative")
    return found


def origin_element(origin: object) -> str:
    """The element id a move's `origin` names ("" for the screen or the pointer).

    Raises:
        Refused: an origin that is neither a string nor an element reference.
    """
    if isinstance(origin, Mapping):
        for key in (W3C_ELEMENT_KEY, "ELEMENT"):
            found = origin.get(key)
            if isinstance(found, str):
                return found
        raise Refused("an action's origin names no element")
    if origin is None:
        return ""
    if isinstance(origin, str):
        return origin if origin not in ("viewport", "pointer") else ""
    raise Refused(f"an action's origin must be 'viewport', 'pointer' or an element, not "
                  f"{json_type(origin)}")


class Finger:
    """Follows one finger through its steps: its touches, each a press to its lift (mutable,
    local to a summary). Once it has lifted it may only press again where it is (a W3C
    pointerDown after its pointerUp: WDA starts another touch there), which the reader admits
    or refuses (`w3c_chain.quick_taps`); being placed anywhere after a lift is refused here
    (the W3C reader lets only a move back to where it lifted through, without placing it)."""

    def __init__(self) -> None:
        self.at = Point(0.0, 0.0)
        self.clock_ms = 0.0
        self.down: Point | None = None
        self.down_ms = 0.0
        self.moved = False
        self.touches: list[Touch] = []
        self.points: list[tuple[float, float]] = []
        self.left_slop_ms: float | None = None

    def place(self, to: Point) -> None:
        """Where the finger is before it goes down."""
        if self.touches:
            raise several_gestures("a finger moves or touches the screen again after it lifted")
        self.at = to

    def move(self, to: Point, ms: float = 0.0) -> None:
        """A move while down, over `ms` (the caller waits it out): past the slop, a drag.

        Raises:
            Refused: a point measured from another element than the touch's, or from an
                element when the touch is on the screen's (or the other way round), or from an
                element's centre when the touch is at its hit point: the log could not tell
                which way the finger went (a switch's slide from a scroll).
        """
        assert self.down is not None, "moves while up are places"
        if not to.measured_like(self.down):
            raise unnamed("a finger moves between points measured from different elements (or "
                          "from an element and the screen)", "send points on screen")
        start, self.at = self.at, to
        if not self.moved:
            self.moved = math.hypot(to.x - self.down.x, to.y - self.down.y) > TAP_SLOP_PT
            if self.moved:
                self.left_slop_ms = left_slop_ms((self.down.x, self.down.y), (start.x, start.y),
                                                 (to.x, to.y), self.clock_ms, ms)
        if self.moved and to.element:
            raise unnamed("a finger that goes down on an element and moves from there goes "
                          "where only the element's frame could tell (off the screen, maybe)",
                          "send the drag's points on screen")
        self._note(to)

    def _note(self, at: Point) -> None:
        if not at.element:
            self.points.append((at.x, at.y))

    def press(self) -> None:
        if self.down is not None:
            # WDA starts a second touch (another event path) at a second press
            raise Refused("a finger presses again without lifting")
        self.down = self.at
        self.down_ms, self.moved, self.left_slop_ms = self.clock_ms, False, None
        self.points = []
        self._note(self.down)

    def wait(self, ms: float) -> None:
        self.clock_ms += ms

    def release(self) -> None:
        if self.down is None:
            raise Refused("a finger lifts without having touched the screen")
        self.touches.append(Touch(self.down, self.at, self.moved, self.down_ms, self.clock_ms,
                                  tuple(self.points), self.left_slop_ms))
        self.down = None

    def finish(self) -> tuple[Touch, ...]:
        """Every touch the finger made, in order.

        Raises:
            Refused: it is still down.
        """
        if self.down is not None:
            raise Refused("a touch never lifts: end it with its pointerUp (or release)")
        return tuple(self.touches)


def _legacy_point(options: Mapping[str, object], finger: Finger) -> Point:
    x, y = step_number(options, "x"), step_number(options, "y")
    element = origin_element(options.get("element"))
    if element and (x is not None or y is not None):
        raise unnamed("a legacy touch at x and y from an element lands that far from the corner "
                      "of the part of it that shows, which only the phone knows",
                      "send the point on screen, or the element without x and y")
    if x is None and y is None:
        return Point(0.0, 0.0, element) if element else finger.at  # an element: its hit point
    return Point(x or 0.0, y or 0.0)


def _legacy_step(finger: Finger, action: object, options: Mapping[str, object]) -> None:
    """One Appium TouchAction step, timed as FBAppiumActionsSynthesizer times it."""
    if action in ("press", "longPress", "tap"):
        if action == "tap" and step_number(options, "count") not in (None, 1.0):
            raise several_gestures("a tap with a count taps more than once")
        finger.place(_legacy_point(options, finger))
        finger.press()
        if action == "longPress":
            held = step_duration_ms(options) if "duration" in options else LEGACY_LONG_PRESS_MS
            finger.wait(held)
        if action == "tap":
            finger.wait(LEGACY_TAP_MS)
            finger.release()
    elif action == "moveTo":
        if finger.down is None:
            raise Refused("a moveTo while no finger is down (WDA moves a lifted touch)")
        finger.move(_legacy_point(options, finger), step_duration_ms(options))
        finger.wait(step_duration_ms(options))
    elif action == "wait":
        finger.wait(step_duration_ms(options, "ms"))
    elif action == "release":
        finger.release()
    else:
        raise Refused(f"unknown touch action {action!r:.40}")


def _legacy_chain(steps: Sequence[object]) -> Finger:
    """Follow one TouchAction chain (`finish` then gives its touch, `clock_ms` its length)."""
    finger = Finger()
    for step in steps:
        if not isinstance(step, Mapping):
            raise Refused("a touch action must be an object")
        options = step.get("options", {})
        if not isinstance(options, Mapping):
            raise Refused("a touch action's 'options' must be an object")
        _legacy_step(finger, step.get("action"), options)
    return finger


def summarise_legacy(body: Mapping[str, object], multi: bool) -> Chain:
    """Summarise an Appium TouchAction body (`/wda/touch/perform`, `/wda/touch/multi/perform`).

    Raises:
        Refused: a step that cannot be read one way only, or a finger that touches more than
            once.
    """
    chains = body.get("actions")
    if not isinstance(chains, list):
        raise Refused("'actions' must be a list")
    groups: list[object] = chains if multi else [chains]
    touches: list[Touch] = []
    length_ms = 0.0
    for group in groups:
        if not isinstance(group, list):
            raise Refused("each finger's touch actions must be a list")
        finger = _legacy_chain(group)
        # a legacy finger touches once at most: its second press is placed, and refused there
        touches.extend(finger.finish())
        length_ms = max(length_ms, finger.clock_ms)
    return Chain(tuple(touches), "", length_ms)
