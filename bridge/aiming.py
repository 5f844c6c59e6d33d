"""Aim an action: resolve what it touches or types into, from what is known of the phone.

Targets come from the tree known since the last action (`custody.py`), or from one read now
when it does not tell (`reads.py`, the base of `Aiming`): the focused field for keys, the
element under a point for a tap (where a drag starts for a drag). A tap on an element
id is aimed as a tap at its hit point (`hits.py`: what lies there is what the phone acts on);
typing into one, and a tap on one a list must first scroll into view, by its own attributes. A
gesture several fingers make together is aimed finger by finger, each other finger's own action
(`Classified.others`) like any action, from the same screen: the recorder then checks that they
all touch what the logged one does.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, replace

from bridge.classified import Classified, pt
from bridge.context import RunContext
from bridge.dismissed_keys import dismiss_pressed
from bridge.gate import Refused
from bridge.hits import blocker, check_typed_into, element_in, hit_point, is_element
from bridge.limits import SCREEN_SLACK_PT, outside
from bridge.observe import JSON_ROUTE, Observation
from bridge.origins import placed_fingers
from bridge.reads import Reads
from bridge.status_bar import STATUS_BAR, status_bar_tap
from bridge.targets import (
    alert_button,
    any_secure,
    input_with_focus,
    is_key,
    is_secure,
    keyboard_at,
    keys_are_secret,
    node_at,
    offers_choice,
    page_title,
    rect_of,
    target_in,
    to_target,
)
from phoneshell.errors import BridgeError
from phoneshell.records import Target
from phoneshell.xcui import RETURN_KEYS, short_type, walk

log = logging.getLogger("bridge")

WINDOW_SIZE_ROUTE = "/window/size"
"""WDA's screen size in points, turned as the interface is (WDA swaps what XCTest reports when
it gives a landscape screen a portrait frame: `FBAdjustDimensionsForApplication`)."""
CONTAINERS = frozenset({"Application", "Window", "Other", "Group", "Table", "CollectionView",
                        "ScrollView", "WebView", "NavigationBar", "Toolbar", "TabBar", "Sheet",
                        "Alert", "Map", "Image"})
"""Short types of elements that hold controls rather than being one: tapped by id, what lies
at their middle is what a phone acts on (`Aiming._landing`)."""


def _described(target: Target) -> str:
    return f"{short_type(target.type)} {target.label or target.name!r}"


@dataclass(frozen=True)
class Aimed:
    """What the action was aimed at, once resolved."""

    target: Target | None
    secure: bool
    """The text goes into a secure field, or the field could not be read (so it might)."""


def _focus_of(known: Observation) -> tuple[bool, Mapping[str, object] | None]:
    """Whether the page known says where typing goes, and the input it goes to: a JSON source
    flags the focus (told, even when no field has it); an XML one tells it only when it holds
    one text input in all and the keyboard shows (`targets.input_with_focus`)."""
    if known.page is None:
        return False, None
    node = input_with_focus(known.tree, known.focus_known)
    return known.focus_known or node is not None, node


class Aiming(Reads):
    """The aiming of the recorder (its base, on its reads): what it needs of the recorder
    beyond them is whether taps are aimed at all (`resolve_targets`)."""

    resolve_targets: bool

    @staticmethod
    def _point(action: Classified) -> tuple[float, float] | None:
        """The screen point a point-aimed action names (where a drag starts, for "from")."""
        names = ("from_x", "from_y") if action.aim == "from" else ("x", "y")
        x, y = (action.params.get(name) for name in names)
        if isinstance(x, (int, float)) and isinstance(y, (int, float)):
            return float(x), float(y)
        return None

    def off_screen(self, action: Classified) -> str:
        """Why the action names a point off the screen ("" when every point it names is on it,
        within `SCREEN_SLACK_PT`).

        The screen is the root of the page known since the last action (free); a point outside
        it is checked against WDA's window size (one read), which is turned as the interface
        is, before it is refused (when that read fails too, the phone is gone: the action is
        forwarded, to get the phone's own silence). A phone clamps such a point its own way
        (the simulator to the screen's edge, XCTest maybe not at all), so the log could not say
        what it touched, nor which way it slid: a switch's knob dragged to (-4664, -5840) slid
        sideways, flipped, on the simulator, and was logged as a scroll that changes nothing.
        No task needs one. (A phone whose XCTest frames a landscape screen as portrait, which
        WDA's window size corrects, passes a point in the part of that frame off the screen.)
        """
        points = action.points
        page = self.custody.known.page
        screen = page.root_rect if page is not None else None
        if not points or (screen is not None and not outside(points, *screen)):
            return ""
        try:
            size = self.own_read(WINDOW_SIZE_ROUTE)
            width, height = (size.get(k) if isinstance(size, Mapping) else None
                             for k in ("width", "height"))
            if not isinstance(width, (int, float)) or not isinstance(height, (int, float)):
                raise BridgeError(f"WDA gave no window size: {str(size)[:80]}")
        except BridgeError as exc:
            # A phone that answers no read will not take the action either: forwarded, it gets
            # the 502 that says the phone is gone (a refusal would pass it off as the agent's).
            log.debug("no window size: %s", exc)
            return ""
        off = outside(points, 0.0, 0.0, float(width), float(height))
        if not off:
            return ""
        x, y = off[0]
        return (f"it touches ({x:g}, {y:g}), off the {width:g} x {height:g} pt screen (by more "
                f"than {SCREEN_SLACK_PT:g} pt): a phone clamps such a point its own way, so the "
                "log could not say what it touched nor which way it slid; send points on the "
                "screen")

    def placed(self, action: Classified, context: RunContext) -> Classified:
        """A touch on an element at an offset from its frame's top-left corner (`offset_x`,
        `offset_y`: WDA's x and y with an element, `targetWithXyCoordinatesFromRequest`) as the
        touch at the point of the screen it lands on, logged and aimed as a tap at that point
        is (what lies there is what the phone acts on); so a touch chain's fingers placed from
        an element (`origins.placed_fingers`); a keyboard dismiss by key names as the tap on
        the key it presses (`dismissed_keys`); any other action as it is.

        Raises:
            Refused: the element's frame cannot be read (the phone would not find it either),
                or the point lies outside it: the element named is then not what the touch
                lands on, and the log would name one for the other; a dismiss whose key names
                the log could not name one key for (`dismissed_keys.dismiss_pressed`); a
                finger placed from an element where the log could not tell (`origins`).
        """
        if action.key_names:  # WDA's keyboard dismiss: the key it presses, as a tap on it
            return dismiss_pressed(action, self.custody.known.tree)
        action = placed_fingers(self, context, action)
        dx, dy = action.params.get("offset_x"), action.params.get("offset_y")
        if not isinstance(dx, (int, float)) or not isinstance(dy, (int, float)):
            return action
        element = action.params.get("element")
        frame = self.element_frame(action, "an offset tap")
        if frame is None:
            raise Refused(f"could not read the frame of element {element}, so the point x and "
                          "y name from its corner is unknown; find it again", 404,
                          "stale element reference")
        x, y = pt(frame.x + dx), pt(frame.y + dy)
        if not frame.contains(x, y):
            raise Refused(f"x={dx:g}, y={dy:g} from the corner of element {element} (frame "
                          f"{frame.x:g}, {frame.y:g}, {frame.width:g} x {frame.height:g}) is "
                          f"({x:g}, {y:g}), outside it: the touch would land on something "
                          "else than the element named; tap that point on screen (/wda/tap)")
        params = {k: v for k, v in action.params.items()
                  if k not in ("offset_x", "offset_y", "element")}
        return replace(action, params={"x": x, "y": y, **params}, aim="point",
                       points=((x, y),))

    def aim(self, context: RunContext, action: Classified) -> Aimed:
        """Resolve the target of an action (always for typing, on request for taps), from the
        tree known since the last action, or one read now."""
        typing = action.kind == "type"
        if action.aim == "alert":  # always: the refusals need what it presses
            return self._aim_alert(context, action)
        if action.aim == "none" or not (typing or self.resolve_targets):
            return Aimed(None, False)
        if action.aim == "element":
            return self._aim_element(context, action, typing)
        if action.aim in ("point", "from"):
            point = self._point(action)
            if point is not None and status_bar_tap(lambda: self.known_tree(context), action):
                return Aimed(STATUS_BAR, False)  # the phone scrolls to the top: no element's
            return Aimed(None, False) if point is None else self._aim_at(context, *point)
        known = self.custody.known
        told, node = _focus_of(known)
        if not told:
            self.observe(context, self._read_focus(), "GET " + JSON_ROUTE)
            known = self.custody.known
            told, node = _focus_of(known)
        tree = known.tree
        if tree is None or not told:
            # Unreadable screen: nothing proves the field is not a password field.
            return Aimed(None, typing)
        if node is None:  # focus unknown: a password field on screen may be taking it
            return Aimed(None, any_secure(tree))
        return Aimed(target_in(tree, node), is_secure(node))

    def _aim_alert(self, context: RunContext, action: Classified) -> Aimed:
        """The button WDA's alert routes will press (`alert_button`), from the tree known or
        one read now; no target when no alert shows or it has no such button (WDA answers an
        error then, and presses nothing)."""
        tree = self.known_tree(context)
        button = alert_button(tree, action.params) if tree is not None else None
        return Aimed(None if button is None else target_in(tree, button), False)

    def _aim_at(self, context: RunContext, x: float, y: float) -> Aimed:
        """What a touch at (x, y) lands on (`node_at`), from the tree known or one read now."""
        tree = self.known_tree(context)
        node = node_at(tree, x, y) if tree is not None else None
        if node is not None and is_key(node) and not self.custody.known.focus_known:
            # A key types its label: whether that is secret depends on the focus, which only
            # the JSON source tells.
            seen = self._read_focus()
            self.observe(context, seen, f"GET {JSON_ROUTE}")
            tree = seen.tree
            node = node_at(tree, x, y) if tree is not None else None
        if tree is None or node is None:
            return Aimed(None, False)
        over = blocker(tree, node, x, y)
        if over is not None:  # the keyboard between its keys, an alert's backdrop
            keyboard = short_type(str(over.get("type") or "")) == "Keyboard"
            return Aimed(target_in(tree, over).model_copy(update={"keyboard": keyboard}), False)
        return Aimed(target_in(tree, node), is_secure(node))

    def _aim_element(self, context: RunContext, action: Classified, typing: bool) -> Aimed:
        """The element an action names by id: for a tap, what a touch at its hit point lands
        on, as for a tap at that point (`_hit_by_id`); else, and for a tap on an element no list
        shows yet (the phone scrolls it into view first), from its own attributes.

        Typing into a field is logged at the field, never at the key drawn over it (text typed
        into a password field would be logged as typed at that key): it goes there, or nowhere
        when the tap that focuses the field lands elsewhere (`_hit_by_id` refuses it).

        Raises:
            Refused: typing into a field whose focusing tap lands on something over it.
        """
        base = action.attribute_route
        attributes = self.element_attributes(base)
        if attributes is None:  # unreadable: nothing proves it is not a password field
            return Aimed(None, typing)
        if typing:
            check_typed_into(action.params.get("via"), attributes)
        if action.kind in ("tap", "type"):
            landed = self._hit_by_id(context, base, attributes, typing)
            if landed is not None:
                return landed
        secret = False
        known = self.custody.known
        tree = known.tree
        kind = short_type(str(attributes["type"]))
        if not typing and kind in CONTAINERS:
            # XCUITest taps an element at the middle of what shows of it: for a container (a
            # list, a screen, a bar) that is whatever control lies there, which is what a
            # phone then acts on (a row, a switch, Shut Down), and what the log must name.
            landed = self._landing(base, tree)
            if landed is not None:
                return landed
        keyboard = False
        if is_key(attributes):  # its label is the character it types: mask it if that is secret
            tree = known.tree if known.focus_known else self._read_focus().tree
            secret = tree is None or keys_are_secret(tree)
        elif kind == "Button" and str(attributes["label"] or "").strip().lower() in RETURN_KEYS:
            # The keyboard's Return key is a Button inside it, and sends what was typed; a
            # Button so labelled elsewhere (a tab overview's Done) does not: only where it sits
            # tells them apart.
            keyboard = self._on_keyboard(base, tree)
        elif kind == "Switch" and not attributes["label"]:
            row = self._row_at(base, "Switch", tree)
            if row is not None:
                return row
        elif kind == "Cell":
            # Whether it is an option (the screen shows a checkmark) is read off the screen,
            # as for a tap at its point: a cell tapped by id is set back alike.
            tree = tree if tree is not None else self.read_screen().tree
            row = self._row_at(base, "Cell", tree) if tree is not None and offers_choice(tree) \
                else None
            if row is not None:
                return row
        page = page_title(tree) if tree is not None else ""
        return Aimed(to_target(attributes, secret, page, keyboard=keyboard),
                     is_secure(attributes))

    def _hit_by_id(self, context: RunContext, base: str, attributes: Mapping[str, object],
                   typing: bool) -> Aimed | None:
        """A tap by id aimed as the phone performs it: XCUITest touches the element's hit point
        (`hit_point`), and whatever is topmost there takes the touch (an alert over it, the
        keyboard over a row), so it is logged as a tap at that point is (`_aim_at`). Typing
        into a field taps it first unless it has keyboard focus; when that tap would land on
        something else, the typing is refused: the phone would act there and type nothing, and
        the log names one target an action. One more read (the element's rect), and the
        screen's when none is known; the JSON source's when typing and the focus is not known.

        Returns:
            The tap's target; None when the element shows in no tree known (a list scrolls it
            into view first), and for typing that goes to the field (`_aim_element` names it).

        Raises:
            Refused: typing whose focusing tap lands on something over the field.
        """
        rect = self.rect_of_element(base, "an element tapped by id")
        tree = self.known_tree(context) if rect is not None else None
        if rect is None or tree is None:
            return None
        found = element_in(tree, attributes, rect)
        point = hit_point(tree, found, rect) if found is not None else None
        if found is None or point is None:
            return None
        if not typing:
            return self._aim_at(context, *point)
        landed = node_at(tree, *point)
        if landed is not None and any(n is landed for _, n in walk(found[-1])):
            return None
        told, focus = _focus_of(self.custody.known)
        if not told:
            self.observe(context, self._read_focus(), "GET " + JSON_ROUTE)
            told, focus = _focus_of(self.custody.known)
        if focus is not None and is_element(focus, attributes, rect):
            return None  # it has the focus: WDA types without a tap
        what = "nothing" if landed is None else _described(target_in(tree, landed))
        raise Refused(f"typing into {_described(to_target(attributes))} by id: it has no keyboard "
                      f"focus, and the tap WDA makes first to give it focus lands at its hit "
                      f"point ({point[0]:g}, {point[1]:g}) on {what}, which lies over it; the "
                      "phone would act there and type nothing. Dismiss what covers it first",
                      403, "unsupported operation")

    def _on_keyboard(self, base: str, tree: object | None) -> bool:
        """Whether an element named by id sits on the on-screen keyboard: its centre (one more
        read, its rect; and the screen when `tree` is None) inside a visible Keyboard."""
        rect = self.rect_of_element(base, "a button")
        tree = tree if tree is not None or rect is None else self.read_screen().tree
        return rect is not None and tree is not None and keyboard_at(tree, *rect.centre)

    def _landing(self, base: str, tree: object | None) -> Aimed | None:
        """What a tap on an element named by id lands on: the node at the middle of the part of
        its frame on screen (one more read: its rect; and the screen when `tree` is None);
        None when that cannot be told, or nothing but the element itself is there."""
        rect = self.rect_of_element(base, "a container")
        if rect is None:
            return None
        tree = tree if tree is not None else self.read_screen().tree
        if tree is None:
            return None
        screen = rect_of(tree.get("rect")) if isinstance(tree, Mapping) else None
        left, top = max(rect.x, screen.x if screen else rect.x), max(rect.y, 0.0)
        right = min(rect.x + rect.width, screen.x + screen.width if screen else rect.x +
                    rect.width)
        bottom = min(rect.y + rect.height, screen.y + screen.height if screen else rect.y +
                     rect.height)
        if right <= left or bottom <= top:
            return None
        node = node_at(tree, (left + right) / 2, (top + bottom) / 2)
        if node is None or short_type(str(node.get("type", ""))) in CONTAINERS:
            return None
        return Aimed(target_in(tree, node), is_secure(node))

    def _row_at(self, base: str, kind: str, tree: object | None) -> Aimed | None:
        """An element named by id, logged as the row of type `kind` at its centre, as a tap at
        that point is (`node_at`): a switch's knob as the labelled switch around it (its label
        says which setting it flipped), a cell of a list of options with the option chosen
        before. One more read (its rect), only for such elements, and the screen when `tree`
        (the screen last read) is None; None when the row cannot be found."""
        rect = self.rect_of_element(base, f"a {kind}")
        if rect is None:
            return None
        tree = tree if tree is not None else self.read_screen().tree
        node = node_at(tree, *rect.centre) if tree is not None else None
        if node is None or short_type(str(node.get("type", ""))) != kind \
                or not node.get("label"):
            return None
        return Aimed(target_in(tree, node), False)

