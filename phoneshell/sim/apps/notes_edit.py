"""Notes' note editor: the text view that saves as you type, and its text-selection menu.

A note is one multi-line `TextView` (label "Note", value the whole text; the first line is the
title). Every edit is written to the store at once, as Notes autosaves, so a note typed and
never closed survives a terminate. Holding a word, or double-tapping it (`taps.py`), selects it
and shows the edit menu ("Cut", "Copy", "Paste", "Select All", "Look Up"), as iOS does; either
where there is no word shows the caret's menu ("Select", "Select All", and "Paste" when the
pasteboard has text). A tap in the text dismisses
it. Words are found under the finger on the lines the screenshot draws (its own layout,
`render_text.Fit`: 17 pt text on 22 pt lines, `render.TEXT_VIEW_*`, a word too long for a line
broken over several), and only on the lines the text view shows.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, Literal

from phoneshell.sim import layout
from phoneshell.sim.apps import Host
from phoneshell.sim.apps.notes_data import BUNDLE_ID, delete, discard_if_empty, save
from phoneshell.sim.back_menu import BackMenu
from phoneshell.sim.facts import DeviceFacts
from phoneshell.sim.render import TEXT_VIEW_INSET, TEXT_VIEW_LINE
from phoneshell.sim.render_text import WORD, Fit
from phoneshell.sim.ui import EditText, Handler, Node, Rect

PASTEBOARD = "com.apple.pasteboard"
"""The system pasteboard: a store every app shares (Copy Link in Safari, Cut/Copy/Paste here)."""
TEXT_FRAME = Rect(16, 124, 370, 640)
MenuKind = Literal["word", "caret"]


@dataclass(eq=False)
class NoteField(EditText):
    """A note's text binding that reports every change of its text (Notes saves as you type).

    The phone edits `text` directly (typing, deleting, clearing), so the write-through hook sits
    on the attribute itself.
    """

    on_edit: Callable[[str], None] | None = None

    def __setattr__(self, name: str, value: Any) -> None:
        super().__setattr__(name, value)
        if name == "text" and self.on_edit is not None:
            self.on_edit(value)


@dataclass
class Editor:
    """The note being shown: its id (None until its first character), text and menus."""

    note_id: int | None
    text: NoteField
    menu: MenuKind | None = None
    look_up: str | None = None
    more: bool = False
    leave: Callable[[], None] | None = None
    """Drop the note if it is left empty (`close_editor`, and Notes stopped with it open)."""
    back_menu: BackMenu = field(default_factory=BackMenu)
    """The back button's history menu (a hold on it): whether it shows."""


def open_editor(host: Host, note_id: int | None, text: str) -> Editor:
    """An editor on a note (None: a new one) whose edits go straight to Notes' store."""
    editor = Editor(note_id, NoteField(multiline=True, text=text))
    store = host.store(BUNDLE_ID)

    def saved(now: str) -> None:
        editor.note_id = save(store, editor.note_id, now)
        editor.menu = None

    editor.text.on_edit = saved
    editor.leave = lambda: discard_if_empty(store, editor.note_id)
    return editor


def close_editor(host: Host, editor: Editor) -> None:
    """Leave the note: editing ends, and a note left empty is not kept."""
    host.focus(None)
    if editor.leave is not None:
        editor.leave()


def word_spans(text: str, frame: Rect, scale: int = 3) -> list[tuple[int, int, Rect]]:
    """The words of `text` on the lines `frame` shows, where the screenshot draws them (its
    own layout, at `scale` pixels a point): (start, end, frame of the word). A word broken
    over lines has a frame on each."""
    fit = Fit(17 * scale, frame.width * scale)
    rows = max(1, (frame.height - TEXT_VIEW_INSET) // TEXT_VIEW_LINE)
    spans: list[tuple[int, int, Rect]] = []
    broken: tuple[int, list[Rect]] | None = None  # a word running on: its start, its pieces
    for row, line in enumerate(islice(fit.spans(text), rows)):
        y = frame.y + TEXT_VIEW_INSET + row * TEXT_VIEW_LINE
        drawn = ""
        for first, last in line:
            for match in WORD.finditer(text, first, last):
                start, end = match.span()
                x = frame.x + round(fit.measure(drawn + text[first:start]) / scale)
                width = round(fit.measure(text[start:end]) / scale)
                pieces = [Rect(x, y, width, TEXT_VIEW_LINE)]
                if broken is not None and start == first:
                    start, pieces = broken[0], broken[1] + pieces
                broken = None
                if end == last and end < len(text) and not text[end].isspace():
                    broken = start, pieces
                    continue
                spans += [(start, end, piece) for piece in pieces]
            drawn += text[first:last] + " "
    if broken is not None:
        spans += [(broken[0], len(text), piece) for piece in broken[1]]
    return spans


def hold_at(editor: Editor, host: Host, x: float, y: float) -> None:
    """Touch and hold (or double-tap) in the text: select the word under the finger, or place
    the caret, and show the menu."""
    host.focus(editor.text)
    text = editor.text.text
    spans = word_spans(text, TEXT_FRAME, host.facts.scale)
    hit = next(((s, e) for s, e, r in spans if r.contains(x, y)), None)
    editor.text.selection = hit  # None: the caret at the end, nearest the finger below the text
    editor.menu = "word" if hit else "caret"


def _menu_items(editor: Editor, host: Host) -> list[tuple[str, Handler]]:
    field_ = editor.text
    start, end = field_.selection or (len(field_.text), len(field_.text))
    board = host.store(PASTEBOARD)
    chosen = field_.text[start:end]

    def done() -> None:
        editor.menu = None

    def cut() -> None:
        board.put("text", chosen)
        field_.text = field_.text[:start] + field_.text[end:]
        field_.selection = (start, start)

    def copy() -> None:
        board.put("text", chosen)
        done()

    def paste() -> None:
        pasted = board.text("text")
        field_.text = field_.text[:start] + pasted + field_.text[end:]
        field_.selection = (start + len(pasted), start + len(pasted))

    def select_all() -> None:
        field_.select_all()
        editor.menu = "word"

    def select_word() -> None:
        spans = word_spans(field_.text, TEXT_FRAME, host.facts.scale)
        near = [(s, e) for s, e, _ in spans if s <= start] or [(s, e) for s, e, _ in spans]
        if near:
            field_.selection, editor.menu = near[-1], "word"

    def look_up() -> None:
        editor.look_up, editor.menu = chosen.strip() or None, None

    items: list[tuple[str, Handler]]
    if editor.menu == "word":
        items = [("Cut", cut), ("Copy", copy)]
        items += [("Paste", paste)] if board.text("text") else []
        items += [("Select All", select_all), ("Look Up", look_up)]
    else:
        items = [("Select", select_word), ("Select All", select_all)]
        items += [("Paste", paste)] if board.text("text") else []
    return items


def _menu(editor: Editor, host: Host) -> Node:
    items = _menu_items(editor, host)
    widths = [layout.text_width(label) + 16 for label, _ in items]
    text = editor.text.text
    start, end = editor.text.selection or (len(text), len(text))
    spans = [r for s, e, r in word_spans(text, TEXT_FRAME, host.facts.scale)
             if s < end and e > start]
    anchor = spans[0] if spans else Rect(TEXT_FRAME.x, TEXT_FRAME.y + TEXT_VIEW_INSET, 1,
                                         TEXT_VIEW_LINE)
    # Above the selection, or below it when the navigation bar is in the way, as iOS does.
    top = anchor.y - 52 if anchor.y - 52 >= TEXT_FRAME.y else anchor.bottom + 8
    left = max(8, min(394 - sum(widths), anchor.x + anchor.width // 2 - sum(widths) // 2))
    buttons, x = [], left
    for (label, handler), width in zip(items, widths, strict=True):
        # iOS's edit menu items are MenuItems (XCUITest's app.menuItems["Paste"]), not Buttons
        buttons.append(Node("MenuItem", Rect(x, top, width, 44), label=label, name=label,
                            traits="Button", on_tap=handler))
        x += width
    return Node("Menu", Rect(left, top, sum(widths), 44), name="EditMenu",
                children=tuple(buttons), opaque=True)


def render_editor(f: DeviceFacts, editor: Editor, host: Host, back: Handler,
                  compose: Handler) -> list[Node]:
    """The note screen: its navigation bar, the text view, the toolbar, and any menu or sheet."""
    store = host.store(BUNDLE_ID)
    editing = editor.text.focused

    def done() -> None:
        editor.menu = None
        host.focus(None)

    def dismiss() -> None:
        editor.menu = None

    def show_more() -> None:
        editor.more, editor.menu = True, None

    def remove() -> None:
        editor.more = False
        if editor.note_id is not None:
            delete(store, editor.note_id)
        back()

    def close_sheet() -> None:
        editor.more, editor.look_up = False, None

    trailing = [layout.button("More", Rect(340, 67, 46, 44), show_more)]
    if editing:
        trailing.insert(0, layout.button("Done", Rect(280, 67, 56, 44), done))
    nav = Node("NavigationBar", Rect(0, layout.NAV_TOP, f.width, 54), name="Note", children=(
        *layout.back_controls(f, "Notes", Rect(8, layout.NAV_TOP + 5, 80, 44), back,
                              menu=editor.back_menu),
        *trailing))
    text = editor.text
    view = Node("TextView", TEXT_FRAME, label="Note", name="Note", value=text.shown_value(),
                field=text, on_tap=dismiss,
                on_hold_at=lambda x, y: hold_at(editor, host, x, y),
                on_double_tap_at=lambda x, y: hold_at(editor, host, x, y))
    kids = [nav, view]
    if not editing:
        kids.append(toolbar(f, None, compose))
    if editor.menu is not None:
        kids.append(_menu(editor, host))
    if editor.more:
        kids.append(layout.sheet(f, "Note", [("Delete", remove)], close_sheet))
    elif editor.look_up:
        kids.append(layout.sheet(f, f"Look Up \u201c{editor.look_up}\u201d",
                                 [("Search Web", close_sheet)], close_sheet))
    return kids


def toolbar(f: DeviceFacts, count: str | None, compose: Handler) -> Node:
    """The bottom bar of the lists and of a note: the count (lists only) and New Note."""
    top = f.height - layout.TAB_BAR_HEIGHT
    kids = [layout.button("New Note", Rect(f.width - 102, top + 4, 90, 44), compose)]
    if count is not None:
        width = layout.text_width(count, 13)
        kids.insert(0, layout.text(count, Rect((f.width - width) // 2, top + 16, width, 18)))
    return Node("Toolbar", Rect(0, top, f.width, layout.TAB_BAR_HEIGHT), children=tuple(kids))

