"""The simulated iPhone's UI model: frozen nodes with frames, and the bindings that make them live.

A screen is a tree of frozen `Node`s rebuilt from app state after every change. Nodes hold no
state of their own. What changes between renders lives in small mutable *bindings* owned by the
app's state object and referenced from the nodes that show them (`bindings.py`: `EditText`,
`Scroll`, `Wheel`, importable from here).

A modal presentation (an alert, an action or page sheet, a popover, a context menu) is one rule,
not each screen's: `Screen.of` reports everything else in its window not visible, as UIKit's
`accessibilityViewIsModal` makes a real phone do (`modal_cover.presented`). Where a touch lands
is `touch_paths.py`'s.

Behaviour is a zero-argument `on_tap` closure (or `on_hold`, `on_adjust`) that mutates app state.
Serialising a tree to WDA's formats lives in `source.py`, drawing it in `render.py`; this module
never imports either, nor anything that knows about apps or HTTP.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import TypeVar, cast

from phoneshell.sim.bindings import EditText as EditText  # the bindings: importable from here
from phoneshell.sim.bindings import Handler as Handler
from phoneshell.sim.bindings import Scroll as Scroll
from phoneshell.sim.bindings import Wheel as Wheel
from phoneshell.sim.modal_cover import presented
from phoneshell.xcui import TEXT_INPUT_TYPES, TYPE_PREFIX

T = TypeVar("T")

# Real WDA's default `traits` per element type (from the iOS 26 dumps); anything else is "".
_TRAITS = {
    "Button": "Button", "StaticText": "StaticText", "SearchField": "SearchField",
    "Switch": "ToggleButton, Button", "Slider": "Adjustable", "Key": "KeyboardKey",
    "Image": "Image", "Icon": "UpdatesFrequently", "Link": "Link", "PickerWheel": "Adjustable",
    "Cell": "Button", "TextField": "", "SecureTextField": "", "TextView": "",
}
# Types VoiceOver stops on; containers (Other, Window, Table, NavigationBar...) are not.
_ACCESSIBLE = frozenset({
    "Button", "StaticText", "Cell", "SearchField", "TextField", "SecureTextField", "TextView",
    "Switch", "Slider", "Key", "Icon", "Link", "PickerWheel", "Alert", "MenuItem",
})
# Types UIKit always presents modally: whatever builds one, what lies beside it is covered.
_MODAL_TYPES = frozenset({"Alert", "Sheet", "Popover"})
TEXT_INPUTS = TEXT_INPUT_TYPES
"""Types that take typing; WDA writes `placeholderValue` only on these."""


@dataclass(frozen=True, slots=True)
class Rect:
    """A frame in integer points, origin top-left, as WDA reports it."""

    x: int
    y: int
    width: int
    height: int

    def contains(self, x: float, y: float) -> bool:
        """Whether the point lies inside (left/top edges in, right/bottom edges out), as
        CGRectContainsPoint says (and `bridge.touched.Rect.contains`): a touch is a point in
        floats, never snapped to whole points."""
        return self.x <= x < self.x + self.width and self.y <= y < self.y + self.height

    def intersects(self, other: Rect) -> bool:
        """Whether the two rectangles share any area."""
        return (self.x < other.x + other.width and other.x < self.x + self.width
                and self.y < other.y + other.height and other.y < self.y + self.height)

    @property
    def center(self) -> tuple[int, int]:
        """The centre point, rounded down as facebook-wda rounds it."""
        return self.x + self.width // 2, self.y + self.height // 2

    @property
    def bottom(self) -> int:
        """The y just below the frame."""
        return self.y + self.height


ZERO = Rect(0, 0, 0, 0)
"""The frame real SpringBoard gives icons on pages that are not showing."""


class _Derived(str):
    """A value WDA derives (`wd_value`) rather than one the app set: a plain string to every
    reader, and derived again, from what it is derived from, when a node is copied with
    `dataclasses.replace` (so a button copied unselected loses its "1")."""

    __slots__ = ()


_FIELDS_WITH_PLACEHOLDER = frozenset({"TextField", "SecureTextField", "TextView"})


def _bool_value(value: str) -> bool:
    """NSString's boolValue: true on a leading "Y", "y", "T", "t" or non-zero digit (after
    blanks, a sign and zeros)."""
    head = value.lstrip(" \t\n").lstrip("+-").lstrip("0")
    return head[:1] in ("Y", "y", "T", "t") or "1" <= head[:1] <= "9"


def wd_value(node: Node) -> str | None:
    """The `value` WDA reports for a node (XCUIElement+FBWebDriverAttributes' wdValue): the
    value the app set, else for a StaticText its label, for a Button "1" when it is selected,
    for a text field, secure field or text view its placeholder; a Switch's is its value read
    as a boolean, "0" or "1"; an empty string is no value. The one place these rules live: a
    screen sets only what its app sets."""
    own = None if isinstance(node.value, _Derived) else node.value or None
    if node.type == "Switch":
        return "1" if own is not None and _bool_value(own) else "0"
    if own is not None:
        return own
    fallback = {"StaticText": node.label, "Button": "1" if node.selected else None}.get(
        node.type, node.placeholder if node.type in _FIELDS_WITH_PLACEHOLDER else None)
    return _Derived(fallback) if fallback else None


@dataclass(frozen=True, eq=False, slots=True)
class Node:
    """One element of a screen, as WDA would describe it, plus the behaviour behind it.

    `type` is WDA's short type ("Button", "StaticText", "Cell", "SearchField"...). `name` is the
    accessibility identifier; left out, it is the label, as WDA's is. `name`, `label` and
    `value` are omitted from the source when None. `accessible` and `traits` default
    to what real WDA reports for the type. Frames are absolute screen points; a node scrolled out
    of its list keeps its frame and has `visible=False`.
    """

    type: str
    frame: Rect
    label: str | None = None
    name: str | None = None
    value: str | None = None
    enabled: bool = True
    visible: bool = True
    selected: bool = False
    accessible: bool | None = None
    """None: the default for the type (controls and text yes, containers no)."""
    traits: str | None = None
    """None: the default for the type; otherwise WDA's comma-separated list."""
    placeholder: str | None = None
    children: tuple[Node, ...] = ()
    on_tap: Handler | None = None
    """What a tap does; a tap on a child without one runs the nearest ancestor's."""
    on_hold: Handler | None = None
    """What touch-and-hold does (None: a hold acts as a tap)."""
    on_hold_at: Callable[[float, float], None] | None = None
    """Touch-and-hold that needs the point held (a text view selects the word under it)."""
    on_double_tap_at: Callable[[float, float], None] | None = None
    """What the second of two quick taps at a point does (a text view selects the word under
    it: `taps.py`); None: it is one more tap."""
    on_adjust: Callable[[float], None] | None = None
    """For sliders: called with the new position, 0.0 (left) to 1.0 (right)."""
    field: EditText | None = None
    """The text binding of a text input; tapping the node focuses it."""
    scroll: Scroll | None = None
    """Set on a list: drags inside the frame scroll it, and its children are clipped to it."""
    key: str | None = None
    """Identity override for element ids (default: type and name); never serialised."""
    pixels_text: str | None = None
    """Text drawn in screenshots but absent from the page source (image probe pages)."""
    wheel: Wheel | None = None
    """For picker wheels: the binding taps, drags and the element value route turn."""
    opaque: bool = False
    """Drawn as a solid panel in screenshots, hiding what lies behind (a page sheet)."""
    on_pull_down: Handler | None = None
    """A page sheet's panel (`layout.page_sheet`): what a downward swipe on it does (dismiss
    it, or ask first when it holds changes), as iOS's sheet presentation does."""
    modal: bool = False
    """A modal presentation's full-screen layer (`layout.modal_layer`): while it shows,
    everything else in its window is reported not visible (`presented`). Alerts, action sheets
    and popovers are modal by their type wherever a screen builds them."""
    covered: bool = False
    """Drawn in screenshots while WDA reports it visible="false": set by `presented` (visible
    but for a modal presented over it, drawn dimmed), and on Notification Center's date and
    clock, which its dump reports hidden."""
    remote_origin: tuple[int, int] | None = None
    """Set on each node of a remote view's contents (another process draws them: the share
    sheet's): the screen point the view's own (0, 0) lies at. WDA reports such a node's frame
    in the view's coordinates (`reported`), as the iOS 26 share-sheet dump does; `frame` stays
    where it is drawn and touched."""
    uncovered: Rect | None = None
    """Set on a list laid under bars (`lists.table`'s `frame`): the part of its frame they
    leave uncovered. Its rows show, and touches reach it, only there; the bars are drawn over
    the rest (None: its whole frame)."""
    holds_accessible: bool = dataclasses.field(default=False, init=False)
    """Whether an accessible element lies below (worked out at construction, never set)."""
    holds_modal: bool = dataclasses.field(default=False, init=False)
    """Whether a modal presentation lies below (worked out at construction, never set)."""

    def __post_init__(self) -> None:
        # WDA's `name` (FBElement wdName) is the accessibility identifier, else the label: an
        # element with a label always has a name. Filled here, once, so the XML and JSON
        # sources, the name attribute and every locator read the same name on every screen.
        if not self.name:
            object.__setattr__(self, "name", self.label or None)
        object.__setattr__(self, "value", wd_value(self))
        object.__setattr__(self, "holds_modal",
                           any(c.presents or c.holds_modal for c in self.children))
        holds = any(c.is_accessible or c.holds_accessible for c in self.children)
        object.__setattr__(self, "holds_accessible", holds)
        if holds and self.is_accessible:
            # No real dump has an accessible element inside another: UIKit stops at the first
            # accessibility element, and XCTest reports what lies inside it accessible="false"
            # (a button's title, a cell's texts).
            object.__setattr__(self, "children", tuple(_silenced(c) for c in self.children))
            object.__setattr__(self, "holds_accessible", False)

    @property
    def reported(self) -> Rect:
        """The frame WDA reports: `frame`, less `remote_origin` for a remote view's contents."""
        if self.remote_origin is None:
            return self.frame
        dx, dy = self.remote_origin
        return Rect(self.frame.x - dx, self.frame.y - dy, self.frame.width, self.frame.height)

    @property
    def open_part(self) -> Rect:
        """Where a list shows its rows and takes touches: `uncovered`, else its frame."""
        return self.frame if self.uncovered is None else self.uncovered

    @property
    def presents(self) -> bool:
        """Whether this node is a modal presentation (`modal`, or an Alert, Sheet, Popover)."""
        return self.modal or self.type in _MODAL_TYPES

    @property
    def wd_type(self) -> str:
        """The full WDA type, e.g. "XCUIElementTypeButton"."""
        return TYPE_PREFIX + self.type

    @property
    def is_accessible(self) -> bool:
        """The `accessible` attribute, resolving the per-type default.

        A Cell holding accessible elements is their container, not one itself: every such
        cell in the real dumps (Safari's start page, Settings' switch rows) is accessible="false"
        traits="", while a cell whose texts are read with it is accessible="true".
        """
        if self.accessible is not None:
            return self.accessible
        if self.type == "Cell":
            return not self.holds_accessible
        return self.type in _ACCESSIBLE

    @property
    def trait_text(self) -> str:
        """The `traits` attribute, resolving the per-type default ("" for a container cell)."""
        if self.traits is not None:
            traits = self.traits
        elif self.type == "Cell" and not self.is_accessible:
            traits = ""
        else:
            traits = _TRAITS.get(self.type, "")
        # iOS reports a selected control (a pending calculator operator, the current tab)
        # through the Selected trait, which WDA writes into `traits`.
        if self.selected and "Selected" not in traits:
            traits = f"{traits}, Selected" if traits else "Selected"
        return traits

    @property
    def focused(self) -> bool:
        """Whether this node shows the text field that has keyboard focus."""
        return self.field is not None and self.field.focused

    @property
    def secure(self) -> bool:
        """Whether this node is a secure (password) text input."""
        return self.field is not None and self.field.secure

    @property
    def text(self) -> str:
        """WDA's element text: the value, else the label, else ""."""
        return self.value or self.label or ""


@dataclass(frozen=True)
class Screen:
    """What is on the display: the application node tree, its process, and an index of it."""

    root: Node
    bundle_id: str
    pid: int
    nodes: tuple[Node, ...] = field(default=(), compare=False)
    """Every node in document order (filled by `Screen.of`)."""
    keys: tuple[str, ...] = field(default=(), compare=False)
    """Each node's identity, parallel to `nodes` (see `Screen.of`)."""
    by_key: dict[str, Node] = field(default_factory=dict, compare=False)
    """Nodes by identity, for resolving element ids."""
    showings: dict[str, int] = field(default_factory=dict, compare=False)
    """The showing of each modal presentation on it, by its path (see `Screen.of`)."""
    _derived: dict[str, object] = field(default_factory=dict, compare=False, repr=False)

    def derived(self, name: str, build: Callable[[], T]) -> T:
        """A form of this screen (its XML, JSON, parsed tree, PNG), built once and kept here.

        The phone makes a new `Screen` after every change, so what is derived from one stays
        right for as long as it is shown. Sources and screenshots are read far more often than
        the screen changes (facebook-wda polls finds every 0.5 s), so each is built once.
        Callers hold the phone lock, as for everything else on the phone.
        """
        if name not in self._derived:
            self._derived[name] = build()
        return cast(T, self._derived[name])

    @classmethod
    def of(cls, root: Node, bundle_id: str, pid: int, *, before: Screen | None = None,
           launch: int = 0) -> Screen:
        """Build a screen and index its nodes once.

        A node's identity is the path of (type, name-or-label, ordinal among like siblings)
        steps from the root, or its `key` where set, below the app's launch (`launch`: a
        relaunched app is a new process, its views new ones). An app puts which showing of a
        page it is into the page's key (`showing`); a modal presentation (`presents`) absent
        from `before`, the app's previous screen, is a new one and gets a new showing here. So
        an id stays valid while its element shows, goes stale when it leaves, and stays stale
        when a page or sheet like it is pushed or presented again, as a real phone's views
        are new ones then. What a modal presentation covers is reported not visible
        (`presented`).
        """
        root = presented(root)
        nodes: list[Node] = []
        keys: list[str] = []
        was = before.showings if before is not None else {}
        showings: dict[str, int] = {}

        def visit(node: Node, key: str) -> None:
            nodes.append(node)
            keys.append(key)
            seen: dict[str, int] = {}
            for child in node.children:
                step = child.key or f"{child.type}:{child.name or child.label or ''}"
                count = seen.get(step, 0)
                seen[step] = count + 1
                path = f"{key}/{step}#{count}" if count else f"{key}/{step}"
                if child.presents:
                    showings[path] = was.get(path) or showing()
                    path = f"{path}@{showings[path]}"
                visit(child, path)

        visit(root, f"{bundle_id}@{launch}/{root.type}")
        by_key = dict(zip(keys, nodes, strict=True))
        return cls(root, bundle_id, pid, tuple(nodes), tuple(keys), by_key, showings)


_SHOWINGS = itertools.count(1)


def showing() -> int:
    """A new showing's serial, for an app to put in the key of a page it pushes or presents
    (and keep in its state while that page shows): ids of the page shown before, however
    alike, never answer for it. A tab switch, a scroll, typing or a new value is the same
    showing."""
    return next(_SHOWINGS)


def _silenced(node: Node) -> Node:
    """`node` with it and everything below it not accessible (inside an accessible element)."""
    if not (node.is_accessible or node.holds_accessible):
        return node
    return replace(node, accessible=False, children=tuple(_silenced(c) for c in node.children))


def walk(node: Node) -> Iterator[Node]:
    """Yield the node and its descendants in document (pre-)order."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(current.children))


def hidden(node: Node) -> Node:
    """The same subtree with every node marked not visible (scrolled away, other page)."""
    if not node.visible and not node.children:
        return node
    return replace(node, visible=False, children=tuple(hidden(c) for c in node.children))
