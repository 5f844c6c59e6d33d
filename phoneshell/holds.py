"""A touch held still before it slides: what the phone does with it, and how the log reads it.

A finger that stays within the slop (`presses.PRESS_SLOP_PT`) for `LONG_PRESS_S` opens the
context menu of what it holds (UIContextMenuInteraction: a list's row, an app's icon, a link),
and the same finger, sliding onto one of the menu's items and lifting there, chooses it: press,
hold, slide, release, one touch. The bridge judges a touch on the screen before it, where no
menu shows yet, so it logs such a touch as the slide it began (a `swipe`, or the `slide` tap of
a control it went down on) and cannot name the item the finger lifted on. So it logs how long
the finger held still first (`hold`, seconds, for a touch chain; a drag route's `duration` is
XCTest's press before it drags, from the one field WDA reads as it: `PRESS_FIELDS`), and
every reader that asks what was pressed takes a slide held that long as a press the log cannot
name (`held_slide`), failing closed. The simulated iPhone
plays such a touch so (`sim/held_slides.py`). The bridge refuses one that starts on what opens
a menu and lifts away from it (`held_slide_away` from what `opens_menu`, red team 96): the item
it chose may be one every refusal list refuses by tap (Add to Reading List, Copy Link, Close
This Tab, Remove App), and no list can judge an item it cannot see.

Pure: imports nothing of phoneshell but `presses` (the bridge and the simulator both use it).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from phoneshell.presses import MENUS, PRESS_SLOP_PT, PRESSABLE, SLID, Spot, slop_share

LONG_PRESS_S = 0.5
"""How long a finger stays within the slop before iOS takes it as a touch and hold, and opens
the context menu of what it holds (UILongPressGestureRecognizer's minimumPressDuration)."""
PRESS_FIRST = frozenset({"drag", "press_and_drag"})
"""Drag routes whose logged `duration` is how long XCTest presses before it drags
(`pressForDuration:thenDragToCoordinate:`), read from the route's `PRESS_FIELDS` field."""
PRESS_FIELDS: Mapping[str, str] = {
    # FBElementCommands' handleDrag, on an element or the app: pressForDuration:duration
    # thenDragToCoordinate:, and nothing else of the body is a time
    "dragfromtoforduration": "duration",
    # handlePressAndDragWithVelocity and handlePressAndDragCoordinateWithVelocity:
    # pressForDuration:pressDuration thenDragTo...:withVelocity:velocity
    # thenHoldForDuration:holdDuration; a `duration` there is read by nothing
    "pressAndDragWithVelocity": "pressDuration",
    # handleTouchAndHold: pressForDuration:duration
    "touchAndHold": "duration",
    # handleForceTouch: fb_forceTouchCoordinate:pressure:duration:
    "forceTouch": "duration",
}
"""The one body field each WDA touch route reads as how long its finger presses where it went
down, by the route's last path part; every other field of the body is none (a `duration` on a
`pressAndDragWithVelocity`, a `pressDuration` on a `dragfromtoforduration`, a `duration` on a
tap or a double tap: WDA reads none of them). A route not named here presses for no time of
the body's. WDA reads the field with doubleValue, so a missing one is 0: no press. The bridge
logs the press as the action's `duration` by it, and the simulator plays it by
it, so the two never read two fields."""
CHAINS = frozenset({"actions", "touch_perform"})
"""A one-finger touch chain's gestures: its `duration` is how long the finger stayed down in
all, the most it can have held still where the log has no `hold` (one written before it did)."""


def left_slop_ms(down_at: tuple[float, float], start: tuple[float, float],
                 end: tuple[float, float], start_ms: float, move_ms: float) -> float | None:
    """When (on the finger's clock, ms) a finger moving straight and evenly from `start`, at
    `start_ms`, to `end`, over `move_ms`, first goes further than the slop from where it went
    down (`down_at`); None when it stays within it. The bridge and the simulator time a touch
    chain's hold by it alike."""
    share = slop_share(down_at, start, end)
    return None if share is None else start_ms + share * move_ms


def _number(params: Mapping[str, object], key: str) -> float | None:
    value = params.get(key)
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) \
        else None


def held_s(params: Mapping[str, object]) -> float:
    """How long a logged slide's finger may have stayed within the slop before it slid: its
    `hold`, else a drag route's press (`PRESS_FIRST`), else a touch chain's whole `duration`
    (`CHAINS`: a log from before the bridge logged `hold`); 0 for a swipe or scroll WDA makes
    by direction (XCTest's quick swipe). A slide that pressed a control (a tap of gesture
    `slide`) is read by its route (`via`)."""
    hold = _number(params, "hold")
    if hold is not None:
        return hold
    gesture = params.get("gesture")
    route = params.get("via") if gesture == "slide" else gesture
    if route in PRESS_FIRST or route in CHAINS:
        return _number(params, "duration") or 0.0
    return 0.0


def held_slide(kind: str, params: Mapping[str, object], held_type: str) -> bool:
    """Whether a logged action is one finger's slide that may have held still long enough
    (`LONG_PRESS_S`) to open a context menu first, and so chosen the menu's item it lifted on,
    which the log does not name. `held_type` is the short type of what it went down on (""
    when the log does not say): a switch, a slider, a text input or a key takes a slide its
    own way (`presses.SLID`: a held text view moves its caret), and opens no menu."""
    slid = kind == "swipe" or kind == "tap" and params.get("gesture") == "slide"
    fingers = params.get("fingers")
    if not slid or isinstance(fingers, int) and fingers > 1 or held_type in SLID:
        return False
    return held_s(params) >= LONG_PRESS_S


MENU_SLIDE = "a held slide chooses a menu item the log cannot name: hold, then tap the item"
"""Why the bridge refuses a held slide (`held_slide_away`) from what `opens_menu`."""
MENU_HOLDERS = PRESSABLE | {"Image"}
"""Short types whose touch and hold opens a context menu on an iPhone, or may: a list's row, a
button (Safari's Tabs and back buttons, a toolbar's), a link and an image of a web page (Copy
Link, Add to Reading List, Save to Photos), an app's icon (Remove App), a menu's item."""


ROWS_WITHOUT_MENUS = frozenset({"com.apple.Preferences"})
"""Apps whose list rows open no context menu on a touch and hold: Settings' rows highlight and,
once the finger moves, the list scrolls (facebook-wda's `swipe(x1, y1, x2, y2, 0.5)`, a drag
pressed half a second first, scrolls Settings on a phone; red team 97). Their buttons still may
(a Back button's hold lists the pages behind it)."""


def opens_menu(down: Sequence[Spot] | None, app: str = "") -> bool:
    """Whether a finger held still at the end of the page path `down` (root first; None: the
    bridge could not read it, and fails closed: it may) opens a context menu: the deepest
    element on it that takes a touch its own way decides, an element that slides
    (`presses.SLID`: a switch, a slider, a picker, a text field, whose hold moves the caret)
    opening none, a `MENU_HOLDERS` one opening one, but for a row of an app in front
    (`app`) whose rows open none (`ROWS_WITHOUT_MENUS`). In a menu already open
    (`presses.MENUS`) the slide picks the item it lifts on, which the bridge names: none."""
    if down is None:
        return True
    if any(spot.type in MENUS for spot in down):
        return False
    for spot in reversed(down):
        if spot.type in SLID:
            return False
        if spot.type in MENU_HOLDERS:  # a row's button is the row (iOS 26 Settings' are)
            return not (app in ROWS_WITHOUT_MENUS and any(s.type == "Cell" for s in down))
    return False


def lifted_away(params: Mapping[str, object]) -> bool:
    """Whether a logged slide lifted past the slop from where it went down, or went past it on
    the way (a touch chain's slide did, by construction); False for a drag route whose ends lie
    within the slop (the phone takes it as a touch and hold) or a line that logs no ends."""
    gesture = params.get("gesture")
    route = params.get("via") if gesture == "slide" else gesture
    if route in CHAINS or route == "multi_touch":
        return True
    ends = [_number(params, key) for key in ("from_x", "from_y", "to_x", "to_y")]
    if any(end is None for end in ends):
        return False
    from_x, from_y, to_x, to_y = (end or 0.0 for end in ends)
    return math.dist((from_x, from_y), (to_x, to_y)) > PRESS_SLOP_PT


def held_slide_away(kind: str, params: Mapping[str, object]) -> bool:
    """Whether a logged action is a held slide (`held_slide`) that lifted away from where it
    went down (`lifted_away`): if it went down on what `opens_menu`, it may have chosen the
    menu's item under the lift, as a finger held on Safari's link or Tabs button, or on an
    icon, slides onto an item of the menu that opened and chooses it on lifting. The bridge
    refuses it then (`MENU_SLIDE`)."""
    return held_slide(kind, params, "") and lifted_away(params)
