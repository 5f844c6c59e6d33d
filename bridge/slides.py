"""A one-finger slide that pressed a control, logged as the tap it was (`phoneshell.presses`).

A finger that goes down on a button, moves and lifts within the button's reach presses it on a
phone, as a tap does; logged as a swipe, every check and ban that reads taps (a `tapped` ban,
the refusals of `xcui`) would miss it. So a swipe is classified here by where it went down and
where it lifted, on the screen known before it, and a press becomes a `tap` (params `gesture:
"slide"`, `via` the route's gesture, its ends kept) aimed at what it pressed: the control it went
down on, or the menu item it lifted on. Pure over the page tree, but for `pressed`, which takes
the tree (and a swiped element's rect) from what the recorder knows: the recorder calls it
before it aims, logs or refuses anything, so no rule downstream sees the slide's raw kind.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace

from bridge.aiming import Aiming
from bridge.classified import Classified, pt
from bridge.context import RunContext
from bridge.gate import Refused
from bridge.hits import element_in, hit_point
from bridge.remote_panels import check_unplaced
from bridge.targets import Rect, node_at, rect_of
from phoneshell.errors import BridgeError
from phoneshell.presses import (
    DIAGONAL_MARGIN_DEG,
    PRESS_SLOP_PT,
    PRESSABLE,
    Spot,
    near_diagonal,
    touch_press,
)
from phoneshell.records import Scalar
from phoneshell.scroll_drags import scroll_drags
from phoneshell.xcui import short_type, walk

Node = Mapping[str, object]
ROUTES_THAT_MOVED = frozenset({"actions", "touch_perform", "multi_touch"})
"""Gestures whose swipe moved past the slop by construction (`chains.py` logs a touch that
stayed within it as a tap); a drag route's moved when its ends are further apart."""


def path_to(tree: object, target: Node) -> list[Node]:
    """The nodes from the root down to `target` (found by identity); [] when it is not there."""
    stack: list[tuple[object, list[Node]]] = [(tree, [])]
    while stack:
        node, above = stack.pop()
        if not isinstance(node, Mapping):
            continue
        path = [*above, node]
        if node is target:
            return path
        children = node.get("children")
        if isinstance(children, list):
            stack.extend((child, path) for child in children)
    return []


def spots(path: Sequence[Node]) -> list[Spot]:
    """A page path as the press rules read it (a node without a frame has an empty one)."""
    found = []
    for node in path:
        rect = rect_of(node.get("rect"))
        frame = (rect.x, rect.y, rect.width, rect.height) if rect else (0.0, 0.0, 0.0, 0.0)
        found.append(Spot(short_type(str(node.get("type", ""))), frame))
    return found


def path_at(tree: object, x: float, y: float) -> list[Node]:
    """The nodes from the root down to what a touch at (x, y) lands on (`node_at`); [] on none."""
    node = node_at(tree, x, y)
    return path_to(tree, node) if node is not None else []


def down_spots(tree: object | None, params: Mapping[str, Scalar]) -> list[Spot] | None:
    """The page path where a logged slide went down (`from_x`, `from_y`), as the press rules
    read it; None when the screen or the point is unknown."""
    x, y = _number(params, "from_x"), _number(params, "from_y")
    return None if tree is None or x is None or y is None else spots(path_at(tree, x, y))


def _number(params: Mapping[str, Scalar], key: str) -> float | None:
    value = params.get(key)
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) \
        else None


def as_pressed(action: Classified, tree: object | None) -> Classified:
    """The action, or the tap it was when a finger's swipe by screen points pressed a control
    on the screen `tree` (None: unknown, the action is kept), by `presses.touch_press`, the
    rule the simulator plays by. A finger of several down together (`fingers`) is judged by
    that rule for fingers that move together: a control tracks the finger that went down on
    it, unless a list around it takes the moves."""
    params = action.params
    ends = [_number(params, k) for k in ("from_x", "from_y", "to_x", "to_y")]
    if action.kind != "swipe" or tree is None:
        return action
    if any(end is None for end in ends):
        return action
    from_x, from_y, to_x, to_y = (float(end) for end in ends if end is not None)
    gesture = str(params.get("gesture", ""))
    moved = gesture in ROUTES_THAT_MOVED or math.dist((from_x, from_y), (to_x, to_y)) \
        > PRESS_SLOP_PT
    fingers = params.get("fingers")
    first_x, first_y = _number(params, "first_x"), _number(params, "first_y")
    down = path_at(tree, from_x, from_y)
    pressed = touch_press(spots(down), spots(path_at(tree, to_x, to_y)), (from_x, from_y),
                          (to_x, to_y), moved, fingers if isinstance(fingers, int) else 1,
                          (first_x, first_y) if first_x is not None and first_y is not None
                          else None)
    if pressed is None:
        return action
    x, y = (from_x, from_y) if pressed[0] == "down" else (to_x, to_y)
    tap: dict[str, Scalar] = {"x": pt(x), "y": pt(y), "gesture": "slide", "via": gesture}
    tap.update({k: v for k, v in params.items() if k not in ("element", "gesture")})
    return replace(action, kind="tap", params=tap, aim="point", points=((x, y),))


SWIPE_ENDS = {"up": (0, 1, 0, -1), "down": (0, -1, 0, 1), "left": (1, 0, -1, 0),
              "right": (-1, 0, 1, 0)}
"""A swipe by direction across a frame, in quarters of its size from its centre (XCUITest's
swipe slides across the middle half of the element, or of the screen for the whole app)."""


def swiped_across(action: Classified, tree: object | None,
                  frame: tuple[float, float, float, float] | None) -> Classified:
    """The action, or the tap it was when a swipe by direction across `frame` (an element's, or
    the screen's for the whole app) pressed a control there: a button swiped stays under the
    finger, which lifts inside it."""
    direction = action.params.get("direction")
    if (action.kind != "swipe" or action.params.get("gesture") != "swipe" or tree is None
            or frame is None or direction not in SWIPE_ENDS):
        return action
    left, top, width, height = frame
    cx, cy, qx, qy = left + width // 2, top + height // 2, width // 4, height // 4
    sx, sy, ex, ey = SWIPE_ENDS[str(direction)]
    ends: dict[str, Scalar] = {"from_x": cx + sx * qx, "from_y": cy + sy * qy,
                               "to_x": cx + ex * qx, "to_y": cy + ey * qy, "gesture": "swipe"}
    slid = replace(action, params={**action.params, **ends})
    tap = as_pressed(slid, tree)
    return action if tap is slid else tap


def screen_frame(tree: object | None) -> tuple[float, float, float, float] | None:
    """The frame of a page tree's root (the screen)."""
    rect = rect_of(tree.get("rect")) if isinstance(tree, Mapping) else None
    return (rect.x, rect.y, rect.width, rect.height) if rect is not None else None


def pressed(aiming: Aiming, context: RunContext, action: Classified) -> Classified:
    """The action as what it did: a finger's swipe that pressed a control is the tap it was,
    so that what the recorder logs, aims and refuses is the press (a slide onto "Delete App"
    is refused as its tap is). Costs a read only when no screen is known, and for a swipe on
    an element, its rect.

    First, what no line could name is refused (`remote_panels`): a touch inside a panel
    another process draws (the share sheet). Three or more fingers down together never come
    here: `chains.check_fingers` refused them from the request alone.

    Raises:
        Refused: a pinch or rotate on an element a control lies in, but in a list
            (`_refuse_fingers_on_controls`); a press-and-drag between elements whose frames
            cannot be read (`_dragged_between`); a touch `remote_panels` refuses.
    """
    check_unplaced(aiming, context, action)
    if action.kind != "swipe":
        return action
    if action.aim == "from":
        return as_pressed(action, aiming.known_tree(context))
    gesture = action.params.get("gesture")
    if action.aim == "none" and gesture in ("swipe", "scroll"):
        tree = aiming.known_tree(context)
        across = swiped_across if gesture == "swipe" else scrolled_across
        return across(action, tree, screen_frame(tree))
    if action.aim != "element" or gesture not in ("swipe", "press_and_drag", "scroll",
                                                  "pinch", "rotate"):
        return action
    rect = aiming.element_frame(action, "a swiped element")
    tree = aiming.known_tree(context) if rect is not None else None
    if rect is None or tree is None:
        return action
    frame = (rect.x, rect.y, rect.width, rect.height)
    if gesture == "swipe":
        return swiped_across(action, tree, frame)
    if gesture == "scroll":
        return scrolled_across(action, tree, visible(frame, screen_frame(tree)))
    if gesture in ("pinch", "rotate"):
        _refuse_fingers_on_controls(action, tree, visible(frame, screen_frame(tree)))
        return action
    return _dragged_between(aiming, action, tree, rect)


def element_hit_point(aiming: Aiming, action: Classified, tree: object,
                      rect: Rect) -> tuple[float, float] | None:
    """Where XCUITest's finger goes down on the element an action names by id (its frame
    `rect`, read): its hit point in the screen `tree` (`hits.hit_point`, the rule the simulator
    touches by: the middle of what shows of it, cut to the screen and to every list around it,
    at a switch row's knob). Three reads more (its type, label and name, to find it in the
    tree); None when one fails, or it shows in no part of the tree (a list would scroll it
    into view first: only the phone could tell where it then lies)."""
    base = action.attribute_route
    try:
        attributes = {name: aiming.own_read(base + name) for name in ("type", "label", "name")}
    except BridgeError:
        return None
    found = element_in(tree, attributes, rect) if isinstance(attributes["type"], str) else None
    return hit_point(tree, found, rect) if found is not None else None


def _dragged_between(aiming: Aiming, action: Classified, tree: object, rect: Rect) -> Classified:
    """A press-and-drag from an element to `to_element` (`pressForDuration:thenDragTo
    Element:`) as the one-finger drag it is, from the element's hit point (`element_hit_point`,
    where the phone's finger goes down: a row its list cuts is pressed in the part the list
    shows) to the middle of the other's frame, as the simulator plays it: the tap it was when
    that pressed (`as_pressed`: onto itself, a finger that never moved taps; from a button,
    lifting within its reach, presses it), else the swipe, logged with those points, so that
    every reader of its way (a row swiped left: `lasting`) reads it. Reads more: the other
    element's rect, this one's type, label and name.

    Raises:
        Refused: the other element's frame cannot be read, or this one's hit point (it shows
            in no part of the screen known: where the finger goes down or lifts, only the phone
            could tell); a drag that goes within `DIAGONAL_MARGIN_DEG` of a diagonal (whether
            it swipes a row or scrolls its list turns on a fraction of a point).
    """
    to = action.params.get("to_element")
    scope = f"/session/{action.session_id}" if action.session_id else ""
    end = aiming.rect_of_element(f"{scope}/element/{to}/attribute/",
                                 "the element a press-and-drag ends on") if to else None
    start = element_hit_point(aiming, action, tree, rect) if end is not None else None
    if end is None or start is None:
        which = f"toElement {to!s:.40}" if end is None \
            else "the element, shown in no part of the screen read,"
        raise Refused(f"a press-and-drag whose {which} has no frame the bridge can read: "
                      "where the finger goes down and lifts, and so what it presses, could not "
                      "be named; drag by points on screen (/wda/dragfromtoforduration)", 403,
                      "unsupported operation")
    lift = end.x + end.width / 2, end.y + end.height / 2
    if math.dist(start, lift) > PRESS_SLOP_PT and near_diagonal(start, lift):
        raise Refused(f"a press-and-drag from ({start[0]:g}, {start[1]:g}) to ({lift[0]:g}, "
                      f"{lift[1]:g}) goes within {DIAGONAL_MARGIN_DEG:g} degrees of a diagonal: "
                      "whether the phone takes it as a sideways swipe (a row's swipe actions) or "
                      "an up-down scroll turns on a fraction of a point where XCTest places the "
                      "finger, so the log could not say which it was; drag by points on screen "
                      "(/wda/dragfromtoforduration) or swipe by direction", 403,
                      "unsupported operation")
    ends: dict[str, Scalar] = {"from_x": pt(start[0]), "from_y": pt(start[1]),
                               "to_x": pt(lift[0]), "to_y": pt(lift[1])}
    return as_pressed(replace(action, params={**action.params, **ends}), tree)


def visible(frame: tuple[float, float, float, float],
            screen: tuple[float, float, float, float] | None) -> tuple[float, float, float, float]:
    """The part of `frame` on the screen (WDA scrolls an element's visible frame)."""
    if screen is None:
        return frame
    left, top = max(frame[0], screen[0]), max(frame[1], screen[1])
    right = min(frame[0] + frame[2], screen[0] + screen[2])
    bottom = min(frame[1] + frame[3], screen[1] + screen[3])
    return left, top, max(0.0, right - left), max(0.0, bottom - top)


def scrolled_across(action: Classified, tree: object | None,
                    frame: tuple[float, float, float, float] | None) -> Classified:
    """The action, or the tap it was when WDA's scroll by direction (`scroll_drags`: drags
    inside `frame`, an element's or the screen's) pressed a control: a scroll on a button is a
    press of it, a scroll on a list scrolls it.

    Raises:
        Refused: more than one of its drags would press (each press of a button that redraws
            in place, Start to Pause, is another press; one line logs one).
    """
    direction, distance = action.params.get("direction"), action.params.get("distance")
    if tree is None or frame is None or not isinstance(distance, (int, float)):
        return action
    taps = []
    for from_x, from_y, to_x, to_y in scroll_drags(frame, str(direction), float(distance)):
        ends: dict[str, Scalar] = {"from_x": pt(from_x), "from_y": pt(from_y),
                                   "to_x": pt(to_x), "to_y": pt(to_y)}
        tap = as_pressed(replace(action, params={**action.params, **ends}), tree)
        if tap.kind == "tap":
            taps.append(tap)
    if len(taps) > 1:
        raise Refused(f"WDA's scroll makes {len(taps)} drags inside this element, and each would "
                      f"press the control at ({taps[0].params.get('x')}, "
                      f"{taps[0].params.get('y')}) (a finger that goes down on a button and "
                      "lifts inside it presses it): one request is logged as one action; tap "
                      "it, or scroll by a shorter distance", 403, "unsupported operation")
    return taps[0] if taps else action


def _refuse_fingers_on_controls(action: Classified, tree: object,
                                frame: tuple[float, float, float, float]) -> None:
    """Refuse a pinch or rotate on an element whose fingers may go down on a control.

    XCTest puts both fingers down inside the element's frame at points of its own (not
    published) and moves them within it; UIKit gives a button the first finger that goes down
    on it (a UIButton takes one touch), and it fires when that finger lifts within its reach,
    as it does here. Where the fingers go cannot be told, so any control a finger may land
    on (one whose frame meets the element's) refuses it, but for one inside a list, whose pan
    takes the fingers' moves; a pinch of a photo, a map or a list is logged as the swipe it
    is.

    Raises:
        Refused: a control lies in the element's frame.
    """
    for _, node in walk(tree):
        rect = rect_of(node.get("rect"))
        kind = short_type(str(node.get("type", "")))
        if rect is None or kind not in PRESSABLE or rect.width <= 0 or rect.height <= 0 \
                or node.get("isVisible") == "0":
            continue
        if rect.x < frame[0] + frame[2] and frame[0] < rect.x + rect.width \
                and rect.y < frame[1] + frame[3] and frame[1] < rect.y + rect.height:
            centre = rect.x + rect.width / 2, rect.y + rect.height / 2
            path = spots(path_at(tree, *centre))
            if touch_press(path, path, centre, centre, moved=True, fingers=2) is None:
                continue  # what takes slides covers it (a key), or a list takes the fingers'
                #           moves (its pan cancels its rows' touches): `touch_press`
            what = node.get("label") or node.get("name") or kind
            raise Refused(f"a {action.params.get('gesture')} on an element holding the "
                          f"control {what!s:.40}: XCTest puts its two fingers down at points "
                          "of its own inside the element, and a button a finger goes down on "
                          "and lifts within is pressed, which the log could not name; pinch "
                          "or rotate an element no control lies in", 403,
                          "unsupported operation")
