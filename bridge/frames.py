"""Element frames in a WDA JSON page source, and the part of each scrolling list that shows.

Pure, as `touched.py` (which re-exports these and hit-tests by them): reads the decoded
`GET /source?format=json` tree, never the phone. iOS 26 lays a list under its glass bars (all
three real Settings dumps frame the list 0,0,402,874, the navigation bar and toolbar drawn over
it), so what of a list shows is its frame on the screen less the bars drawn over its top and
bottom, as the harness reads it (`phoneshell.device.screen_part.shown_part`, the same rule).
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TypeVar

from phoneshell.xcui import short_type

KEYBOARD_TYPE = "Keyboard"
BARS = frozenset({"NavigationBar", "TabBar", "Toolbar"})
"""Short types of the bars iOS draws over the content of their screen, whatever the source's
order (real dumps list a navigation bar before the table that scrolls under it, and before the
full-screen views that hold the table); a search field outside any list is one too (the
harness's `phoneshell.device.screen_part.COVERS`, the same set with the keyboard)."""
CLIPS = frozenset({"Table", "CollectionView", "ScrollView"})
"""Short types of the scrolling lists that clip their rows to their own frame: a row scrolled
under a navigation bar shows (and takes touches) only inside its list."""


T = TypeVar("T")

TREES_KEPT = 8
"""How many trees each `per_tree` reading remembers its answer for."""


def per_tree(read: Callable[[object], T]) -> Callable[[object], T]:
    """`read(tree)` worked out once for each of the last `TREES_KEPT` trees it was asked of,
    by identity (a tree held here keeps its nodes' ids; a decoded source is never changed): a
    tap is hit-tested against the one source several times (`touched.node_at`, the bars that
    cover it, the panels it cannot place), and every reading walks the whole tree. What it
    answers is shared: callers only read it."""
    recent: deque[tuple[object, T]] = deque(maxlen=TREES_KEPT)

    @functools.wraps(read)
    def once(tree: object) -> T:
        for known, answer in tuple(recent):
            if known is tree:
                return answer
        answer = read(tree)
        recent.append((tree, answer))
        return answer
    return once


@dataclass(frozen=True)
class Rect:
    """An element frame in points."""

    x: float
    y: float
    width: float
    height: float

    def contains(self, x: float, y: float) -> bool:
        """Whether (x, y) lies inside (left and top edges included, right and bottom not)."""
        return self.x <= x < self.x + self.width and self.y <= y < self.y + self.height

    def intersects(self, other: Rect) -> bool:
        """Whether the two frames share any area (edges that only touch do not)."""
        return (self.x < other.x + other.width and other.x < self.x + self.width
                and self.y < other.y + other.height and other.y < self.y + self.height)

    @property
    def centre(self) -> tuple[float, float]:
        """The centre as facebook-wda computes it (integer halves, as `Rect.center`)."""
        return self.x + self.width // 2, self.y + self.height // 2


_READ: dict[int, tuple[object, Rect | None]] = {}
"""Rect objects read lately, by id, each with the object itself (so the id stays its own): a
hit test reads every node's frame, and a tree is hit-tested many times."""
READ_MOST = 50_000


def rect_of(value: object) -> Rect | None:
    """Read a rect object ({"x", "y", "width", "height"}); None when it is not one."""
    if not isinstance(value, Mapping):
        return None
    known = _READ.get(id(value))
    if known is not None and known[0] is value:
        return known[1]
    parts = [value.get(k) for k in ("x", "y", "width", "height")]
    rect = None
    if all(isinstance(p, (int, float)) and not isinstance(p, bool) for p in parts):
        x, y, w, h = (float(p) for p in parts)  # type: ignore[arg-type]
        rect = Rect(x, y, w, h)
    if len(_READ) >= READ_MOST:
        _READ.clear()
    _READ[id(value)] = (value, rect)
    return rect


def _kind(node: Mapping[str, object]) -> str:
    return short_type(str(node.get("type") or ""))


def _lined(tree: object) -> list[tuple[Mapping[str, object], tuple[Mapping[str, object], ...]]]:
    """Every node of `tree` in document order, with the line of nodes above it."""
    found: list[tuple[Mapping[str, object], tuple[Mapping[str, object], ...]]] = []
    stack: list[tuple[object, tuple[Mapping[str, object], ...]]] = [(tree, ())]
    while stack:
        item, above = stack.pop()
        if not isinstance(item, Mapping):
            continue
        found.append((item, above))
        children = item.get("children")
        if isinstance(children, list):
            stack.extend((child, (*above, item)) for child in reversed(children))
    return found


def _below(lined: list[tuple[Mapping[str, object], tuple[Mapping[str, object], ...]]], at: int,
           depth: int) -> list[tuple[Mapping[str, object], tuple[Mapping[str, object], ...]]]:
    """What `_lined` lists below its node `at` (of `depth` nodes above it): the nodes after it
    in document order up to the next one no deeper than it."""
    end = at + 1
    while end < len(lined) and len(lined[end][1]) > depth:
        end += 1
    return lined[at + 1:end]


@per_tree
def shown_parts(tree: object) -> dict[int, Rect]:
    """What of each scrolling list (`CLIPS`) of `tree` shows, by the list's id: its frame on the
    screen (the root's frame) less what is drawn over its top or bottom (a visible bar, the
    keyboard, or a search field in no list, lying outside the list and overlapping it: one
    whose middle is above the list's middle covers its top, else its bottom). A list none of
    it shows of is left out. Bars hidden by a modal presentation cover nothing: what they
    would cover is covered by the presentation."""
    lined = _lined(tree)
    screen = rect_of(tree.get("rect")) if isinstance(tree, Mapping) else None
    covers = [(frame, node) for node, above in lined
              if node.get("isVisible") != "0" and (frame := rect_of(node.get("rect"))) is not None
              and (_kind(node) in BARS or _kind(node) == KEYBOARD_TYPE
                   or (_kind(node) == "SearchField" and not any(_kind(n) in CLIPS
                                                                for n in above)))]
    parts: dict[int, Rect] = {}
    for at, (node, line) in enumerate(lined):
        frame = rect_of(node.get("rect"))
        if _kind(node) not in CLIPS or frame is None:
            continue
        left, top = frame.x, frame.y
        right, bottom = frame.x + frame.width, frame.y + frame.height
        if screen is not None and screen.width > 0 and screen.height > 0:
            left, top = max(left, screen.x), max(top, screen.y)
            right = min(right, screen.x + screen.width)
            bottom = min(bottom, screen.y + screen.height)
        middle = (top + bottom) / 2
        held = {id(n) for n, _ in _below(lined, at, len(line))}
        for cover, over in covers:
            if (id(over) in held or cover.x >= right
                    or cover.x + cover.width <= left or cover.y >= bottom
                    or cover.y + cover.height <= top):
                continue
            if cover.y + cover.height / 2 < middle:
                top = max(top, cover.y + cover.height)
            else:
                bottom = min(bottom, cover.y)
        if right > left and bottom > top:
            parts[id(node)] = Rect(left, top, right - left, bottom - top)
    return parts

