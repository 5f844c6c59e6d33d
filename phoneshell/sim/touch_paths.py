"""Where a touch lands on a simulated screen: the hit path through the tree as iOS draws it,
the node on it that reacts to a tap, and the part of an element XCUITest touches it at by id.
Pure: reads nodes, never changes them."""

from __future__ import annotations

from phoneshell.sim.ui import Node, walk

_TRANSPARENT = frozenset({"Other", "Window", "Application", "StatusBar"})
"""Containers touches fall through (see hit_path)."""


def hit_path(root: Node, x: float, y: float) -> list[Node]:
    """The path from `root` to the topmost, deepest visible node (or list) containing the point.

    Later siblings are drawn on top, so they are tried first. A list clips its children to the
    part of its frame its bars leave open (`Node.open_part`: iOS 26 lays a list under its glass
    bars, drawn over it), so neither a row scrolled under a navigation bar nor the list itself
    takes the bar's taps; and a cell clips to its own frame (a subtitle running past a Notes
    row opened the note below its frame). Plain containers (Other, Window) are never the
    target themselves: touches fall through them.
    Returns [] when nothing visible is there.
    """
    if (root.scroll is not None or root.type == "Cell") and not root.open_part.contains(x, y):
        return []  # a row's text that runs past its cell takes no touch there, as in UIKit
    for child in reversed(root.children):
        below = hit_path(child, x, y)
        if below:
            return [root, *below]
    # A list takes a drag on its blank space whatever it tells accessibility: iOS 26 reports
    # Settings' root collection view visible="false" while it fills the screen.
    if ((root.visible or root.scroll is not None) and root.open_part.contains(x, y)
            and not _passes_touches(root)):
        return [root]
    return []


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
