"""What a touch at a point lands on, read off a WDA JSON page source as the phone hit-tests it.

Pure, as `targets.py` (which re-exports these): the element frames, the keyboard's area, and
`node_at`, the element a tap at (x, y) is logged at. UIKit hands a touch to the topmost view
there; a page source says what is accessible and where, not what lies on top, so the hit test
reads the screen's layers as iOS draws them (the simulator's own is
`phoneshell.sim.touch_paths.hit_path`): a scrolling list clips its rows to its frame, and a bar,
the keyboard, an alert or sheet, or a named panel drawn over content takes the touches inside
it, whatever lies under it.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Mapping

from bridge.frames import BARS as BARS
from bridge.frames import CLIPS as CLIPS
from bridge.frames import KEYBOARD_TYPE as KEYBOARD_TYPE
from bridge.frames import Rect as Rect
from bridge.frames import per_tree, shown_parts
from bridge.frames import rect_of as rect_of
from phoneshell.xcui import flag, short_type, walk

PLAIN = frozenset({"Other", "Window", "Application"})
"""Short types of the containers a touch falls through where they hold nothing there, unnamed
and not accessible (UIKit views with no gesture recogniser of their own; a window, as the
keyboard's full-screen one, passes touches off its keys to the app beneath)."""
LAYERS = frozenset({"Window", "Alert", "Sheet", "Popover"})
"""Short types that start a layer of their own: a bar does not cover what lies in a later one."""
MODALS = frozenset({"Alert", "Sheet", "Popover", "Menu"})
"""Short types of modal presentations: a full-screen layer under one (its dimmed backdrop, a
popover's "PopoverDismissRegion") takes every touch outside it."""
BOUNDED = frozenset({"Popover", "Sheet", "Alert"})
"""Short types of presented panels that show nothing outside their frame: a node of one whose
frame lies outside it is not where its frame says (the iOS 26 share sheet reports its remote
contents in the popover's own coordinates, from 0,0), so it names no touch."""
DISMISS_REGION = ("PopoverDismissRegion", "dismiss popup")
"""The name and label of UIKit's dimming view under a popover (the share-sheet dump)."""
CONTROLS = frozenset({"Button", "Cell", "Link", "Switch", "Slider", "TextField",
                      "SecureTextField", "SearchField", "TextView", "Key", "Keyboard",
                      "PickerWheel", "SegmentedControl", "Stepper", "Toggle", "MenuItem", "Icon",
                      "Table", "CollectionView"})
"""Short types that say a panel holds something to touch of its own."""


def _kind(node: Mapping[str, object]) -> str:
    return short_type(str(node.get("type") or ""))


def _holds(node: Mapping[str, object], x: float, y: float) -> bool:
    rect = rect_of(node.get("rect"))
    return rect is not None and rect.contains(x, y)


def ancestry(tree: object, node: Mapping[str, object]) -> list[Mapping[str, object]]:
    """The nodes from the root down to `node` (itself last); [] when it is not in `tree`."""
    stack: list[tuple[object, tuple[Mapping[str, object], ...]]] = [(tree, ())]
    while stack:
        item, above = stack.pop()
        if not isinstance(item, Mapping):
            continue
        line = (*above, item)
        if item is node:
            return list(line)
        children = item.get("children")
        if isinstance(children, list):
            stack.extend((child, line) for child in children)
    return []


@per_tree
def keyboard_areas(tree: object) -> list[Mapping[str, object]]:
    """The view holding each visible Keyboard and what iOS draws beside it: the outermost of
    the Keyboard's ancestors inside its window that starts below the screen's top.

    A real phone's keyboard window is full-screen (iOS 26 dumps, docs/simulator.md): in it an
    Other over the bottom of the screen holds the Keyboard (its keys, Emoji, the Return key),
    the predictions bar above it, and in an unnamed Other the globe ("Next keyboard") and
    "dictation" buttons below it; the "inputView" sits empty and hidden in another window. So
    neither a name nor the window's frame says where the keyboard is; the Keyboard's own
    ancestry does."""
    areas = []
    for _, node in walk(tree):
        if _kind(node) != KEYBOARD_TYPE or node.get("isVisible") == "0":
            continue
        line = ancestry(tree, node)
        windows = [i for i, n in enumerate(line) if _kind(n) == "Window"]
        inside = line[windows[-1] + 1:] if windows else line
        area = next((n for n in inside if (r := rect_of(n.get("rect"))) is not None and r.y > 0),
                    node)
        areas.append(area)
    return areas


def _on_area(area: Mapping[str, object], x: float, y: float) -> bool:
    parts = [area, *(n for _, n in walk(area) if _kind(n) in ("Button", "Key"))]
    return any(_holds(part, x, y) for part in parts)


def in_keyboard(tree: object, node: Mapping[str, object]) -> bool:
    """Whether `node` is part of the on-screen keyboard: a key, or anything inside the view
    that holds a Keyboard (`keyboard_areas`: the Return key, Emoji, the globe, dictation)."""
    if _kind(node) == "Key":
        return True
    areas = keyboard_areas(tree)
    return any(any(n is area for area in areas) for n in ancestry(tree, node))


def keyboard_at(tree: object, x: float, y: float) -> bool:
    """Whether (x, y) lies on a visible on-screen keyboard of `tree` (where a Button named by
    id sits, for a Return key tapped by id: its attributes do not say): inside the view that
    holds it (`keyboard_areas`), or on one of that view's buttons or keys, which may reach
    below its frame (dictation, on a phone, by a point)."""
    return any(_on_area(area, x, y) for area in keyboard_areas(tree))


_RECENT: deque[tuple[object, float, float, Mapping[str, object] | None]] = deque(maxlen=16)
"""`node_at`'s last answers, each with the tree it read, held so that no other tree takes its
id: the bridge asks where one touch lands several times over one read (aiming the action,
judging what it presses, a Settings control's rules), and each hit test walks the whole tree.
Trees are never changed once read."""


def node_at(tree: object, x: float, y: float) -> Mapping[str, object] | None:
    """The element at (x, y), hit-tested as the phone does: what lies there (`_under`), unless
    something drawn over it takes the touch there (`_coverers`: a bar, the keyboard, an alert or
    sheet, a named panel); then the coverer's own accessible element at the point, else the
    coverer itself (a touch on a navigation bar's blank space is the bar's, not the row's under
    it; a touch between two keys is the keyboard's)."""
    for known, at_x, at_y, answer in tuple(_RECENT):
        if known is tree and at_x == x and at_y == y:
            return answer
    answer = _hit_test(tree, x, y)
    _RECENT.append((tree, x, y, answer))
    return answer


def _hit_test(tree: object, x: float, y: float) -> Mapping[str, object] | None:
    skip = untrusted(tree)
    found = _under(tree, x, y, skip)
    if found is None:
        return None
    covers = _coverers(tree, found, x, y, skip)
    if not covers:
        return _keyboard_under(tree, found, x, y) or found
    cover = covers[-1]
    return (_topmost(cover, x, y, spoken=True, skip=skip, boxes=_boxes(tree))
            or _own_keyboard(cover) or cover)


def untrusted(tree: object) -> frozenset[int]:
    """The ids of the nodes whose frames cannot be trusted: inside a presented panel (`BOUNDED`)
    but lying outside its frame (by more than a point), with all below them. The iOS 26 share
    sheet dump puts its popover at (9, 477) and everything in its remote container at 0,0: a
    touch on the dismiss region at (60, 300) would be named as the Copy cell. They name no
    touch: one on the panel is the panel's (or the innermost trusted view's), one off it what
    lies there (the dismiss region). What such a touch presses cannot be told, so the bridge
    refuses it (`unplaced_panels`, `bridge.remote_panels`)."""
    return _placing(tree)[0]


def unplaced_panels(tree: object) -> list[Mapping[str, object]]:
    """The visible presented panels (`BOUNDED`) whose contents cannot be placed on screen: a
    visible node inside lies outside the panel's frame (`untrusted`: another process draws
    them, and WDA reports their frames in its own coordinates, the iOS 26 share sheet's from
    0,0 while its popover lies at 9,477). A hidden node outside (the popover's shadow image)
    is no sign: what shows is drawn inside the panel. In document order."""
    return [panel for panel in _placing(tree)[1] if panel.get("isVisible") != "0"]


@per_tree
def _placing(tree: object) -> tuple[frozenset[int], list[Mapping[str, object]]]:
    """`untrusted`'s ids, and the panels a visible one of them lies in (`unplaced_panels`)."""
    found: set[int] = set()
    panels: dict[int, Mapping[str, object]] = {}
    stack: list[tuple[object, Mapping[str, object] | None, bool]] = [(tree, None, False)]
    order: dict[int, int] = {}  # each panel's place in document order (the stack visits so)
    while stack:
        node, panel, out = stack.pop()
        if not isinstance(node, Mapping):
            continue
        rect = rect_of(node.get("rect"))
        bound = rect_of(panel.get("rect")) if panel is not None else None
        out = out or (bound is not None and rect is not None and rect.width > 0
                      and rect.height > 0 and not _inside(rect, bound))
        if out:
            found.add(id(node))
            if panel is not None and node.get("isVisible") != "0":
                panels.setdefault(id(panel), panel)
        if _kind(node) in BOUNDED and rect is not None and not out:
            panel = node
            order[id(node)] = len(order)
        children = node.get("children")
        if isinstance(children, list):
            stack.extend((child, panel, out) for child in reversed(children))
    return frozenset(found), sorted(panels.values(), key=lambda n: order[id(n)])


def _inside(rect: Rect, bound: Rect, slack: float = 1.0) -> bool:
    return (rect.x >= bound.x - slack and rect.y >= bound.y - slack
            and rect.x + rect.width <= bound.x + bound.width + slack
            and rect.y + rect.height <= bound.y + bound.height + slack)


def _under(tree: object, x: float, y: float,
           skip: frozenset[int] = frozenset()) -> Mapping[str, object] | None:
    """The topmost deepest *accessible* node that takes a touch at the point (`_topmost`), else,
    when none does, the row (Cell) there, else the topmost deepest node that does (later
    siblings lie on top; a list's rows count only inside its frame).

    Accessible first because that is what VoiceOver's hit-test names: real iOS trees lay unnamed
    views over whole cells and screens (the General > About and Settings dumps), so the deepest
    node under a finger is often an empty `Other` while the cell under it is what was touched.
    Children are otherwise searched even when a parent's frame misses the point, because real
    sources have containers (zero-size groups) whose frames do not bound their children.
    """
    shown, boxes = shown_parts(tree), _boxes(tree)
    spoken = _topmost(tree, x, y, spoken=True, skip=skip, shown=shown, boxes=boxes)
    if spoken is not None and _kind(spoken) == "Icon":
        # An edit-mode icon's remove badge (DeleteButton) lies inside the icon, so WDA reports it
        # accessible="false" (no element below an accessible one is: isWDAccessible), yet UIKit
        # hit-tests views and the badge takes the touch.
        badge = _topmost(spoken, x, y, spoken=False, boxes=boxes)
        if badge is not None and _kind(badge) == "Button":
            return badge
    if spoken is not None:
        return spoken
    # No accessible element under the finger. iOS 26 reports a list's cells as containers
    # (accessible="false", their texts inside unspoken: the Settings dumps), and UIKit hands a
    # touch on a row's text to the row: the row is what was touched, named by its cell.
    row = _topmost(tree, x, y, spoken=False, kind="Cell", skip=skip, shown=shown, boxes=boxes)
    return row or _topmost(tree, x, y, spoken=False, skip=skip, shown=shown, boxes=boxes)


def _topmost(node: object, x: float, y: float, spoken: bool, kind: str = "",
             skip: frozenset[int] = frozenset(), shown: Mapping[int, Rect] | None = None,
             parts: tuple[Rect | None, ...] = (),
             boxes: Mapping[int, Box] | None = None) -> Mapping[str, object] | None:
    """The last-drawn deepest node containing (x, y) that takes a touch there (only accessible
    ones: `spoken`; only of type `kind`, when given), not looking into a list whose frame misses
    the point, nor into a subtree whose frames cannot be trusted (`skip`: `untrusted`).

    A node takes a touch by geometry, as UIKit hit-tests (`takes_touch`): `shown` (from
    `frames.shown_parts`, of the whole tree) and `parts` (what shows of each list above the
    node) say where its lists show it. `boxes` (`_boxes`, of the whole tree) only saves work: a
    subtree none of whose frames holds the point has no node to answer."""
    if not isinstance(node, Mapping) or id(node) in skip:
        return None
    if boxes is not None and not _in_box(boxes.get(id(node)), x, y):
        return None
    rect = rect_of(node.get("rect"))
    if (_kind(node) in CLIPS and rect is not None and rect.width > 0 and rect.height > 0
            and not rect.contains(x, y)):
        return None
    children = node.get("children")
    if isinstance(children, list):
        inner = (*parts, (shown or {}).get(id(node))) if _kind(node) in CLIPS else parts
        for child in reversed(children):
            hit = _topmost(child, x, y, spoken, kind, skip, shown, inner, boxes)
            if hit is not None:
                return hit
    if (rect is None or not rect.contains(x, y) or not takes_touch(node, rect, parts, x, y)
            or (spoken and not flag(node, "isAccessible"))
            or (kind and _kind(node) != kind)):
        return None
    return node


Box = tuple[float, float, float, float]


def _in_box(box: Box | None, x: float, y: float) -> bool:
    return box is not None and box[0] <= x < box[2] and box[1] <= y < box[3]


@per_tree
def _boxes(tree: object) -> dict[int, Box]:
    """For each node of `tree` (by id), the smallest box holding every frame at or below it
    (left, top, right, bottom; right and bottom not in it, as `Rect.contains`); none for a
    subtree without a frame. A hit test looks into a subtree only where its box holds the
    point: children may lie outside their parent's frame, never outside its box."""
    boxes: dict[int, Box] = {}
    for item in reversed(_document(tree)[2]):  # every child before its parent
        rect = rect_of(item.get("rect"))
        box: Box | None = None if rect is None else (
            rect.x, rect.y, rect.x + rect.width, rect.y + rect.height)
        if box is not None and any(math.isnan(edge) for edge in box):
            box = None  # a frame holding no point (NaN, as a view's can be): no bound either
        children = item.get("children")
        for child in children if isinstance(children, list) else ():
            inner = boxes.get(id(child))
            if inner is not None:
                box = inner if box is None else (min(box[0], inner[0]), min(box[1], inner[1]),
                                                  max(box[2], inner[2]), max(box[3], inner[3]))
        if box is not None:
            boxes[id(item)] = box
    return boxes


def takes_touch(node: Mapping[str, object], rect: Rect, parts: tuple[Rect | None, ...],
                x: float, y: float) -> bool:
    """Whether `node` (its frame `rect`, holding (x, y)) takes a touch there, `parts` being what
    shows of each list around it (`frames.shown_parts`; None: nothing of that list does): while
    it is visible; and, hidden, while a list hides it only as it hides what it clips, its own
    centre lying outside what shows of one of them, and the point inside what shows of every
    one (the rule the simulator hit-tests by, `phoneshell.sim.touch_paths.takes_touches`): a
    phone reports a row whose middle is under the collapsed navigation bar visible="false",
    yet the strip of it below the bar takes the finger (RT135-1). Any other hidden node (what a
    modal presentation covers, whose bars are hidden with it; a page not shown) takes none."""
    if node.get("isVisible") != "0":
        return True
    cx, cy = rect.centre
    return bool(parts) and all(p is not None and p.contains(x, y) for p in parts) \
        and any(not p.contains(cx, cy) for p in parts if p is not None)


def _own_keyboard(area: Mapping[str, object]) -> Mapping[str, object] | None:
    return next((n for _, n in walk(area) if _kind(n) == KEYBOARD_TYPE), None)


def _coverers(tree: object, found: Mapping[str, object], x: float, y: float,
              skip: frozenset[int] = frozenset()) -> list[Mapping[str, object]]:
    """What takes a touch at (x, y) from `found` (a node of `tree`), bottom first: a visible
    alert anywhere (its dimmed backdrop takes the screen's), the keyboard's area the point lies
    on, and, drawn after `found` where the point lies, a sheet, a modal's full-screen layer
    (`_dismisses`), a panel (`_panel`) or a page presented over it, and a bar drawn after it or
    over the list it scrolls in. Nothing `found` lies in covers it, nor anything inside it, nor
    a node whose frame cannot be trusted (`skip`); plain unnamed containers never do (real dumps
    lay empty full-screen views over everything, and the keyboard's window is full-screen)."""
    order, lines, _ = _document(tree)
    if id(found) not in order:
        return []
    above = lines[id(found)]
    inside = {id(n) for n in above} | {id(found)}
    areas = {id(a) for a in keyboard_areas(tree)}
    screen = rect_of(tree.get("rect")) if isinstance(tree, Mapping) else None
    covers: list[tuple[int, int, Mapping[str, object]]] = []
    for node, alert, area, layer, bar in _could_cover(tree):
        if id(node) in inside or id(node) in skip or _within(lines, node, found):
            continue
        later = order[id(node)] > order[id(found)]
        if alert:
            covers.append((2, order[id(node)], node))
        elif area and _on_area(node, x, y):
            covers.append((1, order[id(node)], node))
        elif not _holds(node, x, y):
            continue
        elif (later and layer) or (bar and (later or _bar_over(lines, above, found, node, screen,
                                                              areas))):
            covers.append((0, order[id(node)], node))
    return [node for *_, node in sorted(covers, key=lambda c: (c[0], c[1]))]


@per_tree
def _could_cover(tree: object) -> list[tuple[Mapping[str, object], bool, bool, bool, bool]]:
    """The visible nodes of `tree` that may take a touch from what lies under them
    (`_coverers`), in document order, each with what it is: an alert, a keyboard's area, a
    layer presented over what was drawn before it (a sheet, or an Other that is a panel, a
    presented page or a modal's full-screen layer), a bar. What each is does not depend on the
    touch, only on the tree, so a hit test of many points reads it once."""
    _, lines, nodes = _document(tree)
    areas = {id(a) for a in keyboard_areas(tree)}
    screen = rect_of(tree.get("rect")) if isinstance(tree, Mapping) else None
    found = []
    for node in nodes:
        if node.get("isVisible") == "0":
            continue
        kind = _kind(node)
        alert, area = kind == "Alert", id(node) in areas
        layer = kind == "Sheet" or kind == "Other" and (
            _panel(node, screen) or _presented(node, screen) or _dismisses(node, screen, areas))
        bar = _is_bar(node, lines)
        if alert or area or layer or bar:
            found.append((node, alert, area, layer, bar))
    return found


Lines = dict[int, tuple[Mapping[str, object], ...]]


@per_tree
def _document(tree: object) -> tuple[dict[int, int], Lines, list[Mapping[str, object]]]:
    """Each node of `tree`'s place in document order and the line of nodes above it, by id,
    and the nodes in that order."""
    order: dict[int, int] = {}
    lines: Lines = {}
    nodes: list[Mapping[str, object]] = []
    stack: list[tuple[object, tuple[Mapping[str, object], ...]]] = [(tree, ())]
    while stack:
        item, above = stack.pop()
        if not isinstance(item, Mapping):
            continue
        order[id(item)] = len(order)
        lines[id(item)] = above
        nodes.append(item)
        children = item.get("children")
        if isinstance(children, list):
            stack.extend((child, (*above, item)) for child in reversed(children))
    return order, lines, nodes


def _within(lines: Mapping[int, tuple[Mapping[str, object], ...]], node: Mapping[str, object],
            found: Mapping[str, object]) -> bool:
    return any(n is found for n in lines[id(node)])


def _panel(node: Mapping[str, object], screen: Rect | None) -> bool:
    """Whether an Other is a panel drawn over content: named, not the whole screen (Safari's
    full-screen "CapsuleViewController" holds its bars and lets the page take other touches),
    and holding something to touch of its own (`CONTROLS`). A name alone is no sign: iOS 26
    names its scroll indicators ("Vertical scroll bar, 2 pages", visible over a list's right
    edge in the Settings dump), section headers and captions, and a phone hands a touch on
    them to the row beneath."""
    if not (node.get("name") or node.get("label")) or rect_of(node.get("rect")) == screen:
        return False
    if "Adjustable" in str(node.get("traits") or "") or "Header" in str(node.get("traits") or ""):
        return False  # a scroll indicator, a section header
    return any(_kind(inner) in CONTROLS for _, inner in walk(node) if inner is not node)


def _dismisses(node: Mapping[str, object], screen: Rect | None,
               areas: set[int]) -> bool:
    """Whether an Other is the full-screen layer of a modal presentation, which takes every
    touch outside the presented panel (a tap there closes a popover, menu or sheet, or does
    nothing), known by a positive sign only: UIKit's dimming view ("PopoverDismissRegion",
    "dismiss popup"), or a full-screen view whose one chain of views leads to, or whose
    children include, an alert, sheet, popover or context menu (`_modal`). Never guessed from
    a shape: an app's content view below its navigation bar has a page sheet's frame. Not the
    keyboard's window, nor a bar."""
    if screen is None or rect_of(node.get("rect")) != screen:
        return False
    if node.get("name") == DISMISS_REGION[0] or node.get("label") == DISMISS_REGION[1]:
        return True
    inner: Mapping[str, object] = node
    while len(kids := _children(inner)) == 1:
        inner = kids[0]
        if id(inner) in areas or _kind(inner) == KEYBOARD_TYPE:
            return False
        if _modal(inner):
            return True
    return any(_modal(kid) for kid in kids)


def _modal(node: Mapping[str, object]) -> bool:
    """Whether a node is a modal presentation (`MODALS`). A Menu of MenuItems is iOS's edit
    menu (Select, Copy, Paste over text): it has no backdrop, and a tap beside it reaches the
    bar or text beneath, so it is not one; a context menu (Buttons over a dimmed screen) is."""
    kind = _kind(node)
    if kind == "Menu":
        return not any(_kind(n) == "MenuItem" for _, n in walk(node) if n is not node)
    return kind in MODALS


def _children(node: Mapping[str, object]) -> list[Mapping[str, object]]:
    kids = node.get("children")
    return [c for c in kids if isinstance(c, Mapping)] if isinstance(kids, list) else []


def _presented(node: Mapping[str, object], screen: Rect | None) -> bool:
    """Whether an Other is a page presented over content: not the whole screen, and holding a
    navigation bar of its own (the New Reminder and Add Alarm sheets: unnamed Others in the
    tree). Its blank parts take the touch, not the list under it (two red teams' taps on a
    sheet's blank area were logged as the tab bar and rows beneath)."""
    if rect_of(node.get("rect")) == screen:
        return False
    return any(_kind(inner) == "NavigationBar" for _, inner in walk(node) if inner is not node)


def _is_bar(node: Mapping[str, object],
            lines: Mapping[int, tuple[Mapping[str, object], ...]]) -> bool:
    """Whether a node is a bar (`BARS`), or a search field that lies in no list (one in a
    list's header scrolls with its rows, under the bars as they do)."""
    kind = _kind(node)
    return kind in BARS or (kind == "SearchField"
                            and not any(_kind(n) in CLIPS for n in lines[id(node)]))


def _plain(node: Mapping[str, object]) -> bool:
    """Whether a node is a plain container (`PLAIN`): unnamed, unlabelled, not accessible."""
    return (_kind(node) in PLAIN and not (node.get("name") or node.get("label"))
            and not flag(node, "isAccessible"))


def _bar_over(lines: Mapping[int, tuple[Mapping[str, object], ...]],
              above: tuple[Mapping[str, object], ...], found: Mapping[str, object],
              bar: Mapping[str, object], screen: Rect | None, areas: set[int]) -> bool:
    """Whether a bar listed before `found` (`above`: its ancestors) is drawn over it: whatever
    the source's order, a bar lies over the content of its screen (the rows of a list that
    scrolls under it, the full-screen views that hold the list), unless `found` is in a layer
    of its own drawn over the bar's: between their nearest common ancestor and `found` lies a
    window (not for a plain container, which lets the touch through to the bar), an alert,
    sheet, popover or menu, a page presented over the bar's, a modal's full-screen layer, a
    named panel, or the keyboard; or `found` is itself a bar or in one (of two bars, the later
    drawn is on top)."""
    bar_line = {id(n) for n in lines[id(bar)]}
    common = max((i for i, n in enumerate(above) if id(n) in bar_line), default=-1)
    plain = _plain(found)
    for node in (*above[common + 1:], found):
        kind = _kind(node)
        if (_is_bar(node, lines) or id(node) in areas or kind in (KEYBOARD_TYPE, "Key", "Menu")
                or (kind in LAYERS and not (kind == "Window" and plain))
                or (kind == "Other" and (_panel(node, screen) or _presented(node, screen)
                                         or _dismisses(node, screen, areas)))):
            return False
    return True


def _keyboard_under(tree: object, found: Mapping[str, object], x: float,
                    y: float) -> Mapping[str, object] | None:
    """The Keyboard a touch at (x, y) lands on when what lies there is a plain container in
    the keyboard's area (`keyboard_areas`: the views UIKit wraps the keys in): a point between
    two keys is the keyboard's; None otherwise."""
    if not _plain(found):
        return None
    for area in keyboard_areas(tree):
        if any(n is area for n in ancestry(tree, found)):
            board = _own_keyboard(area)
            if board is not None and _holds(board, x, y):
                return board
    return None
