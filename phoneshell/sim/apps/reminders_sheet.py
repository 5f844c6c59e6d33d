"""Reminders' "New Reminder" sheet: what the lists overview's New Reminder opens, as on iOS.

From the overview (no list open) iOS does not add a row to a list: it presents a page sheet
titled "New Reminder" with Cancel and Add (Add dimmed until the title has text), a Title field
(focused, keyboard up), a Notes text view, and a List row naming the list the reminder goes to
(the default list, "Reminders"); the List row opens a page of the lists, one checked, where a
tap chooses one and comes back. Add saves the reminder to that list and closes the sheet;
Cancel closes it, first asking "Discard Changes" / "Keep Editing" once something was typed; a
downward swipe on the sheet does what Cancel does. Return in the title moves to Notes
(inferred); in Notes it types a new line. iOS's Details row (date, tags, location, flag,
priority) is not modelled.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from phoneshell.sim import layout, lists
from phoneshell.sim.apps import Drag, Host
from phoneshell.sim.apps.confirm import confirm_sheet, edit_bar
from phoneshell.sim.back_menu import BackMenu
from phoneshell.sim.ui import EditText, Node, Rect, Scroll

TITLE = "New Reminder"
SHEET_TOP = layout.NAV_TOP
"""Where the sheet's top edge is (it covers the screen below the status bar)."""


@dataclass
class NewReminder:
    """The sheet's fields and where it stands: the List page shown, the discard question."""

    title: EditText = field(default_factory=lambda: EditText(placeholder="Title"))
    notes: EditText = field(default_factory=lambda: EditText(placeholder="Notes",
                                                             multiline=True))
    list: str = ""
    picking: bool = False
    """The List page (which list the reminder goes to) shows."""
    discarding: bool = False
    """Cancel was tapped with text typed: the Discard Changes sheet shows."""
    scroll: Scroll = field(default_factory=Scroll)
    back_menu: BackMenu = field(default_factory=BackMenu)
    """The List page's back button's history menu (a hold on it): whether it shows."""

    @property
    def typed(self) -> bool:
        """Whether anything was typed (Cancel then asks before discarding it)."""
        return bool(self.title.text.strip() or self.notes.text.strip())


Save = Callable[[str, str, str], None]
"""Saves a reminder: its title, its list, its notes."""


def open_sheet(host: Host, default_list: str) -> NewReminder:
    """A new sheet, its title focused (the keyboard comes up)."""
    sheet = NewReminder(list=default_list)
    sheet.title.on_submit = lambda: host.focus(sheet.notes)
    host.focus(sheet.title)
    return sheet


def render(sheet: NewReminder, host: Host, my_lists: tuple[str, ...], save: Save,
           close: Callable[[], None]) -> Node:
    """The sheet over the overview: its form, its List page, or the discard question."""
    f = host.facts

    def cancel() -> None:
        if sheet.typed:
            host.focus(None)
            sheet.discarding = True
        else:
            close()

    def add() -> None:
        save(sheet.title.text.strip(), sheet.list, sheet.notes.text.strip())
        close()

    def keep() -> None:
        sheet.discarding = False

    top = layout.NAV_BOTTOM
    if sheet.picking:
        bar, kids = _list_page(sheet, host, my_lists, top)
    else:
        def pick() -> None:
            host.focus(None)
            sheet.picking = True

        form = lists.Section((
            lists.Row(build=lambda r: [layout.text_field(
                sheet.title, Rect(r.x + 16, r.y + 4, r.width - 32, 44), name="Title")],
                      container="Other"),
            lists.Row(build=lambda r: [layout.text_field(
                sheet.notes, Rect(r.x + 16, r.y + 4, r.width - 32, 88), name="Notes")],
                      container="Other", height=96)))
        where = lists.Section((lists.Row("List", detail=sheet.list, chevron=True,
                                         on_tap=pick),))
        bar = edit_bar(f, TITLE, cancel, "Add", add, enabled=bool(sheet.title.text.strip()))
        kids = [lists.table(sheet.scroll, Rect(0, top, f.width, f.height - top),
                            [form, where], key="new-reminder",
                            frame=lists.under_bars(f, SHEET_TOP))]
    if sheet.discarding:
        kids.append(confirm_sheet(f, "Discard Changes", close, keep, cancel="Keep Editing"))
    return layout.page_sheet(f, bar, kids, dismiss=cancel, top=SHEET_TOP,
                             key="reminders:new-reminder")


def _list_page(sheet: NewReminder, host: Host, my_lists: tuple[str, ...],
               top: int) -> tuple[Node, list[Node]]:
    """The List page's navigation bar (back to the form) and its list."""
    f = host.facts

    def back() -> None:
        sheet.picking = False

    def chooser(name: str) -> Callable[[], None]:
        def choose() -> None:
            sheet.list, sheet.picking = name, False
        return choose

    rows = tuple(lists.Row(name, on_tap=chooser(name), checked=name == sheet.list)
                 for name in my_lists)
    return (layout.nav_bar(f, "List", back=TITLE, on_back=back, menu=sheet.back_menu),
            [lists.table(Scroll(), Rect(0, top, f.width, f.height - top),
                         [lists.Section(rows)], key="new-reminder:list",
                         frame=lists.under_bars(f, SHEET_TOP))])


def on_drag(sheet: NewReminder, drag: Drag) -> bool:
    """The sheet takes every drag but the List page's swipe back (a downward swipe, which
    dismisses it as Cancel does, is every page sheet's: `layout.pulled_sheet`)."""
    if sheet.discarding:
        return True
    return not (sheet.picking and not drag.vertical and drag.dx > 0)
