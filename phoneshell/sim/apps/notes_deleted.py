"""Notes' Recently Deleted beyond a row's swipe: a held row's context menu and Edit's Delete All.

As on iOS, touching and holding a row there opens a context menu, Recover (the note goes back
to Notes) and Delete (gone for good, at once); Edit at the top right turns the toolbar's New
Note into Delete All, which asks first in an action sheet ("Delete Notes" / "Cancel") and then
empties the folder for good. Both menus are modal presentations without a navigation bar of
their own: the page under them stays "Recently Deleted" (`bridge.targets.page_title`). iOS's
Move All and multiple selection are not modelled.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from phoneshell.sim import layout
from phoneshell.sim.apps import Host
from phoneshell.sim.apps.confirm import confirm_sheet
from phoneshell.sim.apps.notes_data import BUNDLE_ID, Note, purge, purge_all, recover
from phoneshell.sim.ui import Handler, Node, Rect

EMPTYING = "These notes will be deleted. This action cannot be undone."
"""What Delete All's action sheet says above its Delete Notes button."""


@dataclass
class Bin:
    """What Recently Deleted shows over its rows: a held row's menu, Edit, Delete All's sheet."""

    held: int | None = None
    """The note whose context menu shows."""
    editing: bool = False
    """Edit was tapped: the toolbar offers Delete All."""
    emptying: bool = False
    """Delete All was tapped: the action sheet asks."""


def holds(trash: Bin, notes: Sequence[Note]) -> dict[str, Handler]:
    """A touch and hold for each row (keyed as its cell): it opens the row's context menu."""
    def holder(note_id: int) -> Handler:
        def hold() -> None:
            trash.held = note_id
        return hold
    return {f"note:{n.id}": holder(n.id) for n in notes}


def edit_button(trash: Bin, host: Host) -> Node:
    """The navigation bar's Edit (Done while editing)."""
    def toggle() -> None:
        trash.editing = not trash.editing
    return layout.button("Done" if trash.editing else "Edit",
                         Rect(host.facts.width - 76, layout.NAV_TOP, 60, 44), toggle)


def toolbar(trash: Bin, bar: Node, count: int) -> Node:
    """Notes' toolbar `bar`, its New Note turned into Delete All while editing (dimmed on an
    empty folder)."""
    if not trash.editing:
        return bar

    def ask() -> None:
        trash.emptying = True
    kids = tuple(layout.button("Delete All", c.frame, ask, enabled=count > 0)
                 if c.name == "New Note" else c for c in bar.children)
    return replace(bar, children=kids)


def overlays(trash: Bin, host: Host) -> list[Node]:
    """The context menu of the held row, or Delete All's action sheet, when one shows."""
    store, f = host.store(BUNDLE_ID), host.facts
    if trash.emptying:
        def empty() -> None:
            purge_all(store)
            trash.emptying = trash.editing = False

        def keep() -> None:
            trash.emptying = False
        return [confirm_sheet(f, "Delete Notes", empty, keep, message=EMPTYING)]
    held = trash.held
    if held is None:
        return []

    def dismiss() -> None:
        trash.held = None

    def back() -> None:
        recover(store, held)
        trash.held = None

    def gone() -> None:
        purge(store, held)
        trash.held = None
    return [layout.menu(f, "ContextMenu", [("Recover", back), ("Delete", gone)], 300, 60,
                        dismiss)]
