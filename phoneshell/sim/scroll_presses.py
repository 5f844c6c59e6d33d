"""What WDA's scroll and pinch routes do on an element, as a phone's fingers would.

WDA's scroll by direction (`/wda/element/:uuid/scroll`, `/wda/scroll`) is not an abstract
scroll: XCUIElement+FBScrolling drags inside the element's own visible frame (`scroll_drags`),
and each drag does what that drag does on a phone (`/wda/swipe`'s and W3C drags' engine,
`gestures.drag`): a list under it scrolls by the drag's length, whether the element is the list,
a row inside it or the app above it; on a button each drag presses it (UIKit's touchUpInside:
the finger went down on it and lifted inside it). A pinch or rotate puts XCTest's first finger
on the element, and a button there takes that finger and fires, unless a list around it takes
the fingers' moves. Both follow `presses.touch_press`, the rule the bridge logs (or refuses)
the same presses by (`bridge/slides.py`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from phoneshell.presses import touch_press
from phoneshell.scroll_drags import scroll_drags
from phoneshell.sim import gestures, in_view
from phoneshell.sim.apps import Drag
from phoneshell.sim.touch_paths import hit_path
from phoneshell.sim.ui import Node

if TYPE_CHECKING:
    from phoneshell.sim.phone import Phone


def scroll_by_drags(phone: Phone, node: Node, direction: str, distance: float) -> None:
    """WDA's scroll by direction on an element (the app's root: the screen): the drags
    XCUIElement+FBScrolling makes inside the element's visible frame
    (`scroll_drags.scroll_drags`), each played as the drag it is, as `/wda/swipe` and W3C drags
    are (`Phone.drag`): whatever lies under each drag takes it, as on a phone. A list under the
    frame (Settings' list under the app's frame, or around a row) moves by the drags' length,
    the frame's size times `distance` less the steps WDA skips; a button pressed by a drag
    fires; a frame with nothing under it that takes drags moves nothing."""
    f = phone.facts
    frame = node.frame
    left, top = max(frame.x, 0), max(frame.y, 0)
    right, bottom = min(frame.x + frame.width, f.width), min(frame.bottom, f.height)
    # WDA presses FBTouchEventDelay (0.5 s) before each drag; played, and logged
    # (`holds.held_s`), as a quick drag that opens no context menu: whether a phone opens one
    # under a scroll's press is not known here
    # the points kept as computed, fractions and all, as the bridge logs (and hit-tests) them
    for drag in scroll_drags((left, top, right - left, bottom - top), direction, distance):
        phone.drag(Drag(*drag))


def pinch_presses(phone: Phone, node: Node) -> None:
    """A pinch or rotate on an element: XCTest's first finger goes down at the element's hit
    point and its fingers move; what that presses is `presses.touch_press`'s rule for fingers
    that move together, the one the bridge logs (and refuses) pinches by: a button there
    (a UIButton takes one touch) fires when the finger lifts within the element, unless a list
    around it takes the fingers' moves (Settings' rows stay put); a pinch of anything else
    changes nothing modelled."""
    point = in_view.hit_point(phone, node)
    if phone.locked or point is None:
        return
    path = gestures.spots(hit_path(phone.screen().root, *point))
    if touch_press(path, path, point, point, moved=True, fingers=2) is not None:
        gestures.tap(phone, *point)
