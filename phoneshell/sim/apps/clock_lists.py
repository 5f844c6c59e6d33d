"""Clock's deletable lists (World Clock, Alarms): rows that show Delete after a left swipe or in
Edit mode, and go at once on a full swipe, as UIKit table rows do.

Rows are tall plain cells across the whole width. A left swipe on a row (at least 30 points)
slides a red "Delete" button in from the right and the row's content over; tapping Delete
removes the row, tapping the row again (or swiping right) puts the button away. A swipe longer
than 55% of the row's width deletes the row straight away (iOS's full swipe). In Edit mode each
row gets a "Delete <row label>" button on its left that reveals the same Delete button. The
list's state (scroll, Edit mode, which row shows Delete) is per launch; the rows come from the
app's store through the caller.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from phoneshell.sim import layout
from phoneshell.sim.apps import Drag
from phoneshell.sim.layout import large_title_shown
from phoneshell.sim.lists import quiet, spans
from phoneshell.sim.ui import Handler, Node, Rect, Scroll, hidden

ROW_HEIGHT = 96
FULL_SWIPE = 0.55
"""A left swipe longer than this share of the row's width deletes without asking."""
REVEAL_TRAVEL = 30
"""Shorter horizontal drags on a row do nothing."""
DELETE_WIDTH = 90
EDIT_INSET = 44


@dataclass
class ListState:
    """Scroll offset, Edit mode and the row showing its Delete button (by key)."""

    scroll: Scroll = field(default_factory=Scroll)
    editing: bool = False
    revealed: str | None = None

    def toggle_editing(self) -> None:
        """The Edit / Done button."""
        self.editing = not self.editing
        self.revealed = None


@dataclass(frozen=True)
class ListRow:
    """One row: a stable key, the cell's label, how to draw its content, what deleting does."""

    key: str
    label: str
    content: Callable[[Rect], Sequence[Node]]
    """Children of the cell inside the given frame (shifted while Delete shows)."""
    on_delete: Handler
    on_tap: Handler | None = None


@dataclass(frozen=True)
class Placed:
    """A row with its frame on screen and whether its centre is inside the list's frame."""

    row: ListRow
    frame: Rect
    shown: bool


def place(state: ListState, viewport: Rect, rows: Sequence[ListRow]) -> list[Placed]:
    """Where each row is, scrolled by the list's offset (clamped to the content first)."""
    state.scroll.clamp(len(rows) * ROW_HEIGHT - viewport.height)
    top = viewport.y - state.scroll.offset
    shown = large_title_shown(viewport, state.scroll.offset)
    placed = []
    for i, row in enumerate(rows):
        frame = Rect(viewport.x, top + i * ROW_HEIGHT, viewport.width, ROW_HEIGHT)
        centre = frame.y + frame.height // 2
        placed.append(Placed(row, frame, shown.y <= centre < shown.bottom))
    return placed


def table(state: ListState, viewport: Rect, rows: Sequence[ListRow], *, key: str,
          frame: Rect) -> Node:
    """The scrollable Table of `rows` showing in `viewport`, spanning `frame` under its bars
    (`lists.under_bars`)."""
    kids = []
    for p in place(state, viewport, rows):
        node = _cell(state, p.row, p.frame)
        kids.append(node if p.shown else hidden(node))
    own, uncovered = spans(viewport, frame, state.scroll)
    return Node("Other", viewport, children=(
        Node("Table", own, children=tuple(kids), scroll=state.scroll, key=key,
             uncovered=uncovered),))


def _cell(state: ListState, row: ListRow, frame: Rect) -> Node:
    revealed = state.revealed == row.key
    inner = frame
    kids: list[Node] = []
    if state.editing:
        inner = Rect(frame.x + EDIT_INSET, frame.y, frame.width - EDIT_INSET, frame.height)
        kids.append(Node("Button", Rect(frame.x + 12, frame.y + (frame.height - 28) // 2, 28,
                                        28), label=f"Delete {row.label}",
                         name=f"Delete {row.label}", on_tap=_revealer(state, row.key),
                         pixels_text="\u2212"))
    if revealed:
        inner = Rect(inner.x - DELETE_WIDTH, inner.y, inner.width, inner.height)
    kids.extend(row.content(inner))
    if revealed:
        kids.append(Node("Button", Rect(frame.x + frame.width - DELETE_WIDTH, frame.y,
                                        DELETE_WIDTH, frame.height), label="Delete",
                         name="Delete", on_tap=_deleter(state, row)))
    # As in a UITableView: the content in the cell's content view, read with the cell.
    content = layout.wrap(Node("Other", frame, children=tuple(quiet(k) for k in kids)), 1)
    return Node("Cell", frame, label=row.label, children=(content,),
                on_tap=_tapper(state, row), key=row.key)


def _revealer(state: ListState, key: str) -> Handler:
    def reveal() -> None:
        state.revealed = None if state.revealed == key else key
    return reveal


def _deleter(state: ListState, row: ListRow) -> Handler:
    def delete() -> None:
        state.revealed = None
        row.on_delete()
    return delete


def _tapper(state: ListState, row: ListRow) -> Handler:
    def tap() -> None:
        # While a Delete button shows, a tap on the list only puts it away, as in UIKit.
        if state.revealed is not None:
            state.revealed = None
        elif row.on_tap is not None:
            row.on_tap()
    return tap


def swipe(state: ListState, placed: Sequence[Placed], viewport: Rect, drag: Drag) -> bool:
    """A horizontal drag on a row: reveal Delete, delete on a full swipe, or hide it again.

    Returns whether the drag was taken (other drags go on to scroll the list).
    """
    if drag.vertical or state.editing or not viewport.contains(drag.from_x, drag.from_y):
        return False
    hit = next((p for p in placed if p.shown and p.frame.contains(drag.from_x, drag.from_y)),
               None)
    if hit is None:
        return False
    if drag.dx <= -REVEAL_TRAVEL:
        if -drag.dx >= FULL_SWIPE * hit.frame.width:
            state.revealed = None
            hit.row.on_delete()
        else:
            state.revealed = hit.row.key
        return True
    if drag.dx >= REVEAL_TRAVEL and state.revealed is not None:
        state.revealed = None
        return True
    return False
