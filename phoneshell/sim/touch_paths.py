"""Where a touch lands on a simulated screen: the hit path through the tree as iOS draws it,
the node on it that reacts to a tap, and the part of an element XCUITest touches it at by id.
Pure: reads nodes, never changes them."""

from __future__ import annotations

from collections.abc import Mapping

from phoneshell.sim.ui import Node, Rect, walk

_TRANSPARENT = frozenset({"Other", "Window", "Application", "StatusBar"})
"""Containers touches fall through (see hit_path)."""


Box = tuple[float, float, float, float]
"""A subtree's extent: left, top, right, bottom of the union of its frames."""


def hit_path(root: Node, x: float, y: float,
             boxes: Mapping[int, Box] | None = None) -> list[Node]:
    """The path from `root` to the topmost, deepest node (or list) that takes a touch at the
    point: by geometry, as UIKit hit-tests, not by what accessibility reports shown.

    Later siblings are drawn on top, so they are tried first. A list clips its children to the
    part of its frame its bars leave open (`Node.open_part`: iOS 26 lays a list under its glass
    bars, drawn over it), so neither a row scrolled under a navigation bar nor the list itself
    takes the bar's taps; and a cell clips to its own frame (a subtitle running past a Notes
    row opened the note below its frame). Within that open part an element takes a touch on
    any point of its frame, whether or not its own centre shows (`takes_touches`: a row whose
    middle is under the collapsed bar opens on a tap on the strip of it below the bar, as on a
    phone, though accessibility reports it visible="false", RT135-1). What a modal presentation
    covers takes none: the presentation's full-screen layer, drawn over it, ends the search
    (`_presents_over`). Plain containers (Other, Window) are never the target themselves:
    touches fall through them.
    Returns [] when nothing there takes the touch. `boxes` (`subtree_boxes(root)`), for many
    points on one screen, skips the subtrees the point lies outside of: nothing in them could
    take it (every node takes a touch only inside its own frame), so the answer is the same.
    """
    return _hit(root, x, y, (), boxes)


def subtree_boxes(root: Node) -> dict[int, Box]:
    """Each node's subtree extent (`Box`), by `id(node)`, for `hit_path`'s `boxes`."""
    boxes: dict[int, Box] = {}

    def visit(node: Node) -> Box:
        f = node.frame
        x0, y0, x1, y1 = float(f.x), float(f.y), float(f.x + f.width), float(f.y + f.height)
        for child in node.children:
            a, b, c, d = visit(child)
            x0, y0, x1, y1 = min(x0, a), min(y0, b), max(x1, c), max(y1, d)
        boxes[id(node)] = (x0, y0, x1, y1)
        return x0, y0, x1, y1

    visit(root)
    return boxes


def _hit(node: Node, x: float, y: float, parts: tuple[Rect, ...],
         boxes: Mapping[int, Box] | None) -> list[Node]:
    """`hit_path` below `node`, `parts` being the open parts of the vertical lists around it."""
    if boxes is not None:
        x0, y0, x1, y1 = boxes[id(node)]
        if not (x0 <= x <= x1 and y0 <= y <= y1):
            return []
    if (node.scroll is not None or node.type == "Cell") and not node.open_part.contains(x, y):
        return []  # a row's text that runs past its cell takes no touch there, as in UIKit
    inner = (*parts, node.open_part) if node.scroll is not None and \
        not node.scroll.horizontal else parts
    for child in reversed(node.children):
        below = _hit(child, x, y, inner, boxes)
        if below:
            return [node, *below]
        if _presents_over(node, child):
            break  # the presentation's layer takes every touch on what lies under it
    # A list takes a drag on its blank space whatever it tells accessibility: iOS 26 reports
    # Settings' root collection view visible="false" while it fills the screen.
    if takes_touches(node, parts) and node.open_part.contains(x, y):
        if not _passes_touches(node):
            return [node]
        board = _keyboard_of(node)
        if board is not None:
            # The keyboard's window takes every touch on the view holding the keys (the strip
            # between the globe and dictation too): it is the Keyboard's, as the bridge names
            # it (`bridge.touched.keyboard_areas`), never the app's beneath (RT136-3).
            return [node, board]
    return []


def _keyboard_of(node: Node) -> Node | None:
    """The visible Keyboard `node` holds as a child (the view `keyboard.keyboard` builds)."""
    return next((c for c in node.children if c.type == "Keyboard" and c.visible), None)


def takes_touches(node: Node, parts: tuple[Rect, ...]) -> bool:
    """Whether `node` takes touches on its frame, `parts` being the open parts of the vertical
    lists around it: a list always; anything else while it is visible, or while it is hidden
    only as a list hides what it clips, its own centre lying outside one of `parts` (the rule
    `covers.shown` and the apps' lists report `visible` by): a bar hides the middle of a row
    from accessibility, not the rest of it from the finger. Any other hidden element (a page
    not shown, an empty palette, the App Switcher's cards while it is away) takes none."""
    return node.visible or node.scroll is not None or clipped_only(node, parts)


def clipped_only(node: Node, parts: tuple[Rect, ...]) -> bool:
    """Whether `node` is hidden only as a list hides what it clips: reported not visible, its
    own centre outside one of `parts` (the open parts of the vertical lists around it). Such a
    node still shows, and takes touches, on the part of its frame inside all of them (a row
    whose middle is under the collapsed bar: RT135-1); `render` draws it there too."""
    x, y = node.frame.center
    return not node.visible and any(not part.contains(x, y) for part in parts)


def _presents_over(scope: Node, child: Node) -> bool:
    """Whether `child` of `scope` is, or holds, the modal presentation `modal_cover.presented`
    covers the rest of their window for (its own rule: a modal layer, an alert, sheet or popover
    not on such a layer, or what holds one outside another window): drawn over everything
    before it, its full-screen layer takes the touches there (a tap on the dimmed backdrop
    dismisses or does nothing), so a row it covers, however a bar clips it, takes none."""
    if child.type == "Window":
        return False
    return child.modal or (child.presents and not scope.modal) or child.holds_modal


def _passes_touches(node: Node) -> bool:
    # Plain containers are transparent to touches, as UIKit views without gesture recognisers
    # are; a dimming layer that must block them gives itself an on_tap.
    return node.type in _TRANSPARENT and node.on_tap is None


def activation_target(node: Node) -> Node:
    """The part of `node` that holds its accessibility activation point, where XCUITest touches
    an element named by id (its hit point); the node itself for most elements.

    iOS 26 shows a switch row as a labelled Switch the width of the row holding the unlabelled
    knob (the Motion dump: x=36 w=330 around x=305 w=63), and activates that element at the
    knob: `app.switches["Airplane Mode"].tap()` toggles it, while a touch at the row's centre
    lands on its label and does nothing. A Cell whose one accessibility element is such a switch
    (the row is the switch) is activated there too. `bridge.hits.activation` reads the same rule
    off a page source.
    """
    if node.type == "Switch":
        knobs = [c for c in node.children if c.type == "Switch"]
        return knobs[0] if len(knobs) == 1 else node
    if node.type == "Cell":
        inner = [n for n in walk(node) if n is not node and n.is_accessible]
        if len(inner) == 1 and inner[0].type == "Switch":
            return activation_target(inner[0])
    return node


def actionable(path: list[Node]) -> Node | None:
    """The nearest node on a hit path (deepest first) that reacts to a tap, if it is enabled."""
    for node in reversed(path):
        if (node.on_tap is not None or node.field is not None or node.on_adjust is not None
                or node.wheel is not None):
            return node if node.enabled else None
    return None
