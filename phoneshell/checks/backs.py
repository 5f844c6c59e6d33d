"""The way back: whether the agent came back from a page by the app's own back navigation.

"Go into General and on into About, then back out to the main list" ends where a relaunch of
Settings ends, or home and its icon, or a deep link (red team 54): the end screen and the tap
on About are the same. The log tells them apart. After the tap that went in, the way back is
the app's own: presses of a navigation bar's back button (named `BackButton`, on a phone as in
the simulator) and rightward swipes (from the left edge, or iOS 26's swipe back anywhere on a
pushed page's content), each counted, while the app stays in front and nothing starts, stops,
opens or leaves it. Pure: read from the agent's actions only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from phoneshell.audit import Action
from phoneshell.presses import PRESS_SLOP_PT
from phoneshell.xcui import short_type, swipe_ends

BACK_BUTTON = "BackButton"
"""The name iOS gives a navigation bar's back button (the iOS 26 Settings dumps in
shared/reference/ios-sources: `name="BackButton" label="General"`); its label is the page it
goes back to."""
ONE_FINGER = ("drag", "press_and_drag", "swipe", "actions", "touch_perform")
"""The swipe gestures of one finger moving across (`scroll`, `scroll_to`, a picker's select,
a pinch, a rotation and several fingers are no swipe back)."""
STAYS = ("tap", "type", "swipe")
"""What the agent may do on the way back: touch and type inside the app. A launch, an
activation, a termination, home, a button press, a URL or any other request restarts, leaves or
reopens the app, or changes what no back navigation shows."""


@dataclass(frozen=True)
class WayBack:
    """What the agent did after going in: how many times it went back, and what broke it."""

    backs: tuple[str, ...]
    """Each back navigation, in words ("BackButton 'General'", "a swipe right"), one a press."""
    broke: str = ""
    """Why the way back was not the app's own ("" when it was): the first action that left,
    restarted or reopened the app."""
    unknown: str = ""
    """Why what followed cannot be told (an action with no recorded outcome), or ""."""


def _swipe_back(action: Action) -> bool:
    """A one-finger swipe going right, more across than up or down (by its points), or by
    direction `right` (XCUITest's swipe across the middle: iOS 26's content swipe back)."""
    if action.params.get("gesture") not in ONE_FINGER:
        return False
    ends = swipe_ends(action.params)
    if ends is not None:
        from_x, from_y, to_x, to_y = ends
        return to_x - from_x > PRESS_SLOP_PT and to_x - from_x > abs(to_y - from_y)
    return action.params.get("direction") == "right"


def _back_press(action: Action) -> int:
    """How many presses of a back button a tap was (0: none, or a touch that may be none)."""
    target = action.target
    if target is None or target.name != BACK_BUTTON or short_type(target.type) != "Button":
        return 0
    return action.presses or 0


def way_back(after: Sequence[Action], app: str) -> WayBack:
    """What the agent did in `after` (its actions after going in) to come back, in `app`."""
    backs: list[str] = []
    for action in after:
        if action.ok is False:
            continue  # refused, or failed by WDA: it never reached the screen
        if action.ok is None:
            return WayBack(tuple(backs), unknown=f"{action.describe()} has no recorded outcome")
        if action.kind not in STAYS or action.app_before != app or (
                action.app_after and action.app_after != app):
            return WayBack(tuple(backs), broke=action.describe())
        if action.kind == "tap" and _back_press(action):
            label = action.target.label if action.target else ""
            backs += [f"{BACK_BUTTON} {label!r}"] * _back_press(action)
        elif action.kind == "swipe" and _swipe_back(action):
            backs.append("a swipe right")
    return WayBack(tuple(backs))
