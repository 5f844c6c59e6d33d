"""WDA routes about elements: find, read attributes, tap, type, clear, swipe, scroll, picker
wheels; alerts.

Elements are found on the current screen of the front app and referenced by UUIDs that follow
the element across re-renders (`elements.py`). An id whose element is no longer on screen
answers 404 `stale element reference`. `name` returns the element's *type*, as real WDA's
`handleGetName` does. Alerts are the Alert (or action Sheet) element on screen: its texts
and buttons, found the same way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from phoneshell.sim import device_routes, gestures
from phoneshell.sim.elements import attribute, find, rect
from phoneshell.sim.predicates import SelectorError
from phoneshell.sim.store import JSON
from phoneshell.sim.ui import TEXT_INPUTS, Node
from phoneshell.sim.wire import Request, Route, WdaError

if TYPE_CHECKING:
    from phoneshell.sim.endpoints import Endpoints


def _find(ep: Endpoints, req: Request, context: Node | None) -> list[Node]:
    using, value = req.text("using"), req.text("value")
    try:
        return find(ep.phone.screen(), using, value, context)
    except SelectorError as exc:
        raise WdaError("invalid selector", str(exc)) from exc


def _one(ep: Endpoints, req: Request, context: Node | None) -> JSON:
    found = _find(ep, req, context)
    if not found:
        raise WdaError("no such element", f"Unable to find an element using "
                                          f"'{req.text('using')}', value '{req.text('value')}'")
    return ep.elements.references(ep.phone.screen(), found[:1])[0]


def find_elements(ep: Endpoints, req: Request) -> JSON:
    """`POST /elements` {"using", "value"}: every match ([] when none)."""
    return list(ep.elements.references(ep.phone.screen(), _find(ep, req, None)))


def find_element(ep: Endpoints, req: Request) -> JSON:
    """`POST /element`: the first match, or 404 no such element."""
    return _one(ep, req, None)


def find_child_elements(ep: Endpoints, req: Request) -> JSON:
    """`POST /element/:uuid/elements`: matches below an element."""
    found = _find(ep, req, ep.element(req))
    return list(ep.elements.references(ep.phone.screen(), found))


def find_child_element(ep: Endpoints, req: Request) -> JSON:
    """`POST /element/:uuid/element`: the first match below an element."""
    return _one(ep, req, ep.element(req))


def active_element(ep: Endpoints, req: Request) -> JSON:
    """`GET /element/active`: the text field with keyboard focus."""
    field = ep.phone.keyboard_field()
    screen = ep.phone.screen()
    focused = [n for n in screen.nodes if field is not None and n.field is field]
    if not focused:
        raise WdaError("no such element", "No element is focused")
    return ep.elements.references(screen, focused[:1])[0]


def _not_visible(node: Node) -> WdaError:
    # WDA's words when an element has no hit point (XCUIElement+FBUtilities), reported as the
    # failed tap's invalid element state.
    what = f'"{node.label or node.name or ""}" {node.type}'
    message = f"The element '{what}' is not visible on the screen and thus is not interactable"
    return WdaError("invalid element state", "Error Domain=com.facebook.WebDriverAgent Code=1 "
                    f'"{message}" UserInfo={{NSLocalizedDescription={message}}}')


def _tap(ep: Endpoints, node: Node) -> None:
    if not gestures.tap_element(ep.phone, node):
        raise _not_visible(node)


def click(ep: Endpoints, req: Request) -> JSON:
    """`POST /element/:uuid/click`: tap the element (its nearest handler runs).

    An element off screen is scrolled into view first; one that cannot be (a zero frame, an
    icon on another home-screen page) answers WDA's not-visible error.
    """
    _tap(ep, ep.element(req))
    return None


def set_value(ep: Endpoints, req: Request) -> JSON:
    """`POST /element/:uuid/value` {"value"|"text"}: type into a field, set a slider, or turn a
    picker wheel to the row with exactly that text (XCTest's adjust-to-value)."""
    node = ep.element(req)
    raw = req.body.get("value", req.body.get("text"))
    text = "".join(v for v in raw if isinstance(v, str)) if isinstance(raw, list) else raw
    if not isinstance(text, str):
        raise WdaError("invalid argument", "'value' must be a string or a list of strings")
    if node.wheel is not None:
        if ep.phone.locked:
            return None
        if not node.wheel.select(text):
            raise WdaError("unknown error", f"The picker wheel has no value {text!r}; it "
                                            f"shows {node.wheel.value!r}")
        ep.phone.changed()
        return None
    if node.on_adjust is not None:
        try:
            position = float(text.rstrip("%")) / (100 if text.endswith("%") else 1)
        except ValueError as exc:
            raise WdaError("invalid argument", f"not a slider position: {text!r}") from exc
        node.on_adjust(max(0.0, min(1.0, position)))
        ep.phone.changed()
        return None
    if node.field is None or node.type not in TEXT_INPUTS:
        raise WdaError("invalid element state",
                       f"{node.wd_type} is not a text input and cannot take typed text")
    if not ep.phone.locked:
        ep.phone.focus(node.field)
        ep.phone.type_text(text)
    return None


def pickerwheel_select(ep: Endpoints, req: Request) -> JSON:
    """`POST /wda/pickerwheel/:uuid/select` {"order": "next"|"previous", "offset": 0.2}.

    As WDA does: tap `offset` of the wheel's height below (next) or above (previous) its
    centre, then fail if the value did not change (the end of a wheel that does not wrap).
    """
    node = ep.element(req)
    if node.wheel is None:
        raise WdaError("unknown error", "The element is expected to be a valid Picker Wheel "
                                        f"control. '{node.wd_type}' was given instead")
    order, offset = str(req.body.get("order", "")).lower(), req.body.get("offset", 0.2)
    if not isinstance(offset, (int, float)) or isinstance(offset, bool) or not 0 < offset <= 0.5:
        raise WdaError("invalid argument", "'offset' value is expected to be in range "
                                           f"(0.0, 0.5]. '{offset}' was given instead")
    if order not in ("next", "previous"):
        raise WdaError("invalid argument", "Only 'previous' and 'next' order values are "
                                           f"supported. '{req.body.get('order')}' was given "
                                           "instead")
    before = node.value
    x, y = node.frame.center
    sign = 1 if order == "next" else -1
    ep.phone.tap(x, y + sign * round(offset * node.frame.height))
    if ep.element(req).value == before:
        raise WdaError("unknown error",
                       "Picker wheel value has not been changed after 2 seconds timeout")
    return None


def clear(ep: Endpoints, req: Request) -> JSON:
    """`POST /element/:uuid/clear`: empty a text field."""
    node = ep.element(req)
    if node.field is None:
        raise WdaError("invalid element state", f"{node.wd_type} is not a text input")
    if not ep.phone.locked:
        ep.phone.focus(node.field)
        node.field.text = ""
        ep.phone.changed()
    return None


def get_rect(ep: Endpoints, req: Request) -> JSON:
    """`GET /element/:uuid/rect` in points."""
    return rect(ep.element(req))


def get_text(ep: Endpoints, req: Request) -> JSON:
    """`GET /element/:uuid/text`: value, else label, else ""."""
    return ep.element(req).text


def get_name(ep: Endpoints, req: Request) -> JSON:
    """`GET /element/:uuid/name`: the element type (WDA returns wdType here)."""
    return ep.element(req).wd_type


def displayed(ep: Endpoints, req: Request) -> JSON:
    """`GET /element/:uuid/displayed`."""
    return ep.element(req).visible


def enabled(ep: Endpoints, req: Request) -> JSON:
    """`GET /element/:uuid/enabled`."""
    return ep.element(req).enabled


def selected(ep: Endpoints, req: Request) -> JSON:
    """`GET /element/:uuid/selected`."""
    return ep.element(req).selected


def get_attribute(ep: Endpoints, req: Request) -> JSON:
    """`GET /element/:uuid/attribute/:name` (type, name, label, value, visible, rect...)."""
    return attribute(ep.element(req), req.params["name"])


def accessible(ep: Endpoints, req: Request) -> JSON:
    """`GET /wda/element/:uuid/accessible`."""
    return ep.element(req).is_accessible


def accessibility_container(ep: Endpoints, req: Request) -> JSON:
    """`GET /wda/element/:uuid/accessibilityContainer`."""
    ep.element(req)
    return False


def element_swipe(ep: Endpoints, req: Request) -> JSON:
    """`POST /wda/element/:uuid/swipe` {"direction"}: swipe across the element."""
    return device_routes.swipe_node(ep, req, ep.element(req))


def element_hold(ep: Endpoints, req: Request) -> JSON:
    """`POST /wda/element/:uuid/touchAndHold` {"duration"}."""
    node = ep.element(req)
    shown = node if ep.phone.locked else gestures.on_screen(ep.phone, node)
    if shown is None:
        raise _not_visible(node)
    duration = req.body.get("duration", 1.0)
    ep.phone.hold(*shown.frame.center, float(duration) if isinstance(duration, (int, float))
                  else 1.0)
    return None


def element_double_tap(ep: Endpoints, req: Request) -> JSON:
    """`POST /wda/element/:uuid/doubleTap`."""
    _tap(ep, ep.element(req))
    # Every tap re-renders: the second lands on the element as it shows now, if it still does.
    again = ep.elements.resolve(ep.phone.screen(), req.params.get("uuid", ""))
    if again is not None:
        _tap(ep, again)
    return None


def scroll(ep: Endpoints, req: Request) -> JSON:
    """`POST /wda/element/:uuid/scroll`: {"toVisible": true}, or {"direction", "distance"}.

    Also {"name": n} or {"predicateString": p}: scroll until a descendant matching it shows.
    """
    node = ep.element(req)
    target = node
    if isinstance(req.body.get("name"), str) or isinstance(req.body.get("predicateString"),
                                                             str):
        using = "name" if "name" in req.body else "predicate string"
        value = req.text("name" if using == "name" else "predicateString")
        found = find(ep.phone.screen(), using, value, node)
        if not found:
            raise WdaError("no such element", f"No descendant matches {value!r}")
        target = found[0]
    if req.body.get("toVisible") or target is not node:
        gestures.scroll_into_view(ep.phone, target)
        return None
    distance = req.body.get("distance", 1.0)
    try:
        gestures.scroll_list(ep.phone, node, req.text("direction"),
                             float(distance) if isinstance(distance, (int, float)) else 1.0)
    except ValueError as exc:
        raise WdaError("invalid argument", str(exc)) from exc
    return None


def _alert(ep: Endpoints) -> Node:
    for node in ep.phone.screen().nodes:
        if node.type in ("Alert", "Sheet") and node.visible:
            return node
    raise WdaError("no such alert", "An attempt was made to operate on a modal dialog when "
                                    "one was not open")


def _alert_buttons(alert: Node) -> list[Node]:
    return [n for n in alert.children if n.type == "Button"]


def alert_text(ep: Endpoints, req: Request) -> JSON:
    """`GET /alert/text`: the alert's texts, one a line."""
    alert = _alert(ep)
    return "\n".join(n.label or "" for n in alert.children if n.type == "StaticText")


def alert_buttons(ep: Endpoints, req: Request) -> JSON:
    """`GET /wda/alert/buttons`: the labels of the alert's buttons."""
    return [b.label or "" for b in _alert_buttons(_alert(ep))]


def _press_alert(ep: Endpoints, req: Request, accept: bool) -> JSON:
    buttons = _alert_buttons(_alert(ep))
    name = req.body.get("name")
    if isinstance(name, str):
        chosen = [b for b in buttons if b.label == name]
        if not chosen:
            raise WdaError("invalid element state", f"No alert button named '{name}'")
    else:
        cancel = [b for b in buttons if b.label == "Cancel"]
        others = [b for b in buttons if b.label != "Cancel"]
        chosen = (others[-1:] or cancel) if accept else (cancel or buttons[:1])
    if chosen and chosen[0].on_tap is not None:
        chosen[0].on_tap()
        ep.phone.changed()
    return None


def alert_accept(ep: Endpoints, req: Request) -> JSON:
    """`POST /alert/accept` (optionally {"name": button})."""
    return _press_alert(ep, req, accept=True)


def alert_dismiss(ep: Endpoints, req: Request) -> JSON:
    """`POST /alert/dismiss` (optionally {"name": button})."""
    return _press_alert(ep, req, accept=False)


ROUTES = (
    Route("POST", "/elements", find_elements),
    Route("POST", "/element", find_element),
    Route("GET", "/element/active", active_element),
    Route("POST", "/element/:uuid/elements", find_child_elements),
    Route("POST", "/element/:uuid/element", find_child_element),
    Route("POST", "/element/:uuid/click", click, write=True),
    Route("POST", "/element/:uuid/value", set_value, write=True),
    Route("POST", "/element/:uuid/clear", clear, write=True),
    Route("GET", "/element/:uuid/rect", get_rect),
    Route("GET", "/element/:uuid/text", get_text),
    Route("GET", "/element/:uuid/name", get_name),
    Route("GET", "/element/:uuid/displayed", displayed),
    Route("GET", "/element/:uuid/enabled", enabled),
    Route("GET", "/element/:uuid/selected", selected),
    Route("GET", "/element/:uuid/attribute/:name", get_attribute),
    Route("GET", "/wda/element/:uuid/accessible", accessible),
    Route("GET", "/wda/element/:uuid/accessibilityContainer", accessibility_container),
    Route("POST", "/wda/element/:uuid/tap", click, write=True),
    Route("POST", "/wda/element/:uuid/swipe", element_swipe, write=True),
    Route("POST", "/wda/element/:uuid/touchAndHold", element_hold, write=True),
    Route("POST", "/wda/element/:uuid/doubleTap", element_double_tap, write=True),
    Route("POST", "/wda/element/:uuid/scroll", scroll, write=True),
    Route("POST", "/wda/pickerwheel/:uuid/select", pickerwheel_select, write=True),
    Route("GET", "/alert/text", alert_text),
    Route("GET", "/wda/alert/buttons", alert_buttons),
    Route("POST", "/alert/accept", alert_accept, write=True),
    Route("POST", "/alert/dismiss", alert_dismiss, write=True),
)
"""Element and alert routes (all under a session), in the order they are matched."""
