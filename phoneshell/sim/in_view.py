"""Elements brought into view for a touch by id: where XCUITest touches one, and the list scrolled.

A touch on an element (by id, or by the element a scroll names) lands at its hit point
(`hit_point`: `phoneshell.hit_point`'s rule, the one the bridge logs such a touch by), once the
list holding it has scrolled it into view (`on_screen`, `scroll_into_view`). WDA's scroll by a
direction is no jump of a list but drags (`scroll_presses.scroll_by_drags`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from phoneshell.hit_point import hit_point as shared_hit_point
from phoneshell.sim.ui import Node, Rect

if TYPE_CHECKING:
    from phoneshell.sim.phone import Phone


def hit_point(phone: Phone, node: Node) -> tuple[int, int] | None:
    """Where XCUITest touches an element of the screen shown: `phoneshell.hit_point`'s rule,
    the middle of its frame cut to the screen and to every list's frame around it (lists clip
    their rows), the one the bridge logs such a touch by; None when no part of it shows. Bars
    drawn over a list (`Node.uncovered`) do not cut it, as they do not on a phone: a row half
    under the navigation bar may be touched on the bar, which takes the touch."""
    f = phone.facts
    lists = [_frame(h.frame) for h in _path_to(phone.screen().root, node)
             if h is not node and h.scroll is not None]
    point = shared_hit_point(_frame(node.frame), [(0, 0, f.width, f.height), *lists])
    return None if point is None else (int(point[0]), int(point[1]))


def _frame(rect: Rect) -> tuple[float, float, float, float]:
    return rect.x, rect.y, rect.width, rect.height


def on_screen(phone: Phone, node: Node) -> Node | None:
    """`node` as it shows once its list has scrolled it into view; None if it cannot show.

    A zero frame never shows (SpringBoard reports icons on other pages so); an invisible node
    shows if scrolling a list that holds it makes it visible.
    """
    if node.frame.width <= 0 or node.frame.height <= 0:
        return None
    if node.visible:
        return node
    screen = phone.screen()
    if node not in screen.nodes:
        return None
    # What scrolling may move, to put back when the element still does not show (a row
    # behind a modal, say): an element that cannot be touched changes nothing.
    scrolls = [(h.scroll, h.scroll.offset) for h in _path_to(screen.root, node)
               if h.scroll is not None]
    if not scroll_into_view(phone, node):
        return None
    key = screen.keys[screen.nodes.index(node)]
    # Scrolling re-renders: find the element again by its identity, with its new frame.
    shown = phone.screen().by_key.get(key)
    if shown is not None and shown.visible:
        return shown
    for scroll, offset in scrolls:
        scroll.offset = offset
    phone.changed()
    return None


def scroll_into_view(phone: Phone, target: Node) -> bool:
    """Scroll the list holding `target` so its centre is in the part of the list its bars
    leave uncovered (`Node.open_part`); False if none."""
    chain = _path_to(phone.screen().root, target)
    for node in reversed(chain[:-1]):
        scroll = node.scroll
        if scroll is None or scroll.horizontal:
            continue
        centre = target.frame.y + target.frame.height // 2
        view = node.open_part
        if not view.y <= centre < view.bottom:
            scroll.scroll_by(centre - (view.y + view.height // 2))
            phone.changed()
        return True
    return False


def _path_to(root: Node, target: Node) -> list[Node]:
    if root is target:
        return [root]
    for child in root.children:
        below = _path_to(child, target)
        if below:
            return [root, *below]
    return []
