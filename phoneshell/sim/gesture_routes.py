"""WDA's gesture routes: taps, holds, swipes, drags, scrolls, pinches, typing and W3C actions.

Most come in two forms, as FBElementCommands registers them: `/wda/<gesture>` acts on the app
and `/wda/element/:uuid/<gesture>` on an element. Where WDA reads `x` and `y`
(`targetWithXyCoordinatesFromRequest`) both must be given or neither: with them the gesture
lands at that offset from the top-left corner of the element's frame (of the app's, the
screen's, for the `/wda/<gesture>` form), as XCTest's coordinate from the element's
`coordinateWithNormalizedOffset:(0, 0)` does, wherever that falls and whatever lies there;
without them on the element, or on the whole app. On an element, a touch lands at its hit
point as XCUITest's does (the centre of the part of its frame that shows, once a list has
scrolled it into view: `hit_point`), and acts on whatever is topmost there, exactly as a touch
at that point would: an alert, the keyboard or a sheet over the element takes it. The app's
hit point is the screen's centre. An element that no list can bring on screen answers WDA's
not-visible error. Gestures no modelled control takes (pinch, rotate, two-finger taps) answer
200 and change nothing, as they would over such controls on a phone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from phoneshell.hit_point import origin_point
from phoneshell.holds import LONG_PRESS_S
from phoneshell.keyboard_dismiss import keys_pressed
from phoneshell.sim import actions, gestures, in_view, scroll_presses
from phoneshell.sim.apps import Drag
from phoneshell.sim.elements import find
from phoneshell.sim.held_slides import pressed_s
from phoneshell.sim.predicates import SelectorError
from phoneshell.sim.store import JSON
from phoneshell.sim.taps import QuickTaps, tap_again, under
from phoneshell.sim.touch_paths import activation_target
from phoneshell.sim.ui import Node, Rect, walk
from phoneshell.sim.wire import KEYBOARD_MESSAGE, Handler, Request, Route, WdaError
from phoneshell.wda_routes import typed_value

if TYPE_CHECKING:
    from phoneshell.sim.endpoints import Endpoints

MOST_TAPS = 1000
"""The most taps one `tapWithNumberOfTaps` makes: XCTest would build an event of every one, and
a count of 1e300 would never end."""
Target = tuple[float, float] | Node
"""A point of the screen, or an element (the application node for the app itself). A point is
kept as sent, fractions and all: a phone hit-tests the float point (a tap at x=381.5 lies
outside a frame ending at 381.5), and so does the bridge when it logs what a touch lands on."""


def not_visible(node: Node) -> WdaError:
    """WDA's error for an element without a hit point (XCUIElement+FBUtilities)."""
    what = f'"{node.label or node.name or ""}" {node.type}'
    message = f"The element '{what}' is not visible on the screen and thus is not interactable"
    return WdaError("invalid element state", "Error Domain=com.facebook.WebDriverAgent Code=1 "
                    f'"{message}" UserInfo={{NSLocalizedDescription={message}}}')


def _element_or_app(ep: Endpoints, req: Request) -> Node:
    return ep.element(req) if "uuid" in req.params else ep.phone.screen().root


def target(ep: Endpoints, req: Request) -> Target:
    """Where a gesture goes: (x, y) from the element's corner (the screen's) when both are
    given, else the element or the app."""
    x, y = req.body.get("x"), req.body.get("y")
    if x is None and y is None:
        return _element_or_app(ep, req)
    if x is None or y is None:
        raise WdaError("invalid argument", "Both x and y coordinates must be provided")
    corner = ep.element(req).frame if "uuid" in req.params else Rect(0, 0, 0, 0)
    return corner.x + req.number("x"), corner.y + req.number("y")


def shown(ep: Endpoints, node: Node) -> Node:
    """The element as it shows once scrolled into view (a locked phone: as it is).

    Raises:
        WdaError: WDA's not-visible error when no list can bring it on screen.
    """
    found = node if ep.phone.locked else in_view.on_screen(ep.phone, node)
    if found is None:
        raise not_visible(node)
    return found


def hit_point(ep: Endpoints, node: Node) -> tuple[int, int]:
    """Where XCUITest touches the element once scrolled into view: the hit point
    (`in_view.hit_point`) of the part holding its activation point (`activation_target`: a
    switch row's knob), where whatever is topmost takes the touch.

    Raises:
        WdaError: WDA's not-visible error when no part of it can show.
    """
    found = activation_target(shown(ep, node))
    point = in_view.hit_point(ep.phone, found) if not ep.phone.locked else found.frame.center
    if point is None:
        raise not_visible(node)
    return point


def tap_element(ep: Endpoints, node: Node) -> None:
    """Tap an element as XCUITest does: scroll it into view, then tap its hit point, where
    whatever is topmost takes the tap (an alert, the keyboard, a sheet over the element); or
    fail like WDA when it cannot show."""
    ep.phone.tap(*hit_point(ep, node))


def _tap(ep: Endpoints, where: Target) -> None:
    if isinstance(where, Node):
        tap_element(ep, where)
    else:
        ep.phone.tap(*where)


def tap(ep: Endpoints, req: Request) -> JSON:
    """`/wda/tap` and `/wda/element/:uuid/tap`."""
    _tap(ep, target(ep, req))
    return None


def _taps(ep: Endpoints, req: Request, where: Target, count: int) -> None:
    """`count` taps at `where` (an element: at its hit point), quick as a double tap (each
    after the first is `tap_again`: a text view selects the word there). After one
    that took the phone to another screen (a row opening its page, an app opening) the rest
    land while the screen is still moving, and a phone drops them (UIKit takes no touches
    during a transition); taps on a control that stays (a switch, a key) all count, one that
    redraws its label in place (Pause to Resume) too. By id, XCTest synthesizes the taps at the
    element's hit point as it was found: each lands there, on whatever is there then."""
    x, y = hit_point(ep, where) if isinstance(where, Node) else where
    for n in range(count):
        before = under(ep.phone, x, y)
        if n:
            tap_again(ep.phone, x, y)  # a double tap: a text view selects the word
        else:
            ep.phone.tap(x, y)
        if under(ep.phone, x, y) != before:
            return


def double_tap(ep: Endpoints, req: Request) -> JSON:
    """`doubleTap`: two quick taps (see `_taps`)."""
    _taps(ep, req, target(ep, req), 2)
    return None


def touch_and_hold(ep: Endpoints, req: Request) -> JSON:
    """`touchAndHold` {"duration"}: a press shorter than a long press is a tap."""
    where = target(ep, req)
    seconds = pressed_s(req.body, "touchAndHold")
    if seconds < LONG_PRESS_S:
        _tap(ep, where)
        return None
    x, y = where if not isinstance(where, Node) else hit_point(ep, where)
    ep.phone.hold(x, y, seconds)
    return None


def taps(ep: Endpoints, req: Request) -> JSON:
    """`tapWithNumberOfTaps` {"numberOfTaps", "numberOfTouches"}: one finger taps N times."""
    if req.body.get("numberOfTaps") is None or req.body.get("numberOfTouches") is None:
        raise WdaError("invalid argument", "Both 'numberOfTaps' and 'numberOfTouches' "
                                           "arguments must be provided")
    node = _element_or_app(ep, req)
    count = round(req.number("numberOfTaps"))
    if count > MOST_TAPS:
        raise WdaError("invalid argument", f"'numberOfTaps' must be at most {MOST_TAPS}, not "
                                           f"{count}")
    if round(req.number("numberOfTouches")) == 1:
        _taps(ep, req, node, max(0, count))
    return None


def _touchable(ep: Endpoints, req: Request) -> Node:
    """The element a swipe or a multi-finger gesture touches (scrolled into view when a list
    can bring it), or the app. XCTest puts the fingers at the element's hit point, so one with
    none (an empty frame, as an icon on another home-screen page has, or a frame wholly off
    the screen) answers WDA's not-visible error. An element reported not visible whose frame
    shows (Settings' list) is touched all the same."""
    node = _element_or_app(ep, req)
    if "uuid" not in req.params or ep.phone.locked:
        return node
    found = in_view.on_screen(ep.phone, node) or node
    if found.frame.width <= 0 or found.frame.height <= 0 \
            or in_view.hit_point(ep.phone, found) is None:
        raise not_visible(node)
    return found


def untaken(ep: Endpoints, req: Request) -> JSON:
    """`twoFingerTap`: no modelled control takes it; an element must be able to show."""
    _touchable(ep, req)
    return None


def pinch(ep: Endpoints, req: Request) -> JSON:
    """`pinch`, `rotate`: a button at the element's hit point is pressed by the first finger
    (`scroll_presses.pinch_presses`); nothing else modelled takes them. An element must be able
    to show."""
    node = _touchable(ep, req)
    if "uuid" in req.params:
        scroll_presses.pinch_presses(ep.phone, node)
    return None


def _swipe_at(where: tuple[float, float], direction: str, ep: Endpoints) -> Drag:
    """A swipe across a screen-sized frame centred at a point (`gestures.swipe_drag`'s middle
    half of it), the point kept as sent."""
    f, (cx, cy) = ep.phone.facts, where
    qx, qy = f.width // 4, f.height // 4
    return {"up": Drag(cx, cy + qy, cx, cy - qy), "down": Drag(cx, cy - qy, cx, cy + qy),
            "left": Drag(cx + qx, cy, cx - qx, cy),
            "right": Drag(cx - qx, cy, cx + qx, cy)}[direction]


def swipe(ep: Endpoints, req: Request) -> JSON:
    """`swipe` {"direction"}: across the middle of the element, app or around a point."""
    direction = req.body.get("direction")
    if not isinstance(direction, str):
        raise WdaError("invalid argument", "Missing 'direction' parameter")
    if direction.lower() not in ("up", "down", "left", "right"):
        raise WdaError("invalid argument", f"Unsupported swipe direction '{direction}'. Only "
                       "the following directions are supported: (up, down, left, right)")
    where = target(ep, req)
    ep.phone.drag(gestures.swipe_drag(_touchable(ep, req).frame, direction.lower())
                  if isinstance(where, Node) else _swipe_at(where, direction.lower(), ep))
    return None


def drag(ep: Endpoints, req: Request, route: str = "dragfromtoforduration") -> JSON:
    """`dragfromtoforduration`: points relative to the element's frame, or to the screen,
    pressed first as long as the route's one press field says (`held_slides.pressed_s`:
    `duration` here, a `pressDuration` is read by nothing)."""
    origin = ep.element(req).frame if "uuid" in req.params else Rect(0, 0, 0, 0)
    if ep.faults.drag_hiccup():  # XCTest's synthesis failed: WDA's 500, nothing moved
        raise WdaError("unknown error", "Failed to synthesize event: the event could not be "
                                        "dispatched to the device")
    ep.phone.drag(Drag(origin.x + req.number("fromX"), origin.y + req.number("fromY"),
                       origin.x + req.number("toX"), origin.y + req.number("toY"),
                       pressed_s(req.body, route)))
    return None


def press_and_drag(ep: Endpoints, req: Request) -> JSON:
    """`pressAndDragWithVelocity`: from an element to `toElement`, or between two points; held
    `pressDuration` first either way (XCTest's pressForDuration:thenDragToElement:; a
    `duration` here is read by nothing), so a held press opens a context menu here as on a
    phone."""
    if "uuid" not in req.params:
        return drag(ep, req, "pressAndDragWithVelocity")
    start = hit_point(ep, ep.element(req))
    to = ep.elements.resolve(ep.phone.screen(), str(req.body.get("toElement", "")))
    if to is None:
        raise ep.elements.missing(str(req.body.get("toElement", "")))
    press = pressed_s(req.body, "pressAndDragWithVelocity")
    ep.phone.drag(Drag(*start, *to.frame.center, press))
    return None


def scroll(ep: Endpoints, req: Request) -> JSON:
    """`scroll`: {"name"} or {"predicateString"} until that descendant shows, {"direction",
    "distance"} as WDA's drags inside the element's visible frame (the screen's for the app:
    `scroll_presses.scroll_by_drags`, whatever lies under them takes them), or {"toVisible":
    true} to bring the element itself."""
    node = _element_or_app(ep, req)
    for key, using in (("name", "id"), ("predicateString", "predicate string")):
        value = req.body.get(key)
        if isinstance(value, str):
            try:
                found = find(ep.phone.screen(), using, value, node)
            except SelectorError as exc:
                raise WdaError("invalid selector", str(exc)) from exc
            if not found:
                what = "identifier" if key == "name" else "predicate"
                raise WdaError("no such element", f"'{value}' {what} didn't match any elements")
            in_view.scroll_into_view(ep.phone, found[-1])
            return None
    direction = req.body.get("direction")
    if isinstance(direction, str):
        # WDA reads `arguments[@"distance"] ?: @"1.0"` by doubleValue: "0.5x" is 0.5, a null
        # or a list fails (Request.number)
        share = req.number("distance") if "distance" in req.body else 1.0
        scroll_presses.scroll_by_drags(ep.phone, node, direction, share)
        return None
    if req.body.get("toVisible"):
        in_view.scroll_into_view(ep.phone, node)
        return None
    raise WdaError("invalid argument", "Unsupported scroll type")


def scroll_to(ep: Endpoints, req: Request) -> JSON:
    """`/wda/element/:uuid/scrollTo`: scroll the element's list until it is on screen."""
    shown(ep, ep.element(req))
    return None


def keys(ep: Endpoints, req: Request) -> JSON:
    """`/wda/keys` {"value": [chars]}: type into the focused field, or fail like WDA. A `value`
    that is no list (a string, a number) makes WDA's handleKeys raise (it joins it with
    `componentsJoinedByString:`, which only an array has): 500, nothing typed."""
    value = req.body.get("value")
    text = typed_value("/wda/keys", value)
    if text is None and value is not None:
        kind = "__NSCFString" if isinstance(value, str) else "__NSCFNumber" \
            if isinstance(value, (int, float)) else "__NSDictionaryM"
        raise WdaError("unknown error", f"-[{kind} componentsJoinedByString:]: unrecognized "
                                        "selector sent to instance")
    if text is None:
        raise WdaError("invalid argument", "'value' must be a list of strings")
    if not ep.phone.type_text(text):
        raise WdaError("invalid element state", KEYBOARD_MESSAGE)
    return None


def _locate(ep: Endpoints) -> actions.Locate:
    """Where a finger placed from an element lands, by WDA's rule (`hit_point.origin_point`):
    the centre of its whole frame when the move sent x and y, else its hit point (of the part
    holding its activation point, as a tap by id), never scrolled into view; whatever is
    topmost there takes the touch."""
    def locate(element_id: str, dx: float, dy: float, centred: bool) -> tuple[float, float]:
        node = ep.elements.resolve(ep.phone.screen(), element_id)
        if node is None:
            raise ep.elements.missing(element_id)
        hit = None if centred else in_view.hit_point(ep.phone, activation_target(node))
        frame = node.frame
        point = origin_point((frame.x, frame.y, frame.width, frame.height), hit, centred)
        if point is None:
            raise not_visible(node)
        return point[0] + dx, point[1] + dy
    return locate


def perform_actions(ep: Endpoints, req: Request) -> JSON:
    """`POST /actions`: W3C pointer (touch) and key actions (`actions.py`)."""
    try:
        steps = actions.plan(req.body, _locate(ep) if req.in_session else None)
    except actions.ActionsError as exc:
        raise WdaError("invalid argument", str(exc)) from exc
    actions.perform(steps, QuickTaps(ep.phone, steps))
    return None


def dismiss_keyboard(ep: Endpoints, req: Request) -> JSON:
    """`/wda/keyboard/dismiss` {"keyNames"}: press the named keys until the keyboard goes.

    An iPhone keyboard has no hide key, so WDA presses the keys it is told, by WDA's rule
    (`phoneshell.keyboard_dismiss.keys_pressed`): each Key or Button of the keyboard whose name
    or label is among `keyNames`, once, in the keyboard's order (not the list's), until the
    keyboard is gone (a Button named "Done" in the app's bar is none of them). A match that no
    longer shows once an earlier press redrew the keyboard is passed over, as WDA passes over an
    element that no longer exists (inferred). Still shown after them all: WDA's error, the keys
    pressed. No keyboard: nothing to do.
    """
    if ep.phone.keyboard_field() is None:
        return None
    names = req.body.get("keyNames")
    wanted = [n for n in names if isinstance(n, str)] if isinstance(names, list) else []
    keys = _keyboard_keys(ep)
    for index in keys_pressed([(n.type, n.name or "", n.label or "") for n in keys], wanted):
        match = keys[index]
        key = next((n for n in _keyboard_keys(ep) if (n.type, n.name, n.label) ==
                    (match.type, match.name, match.label)), None)
        if key is None:
            continue
        if key.on_tap is not None:
            key.on_tap()
            ep.phone.changed()
        if ep.phone.keyboard_field() is None:
            return None
    raise WdaError("invalid element state", "Did not know how to dismiss the keyboard. Try to "
                   "dismiss it in the way supported by your application under test.")


def _keyboard_keys(ep: Endpoints) -> list[Node]:
    """Every element inside the keyboard on screen, in document order."""
    return [n for board in ep.phone.screen().nodes if board.type == "Keyboard"
            for n in walk(board) if n is not board]


def _both(gesture: str, handler: Handler) -> tuple[Route, Route]:
    return (Route("POST", f"/wda/{gesture}", handler, write=True),
            Route("POST", f"/wda/element/:uuid/{gesture}", handler, write=True))


ROUTES = (
    *_both("tap", tap), *_both("doubleTap", double_tap), *_both("touchAndHold", touch_and_hold),
    *_both("twoFingerTap", untaken), *_both("tapWithNumberOfTaps", taps),
    *_both("swipe", swipe), *_both("scroll", scroll), *_both("pinch", pinch),
    *_both("rotate", pinch), *_both("dragfromtoforduration", drag),
    *_both("pressAndDragWithVelocity", press_and_drag),
    Route("POST", "/wda/element/:uuid/scrollTo", scroll_to, write=True),
    Route("POST", "/wda/keys", keys, write=True),
    Route("POST", "/actions", perform_actions, "both", write=True),
    Route("POST", "/wda/keyboard/dismiss", dismiss_keyboard, write=True),
)
"""Gesture routes, in the order they are matched."""
