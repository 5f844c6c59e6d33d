"""Where a touch on an element named by id lands: its hit point, found in a page source; and
which elements the value and clear routes may be sent to, since WDA taps any other.

Pure, as `targets.py`: reads the decoded source tree and an element's own attributes and rect.
XCUITest touches an element at its hit point, the middle of the part of its frame that shows
(of its activation point's part: a switch row's knob), and whatever is topmost there takes the
touch; the simulator does the same
(`phoneshell.sim.in_view.hit_point`), so the bridge aims such a touch as one at that point.
"""

from __future__ import annotations

from collections.abc import Mapping

from bridge.gate import Refused
from bridge.targets import Rect, in_keyboard, rect_of
from phoneshell.hit_point import hit_point as shared_hit_point
from phoneshell.xcui import TEXT_INPUT_TYPES, short_type, walk

CLIPPING = frozenset({"Table", "CollectionView", "ScrollView", "WebView"})
"""Short types of the views that clip what they hold: a row's hit point is the middle of the
part of it inside its list."""


def is_element(node: Mapping[str, object], attributes: Mapping[str, object],
               rect: Rect) -> bool:
    """Whether a tree node is the element with these attributes and this rect."""
    return (short_type(str(node.get("type") or "")) == short_type(str(attributes["type"]))
            and all(str(node.get(k) or "") == str(attributes[k] or "") for k in ("label", "name"))
            and rect_of(node.get("rect")) == rect)


def element_in(tree: object, attributes: Mapping[str, object], rect: Rect,
               hidden: bool = False) -> list[Mapping[str, object]] | None:
    """The line from the root down to the node of `tree` that is the element (`is_element`),
    if it shows there; None when it does not, or is marked not visible (unless `hidden`: a
    touch chain's finger is placed at an element's hit point whether or not it shows)."""
    line: list[Mapping[str, object]] = []
    for depth, node in walk(tree):
        del line[depth:]  # document order: the nodes above this one are the line's first
        line.append(node)
        if is_element(node, attributes, rect):
            return list(line) if hidden or node.get("isVisible") != "0" else None
    return None


def _kind(node: Mapping[str, object]) -> str:
    return short_type(str(node.get("type") or ""))


def _children(node: Mapping[str, object]) -> list[Mapping[str, object]]:
    kids = node.get("children")
    return [c for c in kids if isinstance(c, Mapping)] if isinstance(kids, list) else []


def activation(line: list[Mapping[str, object]],
               rect: Rect) -> tuple[list[Mapping[str, object]], Rect]:
    """The line down to the part of the element at the end of `line` that holds its
    accessibility activation point, and that part's rect; the element's own (`rect`) for most.

    iOS 26 activates a switch row's labelled Switch (the row's width, around its label and the
    unlabelled knob) at the knob, and a Cell whose one accessible element is such a switch there
    too: XCUITest's tap by id toggles it, where a touch at the row's centre lands on the label.
    The simulator follows the same rule (`phoneshell.sim.touch_paths.activation_target`)."""
    node = line[-1]
    if _kind(node) == "Switch":
        knobs = [c for c in _children(node) if _kind(c) == "Switch"]
        found = rect_of(knobs[0].get("rect")) if len(knobs) == 1 else None
        return ([*line, knobs[0]], found) if found is not None else (line, rect)
    if _kind(node) == "Cell":
        below: list[Mapping[str, object]] = []
        inner: list[list[Mapping[str, object]]] = []
        for depth, child in walk(node):
            del below[depth:]
            below.append(child)
            if depth and child.get("isAccessible") == "1":
                inner.append(list(below[1:]))
        switch = rect_of(inner[0][-1].get("rect")) if len(inner) == 1 else None
        if switch is not None and _kind(inner[0][-1]) == "Switch":
            return activation([*line, *inner[0]], switch)
    return line, rect


def hit_point(tree: object, line: list[Mapping[str, object]],
              rect: Rect) -> tuple[float, float] | None:
    """Where XCUITest touches an element: the middle of the part of the frame holding its
    activation point (`activation`: the element's own `rect`, or a switch row's knob) that
    shows, cut to the screen (the root's frame) and to every list around it (`line`, from the
    root down to it, as `element_in` gives it); None when no part of it shows. The simulator
    touches the same point (`phoneshell.sim.in_view.hit_point`)."""
    line, rect = activation(line, rect)
    return middle_of(rect, [frame for node in line[:-1]
                            if (frame := rect_of(node.get("rect"))) is not None
                            and (node is tree or short_type(str(node.get("type") or ""))
                                 in CLIPPING)])


def middle_of(rect: Rect, bounds: list[Rect]) -> tuple[float, float] | None:
    """The middle of the part of `rect` inside every one of `bounds` (whole points, as XCTest's
    hit point), by the rule the simulator touches by (`phoneshell.hit_point`); None when no
    part of it is."""
    return shared_hit_point((rect.x, rect.y, rect.width, rect.height),
                            [(b.x, b.y, b.width, b.height) for b in bounds])


BLOCKERS = ("Keyboard", "Alert")
"""Short types of what takes every touch inside it (the keyboard: the gaps between its keys
too) or on the whole screen (an alert: its dimmed backdrop), whatever lies under it."""


def blocker(tree: object, node: Mapping[str, object], x: float,
            y: float) -> Mapping[str, object] | None:
    """What takes a touch at (x, y) instead of `node` (the accessible element there, which
    `targets.node_at` names): a visible keyboard the point lies on, or a visible alert, when
    `node` is not part of it; None when nothing does. A point between two keys is the
    keyboard's, and a point off an alert is its backdrop's, as the phone acts. What lies in
    the keyboard's area beside the Keyboard (the globe "Next keyboard", "Dictate", in an
    unnamed view of their own) is itself what a touch there lands on: the deepest accessible
    element under the point is what is logged."""
    keyboard_part = in_keyboard(tree, node)
    for _, candidate in walk(tree):
        kind = short_type(str(candidate.get("type") or ""))
        if kind not in BLOCKERS or candidate.get("isVisible") == "0":
            continue
        frame = rect_of(candidate.get("rect"))
        if kind == "Keyboard" and (frame is None or not frame.contains(x, y) or keyboard_part):
            continue
        if not any(n is node for _, n in walk(candidate)):
            return candidate
    return None


TAKES_VALUE = TEXT_INPUT_TYPES | {"Slider", "PickerWheel"}
"""Short types `element/:id/value` is forwarded for: WDA types into a text input, and moves a
slider or turns a picker wheel to the value; any other element it taps for keyboard focus."""


def check_typed_into(via: object, attributes: Mapping[str, object]) -> None:
    """Refuse `element/:id/value` on an element that is not a text input, slider or picker
    wheel, and `element/:id/clear` on one that is not a text input.

    WDA has no type gate there: typing taps the element (up to twice) to give it keyboard
    focus and fails only after, and clearing taps any element whose value is not empty (a row
    showing "HomeNet", a slider) the same way; so a Start button given a value is pressed on
    the phone while the log would hold only a failed `type`. The tap is the side effect before
    the failure, and a tap must be logged as one: send it as `element/:id/click`.

    Raises:
        Refused: 400 invalid element state, WDA's error for such a request, naming the element.
    """
    kind = short_type(str(attributes["type"]))
    allowed = TAKES_VALUE if via == "element" else TEXT_INPUT_TYPES if via == "clear" else None
    if allowed is None or kind in allowed:
        return
    route = "element/:id/value" if via == "element" else "element/:id/clear"
    takes = "a text input, a slider or a picker wheel" if via == "element" else "a text input"
    named = str(attributes.get("label") or attributes.get("name") or "")
    raise Refused(f"{route} on {kind} {named!r}, which is not {takes}: WDA "
                  "would tap it to give it keyboard focus before failing, a tap the log would "
                  "not hold as one. Tap it with element/:id/click, or send the text to the "
                  "field itself", 400, "invalid element state")
