"""Reminders counted by title in Reminders' own search: every one found, and the open ones.

Reminders' search lists completed reminders with the rest (the simulated iPhone's does; a
phone's, behind "Show Completed" in recent iOS, unverified), so `reminders_titled` counts a
reminder ticked off as one there: what the teardown deletes by, completed or not. A task that
asks for a reminder that will remind counts `open_reminders_titled` instead: a reminder made and
ticked off at once (red team 93) is in the Completed list, out of the All list and Today, and
never alerts, so it is not one made. A row is told open or completed by the completion button at
its start, named "Not completed" or "Completed" on the simulated iPhone (unverified on iOS 26:
no Reminders page source is at hand); a row whose button says neither cannot be counted, and
the probe says so rather than count it either way.
"""

from __future__ import annotations

from phoneshell.device.phone import Phone
from phoneshell.device.probes import REMINDERS, ROWS, ProbeError, probe, row_texts, rows_titled
from phoneshell.tree import Element, PageSource

BUTTON = "XCUIElementTypeButton"
OPEN, DONE = "not completed", "completed"
"""A reminder row's completion button, by its label, folded: open, or ticked off."""


def is_open(page: PageSource, row: Element) -> bool:
    """Whether the reminder of result row `row` (its cell, or its title text) is not completed,
    read off the completion button in its cell.

    Raises:
        ProbeError: the cell holds no button that says either, or one of each.
    """
    cell = row if row.short_type == "Cell" else page.holder(row, "Cell") or row
    said = {(e.label or e.name).strip().casefold() for e in page.on_screen()
            if e.type == BUTTON and page.holds(cell, e)}
    if len(said & {OPEN, DONE}) != 1:
        shown = ", ".join(sorted(said)) or "none"
        raise ProbeError(f"cannot tell whether the reminder {row_texts(page, row)!r} is "
                         f"completed: its row holds no one button named 'Completed' or 'Not "
                         f"completed' (its buttons: {shown})")
    return OPEN in said


@ROWS.register("reminders_titled")
def reminders_titled_rows(phone: Phone, arg: str) -> tuple[str, ...]:
    """Reminders whose title is `arg` (`probes.titled`), completed or not: searched for in
    Reminders' search field, counted in the results (up to one screen of them)."""
    return rows_titled(phone, REMINDERS, arg, "reminders")


@ROWS.register("open_reminders_titled")
def open_reminders_titled_rows(phone: Phone, arg: str) -> tuple[str, ...]:
    """The results of `reminders_titled_rows` that are not completed (`is_open`); the screen of
    results it reads holds the completed ones too."""
    return rows_titled(phone, REMINDERS, arg, "reminders", keep=is_open)


@probe("reminders_titled")
def reminders_titled(phone: Phone, arg: str) -> int:
    """How many `reminders_titled_rows` finds."""
    return len(reminders_titled_rows(phone, arg))


@probe("open_reminders_titled")
def open_reminders_titled(phone: Phone, arg: str) -> int:
    """How many `open_reminders_titled_rows` finds."""
    return len(open_reminders_titled_rows(phone, arg))
