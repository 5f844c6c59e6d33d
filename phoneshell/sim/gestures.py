"""Touch, key and button input on the simulated iPhone, and the system gestures.

Every function changes real state or nothing: a tap runs the handler of the element under the
finger, typing edits the focused field, a drag scrolls the list under the finger or makes a
system gesture. A locked phone ignores every gesture, as a real one does while WDA still
answers 200 (typing fails instead: a lock screen has no keyboard). System gestures, checked in
this order:

* a tap on the status bar scrolls the list in front to its top (`status_bar_tap`);
* an upward drag starting on a notification banner puts it away (`springboard.swipe_banner`);
* a downward drag starting at the top edge (y < 40) opens Notification Center from anywhere,
  or Control Center when it starts on the edge's right part (x past seven tenths of the width);
* an upward drag starting at the bottom edge goes home, or over Control Center or Notification
  Center closes them back to the app underneath, or, paused before it lifts (or held before it
  slides), shows the App Switcher (`apps/app_switcher.py`); a sideways one there, with an app in
  front, switches to the app used before it or back (`app_switch`);
* a rightward drag starting at the left edge (x < 20) presses the page's back button;
* a drag held still long enough to open the context menu of what it holds picks the menu's
  item it lifts on (`held_slides`);
* a downward drag on a page sheet (from its top part, or any part that does not take the drag
  itself) dismisses it as its Cancel does (`layout.pulled_sheet`), as iOS's sheets do;
* then the front app's own `on_drag` hook (a row's swipe actions, a calendar's paging); then a
  rightward drag anywhere on a pushed page's content presses the back button of its navigation
  bar (iOS 26's content swipe back), unless it starts on a control that takes sideways drags
  (`_content_back`); then the switch knob, list, page view, slider or
  picker wheel under the finger (a knob slid sideways toggles as a tap would, when it slides
  toward the other side: right turns it on, left off, as a UISwitch's thumb does).

"Downward", "sideways" and the rest are the drag's way as UIKit takes it (`Drag.vertical`,
`presses.heading`): along the axis of its first move past the slop, not of its ends, so a
touch chain that swipes a row left and then turns down swipes the row, as the bridge logs it.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import TYPE_CHECKING

from phoneshell.presses import (
    BOTTOM_EDGE_PT,
    EDGE_TRAVEL_PT,
    LEFT_EDGE_PT,
    PRESS_SLOP_PT,
    TOP_EDGE_PT,
    Pressed,
    Spot,
    touch_press,
)
from phoneshell.sim import app_switch, layout
from phoneshell.sim.apps import Drag
from phoneshell.sim.apps.app_switcher import open_switcher, opens_switcher
from phoneshell.sim.apps.springboard import BUNDLE_ID as SPRINGBOARD
from phoneshell.sim.apps.springboard import close_from_bottom, close_overlays, swipe_banner
from phoneshell.sim.held_slides import held_slide
from phoneshell.sim.keyboard import press
from phoneshell.sim.status_bar_tap import on_status_bar, scroll_to_top
from phoneshell.sim.touch_paths import actionable, hit_path
from phoneshell.sim.ui import Node, Rect
from phoneshell.typed_keys import up_to_return

if TYPE_CHECKING:
    from phoneshell.sim.phone import Phone

TOP_EDGE = TOP_EDGE_PT
"""A drag starting above this y is a top-edge drag (real phones need y near 0). The edges and
travel are `presses.system_slide`'s, by which the bridge logs such a drag as no press."""
BOTTOM_EDGE = BOTTOM_EDGE_PT
LEFT_EDGE = LEFT_EDGE_PT
MIN_TRAVEL = EDGE_TRAVEL_PT
"""Shorter drags are not gestures (a finger that barely moved)."""
CONTROL_CENTER_FROM = 0.7
"""A top-edge drag this far across (or more) opens Control Center, as on a Face ID iPhone."""
LONG_PRESS_S = 0.5
"""UILongPressGestureRecognizer's default minimumPressDuration: a drag that stays put this long
is a touch and hold."""
KNOB_TRAVEL = 10
"""How far a switch's thumb must slide to flip it (the knob is 63 points wide)."""

def activate(phone: Phone, node: Node, x: float | None = None, y: float | None = None) -> None:
    """Do what tapping `node` does: focus a field, move a slider, turn a wheel, or run its
    handler."""
    if node.field is not None:
        phone.focus(node.field)
    if node.wheel is not None and y is not None:
        # A tap on a row above or below the middle brings that row to the middle; a tap on
        # the middle row changes nothing (XCTest steps wheels by tapping 20% off centre).
        middle = node.frame.y + node.frame.height // 2
        node.wheel.step(round((y - middle) / max(1, node.wheel.row_height)))
    if node.on_adjust is not None:
        at = node.frame.center[0] if x is None else x
        node.on_adjust(max(0.0, min(1.0, (at - node.frame.x) / max(1, node.frame.width))))
    if node.on_tap is not None:
        node.on_tap()
    phone.changed()


def tap(phone: Phone, x: float, y: float) -> None:
    """Tap a point: the nearest handler above the topmost visible element there runs; on the
    status bar, the list in front scrolls to its top (`status_bar_tap`)."""
    if phone.locked:
        return
    app_switch.used(phone)  # even a tap on nothing uses the app in front
    if on_status_bar(phone, x, y):
        scroll_to_top(phone)
        return
    target = actionable(hit_path(phone.screen().root, x, y))
    if target is not None:
        activate(phone, target, x, y)


def swipe_drag(frame: Rect, direction: str) -> Drag:
    """The drag of a swipe across the middle half of a frame ("up": the finger moves up).

    Raises:
        ValueError: not up, down, left or right.
    """
    cx, cy = frame.center
    qx, qy = frame.width // 4, frame.height // 4
    moves = {"up": (cx, cy + qy, cx, cy - qy), "down": (cx, cy - qy, cx, cy + qy),
             "left": (cx + qx, cy, cx - qx, cy), "right": (cx - qx, cy, cx + qx, cy)}
    if direction not in moves:
        raise ValueError(f"swipe direction must be up, down, left or right, not {direction!r}")
    return Drag(*moves[direction])


def hold(phone: Phone, x: float, y: float, duration_s: float) -> None:
    """Touch and hold: an element's `on_hold_at` or `on_hold` if it has one, else a tap."""
    if phone.locked:
        return
    path = hit_path(phone.screen().root, x, y)
    for node in reversed(path):
        if node.on_hold_at is not None or node.on_hold is not None:
            if node.enabled:
                if node.on_hold_at is not None:
                    node.on_hold_at(x, y)
                elif node.on_hold is not None:
                    node.on_hold()
                phone.changed()
            return
    tap(phone, x, y)


def press_key(phone: Phone, key: str) -> None:
    """A tap on an on-screen keyboard key: type what it types, or switch its plane."""
    typed = press(phone.keyboard, key)
    if typed:
        type_text(phone, typed)
    phone.changed()


def type_text(phone: Phone, text: str) -> bool:
    """Type into the focused field as XCTest's typeText does (`typed_keys`): "\\b" and
    "\\x7f" delete a composed character, "\\n" and "\\r" are Return, every other character
    types itself. The checks replay the audit log's typing by the same functions (`typed`,
    `up_to_return`). Every way text reaches a field comes here (`/wda/keys`, an element's
    value, an alert's text, W3C key actions, a tap on a key), so each types over a selection
    alike (`EditText.type_run`: a delete deletes it, a character replaces it).

    Typing costs what the text's length does: each run of characters up to a Return that ends
    editing is applied to the field in one assignment (a note saves once per run, not once a
    character), so a million characters type in a moment.

    Returns:
        False, typing nothing, when no field on screen has focus (WDA answers an error then).
    """
    field = None if phone.locked else phone.keyboard_field()
    if field is None:
        return False
    start: int | None = 0
    while field is not None and start is not None:
        # a field of one line takes the text up to its first Return (`up_to_return`)
        run, start = up_to_return(text, start, not field.multiline)
        if run:
            field.type_run(run)  # over a selection, or before the caret (`EditText.type_run`)
        if start is None:
            break
        # Return ends editing first: a submit handler may move focus elsewhere.
        phone.focus(None)
        if field.on_submit is not None:
            field.on_submit()
        # Type on only if another field on screen took the focus.
        field = phone.keyboard_field() if start < len(text) else None
    phone.changed()
    return True


def drag(phone: Phone, move: Drag) -> None:
    """A one-finger drag; see the module docstring for what it does where."""
    if phone.locked:
        return
    f = phone.facts
    # facebook-wda's swipe_left starts at x == width, one point off the screen: clamp, as
    # the touch screen's edge does (a point on the screen stays exactly where it was sent).
    move = replace(move, from_x=_edge(move.from_x, f.width), from_y=_edge(move.from_y, f.height),
                   to_x=_edge(move.to_x, f.width), to_y=_edge(move.to_y, f.height))
    if move.vertical and move.dy < -MIN_TRAVEL and swipe_banner(
            phone.running_state(SPRINGBOARD), phone, move):
        pass  # put away: it waits in Notification Center
    elif move.from_y < TOP_EDGE and move.vertical and move.dy > MIN_TRAVEL:
        if move.from_x >= f.width * CONTROL_CENTER_FROM:
            phone.open_control_center()  # the status bar's right: battery and signal
        else:
            phone.open_notification_centre()
    elif move.from_y >= f.height - BOTTOM_EDGE and move.vertical and move.dy < -MIN_TRAVEL:
        # over Control Center or Notification Center it closes them, back to the app's page
        if phone.active()[0] == SPRINGBOARD \
                and close_from_bottom(phone.running_state(SPRINGBOARD), phone):
            pass
        elif opens_switcher(move):  # it paused on the way up, or was held
            _show_switcher(phone)
        else:
            phone.go_home()
    elif move.from_y >= f.height - BOTTOM_EDGE and not move.vertical \
            and abs(move.dx) > MIN_TRAVEL and phone.active()[0] != SPRINGBOARD:
        app_switch.edge_swipe(phone, move.dx > 0)
        return  # it notes the screen left: a run of swipes lasts while that screen does
    elif move.from_x < LEFT_EDGE and not move.vertical and move.dx > MIN_TRAVEL:
        _edge_back(phone)
    elif not held_slide(phone, move) and not _slide_press(phone, move) \
            and not _pull_sheet(phone, move) and not _app_drag(phone, move) \
            and not _content_back(phone, move):
        _scroll_or_adjust(phone, move)
    phone.changed()


def _show_switcher(phone: Phone) -> None:
    """The App Switcher, over the app in front or the home screen (`app_switcher`)."""
    if phone.active()[0] != SPRINGBOARD:
        phone.go_home()
    phone.focus(None)
    state = phone.running_state(SPRINGBOARD)
    close_overlays(state)
    open_switcher(state)


def _edge(value: float, size: int) -> float:
    """A coordinate on a screen `size` points across: as it is when on it, else at its edge."""
    return value if 0 <= value < size else min(max(value, 0), size - 1)


def spots(path: list[Node]) -> list[Spot]:
    """A hit path as the press rules read it."""
    return [Spot(n.type, (n.frame.x, n.frame.y, n.frame.width, n.frame.height),
                 n.scroll is not None) for n in path]


def presses(phone: Phone, move: Drag) -> Pressed | None:
    """What a drag would press on the screen shown, by the rule the bridge logs it by
    (`presses.touch_press`); None: it slides, scrolls, pages or makes a system gesture."""
    root = phone.screen().root
    down = hit_path(root, move.from_x, move.from_y)
    moved = move.wandered or math.hypot(move.dx, move.dy) > PRESS_SLOP_PT
    return touch_press(spots(down), spots(hit_path(root, move.to_x, move.to_y)),
                       (move.from_x, move.from_y), (move.to_x, move.to_y), moved,
                       first_at=move.first)


def _slide_press(phone: Phone, move: Drag) -> bool:
    """A drag that presses (`presses`): one that stayed within the slop taps (or, held,
    long-presses) where it went down; one that went down on a button no list holds and lifted
    within its reach presses it; one on a menu picks the item it lifts on. False when it did
    none of these (it slides, scrolls or pages)."""
    pressed = presses(phone, move)
    moved = move.wandered or math.hypot(move.dx, move.dy) > PRESS_SLOP_PT
    if pressed is None:
        return False
    if not moved and move.duration_s >= LONG_PRESS_S:
        hold(phone, move.from_x, move.from_y, move.duration_s)
    elif pressed[0] == "down":
        tap(phone, move.from_x, move.from_y)
    else:
        tap(phone, move.to_x, move.to_y)
    return True


def _pull_sheet(phone: Phone, move: Drag) -> bool:
    """A downward swipe on a page sheet: it does what the sheet's dismissal does (Cancel's,
    asking first where Cancel asks). False when no sheet was pulled."""
    if not move.vertical or move.dy <= MIN_TRAVEL:
        return False
    dismiss = layout.pulled_sheet(phone.screen().root, move.from_x, move.from_y)
    if dismiss is None:
        return False
    dismiss()
    return True


def _edge_back(phone: Phone) -> None:
    # iOS pops the navigation stack on a left-edge swipe; the page's back button does the same.
    for node in phone.screen().nodes:
        if node.name == "BackButton" and node.visible and node.enabled and node.on_tap:
            node.on_tap()
            return


def _content_back(phone: Phone, move: Drag) -> bool:
    """iOS 26's full-screen swipe back (`interactiveContentPopGestureRecognizer`): a rightward
    drag starting anywhere on a pushed page's content pops it, as the page's back button in its
    navigation bar does. Not when what lies under the finger takes sideways drags itself: a
    switch's knob, a slider, a horizontally scrolling view, the field being edited, the
    keyboard or an alert (a row with leading swipe actions takes it in its app's `on_drag`,
    which runs first). Safari's back button sits in its toolbar, not a navigation bar: its
    history goes back only from the edge, as a web view's does. False when it did not apply."""
    if move.vertical or move.dx <= MIN_TRAVEL:
        return False
    path = hit_path(phone.screen().root, move.from_x, move.from_y)
    editing = phone.keyboard_field()
    for node in path:
        if (node.type in ("Keyboard", "Alert", "Slider", "Switch", "PickerWheel")
                or node.on_adjust is not None or node.wheel is not None
                or (node.scroll is not None and node.scroll.horizontal)
                or (editing is not None and node.field is editing)):
            return False
    bars = [n for n in phone.screen().nodes if n.type == "NavigationBar" and n.visible]
    back = next((c for c in bars[-1].children if c.name == "BackButton" and c.visible
                 and c.enabled and c.on_tap is not None), None) if bars else None
    if back is None or back.on_tap is None:
        return False
    back.on_tap()
    return True


def _app_drag(phone: Phone, move: Drag) -> bool:
    bundle, _ = phone.active()
    app = next(a for a in phone.apps() if a.bundle_id == bundle)
    if app.on_drag is None:
        return False
    return app.on_drag(phone.running_state(bundle), phone, move)


def _scroll_or_adjust(phone: Phone, move: Drag) -> None:
    path = hit_path(phone.screen().root, move.from_x, move.from_y)
    for node in reversed(path):
        if node.type == "Switch" and node.on_tap is not None and not move.vertical:
            if node.enabled and abs(move.dx) >= KNOB_TRAVEL \
                    and (move.dx > 0) == (node.value == "0"):
                node.on_tap()
            return
        if node.wheel is not None and move.vertical and node.enabled:
            # Rows follow the finger, without momentum: dragging up brings later rows in.
            node.wheel.step(round(-move.dy / max(1, node.wheel.row_height)))
            return
        if node.on_adjust is not None and not move.vertical and node.enabled:
            width = max(1, node.frame.width)
            node.on_adjust(max(0.0, min(1.0, (move.to_x - node.frame.x) / width)))
            return
        scroll = node.scroll
        if scroll is not None and scroll.horizontal != move.vertical:
            # The content follows the finger: dragging up reveals what is further down.
            scroll.scroll_by(-(move.dy if move.vertical else move.dx))
            return


def press_button(phone: Phone, name: str) -> None:
    """A hardware button press.

    Raises:
        ValueError: not one of "home", "volumeUp", "volumeDown".
    """
    if name not in ("home", "volumeUp", "volumeDown"):
        raise ValueError(f"unsupported button {name!r}: use home, volumeUp or volumeDown")
    if phone.locked:
        return
    if name == "home":
        phone.go_home()
    else:
        phone.volume = max(0, min(16, phone.volume + (1 if name == "volumeUp" else -1)))
        phone.changed()
