"""What a touch in Settings lands on, by its place in the page source: for the allow-list of
Settings touches (`lasting.settings_lasting`), as `control_center.py` is for Control Center's.

Settings lets an agent through only to navigate and to read, and to change the values the
set-back knows (switches, options, sliders, the appearance: `xcui.settings_value`, decided on
the target alone). Which of the rest is navigation and which only shows is read off the tree,
as the iOS 26 dumps (../shared/reference/ios-sources/) draw them:

* a row that opens a page ends in a chevron: the root list's rows are Buttons holding an Image
  named "chevron.forward", a table's Cells (General > About's iOS Version) hold a disabled
  Button named "chevron" (and carry the Button trait);
* a row that only shows a value (About's "Name, iPhone", "Model Number, A3256LL/A") is a Cell
  with no Button trait, no chevron, and no control of its own but the Button that holds its
  title and value: it shows a title and a value;
* the navigation bar's back button is named "BackButton", and the items of the history menu
  a hold on it opens go back too (`back_menus.pages_back`); its title, a section's header or
  footer, the empty space of a list are text, images and views, which act on nothing.

Anything else fails closed: a row with no chevron that shows only a title (a button row: Turn
Passcode On, Add Card, Sign Out, Reset), a row holding a control of its own (a Wi-Fi network's
or a Bluetooth device's More Info button: tapped, the row joins or connects), a row with the
Button trait and no chevron, a Button outside the rows (a bar's Edit, an alert's or a sheet's
buttons but Cancel), and a touch the tree cannot place. Pure: reads a decoded source and the
target the aiming resolved, never the phone.
"""

from __future__ import annotations

from bridge.back_menus import pages_back
from bridge.targets import is_checkmark, section_checked
from bridge.touched import ancestry, node_at, rect_of
from phoneshell.lasting import (
    SETTINGS_ACTS,
    SETTINGS_BACK,
    SETTINGS_CANCEL,
    SETTINGS_KEYBOARD,
    SETTINGS_LINK,
    SETTINGS_OPTION,
    SETTINGS_SEARCH,
    SETTINGS_SHOWN,
)
from phoneshell.records import Target
from phoneshell.xcui import Node, short_type, text_inputs, walk

CHEVRONS = frozenset({"chevron", "chevron.forward", "chevron.right"})
"""The names of a row's disclosure indicator: an Image in the root list, a disabled Button in a
table (the iOS 26 dumps)."""
PASSIVE = frozenset({"StaticText", "Image", "Other", "Group", "Cell", "NavigationBar", "Table",
                     "CollectionView", "ScrollView", "Window", "Application", "Toolbar",
                     "Alert", "Sheet"})
"""Short types that act on nothing by themselves: text, images, views, and the containers a
touch between their controls lands on (an alert's or a sheet's backdrop)."""
BACK_BUTTON = "BackButton"
"""The name of the navigation bar's back button (the iOS 26 dumps)."""
CANCELS = frozenset({"cancel"})
"""Labels (lower case) of a button that only takes back what is open: the search's Cancel, a
sheet's or an alert's Cancel."""


def _kind(node: Node) -> str:
    return short_type(str(node.get("type") or ""))


def _text(node: Node, key: str) -> str:
    value = node.get(key)
    return value if isinstance(value, str) else ""


def _matches(node: Node, target: Target) -> bool:
    return (_kind(node) == short_type(target.type) and _text(node, "label") == target.label
            and _text(node, "name") == target.name)


def _candidates(tree: object, target: Target | None,
                point: tuple[float, float] | None) -> list[Node]:
    """The nodes the target may be: those of its type, label and name (any one of them may be
    the one touched, so all are judged), narrowed to those under the touch when a point is
    known; with no target, what lies at the point. A touch at a point the target is found at
    (`node_at`, the hit test the aiming named it by) is judged by that node alone: an unnamed
    view of a row scrolled under a bar is not what a touch on the bar lands on."""
    found = node_at(tree, *point) if point is not None else None
    if target is None or found is not None and _matches(found, target):
        return [] if found is None else [found]
    nodes = [node for _, node in walk(tree) if _matches(node, target)]
    if point is not None:
        under = [n for n in nodes if _contains(n, point)]
        nodes = under or nodes
    return nodes


def _contains(node: Node, point: tuple[float, float]) -> bool:
    """Whether `point` lies in `node`'s frame, every edge included (not `Rect.contains`, which
    leaves the right and bottom out)."""
    frame = rect_of(node.get("rect"))
    return frame is not None and (frame.x <= point[0] <= frame.x + frame.width
                                  and frame.y <= point[1] <= frame.y + frame.height)


def _chevron(node: Node) -> bool:
    return _kind(node) in ("Image", "Button") and (
        _text(node, "name") in CHEVRONS or _text(node, "label") in CHEVRONS)


def _row_element(cell: Node) -> Node | None:
    """The Button that is the row itself inside its cell, by structure: the one holding every
    text of the cell and lying within it (About's "Name, iPhone", the root list's "General"),
    never by its label, which iOS builds apart from the cell's (About's cell "Capacity, 994,
    61 GB" holds the Button "Capacity, 994,61 GB"). None when no Button holds them all."""
    texts = [id(n) for _, n in walk(cell) if _kind(n) == "StaticText"]
    if not texts:
        return None
    for _, node in walk(cell):
        if node is cell or _kind(node) != "Button" or _chevron(node) or is_checkmark(node) \
                or not _within(node, cell):
            continue
        if set(texts) <= {id(n) for _, n in walk(node)}:
            return node
    return None


def _within(node: Node, outer: Node) -> bool:
    """Whether `node`'s frame lies inside `outer`'s (to a point)."""
    inner, frame = rect_of(node.get("rect")), rect_of(outer.get("rect"))
    if inner is None or frame is None:
        return False
    return (frame.x - 1 <= inner.x and frame.y - 1 <= inner.y
            and inner.x + inner.width <= frame.x + frame.width + 1
            and inner.y + inner.height <= frame.y + frame.height + 1)


def _own(node: Node, row: Node | None) -> bool:
    """Whether a node inside a cell is the row's own: its Button, its chevron, a checkmark,
    or something that acts on nothing."""
    return node is row or _kind(node) in PASSIVE or _chevron(node) or is_checkmark(node)


def _shows_value(cell: Node) -> bool:
    """Whether a cell shows a title and a value: two texts at least."""
    texts = [n for _, n in walk(cell) if _kind(n) == "StaticText"
             and (_text(n, "label") or _text(n, "value"))]
    return len(texts) >= 2


def _plain(cell: Node) -> bool:
    """Whether a cell holds nothing but its own: no control of its own, no chevron."""
    row = _row_element(cell)
    return all(_own(n, row) and not _chevron(n) for _, n in walk(cell))


def _option(line: list[Node], at: int) -> bool:
    """Whether the cell `line[at]` is an option of a single-choice list: its section
    (`targets.section_checked`) has exactly one row showing the checkmark, and every row
    there, it too, is plain (no chevron, no control of its own). A row of another
    section (Ringtone's Download All Purchased Tones) or of a section holding a row that acts
    (Wi-Fi's networks) is none. A list that chooses several shows several checkmarks, or may
    show one (Dictionary's): the set-back finds the extra ones (`device.settings_values`)."""
    rows, checked = section_checked(line, at)
    return len(checked) == 1 and all(_plain(r) for r in rows)


def _in_row(line: list[Node], at: int) -> str:
    """The role of a touch on `line[-1]`, inside the cell `line[at]`."""
    cell = line[at]
    row = _row_element(cell)
    if not all(_own(n, row) for n in line[at + 1:]):
        return ""  # a control of its own inside the row: judged by itself, by the set-back
    inside = [n for _, n in walk(cell)]
    if not all(_own(n, row) for n in inside):
        return SETTINGS_ACTS  # a network's, a device's More Info: the row joins or connects
    if any(_chevron(n) for n in inside):
        return SETTINGS_LINK
    if _option(line, at):
        return SETTINGS_OPTION
    if "Button" in _text(cell, "traits").replace(",", " ").split():
        return ""  # a row that acts, with no page to open: a button row
    return SETTINGS_SHOWN if _shows_value(cell) else ""


def _role(tree: object, node: Node) -> str:
    """What a touch on `node` is in Settings (`lasting`'s SETTINGS_* words; "" when it is none
    of them)."""
    line = ancestry(tree, node)
    if not line:
        return ""
    kinds = [_kind(n) for n in line]
    kind = kinds[-1]
    if "Keyboard" in kinds:
        return SETTINGS_KEYBOARD
    if "SearchField" in kinds:
        return SETTINGS_SEARCH  # the field, its clear and dictation buttons
    if kind == "Button" and _text(node, "label").strip().lower() in CANCELS:
        return SETTINGS_CANCEL
    if pages_back(tree, node):
        return SETTINGS_BACK  # an item of the back button's history menu: back to its page
    if "NavigationBar" in kinds:
        if kind == "Button" and _text(node, "name") == BACK_BUTTON:
            return SETTINGS_BACK
        return SETTINGS_SHOWN if kind in PASSIVE else ""
    cells = [i for i, k in enumerate(kinds) if k == "Cell"]
    if cells:
        return _in_row(line, cells[-1])
    return SETTINGS_SHOWN if kind in PASSIVE else ""


def settings_at(tree: object | None, target: Target | None,
                point: tuple[float, float] | None) -> str:
    """What a touch in Settings lands on, by its place in `tree` (the screen it was aimed on):
    one of `lasting`'s SETTINGS_* words, the same for every node the target may be; "" when
    the tree cannot place it, or it is none of them (the touch is then refused unless it
    changes a value the set-back knows).

    Args:
        tree: the page source known, decoded (None: none known).
        target: what the aiming resolved (None: nothing).
        point: where the touch lands, when it names a point.
    """
    if target is not None and target.keyboard:
        return SETTINGS_KEYBOARD
    if tree is None:
        return ""
    if target is None and point is None:
        # typing the aiming could not place (no field flagged with focus): the keys go to the
        # search field at most when it is the screen's only kind of text input
        inputs = {_kind(node) for node in text_inputs(tree)}
        return SETTINGS_SEARCH if inputs <= {"SearchField"} else ""
    roles = {_role(tree, node) for node in _candidates(tree, target, point)}
    return roles.pop() if len(roles) == 1 else ""
