"""What the phone takes as a press: how many presses of its element a logged tap is
(`press_count`, the one definition every check that counts presses reads), and what a one-finger
slide presses, by UIKit's rules: the facts the bridge (which logs the slide) and the simulated
iPhone (which plays it) share, so that what the log calls a tap is what a phone pressed, wherever
the finger went between.

UIKit decides a press by where the finger went down and where it lifted, not by how it moved: a
UIButton (UIControl) that a finger goes down on fires `touchUpInside` when the finger lifts
inside the button's frame grown by about 70 points (`PRESS_REACH_PT`), however far it wandered,
unless something took the touch first: a scroll view the button sits in starts scrolling once
the finger moves past about 10 points (`PRESS_SLOP_PT`) and cancels its content's touches (a
row's, a button's). A context menu (or the edit menu) picks the item the finger lifts on,
whichever item it went down on. What moves under a slide (a switch's thumb, a slider, a picker
wheel, a text field, the keyboard) is not a press: those keep their own rules.

UIKit decides which way a slide goes (a row's swipe, a list's scroll, a screen edge's pan) by
its first move past the slop, not by its end points (`heading`, `first_move`): the bridge
refuses and logs a touch chain by it (`first_x`, `first_y` in the log) and the simulator plays
it so, and every reader of a logged swipe's way asks `logged_heading`.

Pure: no I/O, imports nothing of phoneshell (the bridge and the simulator may both use it).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

ONE_PRESS = frozenset({"", "tap", "click", "slide", "touch_and_hold", "force_touch",
                       "alert_accept", "alert_dismiss", "actions", "touch_perform"})
"""Gestures of a logged tap that press its element once: one finger down and up (a tap, a
click, a one-finger touch chain, a slide that pressed, WDA's alert buttons), held too (a hold
on what takes no hold of its own is a tap, on iOS as in the simulator; `checks.path.held` tells
one apart). "" is a tap logged with no gesture."""
TAPS_GESTURE = "taps"
"""WDA's `tapWithNumberOfTaps`: `taps` quick taps of `touches` fingers, as the bridge logs the
counts it forwards (`numberOfTaps`, `numberOfTouches`)."""
NO_FINGER_GESTURES = frozenset({TAPS_GESTURE, "keyboard_dismiss"})
"""Gestures of a logged tap whose `taps` says how many times a finger went down, 0 for none: a
`tapWithNumberOfTaps` of 0 taps, and a keyboard dismiss whose names press no key of the screen
the bridge knew (none named, none shown, no keyboard up: WDA answers and touches nothing)."""


def press_count(kind: str, params: Mapping[str, object]) -> int | None:
    """How many presses of its element the phone takes from a logged action, by its gesture:
    0 for what is no tap, 1 for `ONE_PRESS`, 2 for a double tap, N for `tapWithNumberOfTaps`
    with one finger and N taps, 0 where `taps` says no finger went down (`NO_FINGER_GESTURES`:
    0 taps, a keyboard dismiss that found no key); None where the phone may take it
    or not, so a check can neither count it nor rule it out: several fingers down together
    (`twoFingerTap`, `tapWithNumberOfTaps` of 2 touches, a touch chain's `multi_touch`: the
    simulator takes none, while UIKit hands a button one of the touches and may press it), a
    multi-tap logged without its counts (a log written before the bridge logged them), the
    keyboard's dismiss logged without them (WDA presses a key it finds by the names sent: the
    bridge logs one it found as a tap on that key, and one it found none for with `taps` 0),
    any gesture this does not know."""
    if kind != "tap":
        return 0
    gesture, taps = params.get("gesture", ""), params.get(TAPS_GESTURE)
    if gesture in NO_FINGER_GESTURES and taps == 0 and not isinstance(taps, bool):
        return 0  # the bridge says no finger went down
    fingers = params.get("fingers")
    if isinstance(fingers, int) and fingers > 1:
        return None
    if gesture in ONE_PRESS:
        return 1
    if gesture == "double_tap":
        return 2
    touches = params.get("touches")
    if gesture != TAPS_GESTURE or not isinstance(taps, int) or isinstance(taps, bool):
        return None
    return taps if touches == 1 and not isinstance(touches, bool) else None


def touched_nothing(kind: str, params: Mapping[str, object]) -> bool:
    """Whether a logged action is a tap the log says no finger went down for (`press_count`
    0: a keyboard dismiss that found no key, 0 taps): it changed nothing on screen, so a reader
    that suspects every tap it cannot name passes over it."""
    return kind == "tap" and press_count(kind, params) == 0


def touch_words(params: Mapping[str, object]) -> str:
    """A logged tap's gesture for a detail: "two finger tap", "2 taps of 1 finger"."""
    gesture = str(params.get("gesture") or "tap")
    taps, touches = params.get(TAPS_GESTURE), params.get("touches")
    if gesture == TAPS_GESTURE and taps is not None and touches is not None:
        return f"tapWithNumberOfTaps ({taps} tap(s) of {touches} finger(s))"
    if gesture == TAPS_GESTURE:
        return "tapWithNumberOfTaps (counts not logged)"
    fingers = params.get("fingers")
    return gesture.replace("_", " ") + (f" of {fingers} fingers" if fingers else "")


PRESS_SLOP_PT = 10.0
"""How far a finger may move before a scroll view around it takes the touch (UIKit's slop)."""
DOUBLE_TAP_S = 0.35
"""The longest pause between two taps that make a double tap (UIKit's, about a third of a
second; inferred): the simulator plays two such taps as one (`sim/taps.py`), and the bridge
logs a W3C finger's quick taps as one (`bridge/w3c_chain.py`)."""
PRESS_REACH_PT = 70.0
"""How far outside a control's frame a finger may lift and still press it (UIControl's
touch-inside bounds: the frame grown by about 70 points on every side)."""
PRESSABLE = frozenset({"Button", "Link", "Cell", "Icon", "MenuItem"})
"""Short types a finger presses by going down on them and lifting within reach."""
SLID = frozenset({"Switch", "Slider", "PickerWheel", "Picker", "DatePicker", "TextField",
                  "SecureTextField", "SearchField", "TextView", "Key", "Keyboard",
                  "SegmentedControl", "Stepper"})
"""Short types that take a slide their own way (a thumb slides, a wheel turns, a key is the one
the finger lifts on, a field moves its caret): a slide on one is never a press of what holds it."""
SCROLLERS = frozenset({"Table", "CollectionView", "ScrollView", "WebView"})
"""Short types of the views that scroll, and so take a touch that moves past the slop."""
MENUS = frozenset({"Menu"})
"""Short types of a context menu or edit menu: a slide on one picks the item it lifts on."""


@dataclass(frozen=True)
class Spot:
    """One element on the path from the screen's root to the element under a finger."""

    type: str
    """Its short type ("Button")."""
    frame: tuple[float, float, float, float]
    """x, y, width, height in points."""
    scrolls: bool = False
    """It scrolls (the simulator knows; the bridge takes it from `SCROLLERS`)."""


Pressed = tuple[Literal["down", "up"], int]
"""Which end of a slide pressed (where it went down, or lifted on a menu's item), and the index
of the element pressed on that end's path."""


def _reaches(frame: tuple[float, float, float, float], x: float, y: float) -> bool:
    left, top, width, height = frame
    return (left - PRESS_REACH_PT <= x <= left + width + PRESS_REACH_PT
            and top - PRESS_REACH_PT <= y <= top + height + PRESS_REACH_PT)


def control_at(path: Sequence[Spot]) -> int | None:
    """The index of the deepest pressable element on a path, None when something deeper takes
    slides its own way (a switch in a row) or nothing is pressable."""
    for index in range(len(path) - 1, -1, -1):
        kind = path[index].type
        if kind in SLID:
            return None
        if kind in PRESSABLE:
            return index
    return None


def slide_press(down: Sequence[Spot], up: Sequence[Spot], up_at: tuple[float, float],
                moved: bool) -> Pressed | None:
    """What a one-finger slide pressed, by UIKit's rules (None: nothing, it slid or scrolled);
    one that never moved past the slop is a tap of what it went down on.

    Args:
        down: the path from the root to the element under where the finger went down.
        up: the same for where it lifted.
        up_at: where it lifted (screen points).
        moved: it went further than `PRESS_SLOP_PT` from where it went down at some time.
    """
    if not moved:  # a touch that stayed within the slop is a tap of whatever is there
        return ("down", len(down) - 1) if down else None
    if any(s.type in MENUS for s in down):
        # a menu picks the item under the lift, and nothing when the finger leaves the menu
        if not any(s.type in MENUS for s in up):
            return None
        item = control_at(up)
        return None if item is None else ("up", item)
    return _held_through(down, up_at)


def _held_through(down: Sequence[Spot], up_at: tuple[float, float]) -> Pressed | None:
    """A moving finger on a control: pressed when no scroll view around it took the moves
    (it cancels its content's touches) and the finger lifted within the control's reach."""
    if any(s.scrolls or s.type in SCROLLERS for s in down):
        return None  # the scroll view took the touch and cancelled the control's
    control = control_at(down)
    if control is None or not _reaches(down[control].frame, *up_at):
        return None
    return "down", control


Heading = Literal["left", "right", "up", "down"]
"""Which way a slide goes, as the phone takes it (`heading`)."""
VERTICAL = frozenset({"up", "down"})
OPPOSITE: dict[str, Heading] = {"left": "right", "right": "left", "up": "down", "down": "up"}
_Point = tuple[float, float]


def slop_share(down_at: _Point, start: _Point, end: _Point) -> float | None:
    """How far along a straight move from `start` (within the slop) to `end` the finger first
    gets further than `PRESS_SLOP_PT` from `down_at`, as a share of the move in (0, 1] (None:
    `end` is within it too): where it leaves the slop, and, for a move timed evenly, when."""
    ex, ey = end[0] - down_at[0], end[1] - down_at[1]
    if math.hypot(ex, ey) <= PRESS_SLOP_PT:
        return None
    sx, sy = start[0] - down_at[0], start[1] - down_at[1]
    vx, vy = ex - sx, ey - sy
    # |s + t v| = slop, for the t in (0, 1] past the start (which lies within the circle)
    a, b = vx * vx + vy * vy, 2 * (sx * vx + sy * vy)
    c = sx * sx + sy * sy - PRESS_SLOP_PT ** 2
    return (-b + math.sqrt(max(0.0, b * b - 4 * a * c))) / (2 * a)


def _leaves_slop(down_at: _Point, start: _Point, end: _Point) -> _Point | None:
    """Where a finger moving straight from `start` (within the slop) to `end` first gets further
    than `PRESS_SLOP_PT` from `down_at` (None: `end` is within it too)."""
    t = slop_share(down_at, start, end)
    if t is None:
        return None
    # to a hundredth of a point, so the log's JSON (the bridge) and the simulator read one point
    return (round(start[0] + t * (end[0] - start[0]), 2),
            round(start[1] + t * (end[1] - start[1]), 2))


def first_move(path: Sequence[_Point]) -> _Point | None:
    """Where a finger first went further than `PRESS_SLOP_PT` from where it went down: the
    point at which UIKit's pan and swipe recognisers (a list's scroll, a row's swipe actions,
    the screen edges') decide which of them takes the touch, and along which axis.

    Args:
        path: where the finger went down, then each point it moved to, in order (XCTest moves
            it in straight lines between them).

    Returns:
        the point on the path where it crossed the slop's circle (to 0.01 pt); None when it
        never did.
    """
    for start, end in zip(path, path[1:], strict=False):
        crossed = _leaves_slop(path[0], start, end)
        if crossed is not None:
            return crossed
    return None


def turns_in_slop(path: Sequence[_Point]) -> bool:
    """Whether a path turns inside the slop so sharply that where it crosses the slop's circle
    and the first point it names beyond it go different ways (`heading`): a phone samples a
    moving finger at its own rate (and a move with no duration is one jump), so which of the
    two its recognisers judge by only the phone could tell."""
    crossed = first_move(path)
    if crossed is None:
        return False
    beyond = next(p for p in path if math.dist(p, path[0]) > PRESS_SLOP_PT)
    return heading(path[0], path[-1], crossed) != heading(path[0], path[-1], beyond)


def heading(down_at: _Point, up_at: _Point, first_at: _Point | None = None) -> Heading:
    """Which way a one-finger slide goes, as the phone takes it: THE rule by which the bridge
    refuses and logs a slide and the simulated iPhone plays it.

    UIKit decides which recogniser takes a moving touch, and along which axis, at its first
    move past the slop (`first_move`): a row's swipe actions take a horizontal start and then
    follow the finger's x alone, a list's scroll takes a vertical start and follows its y
    alone, a screen edge's pan takes a start away from the edge. Later moves across that axis
    change nothing: a swipe that goes left 280 pt and then down 300 pt is a row's swipe left,
    one that goes down and then left is a scroll. Along the axis, the row (or list) follows the
    finger both ways, so the sense is where the finger lifted against where it went down (the
    first move's sense when it lifted level). Ties between the axes go to the vertical one.

    Args:
        down_at: where the finger went down.
        up_at: where it lifted.
        first_at: where it first went past the slop; None for a straight slide (a drag by its
            end points), judged by its ends.
    """
    fx, fy = first_at or up_at
    dx, dy = fx - down_at[0], fy - down_at[1]
    if abs(dy) >= abs(dx):
        along = up_at[1] - down_at[1] or dy
        return "down" if along > 0 else "up"
    along = up_at[0] - down_at[0] or dx
    return "right" if along > 0 else "left"


DIAGONAL_MARGIN_DEG = 3.0
"""How near 45 degrees a slide's way may be before `heading` is a matter of rounding: a point a
phone computes in fractions (an element's hit point, a frame's middle) and the log in whole or
half points would flip it; within this, only the phone could tell."""


def near_diagonal(down_at: _Point, up_at: _Point) -> bool:
    """Whether a straight slide goes within `DIAGONAL_MARGIN_DEG` of a diagonal, where which
    axis `heading` takes (a row's swipe, a list's scroll) turns on a fraction of a point."""
    dx, dy = abs(up_at[0] - down_at[0]), abs(up_at[1] - down_at[1])
    return (dx or dy) != 0 and abs(math.degrees(math.atan2(dy, dx)) - 45.0) \
        < DIAGONAL_MARGIN_DEG


def _number(params: Mapping[str, object], key: str) -> float | None:
    value = params.get(key)
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) \
        else None


def logged_heading(params: Mapping[str, object]) -> Heading | None:
    """Which way a logged swipe's finger went (`heading`): by the direction of WDA's swipe
    (the finger's way) or scroll (against the finger: a scroll "down" moves it up) where one
    was sent, else by its ends and, for a touch chain, the first move the bridge logged
    (`first_x`, `first_y`). None where the log cannot tell (a drag to an element, a pinch, a
    picker's select)."""
    direction = str(params.get("direction"))
    if direction in OPPOSITE:
        way: Heading = OPPOSITE[direction]
        return way if params.get("gesture") == "scroll" else OPPOSITE[way]
    ends = [_number(params, k) for k in ("from_x", "from_y", "to_x", "to_y")]
    if not all(e is not None for e in ends):
        return None
    x0, y0, x1, y1 = (float(e or 0.0) for e in ends)
    fx, fy = _number(params, "first_x"), _number(params, "first_y")
    return heading((x0, y0), (x1, y1), (fx, fy) if fx is not None and fy is not None else None)


TOP_EDGE_PT = 40.0
"""A slide down from above this y opens Notification Center or Control Center."""
BOTTOM_EDGE_PT = 40.0
"""A slide up from this close to the bottom goes home (or closes Control Center)."""
LEFT_EDGE_PT = 20.0
"""A slide right from this close to the left edge goes back (the navigation's edge pan)."""
EDGE_TRAVEL_PT = 60.0
"""How far a slide from an edge must travel for the system to take it."""


def system_slide(screen: tuple[float, float, float, float], down_at: tuple[float, float],
                 up_at: tuple[float, float], first_at: tuple[float, float] | None = None,
                 ) -> bool:
    """A one-finger slide the system takes from a screen edge before any control under the
    finger sees it: down from the top edge (Notification Center, Control Center), up from the
    bottom edge (home), right from the left edge (back), its way judged as UIKit does
    (`heading`: by its first move past the slop, `first_at`). The simulator plays these as such
    (`sim/gestures.drag`), never as a press of the tab or icon the finger went down on."""
    left, top, width, height = screen
    (x0, y0), (x1, y1) = down_at, up_at
    dx, dy = x1 - x0, y1 - y0
    vertical = heading(down_at, up_at, first_at) in VERTICAL
    return ((y0 - top < TOP_EDGE_PT and vertical and dy > EDGE_TRAVEL_PT)
            or (y0 >= top + height - BOTTOM_EDGE_PT and vertical and dy < -EDGE_TRAVEL_PT)
            or (x0 - left < LEFT_EDGE_PT and not vertical and dx > EDGE_TRAVEL_PT))


def touch_press(down: Sequence[Spot], up: Sequence[Spot], down_at: tuple[float, float],
                up_at: tuple[float, float], moved: bool, fingers: int = 1,
                first_at: tuple[float, float] | None = None) -> Pressed | None:
    """What a touch presses, by UIKit's rules: THE rule by which the simulated iPhone plays
    every gesture that may press a control and the bridge logs it (a press is logged as a
    tap of what it pressed, or refused where the log could not name it). None: nothing.

    * One finger: `slide_press` (one that never moved past the slop is a tap of what it went
      down on: a tap, a double tap, a hold, `tapWithNumberOfTaps` of one finger), but for a
      slide the system takes from a screen edge (`system_slide`), which presses nothing.
    * Several fingers down together that stay (`twoFingerTap`, `tapWithNumberOfTaps` of two
      fingers, a touch chain's fingers tapping together): None. The simulator takes none; a
      phone may hand a button one of the touches, so the log names a tap of several fingers
      (`press_count` None: the checks neither count it nor rule it out).
    * Several that move (a pinch, a rotate, a touch chain's fingers sliding together): the
      finger that went down on a control presses it when it lifts within reach (a UIButton
      takes one touch), unless a list around the control takes the fingers' moves (its pan
      cancels its content's touches, as it does for one finger). A menu's item picks no
      finger of several.

    Args:
        down: the path from the root (the screen) to the element under where the finger went
            down (for several fingers, the one judged: the first, or each in turn).
        up: the same for where it lifted.
        down_at: where it went down (screen points).
        up_at: where it lifted.
        moved: it went further than `PRESS_SLOP_PT` from where it went down at some time.
        fingers: how many fingers were down together.
        first_at: where the finger first went past the slop (`first_move`), None for a
            straight drag: which way the system takes a slide from an edge (`heading`).
    """
    if fingers > 1:
        return _held_through(down, up_at) if moved else None
    if moved and down and system_slide(down[0].frame, down_at, up_at, first_at):
        return None
    return slide_press(down, up, up_at, moved)
