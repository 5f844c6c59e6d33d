"""What each element of a composed screen shows of itself: `visible` and `hittable` decided per
element, by the rule the touches follow. Never changes what a screen holds or where.

* `visible`: an element shows while its own centre lies in the open part of every list around
  it (`Node.open_part`: a list clips its rows to the part its bars leave, the bars drawn over
  the rest). Each element of a cell is decided on its own, as a real dump marks each element of
  a covered cell (RT130-3): a tall card's text under the tab bar is hidden, a row's second line
  below the navigation bar shows while its title under the bar is hidden. The keyboard, in a
  window of its own, hides nothing from accessibility (WDA's visible frame is clipped by the
  element's own ancestors): what lies under it stays visible, and a tap by id on it presses the
  key (openradar 23166381).
* `hittable`: XCTest's `isHittable`, a hit test at the element's hit point: a touch there
  (`in_view`'s rule, at the part holding its activation point) reaches it or something inside
  it (`touch_paths.hit_path`, the simulator's own hit test), so an element under the keyboard or
  a bar is not hittable (RT131-1: a row under the keyboard read hittable, and a tap by id on it
  typed a key). A hit test per element is most of what composing a screen would cost, and
  `/source` never reports it: `hits` works it out for a screen when a client first asks for an
  element's `hittable` (an attribute, a predicate, an xpath naming it), once per screen.
"""

from __future__ import annotations

from dataclasses import replace

from phoneshell.hit_point import hit_point
from phoneshell.sim.touch_paths import Box, activation_target, hit_path, subtree_boxes
from phoneshell.sim.ui import Node, Rect

Frame = tuple[float, float, float, float]


def shown(root: Node) -> Node:
    """`root` with every element's `visible` decided on its own (see above)."""
    return _seen(root, ())


def hits(root: Node) -> frozenset[int]:
    """The ids of the elements of the screen `root` that a touch at their hit point reaches:
    the hittable ones, where also visible and enabled (see above)."""
    found: set[int] = set()
    _hit(root, root, [_frame(root.frame)], found, subtree_boxes(root))
    return frozenset(found)


def _seen(node: Node, parts: tuple[Rect, ...]) -> Node:
    """`node`'s subtree with each element hidden whose own centre no list around it shows."""
    x, y = node.frame.center
    visible = node.visible and all(p.contains(x, y) for p in parts)
    if node.scroll is not None and not node.scroll.horizontal:
        parts = (*parts, node.open_part)
    children = tuple(_seen(c, parts) for c in node.children)
    same = all(a is b for a, b in zip(children, node.children, strict=True))
    if visible == node.visible and same:
        return node
    return replace(node, visible=visible, children=children)


def _hit(root: Node, node: Node, bounds: list[Frame], found: set[int],
         boxes: dict[int, Box]) -> None:
    """Note in `found` the id of every element from `node` down that a touch at its hit point
    reaches (`bounds`: the screen and the frames of the lists around it, which clip it; `boxes`:
    the screen's subtree extents, so each hit test walks only what lies under its point)."""
    if node.visible and node.enabled:
        point = hit_point(_frame(activation_target(node).frame), bounds)
        if point is not None and any(n is node for n in hit_path(root, *point, boxes)):
            found.add(id(node))
    inner = [*bounds, _frame(node.frame)] if node.scroll is not None else bounds
    for child in node.children:
        _hit(root, child, inner, found, boxes)


def _frame(rect: Rect) -> Frame:
    return rect.x, rect.y, rect.width, rect.height
