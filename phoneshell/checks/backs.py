"""The way back: whether the agent came back from a page by the app's own back navigation.

"Go into General and on into About, then back out to the main list" ends where a relaunch of
Settings ends, or a deep link (red team 54): the end screen and the tap on About are the same.
The log tells them apart. After the tap that went in, the way back is the app's own: presses of
a navigation bar's back button (named `BackButton`, on a phone as in the simulator), items
chosen in its history menu (a touch and hold on it opens the menu and goes nowhere; the item
for the page N levels up goes back N pages at once, as the bridge logs it: `pages_back`) and
rightward swipes (from the left edge, or iOS 26's swipe back anywhere on a pushed page's
content), each counted. What resets or bypasses the app's navigation breaks it: a launch
(XCUIApplication.launch restarts a running app), a termination, a URL, a request the log cannot
read, another app in front, or the app coming back in front on another screen than it left (a
Spotlight result or a notification opens a page of its own, its parents under it). What only
covers the app does not (red team 56): Control Center, Notification Center, home, Spotlight.
iOS resumes the app on the page it left, its stack kept, so while SpringBoard is in front the
agent's touches and typing count no back and break nothing, and the count goes on once the app
is back on that page (the screen's digest, as the bridge read it, the same). Pure: read from
the agent's actions only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from phoneshell.audit import Action
from phoneshell.checks.tapped_names import target_named
from phoneshell.holds import LONG_PRESS_S, held_s
from phoneshell.presses import PRESS_SLOP_PT, logged_heading
from phoneshell.xcui import SPRINGBOARD, short_type, swipe_ends

BACK_BUTTON = "BackButton"
"""The name iOS gives a navigation bar's back button (the iOS 26 Settings dumps in
shared/reference/ios-sources: `name="BackButton" label="General"`); its label is the page it
goes back to."""
ONE_FINGER = ("drag", "press_and_drag", "swipe", "actions", "touch_perform")
"""The swipe gestures of one finger moving across (`scroll`, `scroll_to`, a picker's select,
a pinch, a rotation and several fingers are no swipe back)."""
RESETS = {
    "launch": "a launch starts the app afresh (XCUIApplication.launch restarts a running app)",
    "terminate": "a termination drops the app's pages",
    "open_url": "a URL opens a page of its own, its parents under it",
    "other": "a request the log cannot read may reset the app",
}
"""The kinds of action that reset or bypass the app's navigation, and why. An activation, a
home, a press (home, lock) or a touch on SpringBoard only cover the app or bring it back: they
are judged by where the app comes back (`way_back`)."""
HOLDS = ("touch_and_hold", "force_touch")
"""Gestures of a logged tap that press for their `duration` (WDA's touchAndHold, forceTouch)."""
TOUCHES = ("tap", "type", "swipe")
"""What moves the agent about inside an app, its back navigation among them."""


@dataclass(frozen=True)
class WayBack:
    """What the agent did after going in: how many times it went back, and what broke it."""

    backs: tuple[str, ...]
    """Each back navigation, in words ("BackButton 'General'", "a swipe right"), one a press."""
    broke: str = ""
    """Why the way back was not the app's own ("" when it was): the first action that reset or
    bypassed the app's navigation, and how."""
    unknown: str = ""
    """Why what followed cannot be told (an action with no recorded outcome, the app back in
    front with no screen read to compare), or ""."""


def _swipe_back(action: Action) -> bool:
    """A one-finger swipe going right as the phone takes it (`presses.logged_heading`: by its
    first move past the slop, as the edge's and the content's back pans do, then by where it
    lifted), further right than the slop, or by direction `right` (XCUITest's swipe across the
    middle: iOS 26's content swipe back)."""
    if action.params.get("gesture") not in ONE_FINGER or \
            logged_heading(action.params) != "right":
        return False
    ends = swipe_ends(action.params)
    return ends is None or ends[2] - ends[0] > PRESS_SLOP_PT


def _bare_session(action: Action) -> bool:
    """A new session naming no app (facebook-wda's `client.session()`): it launches nothing;
    that it may terminate the old session's app shows as the app out of front, and coming back
    on another page than it left (`way_back`)."""
    return action.kind == "other" and action.params.get("route") == "/session"


def _back_press(action: Action) -> int:
    """How many pages back a tap went (0: none, or a touch that may be none): the presses of a
    back button, or an item of its history menu pressed, the pages back it names
    (`Target.pages_back`: "Settings" in About's is 2). A touch and hold on a back button goes
    nowhere: since iOS 14 it opens that menu, and the item chosen there is what goes back."""
    target = action.target
    if target is None or not action.presses:
        return 0
    if target.pages_back > 0:
        return target.pages_back
    if target.name != BACK_BUTTON or short_type(target.type) != "Button" or _held(action):
        return 0
    return action.presses


def _held(action: Action) -> bool:
    """Whether a tap stayed down long enough for iOS to take it as a touch and hold
    (`holds.LONG_PRESS_S`), which on a back button opens its menu: WDA's touchAndHold or
    forceTouch for its `duration`, a touch chain for as long as it stayed still
    (`holds.held_s`). A shorter one is a tap, on a phone as in the simulator."""
    params = action.params
    if params.get("gesture") in HOLDS:
        pressed = params.get("duration")
        return isinstance(pressed, (int, float)) and pressed >= LONG_PRESS_S
    return held_s(params) >= LONG_PRESS_S


def way_back(after: Sequence[Action], app: str) -> WayBack:
    """What the agent did in `after` (its actions after going in) to come back, in `app`."""
    backs: list[str] = []
    left = ""  # the screen the app was last seen on (the page it resumes on)
    away = False  # the last action began away from the app and its after was never read
    for action in after:
        if action.acted is False:
            continue  # failed by WDA before it acted: it never reached the screen
        if action.ok is None:
            return WayBack(tuple(backs), unknown=f"{action.describe()} has no recorded outcome")
        before, now = action.app_before, action.app_after or action.app_before
        if away and before == app:
            # back in front by an action WDA never answered (`Action.acted` None): where the
            # app came back shows on the screen this one began on
            came = _came(action.describe(), app, left, action.screen_before)
            if came is not None:
                return WayBack(tuple(backs), **came)
        away = before != app and not action.app_after
        if before == app:
            left = action.screen_before or left
        stranger = next((a for a in (before, now) if a not in (app, SPRINGBOARD)), "")
        why = ("" if _bare_session(action) else RESETS.get(action.kind)) or (
            f"{stranger} was in front" if stranger else "")
        if not why and now == app and (before != app or action.kind not in TOUCHES):
            # back in front from SpringBoard (or home and back in one: a deactivation)
            came = _came(action.describe(), app, left, action.screen_after)
            if came is not None:
                return WayBack(tuple(backs), **came)
        if why:
            return WayBack(tuple(backs), broke=f"{action.describe()} ({why})")
        if action.acted is None and before == app and (_back_press(action) or (
                action.kind == "swipe" and _swipe_back(action))):
            # failed, but may have gone back first (`Action.acted`): no back it can count
            return WayBack(tuple(backs), unknown=action.untold())
        if before == app and now == app and action.kind == "tap" and _back_press(action):
            backs += _back_words(action)
        elif before == app and now == app and action.kind == "swipe" and _swipe_back(action):
            backs.append("a swipe right")
        if now == app:
            left = action.screen_after or left
    return WayBack(tuple(backs))


def _back_words(action: Action) -> list[str]:
    """Each back a tap went, in words: "BackButton 'General'" a press, or, for an item of the
    back button's menu, "'Settings' in the back button's menu (page 1 of 2)" a page."""
    count, target = _back_press(action), action.target
    # a back button with no label (a page with no title under it) is named by what it is
    label = repr(target.label) if target is not None and target.label else ""
    if target is not None and target.pages_back > 0:
        item = label or target_named(target)
        return [f"{item} in the back button's menu (page {i} of {count})"
                for i in range(1, count + 1)]
    return [f"{BACK_BUTTON} {label}".rstrip()] * count


def _came(action: str, app: str, left: str, screen: str) -> dict[str, str] | None:
    """What `app` coming back in front on `screen` (by `action`, in words) makes of the way
    back, as `WayBack`'s fields: None when it came back on the page it left (`left`)."""
    if not left or not screen:
        return {"unknown": f"{action} brought {app} back, but no screen was read where it was "
                           "left or where it came back: whether it resumed on its page is unknown"}
    if screen != left:
        return {"broke": f"{action} ({app} came back on another screen than it left: a "
                         "Spotlight result, a notification or a link opens a page of its own)"}
    return None
