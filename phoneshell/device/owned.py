"""The owner's contacts and calendar events, read whole with their rows (`Listed`), as the
owner watch reads notes and alarms (`runner.owner`), and as tasks may count them.

- Contacts (`contacts`): every row of Contacts' list, as it opens (not searching), scrolled
  through to its end: each contact as its row shows it, its name (the company for a contact with
  no name). A row shows no phone number, email or company: a contact edited there reads the
  same, and only the log can say it was saved (`runner.owner_log`).
- Events (`events`): every row of Calendar's search as it opens, before anything is typed (iOS's
  Calendar lists the events there, by day under its date, nearest first), scrolled through to
  its end: each event as "its day's heading | its title | its time". The window is what that
  list holds: on the simulated iPhone every event; on a phone, the range iOS's search covers
  around today (not verified on iOS 26: a phone that lists no events there reads as none, and
  the watch then sees no change). An event's notes, place, alerts and end do not show.

Neither leaves its app up (no count is taken after it in the same app), and neither deletes.
"""

from __future__ import annotations

from collections.abc import Callable

from phoneshell.device.alarms import ends_on_screen
from phoneshell.device.phone import Phone
from phoneshell.device.probes import (
    SCROLLS,
    Overflow,
    ProbeError,
    fresh_app,
    merge_scrolled,
    probe,
    row_texts,
    stop_app,
)
from phoneshell.device.screen_part import drag_part, shown_part
from phoneshell.device.settings_values import page_title
from phoneshell.device.steps import screen_signature
from phoneshell.device.wholes import LISTS, Listed, _in_table, _whole_rows, unplaced
from phoneshell.tasks import Step
from phoneshell.tree import Element, PageSource

CONTACTS, CALENDAR = "com.apple.MobileAddressBook", "com.apple.mobilecal"
SEARCH = Step.tap_on("Search", "Button")
"""Calendar's search (the magnifier in its bar), which lists the events."""
TABLE = "XCUIElementTypeTable"
Texts = Callable[[PageSource, list[Element]], list[str]]


def _plain(page: PageSource, rows: list[Element]) -> list[str]:
    return [row_texts(page, row) for row in rows]


def _bottom(page: PageSource) -> float:
    """Where the part of the list that shows ends (`shown_part`: at a toolbar or the keyboard,
    or where its scroll bar's track does); the screen's top when none shows."""
    shown = shown_part(page, next(e for e in page.on_screen() if e.type == TABLE))
    return 0.0 if shown is None else shown.bottom


OVERLAP_PT = 80.0
"""How much of the list's visible part a scroll keeps on screen: more than a row, so a row cut
off at the bottom is whole on the next screen."""


def _scrolled(phone: Phone, page: PageSource, what: str) -> bool:
    """Drag the list up by most of the part that shows (`shown_part`: between its bars, above
    a keyboard, which a drag that starts on it would type on; a list spans the screen under
    them), inside it and clear of the screen's system edge zones (`drag_part`: a list that
    reaches the screen's bottom, as Contacts' does, would else be swiped home); whether
    anything moved (nothing: the list's end).

    Raises:
        ProbeError: too little of the list shows to scroll it (a turned phone's keyboard may
            leave a row's height): what is below is unread, so the read has no end.
    """
    table = next(e for e in page.on_screen() if e.type == TABLE)
    shown, part = shown_part(page, table), drag_part(page, table)
    start = end = 0.0
    if shown and part:
        start = min(shown.bottom - OVERLAP_PT / 2, part.bottom)
        end = max(part.top, start - (shown.height - OVERLAP_PT))
    if part is None or start - end < OVERLAP_PT:
        raise ProbeError(f"{what}: too little of it shows to scroll it ({page.summary()}); "
                         "cannot read past what shows")
    before = screen_signature(phone)
    x = part.at(0.5, 0)[0]
    phone.drag((x, start), (x, end))
    return phone.poll(lambda: screen_signature(phone) != before, 1.0)


def _where(page: PageSource) -> tuple[str, str]:
    """Which screen `page` is: its app (by its bundle id, or its name where the source gives
    none) and its page's title."""
    app = page.bundle_id or (page.elements[0].label if page.elements else "")
    return app, page_title(page)


def _still_there(what: str, first: PageSource, page: PageSource) -> None:
    """Fail closed when the read's own scroll took the screen off the list it reads: another
    app in front (home, the App Switcher), another page, or no list: what follows is no part
    of the list, and its end no end of the list.

    Raises:
        ProbeError: naming what the screen shows instead.
    """
    (app, title), (now_app, now_title) = _where(first), _where(page)
    if now_app != app:
        raise ProbeError(f"{what}: scrolling it put {now_app or 'no app'} in front of {app}; "
                         "cannot read the rest of it")
    if now_title != title:
        raise ProbeError(f"{what}: scrolling it left the list's page ({title!r}) for "
                         f"{now_title!r}; cannot read the rest of it")
    if not any(e.type == TABLE for e in page.on_screen()):
        raise ProbeError(f"{what}: after scrolling it no list shows; it shows {page.summary()}")


def _rows(phone: Phone, bundle_id: str, what: str, *steps: Step,
          texts: Texts = _plain) -> tuple[str, ...]:
    """Every row of the list an app shows after `steps`, top to bottom, scrolled to its end."""
    page = first = fresh_app(phone, bundle_id, *steps)
    if not any(e.type == TABLE for e in page.on_screen()):
        raise ProbeError(f"{what}: no list shows; it shows {page.summary()}")
    bottom = _bottom(page)
    seen = texts(page, _whole_rows(page, bottom))
    for _ in range(SCROLLS):
        if ends_on_screen(page, bottom, _in_table(page)) \
                or not _scrolled(phone, page, what):
            break
        page = phone.page()
        _still_there(what, first, page)
        seen = merge_scrolled(seen, texts(page, _whole_rows(page, bottom)))
    else:
        raise Overflow(f"{what} runs on past {SCROLLS} screens; cannot read it")
    stop_app(phone, bundle_id)
    return unplaced(seen)  # an empty list's "No Results" (Calendar), "No Contacts"


@LISTS.register("contacts")
def contacts_listed(phone: Phone, arg: str) -> Listed:
    """Every contact in Contacts' list (`arg` is not used), each as its row shows it."""
    rows = _rows(phone, CONTACTS, "Contacts' list")
    return Listed(len(rows), rows)


@probe("contacts")
def contacts(phone: Phone, arg: str) -> int:
    """How many contacts `contacts_listed` reads."""
    return contacts_listed(phone, arg).count


def _headed(page: PageSource, rows: list[Element], carry: list[str]) -> list[str]:
    """Each row as "its section's heading | what it shows": the heading is the nearest one above
    it (a section header's text, outside every cell); a row whose heading scrolled off the top
    takes the one the screen before ended under (`carry`: on a phone the heading is pinned)."""
    heads = sorted((e for e in page.on_screen() if e.type == "XCUIElementTypeStaticText"
                    and "Header" in e.traits and page.inside(e, "Table")
                    and not page.inside(e, "Cell")), key=lambda e: e.y)
    read = []
    for row in rows:
        above = [h.label for h in heads if h.y < row.y]
        head = above[-1] if above else (carry[0] if carry else "")
        read.append(f"{head} | {row_texts(page, row)}" if head else row_texts(page, row))
    if read and " | " in read[-1]:
        carry[:] = [read[-1].split(" | ", 1)[0]]
    return read


@LISTS.register("events")
def events_listed(phone: Phone, arg: str) -> Listed:
    """Every event Calendar's search lists before anything is typed (`arg` is not used)."""
    carry: list[str] = []
    rows = _rows(phone, CALENDAR, "Calendar's search", SEARCH,
                 texts=lambda page, found: _headed(page, found, carry))
    return Listed(len(rows), rows)


@probe("events")
def events(phone: Phone, arg: str) -> int:
    """How many events `events_listed` reads."""
    return events_listed(phone, arg).count


__all__ = ["CALENDAR", "CONTACTS", "contacts_listed", "events_listed"]
