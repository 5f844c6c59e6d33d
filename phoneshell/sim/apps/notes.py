"""Notes (com.apple.mobilenotes): folders, the notes list with live search, and notes you edit.

Launching shows the Notes folder's list: a large "Notes" title (back: "Folders"), a search
field at the top of the list, a Cell per note (label: its title; subtitle: the time and its
second line), most recently edited first, and a bottom toolbar with the count and "New Note".
Typing in the search field filters the list live by title and body. "New Note" opens an empty
note with the keyboard up; a tapped note opens unfocused, and a tap in its text starts editing
("Done" ends it); a note left empty (by Back, New Note, or Notes stopped) is not kept. A swipe
left on a row reveals "Delete"; a note's "More" sheet has "Delete" too; deleted notes go to
Recently Deleted (a folder on the Folders screen). The notes live in Notes'
store (`notes_data.py`), saved as you type (`notes_edit.py`), so they outlast terminate and
tasks; a fresh phone has a few seeded notes, one titled "phoneshell benchmark".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from phoneshell.sim import layout, lists
from phoneshell.sim.apps import AppModel, Drag, Host, notes_deleted, register
from phoneshell.sim.apps.confirm import with_holds
from phoneshell.sim.apps.notes_data import BUNDLE_ID, Note, delete, purge, read
from phoneshell.sim.apps.notes_edit import (
    Editor,
    close_editor,
    open_editor,
    render_editor,
    toolbar,
)
from phoneshell.sim.back_menu import BackMenu
from phoneshell.sim.touch_paths import hit_path
from phoneshell.sim.ui import EditText, Handler, Node, Rect, Scroll, showing

Folder = Literal["folders", "notes", "deleted"]
SWIPE_TRAVEL = 60
"""A horizontal drag at least this long swipes a row (shorter ones are not gestures)."""


@dataclass
class NotesState:
    """Which list shows, the search query, the swiped row, and the note open (if any)."""

    back_menu: BackMenu = field(default_factory=BackMenu)
    """The back button's history menu (a hold on it): whether it shows."""
    screen: Folder = "notes"
    query: EditText = field(default_factory=lambda: EditText("Search", return_key="search"))
    scroll: Scroll = field(default_factory=Scroll)
    swiped: int | None = None
    """The note whose row shows its Delete button."""
    editor: Editor | None = None
    shown: int = 0
    """The list's showing and the open note's (`ui.showing`): a page pushed again is new
    views, with new ids."""
    note_shown: int = 0
    trash: notes_deleted.Bin = field(default_factory=notes_deleted.Bin)
    """Recently Deleted's held row, Edit and Delete All (`notes_deleted`)."""


def shown_notes(state: NotesState, host: Host) -> list[Note]:
    """The notes the current list shows, in order (filtered by the search while it has text)."""
    store = host.store(BUNDLE_ID)
    if state.screen == "deleted":
        return read(store, "deleted")
    query = state.query.text
    return [n for n in read(store) if n.matches(query)] if query.strip() else read(store)


def _go(state: NotesState, host: Host, screen: Folder) -> Handler:
    def show() -> None:
        host.focus(None)
        if screen != "folders":  # a list pushed over the folders (back to them: a pop)
            state.shown = showing()
        state.screen, state.swiped, state.query.text = screen, None, ""
        state.trash = notes_deleted.Bin()
        state.scroll.offset = 0
    return show


def _list(state: NotesState, host: Host, compose: Handler) -> Node:
    f, store = host.facts, host.store(BUNDLE_ID)
    deleted = state.screen == "deleted"
    notes = shown_notes(state, host)

    def opener(note: Note) -> Handler:
        def open_note() -> None:
            if state.swiped is not None:  # a tap on a swiped list closes the swipe first
                state.swiped = None
                return
            host.focus(None)
            state.editor, state.note_shown = open_editor(host, note.id, note.text), showing()
        return open_note

    def remove() -> None:
        if state.swiped is not None:  # from Recently Deleted, for good
            (purge if deleted else delete)(store, state.swiped)
        state.swiped = None

    rows = tuple(lists.Row(n.title, subtitle=f"{n.edited(f)}  {n.preview}", height=64,
                           on_tap=None if deleted else opener(n), key=f"note:{n.id}",
                           swipe=("Delete", remove) if n.id == state.swiped else None)
                 for n in notes)
    sections = [] if deleted else [lists.Section((lists.search_row(state.query, host),))]
    empty = "No Results" if state.query.text.strip() else "No Notes"
    sections.append(lists.Section(rows or (lists.Row(empty),)))
    title = "Recently Deleted" if deleted else "Notes"
    edit = [notes_deleted.edit_button(state.trash, host)] if deleted else []
    nav = layout.nav_bar(f, title, back="Folders", on_back=_go(state, host, "folders"),
                         large=True, trailing=edit, menu=state.back_menu)
    top = layout.LARGE_NAV_BOTTOM
    viewport = Rect(0, top, f.width, f.height - layout.TAB_BAR_HEIGHT - top)
    table = lists.table(state.scroll, viewport, sections, key=f"list:{state.screen}",
                        frame=lists.under_bars(f))
    count = len(read(store, state.screen))
    bar = toolbar(f, f"{count} Note{'s' if count != 1 else ''}", compose)
    kids = [nav, table, bar]
    if deleted:  # a held row's context menu, Edit's Delete All (`notes_deleted`)
        trash = state.trash
        kids = [nav, with_holds(table, notes_deleted.holds(trash, notes)),
                notes_deleted.toolbar(trash, bar, count), *notes_deleted.overlays(trash, host)]
    return layout.screen(f, kids, key=f"notes:{state.screen}@{state.shown}")


def _folders(state: NotesState, host: Host, compose: Handler) -> Node:
    f, store = host.facts, host.store(BUNDLE_ID)
    rows = (lists.Row("Notes", detail=str(len(read(store))), chevron=True,
                       on_tap=_go(state, host, "notes")),
            lists.Row("Recently Deleted", detail=str(len(read(store, "deleted"))),
                       chevron=True, on_tap=_go(state, host, "deleted")))
    top = layout.LARGE_NAV_BOTTOM
    viewport = Rect(0, top, f.width, f.height - layout.TAB_BAR_HEIGHT - top)
    table = lists.table(state.scroll, viewport, [lists.Section(rows, header="iCloud")],
                         key="folders", frame=lists.under_bars(f))
    return layout.screen(f, [layout.nav_bar(f, "Folders", large=True), table,
                             toolbar(f, None, compose)], key="notes:folders")


def render(state: NotesState, host: Host) -> Node:
    """The note open, else the folder list or a list of notes."""
    f = host.facts

    def compose() -> None:
        if state.editor is not None:
            close_editor(host, state.editor)
        state.swiped, state.screen = None, "notes" if state.screen == "folders" else state.screen
        state.editor, state.note_shown = open_editor(host, None, ""), showing()
        host.focus(state.editor.text)

    def back() -> None:
        if state.editor is not None:
            close_editor(host, state.editor)
        state.editor = None

    if state.editor is not None:
        return layout.screen(f, render_editor(f, state.editor, host, back, compose),
                             key=f"note@{state.note_shown}")
    if state.screen == "folders":
        return _folders(state, host, compose)
    return _list(state, host, compose)


def on_drag(state: NotesState, host: Host, drag: Drag) -> bool:
    """A swipe left on a note's row reveals Delete; a swipe right hides it again. A swipe right
    on a row otherwise is the row's own: a note's row has a leading action (Pin) on iOS, so it
    takes the drag and the page stays (iOS 26's content swipe back does not start on it); Pin
    itself is not modelled, so nothing shows."""
    if state.editor is not None or state.screen == "folders" or drag.vertical:
        return False
    if drag.dx > SWIPE_TRAVEL and state.swiped is not None:
        state.swiped = None
        return True
    if -SWIPE_TRAVEL <= drag.dx <= SWIPE_TRAVEL:
        return False
    path = hit_path(host.screen().root, drag.from_x, drag.from_y)
    cell = next((n for n in reversed(path) if n.type == "Cell"), None)
    if cell is None or not (cell.key or "").startswith("note:"):
        return False
    if drag.dx < 0:
        state.swiped = int((cell.key or "").removeprefix("note:"))
    return True


def on_stop(state: NotesState) -> str:
    """As Notes stops with a note open, a note left empty goes, as when it is left by Back or
    New Note (iOS keeps no empty note: one typed and deleted again, or emptied by Select All and
    Cut, is not in the list when Notes starts again). Notes starts again on its list."""
    if state.editor is not None and state.editor.leave is not None:
        state.editor.leave()
    return ""


APP = register(AppModel(BUNDLE_ID, "Notes", NotesState, render, on_drag=on_drag,
                        keep=on_stop, rotates=True))
