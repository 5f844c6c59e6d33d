"""WDA routes about elements: find, read attributes and pixels, click, type, clear.

A picker wheel's select is in `wheel_routes.py`.

Elements are found on the current screen of the front app and referenced by UUIDs that follow
the element across re-renders (`elements.py`). An id whose element is no longer on screen
answers 404 `stale element reference`; a locator strategy WDA does not know, 400 `invalid
argument` ("Invalid locator requested"); a query it cannot parse, 400 `invalid selector`.
`name` returns the element's *type*, as real WDA's `handleGetName` does. Gestures on elements
are in `gesture_routes.py`, alerts in `alert_routes.py`.
"""

from __future__ import annotations

import base64
import io
from typing import TYPE_CHECKING

from PIL import Image

from phoneshell.sim import device_routes, gesture_routes, in_view
from phoneshell.sim.attributes import attribute_value
from phoneshell.sim.elements import STRATEGIES, attribute, find, rect
from phoneshell.sim.predicates import SelectorError
from phoneshell.sim.store import JSON
from phoneshell.sim.touch_paths import hit_path
from phoneshell.sim.ui import Node, walk
from phoneshell.sim.wire import Request, Route, WdaError, described, float_value
from phoneshell.wda_routes import typed_value

if TYPE_CHECKING:
    from phoneshell.sim.endpoints import Endpoints


def _find(ep: Endpoints, req: Request, context: Node | None) -> list[Node]:
    """Matches for the body's locator. A missing `using` (nil) is no strategy WDA knows; a
    missing `value` matches nothing (a query for nil finds no element)."""
    using, value = req.text("using"), req.text("value")
    if using not in STRATEGIES:
        raise WdaError("invalid argument", f"Invalid locator requested: "
                                           f"{described(using, missing=using is None)}")
    if value is None:
        return []
    try:
        return find(ep.phone.screen(), using, value, context)
    except SelectorError as exc:
        raise WdaError("invalid selector", str(exc)) from exc


def no_such_element(using: str | None, value: str | None) -> WdaError:
    """WDA's `FBNoSuchElementErrorResponseForRequest`: the locator as the request gave it,
    nil as "(null)" (a GET such as `element/active` has neither)."""
    return WdaError("no such element", f"unable to find an element using "
                                       f"'{described(using, missing=using is None)}', value "
                                       f"'{described(value, missing=value is None)}'")


def _references(ep: Endpoints, nodes: list[Node]) -> list[JSON]:
    """The element references a find answers, as WDA's FBDictionaryResponseWithElement writes
    them: the ids alone while `shouldUseCompactResponses` is on, else with each of
    `elementResponseAttributes` too (`name`/`type` the type, `text` the value else the label,
    `rect`, `enabled`, `displayed`, `selected`, `label`, `attribute/NAME` that attribute; any
    other field left out, as WDA leaves it)."""
    refs = ep.elements.references(ep.phone.screen(), nodes)
    if ep.settings.get("shouldUseCompactResponses") is not False:
        return refs
    fields = str(ep.settings.get("elementResponseAttributes") or "").split(",")
    full: list[JSON] = []
    for node, ref in zip(nodes, refs, strict=True):
        answer = dict(ref) if isinstance(ref, dict) else {}
        uid = str(answer.get("ELEMENT", ""))
        values: dict[str, JSON] = {
            "name": node.wd_type, "type": node.wd_type, "text": node.value or node.label or None,
            "rect": rect(node), "enabled": node.enabled, "displayed": node.visible,
            "selected": node.selected, "label": node.label}
        for field in fields:
            if field in values:
                answer[field] = values[field]
            elif field.startswith("attribute/"):
                answer[field] = attribute(node, field.removeprefix("attribute/"), uid,
                                          ep.phone.screen())
        full.append(answer)
    return full


def _one(ep: Endpoints, req: Request, context: Node | None) -> JSON:
    found = _find(ep, req, context)
    if not found:
        raise no_such_element(req.text("using"), req.text("value"))
    return _references(ep, found[:1])[0]


def find_elements(ep: Endpoints, req: Request) -> JSON:
    """`POST /elements` {"using", "value"}: every match ([] when none)."""
    return _references(ep, _find(ep, req, None))


def find_element(ep: Endpoints, req: Request) -> JSON:
    """`POST /element`: the first match, or 404 no such element."""
    return _one(ep, req, None)


def find_child_elements(ep: Endpoints, req: Request) -> JSON:
    """`POST /element/:uuid/elements`: matches below an element."""
    found = _find(ep, req, ep.element(req))
    return _references(ep, found)


def find_child_element(ep: Endpoints, req: Request) -> JSON:
    """`POST /element/:uuid/element`: the first match below an element."""
    return _one(ep, req, ep.element(req))


def active_element(ep: Endpoints, req: Request) -> JSON:
    """`GET /element/active`: the text field with keyboard focus."""
    field = ep.phone.keyboard_field()
    focused = [n for n in ep.phone.screen().nodes if field is not None and n.field is field]
    if not focused:
        raise no_such_element(None, None)  # WDA answers it as a find that had no locator
    return _references(ep, focused[:1])[0]


def click(ep: Endpoints, req: Request) -> JSON:
    """`POST /element/:uuid/click`: tap the element (its nearest handler runs).

    An element off screen is scrolled into view first; one that cannot be (a zero frame, an
    icon on another home-screen page) answers WDA's not-visible error.
    """
    gesture_routes.tap_element(ep, ep.element(req))
    return None


def set_value(ep: Endpoints, req: Request) -> JSON:
    """`POST /element/:uuid/value` {"value"|"text"}: type into a field, set a slider, or turn a
    picker wheel to the row with exactly that text (XCTest's adjust-to-value).

    Typing goes where a phone's would: into a field with focus, else one a tap at its hit point
    focuses (`_focus`); a slider or wheel moves only when a touch at its hit point reaches it
    (`_reach`). An alert, the keyboard or a sheet over the element takes that tap instead.
    """
    node = ep.element(req)
    text = typed_value("/element/:uuid/value", req.body.get("value", req.body.get("text")))
    if text is None:
        raise WdaError("invalid argument", "'value' must be a string or a list of strings")
    if node.wheel is not None:
        if ep.phone.locked:
            return None
        _reach(ep, node, "turn")
        if not node.wheel.select(text):
            raise WdaError("unknown error", f"The picker wheel has no value '{text}'; it "
                                            f"shows '{node.wheel.value}'")
        ep.phone.changed()
        return None
    if node.on_adjust is not None:
        # WDA reads the text with NSString's floatValue (its leading number, else 0: "50%" is
        # 50) and refuses a position outside 0..1; XCTest then adjusts the slider to it.
        position = float_value(text)
        if not 0.0 <= position <= 1.0:
            raise WdaError("invalid argument", "Value of slider should be in 0..1 range")
        if not ep.phone.locked:
            _reach(ep, node, "slide")
            node.on_adjust(position)
            ep.phone.changed()
        return None
    # WDA types whatever the element is (no type gate): it taps it for focus first (`_focus`),
    # so a button given a value is tapped, and only then is the request refused.
    if not ep.phone.locked:
        _focus(ep, req, node)
        ep.phone.type_text(text)
    return None


def _described(node: Node) -> str:
    return f'"{node.label or node.name or ""}" {node.type}'


MAX_PREPARE_TRIES = 2
"""Taps WDA makes to give an element keyboard focus before typing into it or clearing it
(`fb_prepareForTextInputWithError`: "sometimes the keyboard is not opened after the first tap")."""


def _focus(ep: Endpoints, req: Request, node: Node) -> None:
    """Give an element keyboard focus as WDA does before typing (`fb_prepareForTextInput`), for
    whatever element it is: a field that has it keeps it; any other element is tapped by id (at
    its hit point, `tap_element`, where whatever lies on top takes the tap and acts), up to
    `MAX_PREPARE_TRIES` times while no keyboard shows and the element is still on screen (a
    button is tapped, and a switch flipped twice); when the keyboard was up already (another
    field's), once, and XCTest's typeText then fails unless the element took the focus.

    Raises:
        WdaError: invalid element state, WDA's words, when the element has no focus after the
            taps; not visible when it cannot show at all.
    """
    phone = ep.phone
    if node.field is not None and phone.keyboard_field() is node.field:
        return
    keyboard_was_up = phone.keyboard_field() is not None
    current: Node | None = node
    for _ in range(MAX_PREPARE_TRIES):
        if current is None:  # gone with the last tap: XCTest finds nothing more to tap
            break
        gesture_routes.tap_element(ep, current)
        current = ep.elements.resolve(phone.screen(), req.params.get("uuid", ""))
        focused = current is not None and current.field is not None \
            and phone.keyboard_field() is current.field
        if focused or keyboard_was_up:
            break
    if current is None or current.field is None or phone.keyboard_field() is not current.field:
        keyboard = "true" if phone.keyboard_field() is not None else "false"
        raise WdaError("invalid element state", f"The element '{_described(node)}' is not ready "
                       f"for text input (hasKeyboardFocus -> false, isKeyboardVisible -> "
                       f"{keyboard})")


def _reach(ep: Endpoints, node: Node, how: str) -> None:
    """Check that a touch at the element's hit point reaches it, as XCTest's drag on a slider or
    a wheel must; nothing moves when something else is on top there.

    Raises:
        WdaError: invalid element state naming what covers it; not visible when it cannot show.
    """
    shown = gesture_routes.shown(ep, node)
    point = in_view.hit_point(ep.phone, shown)
    if point is None:
        raise gesture_routes.not_visible(node)
    x, y = point
    path = hit_path(ep.phone.screen().root, x, y)
    if shown not in path:
        top = path[-1] if path else None
        what = "nothing" if top is None else _described(top)
        raise WdaError("invalid element state", f"Cannot {how} '{_described(node)}': a touch "
                       f"at its hit point ({x}, {y}) lands on {what}, which lies over it")


def clear(ep: Endpoints, req: Request) -> JSON:
    """`POST /element/:uuid/clear`: empty a text field, focusing it first as typing does.

    As WDA's `fb_clearTextWithError`, whatever the element is: one whose value is nil or empty
    is left alone (200); any other is tapped for focus first (`_focus`: a row showing a value,
    a slider, a switch is tapped), and fails after the tap when it took no keyboard focus.
    """
    node = ep.element(req)
    value = node.field.text if node.field is not None else node.value
    if not value or ep.phone.locked:
        return None
    _focus(ep, req, node)
    focused = ep.elements.resolve(ep.phone.screen(), req.params.get("uuid", ""))
    if focused is not None and focused.field is not None:
        focused.field.text = ""
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
    """`GET /element/:uuid/attribute/:name` (type, name, label, value, visible, rect...);
    `index` (`wdIndex`) is the element's place among its parent's children, as the source's
    `index` says."""
    return attribute(ep.element(req), req.params["name"], req.params["uuid"], ep.phone.screen())


def accessible(ep: Endpoints, req: Request) -> JSON:
    """`GET /wda/element/:uuid/accessible`."""
    return ep.element(req).is_accessible


def accessibility_container(ep: Endpoints, req: Request) -> JSON:
    """`GET /wda/element/:uuid/accessibilityContainer`: whether an accessible element lies
    below (`attributes`' reading)."""
    return bool(attribute_value(ep.element(req), "accessibilityContainer", None))


def visible_cells(ep: Endpoints, req: Request) -> JSON:
    """`GET /wda/element/:uuid/getVisibleCells`: the visible Cells below a list."""
    cells = [n for n in walk(ep.element(req)) if n.type == "Cell" and n.visible]
    return _references(ep, cells)


def screenshot(ep: Endpoints, req: Request) -> JSON:
    """`GET /element/:uuid/screenshot` (and JSONWP's `/screenshot/:uuid`): the element's
    pixels, cut from the screen's screenshot at the element's frame (clipped to the screen)."""
    node = ep.element(req)
    f = ep.phone.facts
    frame = node.frame
    left, top = max(0, frame.x), max(0, frame.y)
    right, bottom = min(f.width, frame.x + frame.width), min(f.height, frame.bottom)
    if right <= left or bottom <= top:
        raise WdaError("unable to capture screen",
                       f"Cannot take a screenshot of {node.wd_type} '{node.label or ''}': it "
                       "has no area on the screen")
    full = Image.open(io.BytesIO(device_routes.screen_png(ep)))
    s = f.scale
    part = io.BytesIO()
    full.crop((left * s, top * s, right * s, bottom * s)).save(part, "PNG", compress_level=1)
    return base64.b64encode(part.getvalue()).decode("ascii")


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
    Route("GET", "/element/:uuid/screenshot", screenshot),
    Route("GET", "/screenshot/:uuid", screenshot),
    Route("GET", "/wda/element/:uuid/accessible", accessible),
    Route("GET", "/wda/element/:uuid/accessibilityContainer", accessibility_container),
    Route("GET", "/wda/element/:uuid/getVisibleCells", visible_cells),
)
"""Element routes (all under a session), in the order they are matched."""
