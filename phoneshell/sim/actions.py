"""W3C actions (`POST /actions`) on the simulated iPhone: check them as WDA does, touch and type.

WDA's `FBW3CActionsSynthesizer` accepts sources of type `pointer` (with `pointerType` "touch"
only: a phone has no mouse) and `key`; their items run in parallel, each source on its own
clock. Checked as WDA checks them, each failure an `invalid argument`: a pointerDown,
pointerUp or pause needs a position before it (a pointerMove); viewport moves need both x and
y; origins are "viewport", "pointer" or an element; a key down needs its key up in the same run
and a key up its key down. `pointerCancel` cancels the item before it, and a pointerDown's or
pointerUp's duration is waited out after it, as WDA reads them. WDA starts a touch at a
pointer's first move, not at its pointerDown: a move while the finger is up that no pointerDown
follows right after (two moves before the press, a move after the lift) is refused, with the
bridge's reason, rather than played as the spec's hover, which a phone does not do.

What the phone does with a touch follows iOS: a finger that comes up within `TAP_SLOP_PT` of
where it went down is a tap, or a long press when it stayed down `LONG_PRESS_S` or more; one
that moved further is a drag from where it went down to where it came up, going the way its
first move past the slop went (`presses.heading`: a row's swipe that turns down stays one),
timed by how long it held still before that (`Touch.still_s`: held long enough, it opens a
context menu and lifts on the item it chooses, `phoneshell.holds`);
touches of several fingers that overlap in time are a multi-finger gesture (a pinch) that no
modelled control takes. Typed text goes to the focused field at the time of the last key up of
a run, as WDA types it; with no field focused it goes nowhere, as on a phone. Every touch and
every run of keys happens in time order, so a tap on a field and typing into it can share one
request.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from phoneshell.chain_points import chain_coordinate
from phoneshell.holds import LONG_PRESS_S, left_slop_ms
from phoneshell.presses import first_move
from phoneshell.sim.apps import Drag
from phoneshell.sim.store import JSON
from phoneshell.sim.wire import double_value
from phoneshell.typed_keys import KeyRun, KeysRefused, in_time_order, key_source, without_cancelled

TAP_SLOP_PT = 10.0
"""How far a finger may drift and still tap: UIKit's own allowance is about 10 points."""
W3C_ELEMENT_KEY = "element-6066-11e4-a52e-4f735466cecf"

Locate = Callable[[str, float, float, bool], tuple[float, float]]
"""Where an element-relative move lands: (element id, x, y, whether x and y were sent) ->
screen point (`hit_point.origin_point`); raises WdaError."""


class ActionsError(ValueError):
    """Actions WDA refuses (answered as `invalid argument`)."""


@dataclass(frozen=True)
class Touch:
    """One finger's contact: where it went down and came up, and when (ms into the request)."""

    down: tuple[float, float]
    up: tuple[float, float]
    start_ms: float
    end_ms: float
    moved: bool
    finger: int
    first: tuple[float, float] | None = None
    """Where it first went past the slop (`presses.first_move`): the way the phone takes it."""
    left_slop_ms: float | None = None
    """When it first went past the slop (`holds.left_slop_ms`); None when it never did."""
    moved_ms: float | None = None
    """When its last move that went somewhere ended; None when it never moved."""

    @property
    def held_s(self) -> float:
        """How long the finger stayed down."""
        return (self.end_ms - self.start_ms) / 1000.0

    @property
    def still_s(self) -> float:
        """How long the finger stayed within the slop before it moved past it (all the time it
        was down, when it never did): held long enough, it opened a context menu first."""
        end = self.end_ms if self.left_slop_ms is None else self.left_slop_ms
        return (end - self.start_ms) / 1000.0

    @property
    def settled_s(self) -> float:
        """How long the finger stayed where its last move left it before it lifted (a pause
        before the pointerUp): paused on the way up from the bottom edge, it opens the App
        Switcher."""
        return 0.0 if self.moved_ms is None else (self.end_ms - self.moved_ms) / 1000.0


Typing = KeyRun
"""A run of keys, typed when its last key comes up (`phoneshell.typed_keys`, the bridge's too)."""


def _number(item: dict[str, JSON], key: str) -> float | None:
    # FBW3CActionsSynthesizer reads x and y with floatValue and durations with doubleValue,
    # which a string has too: {"x": "201"} moves to 201, as a number would
    value = item.get(key)
    if value is None:
        return None
    number = double_value(value)
    if number is None:
        raise ActionsError(f"'{key}' must be a number in '{item}'")
    return number


def _coordinate(item: dict[str, JSON], key: str) -> float | None:
    # floatValue: a 32-bit float, as the bridge reads it too (`chain_points`): y=185.999999 is
    # 186.0 on a phone, the row below an edge at 186
    number = _number(item, key)
    return None if number is None else chain_coordinate(number)


def _duration(item: dict[str, JSON]) -> float:
    duration = _number(item, "duration") or 0.0
    if duration < 0:
        raise ActionsError(f"'duration' must not be negative in '{item}'")
    return duration


def _element_id(origin: JSON) -> str | None:
    if isinstance(origin, dict):
        for key in (W3C_ELEMENT_KEY, "ELEMENT"):
            found = origin.get(key)
            if isinstance(found, str):
                return found
        return None
    if isinstance(origin, str) and origin not in ("viewport", "pointer"):
        return origin
    return None


def _without_cancelled(items: list[JSON]) -> list[dict[str, JSON]]:
    try:
        return without_cancelled(items)  # type: ignore[return-value]  # JSON objects
    except KeysRefused as exc:
        raise ActionsError(str(exc)) from exc


class _Finger:
    """Follows one pointer source through its items."""

    def __init__(self, finger: int, locate: Locate | None) -> None:
        self.finger = finger
        self.locate = locate
        self.at: tuple[float, float] | None = None
        self.clock_ms = 0.0
        self.down: tuple[float, float] | None = None
        self.down_ms = 0.0
        self.moved = False
        self.path: list[tuple[float, float]] = []
        self.touches: list[Touch] = []
        self.left_slop_ms: float | None = None
        self.moved_ms: float | None = None
        self.hover: dict[str, JSON] | None = None
        """The first move made while up that no pointerDown follows right after."""

    def first_move(self) -> ActionsError:
        """The refusal of a move made while up that no pointerDown follows right after.

        WDA (FBW3CActionsSynthesizer) puts a finger down at a pointer's first move
        (XCPointerEventPath initForTouchAtPoint) and takes a pointerDown right after it as that
        touch; any other pointerDown is a second touch. Such a move is a touch on a phone, not
        the spec's hover: refused as the bridge refuses it, once WDA's own checks of every
        item have passed.
        """
        return ActionsError(f"The '{self.hover}' action item moves a pointer that is up without "
                            "a pointerDown right after it: WDA starts a touch at a pointer's "
                            "first move, so put its pointerDown right after the move to where "
                            "it touches")

    def lift(self) -> None:
        """The finger comes up where it is."""
        assert self.down is not None and self.at is not None
        self.touches.append(Touch(self.down, self.at, self.down_ms, self.clock_ms, self.moved,
                                  self.finger, first_move(self.path), self.left_slop_ms,
                                  self.moved_ms))
        self.down = None

    def move(self, item: dict[str, JSON]) -> None:
        origin, start, start_ms = item.get("origin", "viewport"), self.at, self.clock_ms
        x, y = _coordinate(item, "x"), _coordinate(item, "y")
        if (x is None) != (y is None) or (origin == "viewport" and x is None):
            raise ActionsError(f"Both 'x' and 'y' options should be set for '{item}' action item")
        element = _element_id(origin)
        if element is not None:
            if self.locate is None:
                raise ActionsError(f"Unsupported origin type '{origin}' is set for '{item}' "
                                   "action item: there is no session to know elements from")
            self.at = self.locate(element, x or 0.0, y or 0.0, x is not None)
        elif origin == "pointer":
            if self.at is None:
                raise ActionsError(f"There is no previous item for '{item}' action item, "
                                   "however origin is set to 'pointer'")
            self.at = (self.at[0] + (x or 0.0), self.at[1] + (y or 0.0))
        elif origin == "viewport":
            self.at = (x or 0.0, y or 0.0)
        else:
            raise ActionsError(f"Unsupported origin type '{origin}' is set for '{item}' action "
                               "item. Supported origin types: pointer, viewport or an element")
        self.clock_ms += _duration(item)
        if not all(map(math.isfinite, self.at)):
            # Finite moves can still add up past what a double holds.
            raise ActionsError(f"The '{item}' action item takes the pointer past any screen")
        if self.down is not None and not self.moved:
            self.moved = math.dist(self.down, self.at) > TAP_SLOP_PT
            if self.moved and start is not None:
                self.left_slop_ms = left_slop_ms(self.down, start, self.at, start_ms,
                                                 self.clock_ms - start_ms)
        if self.down is not None:
            if self.at != start:
                self.moved_ms = self.clock_ms
            self.path.append(self.at)

    def step(self, item: dict[str, JSON], then: JSON) -> None:
        """Take one item; `then` is the next item's type (None after the last)."""
        kind = item.get("type")
        if kind == "pointerMove":
            if self.down is None and then != "pointerDown" and self.hover is None:
                self.hover = item
            self.move(item)
            return
        if kind not in ("pointerDown", "pointerUp", "pause"):
            raise ActionsError(f"action item type '{kind}' is not supported. Only the following "
                               "action item types are supported: pause, pointerUp, pointerDown, "
                               "pointerMove")
        if kind == "pause":
            self.clock_ms += _duration(item)
            return
        if self.at is None:
            raise ActionsError(f"The '{item}' action item must be preceded by pointerMove item")
        if kind == "pointerDown":
            if self.down is None:
                self.down, self.down_ms, self.moved = self.at, self.clock_ms, False
                self.left_slop_ms = self.moved_ms = None
                self.path = [self.at]
        elif self.down is None and self.hover is not None:
            raise self.first_move()  # WDA lifts the touch the move started
        elif self.down is None:
            raise ActionsError(f"Pointer Up must not be the first action in '{item}'")
        else:
            self.lift()
        # WDA adds every item's duration to its source's clock, a pointerDown's and a
        # pointerUp's too (the spec gives them none): a pointerDown lasting 1 s is a hold.
        self.clock_ms += _duration(item)


def _pointer(source: dict[str, JSON], finger: int, locate: Locate | None) -> list[Touch]:
    parameters = source.get("parameters")
    kind = parameters.get("pointerType", "mouse") if isinstance(parameters, dict) else "mouse"
    if kind != "touch":
        raise ActionsError(f"Only pointer type 'touch' is supported. '{kind}' is given instead "
                           f"for action with id '{source.get('id')}'")
    items = source.get("actions")
    if not isinstance(items, list) or not items:
        raise ActionsError("It is mandatory to have at least one gesture item defined for each "
                           f"action. Action with id '{source.get('id')}' contains none")
    hand = _Finger(finger, locate)
    kept = _without_cancelled(items)
    for index, item in enumerate(kept):
        hand.step(item, kept[index + 1].get("type") if index + 1 < len(kept) else None)
    if hand.hover is not None:
        raise hand.first_move()
    if hand.down is not None and hand.at is not None:
        hand.lift()  # a finger still down when the chain ends lifts there, as XCTest ends it
    return hand.touches


def _keys(source: dict[str, JSON]) -> list[Typing]:
    try:
        return key_source(source)[0]
    except KeysRefused as exc:
        raise ActionsError(str(exc)) from exc


@dataclass(frozen=True)
class Plan:
    """What a request does, in time order: touches (single or several fingers) and typing."""

    steps: tuple[tuple[Touch, ...] | Typing, ...]


def plan(body: dict[str, JSON], locate: Locate | None) -> Plan:
    """Check a W3C actions body and order what it does.

    Args:
        body: the request body, {"actions": [source, ...]}.
        locate: resolves element origins (None without a session: element origins are refused).

    Raises:
        ActionsError: WDA would refuse the actions.
    """
    sources = body.get("actions")
    if not isinstance(sources, list):
        raise ActionsError("'actions' must be a list of action sources")
    touches: list[Touch] = []
    typing: list[list[Typing]] = []
    for index, source in enumerate(sources):
        if not isinstance(source, dict) or source.get("type") not in ("pointer", "key"):
            kind = source.get("type") if isinstance(source, dict) else source
            raise ActionsError(f"Only actions of '['pointer', 'key']' types are supported. "
                               f"'{kind}' is given instead for action #{index + 1}")
        if source["type"] == "pointer":
            touches += _pointer(source, index, locate)
        else:
            typing.append(_keys(source))
    # key sources play side by side, by time, as the bridge logs them (`in_time_order`)
    return Plan(tuple(_order(touches, in_time_order(typing))))


def _order(touches: list[Touch], typing: list[Typing]) -> list[tuple[Touch, ...] | Typing]:
    groups: list[list[Touch]] = []
    for touch in sorted(touches, key=lambda t: (t.start_ms, t.finger)):
        if groups and any(t.finger != touch.finger and touch.start_ms < t.end_ms
                          for t in groups[-1]):
            groups[-1].append(touch)  # fingers down together: one multi-finger gesture
        else:
            groups.append([touch])
    timed: list[tuple[float, int, tuple[Touch, ...] | Typing]] = [
        (g[0].start_ms, 0, tuple(g)) for g in groups]
    timed += [(t.at_ms, 1, t) for t in typing]
    return [step for _, _, step in sorted(timed, key=lambda s: (s[0], s[1]))]


class Hands(Protocol):
    """What a plan needs from the phone (the phone implements it)."""

    def tap(self, x: float, y: float) -> None:
        """Tap a point."""

    def hold(self, x: float, y: float, duration_s: float) -> None:
        """Touch and hold a point."""

    def drag(self, drag: Drag) -> None:
        """Drag one finger."""

    def type_text(self, text: str) -> bool:
        """Type into the focused field."""


def perform(steps: Plan, hands: Hands) -> None:
    """Carry a plan out on the phone."""
    for step in steps.steps:
        if isinstance(step, Typing):
            if step.text:
                hands.type_text(step.text)
            continue
        if len({t.finger for t in step}) > 1:
            continue  # a pinch or two-finger gesture: no modelled control takes one
        touch = step[0]
        (x0, y0), (x1, y1) = touch.down, touch.up
        if touch.moved:  # held still long enough first, it opens a context menu (`drag`)
            hands.drag(Drag(x0, y0, x1, y1, touch.still_s, touch.settled_s, wandered=True,
                            first=touch.first))
        elif touch.held_s >= LONG_PRESS_S:
            hands.hold(x0, y0, touch.held_s)
        else:
            hands.tap(x0, y0)  # the point as sent: the bridge logs what lies at it
