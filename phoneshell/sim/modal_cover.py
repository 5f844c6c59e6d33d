"""What a modal presentation covers on a simulated screen: everything else in its window is
reported not visible (so not hittable), as UIKit's `accessibilityViewIsModal` makes a real
phone report it. One rule for every screen, applied by `Screen.of`; pure, builds nodes."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from phoneshell.sim.ui import Node


def presented(root: Node) -> Node:
    """`root` as WDA reports it while a modal presentation shows: in each window (the root's
    own, for one outside any window) everything but the topmost modal, what holds it and what it
    holds is not visible, as UIKit's `accessibilityViewIsModal` on a presented view makes a real
    phone report it (the share-sheet dump: Safari's window, bars and buttons behind the popover
    all visible="false"), so hittable="false" too. Other windows (the keyboard's, SpringBoard's
    status bar's, a banner's) are not covered. A modal inside the modal (a confirmation over a
    page sheet) covers the rest of that modal the same way. Web content keeps its own
    visibility, as WebKit reports it (`_cover`)."""
    if not root.holds_modal:
        return root
    kids = tuple(presented(c) if c.type == "Window" else c for c in root.children)
    return _present(replace(root, children=kids) if kids != root.children else root)


def _present(scope: Node) -> Node:
    path = _modal_path(scope)
    if not path:
        return scope
    return _covering(scope, path)


def _modal_path(scope: Node) -> list[Node]:
    """The path below `scope` to the last-drawn outermost modal (none inside another window).
    An alert, sheet or popover on a modal layer of its own is that layer's panel, not a modal
    inside it."""
    for child in reversed(scope.children):
        if child.modal or (child.presents and not scope.modal):
            return [child]
        if child.holds_modal and child.type != "Window":
            below = _modal_path(child)
            if below:
                return [child, *below]
    return []


def _covering(node: Node, path: list[Node]) -> Node:
    step, rest = path[0], path[1:]
    kids = tuple((_covering(c, rest) if rest else _present(c)) if c is step else _cover(c, node)
                 for c in node.children)
    return replace(node, children=kids)


def _cover(node: Node, parent: Node) -> Node:
    """`node` covered by a modal: not visible, still drawn where it was visible. The content
    of a web view inside a web view is WebKit's, which reports its own visibility (the real
    share-sheet dump: the page's texts and buttons visible="true" under hidden WebViews)."""
    if parent.type == "WebView" and node.type == "WebView":
        return replace(node, visible=False, covered=node.visible)
    if not node.visible and not node.children:
        return node
    return replace(node, visible=False, covered=node.visible,
                   children=tuple(_cover(c, node) for c in node.children))
