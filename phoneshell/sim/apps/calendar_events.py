"""Calendar's events, opened: an event's details, its edit page, a new event, and search.

Tapping an event (its title in the day or week view, or a row of search) opens "Event Details":
the title, its day, "from 10 AM to 11 AM", "Edit" in the bar and "Delete Event" at the bottom,
which asks again (an action sheet: "Are you sure you want to delete this event?", "Delete
Event", "Cancel"). Edit opens "Edit Event" (Cancel, Done): a "Title" TextField and a "Starts"
wheel of hours, and "Delete Event" at its bottom too; Done saves, Cancel discards (asking first,
"Discard Changes" or "Keep Editing", when something changed). "Add" (the "+") opens "New
Event" (Cancel, Add, enabled once it has a title) on the day shown. "Search" (the magnifier)
shows a search field with Cancel over every event, by day under its date, nearest first: iOS's
search lists events before anything is typed; typing keeps those whose title holds it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import date, timedelta

from phoneshell.sim import layout, lists, ui
from phoneshell.sim.apps import Host
from phoneshell.sim.apps.calendar_data import BUNDLE_ID, Event, delete, find, hour_text, read, save
from phoneshell.sim.apps.confirm import cancelling, confirm_sheet, edit_bar, fields
from phoneshell.sim.back_menu import BackMenu
from phoneshell.sim.facts import DeviceFacts
from phoneshell.sim.keyboard import keyboard_height
from phoneshell.sim.ui import EditText, Handler, Node, Rect, Scroll, Wheel

HOURS = tuple(hour_text(h) for h in range(24))
DELETE_ASK = "Are you sure you want to delete this event?"


@dataclass
class EventForm:
    """The edit page: the event it edits (None: a new one, on `days`), its title and hour."""

    event_id: int | None
    days: int
    title: EditText
    starts: Wheel
    was: tuple[str, int]
    asking: str = ""
    """The sheet over it: "discard" or "delete" ("" for none)."""
    shown: int = field(default_factory=ui.showing)
    """Its showing (`ui.showing`): an edit page presented again is new views, new ids."""

    def changed(self) -> bool:
        return (self.title.text, self.starts.index) != self.was


@dataclass
class Opened:
    """What of the events shows over the calendar: an event's details, the edit page, search."""

    back_menu: BackMenu = field(default_factory=BackMenu)
    """The back button's history menu (a hold on it): whether it shows."""
    event: int | None = None
    event_shown: int = 0
    """The event page's showing and search's (`ui.showing`): each pushed again is new views."""
    search_shown: int = 0
    form: EventForm | None = None
    deleting: bool = False
    searching: bool = False
    query: EditText = field(default_factory=lambda: EditText("Search", return_key="search"))
    scroll: Scroll = field(default_factory=Scroll)

    @property
    def showing(self) -> bool:
        return self.form is not None or self.event is not None or self.searching


def new_form(event: Event | None, days: int) -> EventForm:
    hour = event.hour if event else 9
    return EventForm(event.id if event else None, event.days if event else days,
                     EditText("Title", text=event.title if event else ""),
                     Wheel(HOURS, hour), (event.title if event else "", hour))


def opener(opened: Opened, host: Host, event: Event) -> Handler:
    def open_event() -> None:
        host.focus(None)
        opened.event, opened.event_shown = event.id, ui.showing()
    return open_event


def render(opened: Opened, host: Host, today: date) -> Node:
    """The page of `opened` that shows (`Opened.showing`)."""
    store = host.store(BUNDLE_ID)
    if opened.form is not None:
        return _edit(opened, host, opened.form)
    event = find(store, opened.event) if opened.event is not None else None
    if event is not None:
        return _details(opened, host, event, today)
    opened.event = None
    return _search(opened, host, today)


def _day_text(f: DeviceFacts, day: date) -> str:
    return f"{f.conventions.long_date(day)}, {day.year}"


def _details(opened: Opened, host: Host, event: Event, today: date) -> Node:
    f = host.facts
    day = today + timedelta(days=event.days)

    def back() -> None:
        opened.event = None

    def edit() -> None:
        opened.form = new_form(event, event.days)

    def ask() -> None:
        opened.deleting = True

    bar = layout.nav_bar(f, "Event Details", back=f.conventions.short_date(day), on_back=back,
                         menu=opened.back_menu,
                         trailing=(layout.button("Edit", Rect(f.width - 60, layout.NAV_TOP, 44,
                                                                44), edit),))
    kids = [bar, layout.text(event.title, Rect(16, 140, f.width - 32, 30), header=True),
            layout.text(_day_text(f, day), Rect(16, 176, f.width - 32, 20)),
            layout.text(f"from {hour_text(event.hour)} to {hour_text((event.hour + 1) % 24)}",
                        Rect(16, 198, f.width - 32, 20)),
            layout.button("Delete Event", Rect(16, f.height - 140, f.width - 32, 44), ask)]
    if opened.deleting:
        kids.append(_delete_sheet(opened, host, event))
    return layout.screen(f, kids, key=f"calendar:event@{opened.event_shown}")


def _delete_sheet(opened: Opened, host: Host, event: Event) -> Node:
    def gone() -> None:
        delete(host.store(BUNDLE_ID), event.id)
        opened.event, opened.form, opened.deleting = None, None, False

    def keep() -> None:
        opened.deleting = False
        if opened.form is not None:
            opened.form.asking = ""

    return confirm_sheet(host.facts, "Delete Event", gone, keep, message=DELETE_ASK)


def _edit(opened: Opened, host: Host, form: EventForm) -> Node:
    f = host.facts
    new = form.event_id is None

    def close() -> None:
        host.focus(None)
        opened.form = None

    cancel, discard = cancelling(host, form, close)

    def done() -> None:
        saved = save(host.store(BUNDLE_ID), form.event_id, form.days, form.starts.index,
                     form.title.text.strip() or "New Event")
        close()
        if not new:
            opened.event = saved

    def ask() -> None:
        host.focus(None)
        form.asking = "delete"

    kids = [edit_bar(f, "New Event" if new else "Edit Event", cancel, "Add" if new else "Done",
                     done, enabled=bool(form.title.text.strip()) or not new),
            *fields([form.title], 140, f.width),
            layout.text("Starts", Rect(16, 210, 80, 22)),
            _starts(host, form)]
    if not new:
        kids.append(layout.button("Delete Event", Rect(16, f.height - 140, f.width - 32, 44),
                                  ask))
    if discard is not None:
        kids.append(discard)
    event = find(host.store(BUNDLE_ID), form.event_id) if form.event_id is not None else None
    if form.asking == "delete" and event is not None:
        kids.append(_delete_sheet(opened, host, event))
    return layout.screen(f, kids, key=f"calendar:edit@{form.shown}")


def _starts(host: Host, form: EventForm) -> Node:
    """The Starts wheel. A tap on it ends editing the title (the keyboard goes), as touching
    a date row of iOS's event editor does; the wheel turns as well."""
    picker = layout.picker(Rect(100, 196, 160, 150), [(form.starts, Rect(100, 196, 160, 150))])
    return replace(picker, children=tuple(replace(wheel, on_tap=lambda: host.focus(None))
                                          for wheel in picker.children))


def _search(opened: Opened, host: Host, today: date) -> Node:
    f = host.facts
    query = opened.query.text.strip().lower()
    events = [e for e in read(host.store(BUNDLE_ID)) if query in e.title.lower()]

    def cancel() -> None:
        opened.query.text = ""
        host.focus(None)
        opened.searching = False

    sections = [lists.Section(tuple(
        lists.Row(e.title, subtitle=hour_text(e.hour), height=60,
                  on_tap=opener(opened, host, e), key=f"event:{e.id}")
        for e in events if e.days == days), header=_day_text(f, today + timedelta(days=days)))
        for days in dict.fromkeys(e.days for e in events)]
    top = layout.NAV_TOP + 50
    # UIKit insets a list by the keyboard over it: what lies under the keyboard scrolls up.
    bottom = f.height - (keyboard_height(f) if opened.query.focused else 0)
    viewport = Rect(0, top, f.width, bottom - top)
    width = f.width - 32 - 74
    kids = [layout.search_field(opened.query, Rect(16, layout.NAV_TOP + 4, width, 36)),
            layout.button("Cancel", Rect(16 + width + 8, layout.NAV_TOP + 4, 66, 36), cancel),
            lists.table(opened.scroll, viewport, sections or [lists.Section((
                lists.Row("No Results"),))], key="events",
                frame=lists.under_bars(f))]
    return layout.screen(f, kids, key=f"calendar:search@{opened.search_shown}")
