"""Counts of a whole collection, with the rows that make it up: every note, every reminder.

A filtered count (notes titled X) grows when a note is made, and also when an existing note is
renamed or overwritten into one; only the whole collection tells the two apart. So each count
of some of a collection (`tasks.probes.whole_of`) is taken with the count of the whole, and
the check and the teardown compare them (`checks.effects`). Read through the app's own UI, as
a person would, and never deleting anything:

- Notes: the count its list's toolbar shows ("4 Notes"), and what each row of the list's first
  screen shows (title, date, first words). Notes lists the most recently edited first, so a
  note edited or made since moves to the top, and one screen shows what changed; the note
  itself has no id a screen shows.
- Reminders: the counts on the All and Completed tiles, and what each row of those two lists
  shows (title, due; a completed one marked), scrolled through to their ends; a list longer
  than the probe scrolls, or one whose rows do not add up to its count, gives the count alone.
  Reminders' search lists completed reminders too, so its counts are some of this whole. A
  reminder edited keeps its place, so the whole list is needed, not its top.

An empty list shows a placeholder where its rows would be ("No Reminders" on the simulated
iPhone's Completed list, "No Notes"); it is no item (`unplaced`). Read as one, an empty
Completed list held one row where its tile counted none, and the whole came back as its count
alone: a reminder deleted and another added then read as nothing changed.

Each may leave its app up for a search counted next in it (`probes.searched`): Notes on its
list, Reminders back on its lists, where the search field is.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from phoneshell.device.alarms import ends_on_screen
from phoneshell.device.phone import Phone
from phoneshell.device.probes import (
    LISTED,
    NOTES,
    REMINDERS,
    ROWS,
    SCROLLS,
    Overflow,
    ProbeError,
    fresh_app,
    has_search_field,
    leaving_open,
    merge_scrolled,
    probe,
    row_texts,
    running,
    scrolled_down,
    stop_app,
)
from phoneshell.device.steps import run_steps
from phoneshell.registry import Registry
from phoneshell.tasks import Step
from phoneshell.tree import Element, PageSource

CELL, TOOLBAR = "XCUIElementTypeCell", "XCUIElementTypeToolbar"
NOTES_LIST = f"{NOTES}{LISTED}"
"""What the notes count tells `Phone.leave` when it leaves Notes' list up for a search."""
NOTES_SHOWN = re.compile(r"(\d+) Notes?")
EMPTY = re.compile(r"No(?: [^\W\d_][\w'’]*){1,3}", re.IGNORECASE)
"""What a list shows in place of rows when it has none: "No Reminders", "No Notes", "No Results"
on the simulated iPhone (Reminders' lists, Notes' list, Calendar's search); iOS words Contacts',
Clock's and Phone's alike ("No Contacts", "No Alarms", "No World Clocks", "No Recents"; not
verified on iOS 26, so any "No" and up to three words is taken)."""


@dataclass(frozen=True)
class Listed:
    """A count and the rows it is made of, top first."""

    count: int
    rows: tuple[str, ...] | None
    """Each item as its row shows it: all of them, or (fewer than `count`) the top of a list
    kept most recently edited first; None when they could not be read."""


ListReader = Callable[[Phone, str], Listed]
LISTS: Registry[ListReader] = Registry("whole-collection probe", "phoneshell schema --probes")


def run_listed(phone: Phone, name: str, arg: str, leave_open: bool = False) -> Listed:
    """Run count probe `name` for `arg`, with the rows it counted: a whole-collection probe
    (`LISTS`) its own way, one that counts its rows (`probes.ROWS`) as its rows.

    Raises:
        ProbeError: the count could not be read (the message says why).
    """
    if name in LISTS:
        return running(phone, name, arg, leave_open, LISTS.lookup(name))
    rows = running(phone, name, arg, leave_open, ROWS.lookup(name))
    return Listed(len(rows), rows)


def unplaced(rows: Sequence[str], count: int | None = None) -> tuple[str, ...]:
    """`rows` without an empty list's placeholder: a lone row whose first text reads "No
    <things>" (`EMPTY`), in a list whose count, where it shows one, is 0. A lone item so named
    in a list counted as holding one stays an item."""
    lone = len(rows) == 1 and EMPTY.fullmatch(rows[0].split(" | ", 1)[0].strip())
    return () if lone and count in (None, 0) else tuple(rows)


def listed_by(name: str) -> bool:
    """Whether count probe `name` gives the rows it counted (`run_listed`)."""
    return name in LISTS or name in ROWS


def _whole_rows(page: PageSource, bottom: float) -> list[Element]:
    """The list's rows wholly on screen, inside its frame and above `bottom`, top first: a row
    cut off shows only some of its texts."""
    tables = [e for e in page.on_screen() if e.type == "XCUIElementTypeTable"]
    return sorted((e for e in page.on_screen() if e.type == CELL and any(
        page.holds(t, e) and e.y >= t.y and e.y + e.height <= min(t.y + t.height, bottom)
        for t in tables)), key=lambda e: e.y)


def _in_table(page: PageSource) -> Callable[[Element], bool]:
    return lambda cell: page.inside(cell, "Table")


def _toolbar_top(page: PageSource) -> float:
    return min((e.y for e in page.on_screen() if e.type == TOOLBAR), default=page.height)


@LISTS.register("notes")
def notes_listed(phone: Phone, arg: str) -> Listed:
    """Every note in Notes' list (`arg` is not used): the count its toolbar shows, and the rows
    of the list's first screen, the most recently edited first."""
    page = fresh_app(phone, NOTES, ready=has_search_field)  # the list, not a note
    shown = [int(match.group(1)) for e in page.on_screen()
             if e.type == "XCUIElementTypeStaticText"
             and (match := NOTES_SHOWN.fullmatch(e.label.strip()))
             and page.inside(e, "Toolbar")]
    if not shown:
        raise ProbeError(f"Notes' list shows no count of its notes; it shows {page.summary()}")
    rows = unplaced([row_texts(page, row) for row in _whole_rows(page, _toolbar_top(page))],
                    shown[0])
    if leaving_open():
        phone.leave(NOTES_LIST)  # the search counted next starts from this list
    else:
        stop_app(phone, NOTES)
    return Listed(shown[0], rows[:shown[0]])


@probe("notes")
def notes(phone: Phone, arg: str) -> int:
    """How many notes `notes_listed` counts."""
    return notes_listed(phone, arg).count


ALL = Step.tap_on("All", "Button")
"""Reminders' All tile (its value is the count)."""
COMPLETED = Step.tap_on("Completed", "Button")
"""Reminders' Completed tile: the completed reminders, which the All list leaves out."""
BACK = Step.tap_on("Lists", "Button")
"""A list's back button, to the lists (where Reminders' search field is)."""
REMINDERS_LISTS = f"{REMINDERS}{LISTED}"
"""What the reminders count tells `Phone.leave` when it leaves the lists up for a search."""
DONE = "completed: "
"""What a completed reminder's row starts with in the whole's rows: ticking off the owner's
reminder changes what the whole shows, though the reminder is still there."""


@LISTS.register("reminders")
def reminders_listed(phone: Phone, arg: str) -> Listed:
    """Every reminder, completed or not (`arg` is not used): the counts on the All and the
    Completed tiles, and the rows of both lists, scrolled through, a completed one's marked
    (`DONE`); the count alone when a list runs on past what the probe scrolls, repeats a row
    across a scroll, or its rows do not add up to it.

    The search `reminders_titled` counts lists completed reminders too, so the whole counts them:
    a reminder made and ticked off is one made, not one of the owner's renamed."""
    page = fresh_app(phone, REMINDERS, ready=lambda p: _tile(p, "All") is not None)  # the lists
    open_count, done_count = _tile(page, "All"), _tile(page, "Completed")
    if open_count is None:
        raise ProbeError(f"Reminders shows no All list with its count; it shows "
                         f"{page.summary()}")
    run_steps(phone, [ALL])
    rows = _all_rows(phone, open_count)
    run_steps(phone, [BACK, COMPLETED])
    done = _all_rows(phone, done_count)
    if done_count is None:  # a tile without its count (unverified on iOS 26): its rows say
        if done is None:
            raise ProbeError("Reminders' Completed tile shows no count and its list runs on "
                             "past what the count scrolls")
        done_count = len(done)
    if leaving_open():  # back to the lists, where the search counted next starts
        run_steps(phone, [BACK])
        phone.leave(REMINDERS_LISTS)
    else:
        stop_app(phone, REMINDERS)
    whole = (None if rows is None or done is None or len(rows) != open_count
             or len(done) != done_count else rows + tuple(DONE + row for row in done))
    return Listed(open_count + done_count, whole)


def _tile(page: PageSource, name: str) -> int | None:
    """The count on smart-list tile `name` of Reminders' lists (None: no such tile with one)."""
    return next((int(e.value) for e in page.on_screen() if e.type == "XCUIElementTypeButton"
                 and e.label == name and e.value.strip().isascii()
                 and e.value.strip().isdigit()), None)


@probe("reminders")
def reminders(phone: Phone, arg: str) -> int:
    """How many reminders `reminders_listed` counts."""
    return reminders_listed(phone, arg).count


def _all_rows(phone: Phone, count: int | None) -> tuple[str, ...] | None:
    """The rows of the open list, top to bottom, scrolling to its end, without the placeholder
    an empty one shows where its tile counts `count` (`unplaced`); None: too long."""
    page = phone.page()
    bottom = _toolbar_top(page)
    seen = [row_texts(page, row) for row in _whole_rows(page, bottom)]
    for _ in range(SCROLLS):
        if ends_on_screen(page, bottom, _in_table(page)) or not scrolled_down(phone):
            return unplaced(seen, count)
        page = phone.page()
        try:
            seen = merge_scrolled(seen, [row_texts(page, r) for r in _whole_rows(page, bottom)])
        except Overflow:
            return None
    return None


__all__ = ["LISTS", "NOTES_LIST", "REMINDERS_LISTS", "Listed", "listed_by", "run_listed",
           "unplaced"]
