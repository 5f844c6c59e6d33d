"""Calendar (com.apple.mobilecal): day, week, month and year views of a fixed set of events.

As on a real iPhone, the app opens on today's day view: the weekday header and the dates of the
week, the date line ("Tuesday  January 9, 2024"), and the hours with their events. The back
button moves up a level (day → month → year, labelled "January", "2024"); tapping a month or a
day moves down again. "View" opens a sheet to pick Day, Week, Month or Year directly. "Today"
(in the toolbar of every view) jumps to today. Swiping sideways moves the day or week views
by a day or a week; swiping up or down moves the month and year views by a month or a year.

Weekday headers are accessibility elements named in full ("Sunday"), drawn as initials ("S").
Today is the phone's frozen date (`DeviceFacts.date`, Tuesday 9 January 2024). A button that
shows a day is named by what it shows ("9", "Tue 9"); today's is labelled as VoiceOver reads it,
"Today, Tuesday, January 9" (inferred, not from a dump). The day marked carries the Selected
trait: in the day and week views the day shown (iOS's day strip selects the circled day), in the
month view today, whose number iOS circles in red and reports Selected while the circle is drawn
(MobileCal's accessibility code, `CompactMonthWeekDayNumberAccessibility`); a screen says
whether it shows today without knowing the date. Weeks start on Sunday or Monday as the phone's
locale has them.

Each event is a Button labelled with its title (in the week view, "Tue 9: Team Stand-up"; what
VoiceOver reads for an event on a phone is not known here): a tap opens its details, where it
can be edited or deleted; "Search" and "Add" in the bar list every event and add one
(`calendar_events`). Events are kept in the app's store (`calendar_data`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Literal, get_args

from phoneshell.sim import layout, lists
from phoneshell.sim.apps import AppModel, Drag, Host, calendar_events, register
from phoneshell.sim.apps.calendar_data import BUNDLE_ID, hour_text, read
from phoneshell.sim.apps.calendar_events import Opened, new_form, opener
from phoneshell.sim.back_menu import BackMenu
from phoneshell.sim.facts import MONTHS, WEEKDAYS, DeviceFacts
from phoneshell.sim.ui import Handler, Node, Rect, Scroll, showing

View = Literal["Day", "Week", "Month", "Year"]
VIEWS: tuple[View, ...] = ("Day", "Week", "Month", "Year")
HOUR_HEIGHT = 52
TOOLBAR_HEIGHT = 74


@dataclass
class CalendarState:
    """The view, the date it centres on (None: today), the hours' scroll, the view sheet."""

    view: View = "Day"
    shown: date | None = None
    hours: Scroll = field(default_factory=lambda: Scroll(offset=8 * HOUR_HEIGHT))
    """Day and week views open at 8 AM, as the real app scrolls to the working day."""
    choosing: bool = False
    opened: Opened = field(default_factory=Opened)
    """An event's details, its edit page, or search, over the view (`calendar_events`)."""
    back_menu: BackMenu = field(default_factory=BackMenu)
    """The back button's history menu (a hold on it): whether it shows."""


def today(facts: DeviceFacts) -> date:
    """The phone's (frozen) date."""
    return facts.today


def add_months(day: date, months: int) -> date:
    """The same day of the month `months` later (clamped to the month's last day)."""
    index = day.year * 12 + day.month - 1 + months
    year, month = divmod(index, 12)
    for last in (day.day, 30, 29, 28):
        try:
            return date(year, month + 1, min(day.day, last))
        except ValueError:
            continue
    return date(year, month + 1, 1)


def _lead(day: date, f: DeviceFacts) -> int:
    """Days between the start of the week (Sunday or Monday, by locale) and `day`."""
    return (day.weekday() + 1) % 7 if f.conventions.sunday_first else day.weekday()


def week_start(day: date, f: DeviceFacts) -> date:
    """The first day (Sunday or Monday, by locale) of the week that holds `day`."""
    return day - timedelta(days=_lead(day, f))


def date_line(day: date, f: DeviceFacts) -> str:
    """The day view's heading, as the real app writes it: "Tuesday  January 9, 2024" (en_US)
    or "Tuesday  9 January 2024" (en_GB)."""
    weekday, month = WEEKDAYS[day.weekday()], MONTHS[day.month - 1]
    if f.conventions.day_first:
        return f"{weekday}  {day.day} {month} {day.year}"
    return f"{weekday}  {month} {day.day}, {day.year}"


Shown = tuple[int, str, Handler]
"""An event as a view shows it: its hour, its label, and what a tap on it does."""


def events_on(state: CalendarState, host: Host, day: date) -> list[Shown]:
    """The events on a day, as the day view shows them."""
    offset = (day - today(host.facts)).days
    return [(e.hour, e.title, opener(state.opened, host, e))
            for e in read(host.store(BUNDLE_ID)) if e.days == offset]


_hour = hour_text


def _weekday_header(f: DeviceFacts, y: int) -> list[Node]:
    width = f.width // 7
    order = WEEKDAYS[6:] + WEEKDAYS[:6] if f.conventions.sunday_first else WEEKDAYS
    return [layout.text(name, Rect(i * width + width // 2 - 8, y, 16, 16), pixels_text=name[0])
            for i, name in enumerate(order)]


def _hours(state: CalendarState, f: DeviceFacts, top: int, events: Sequence[Shown]) -> Node:
    def hour_row(hour: int) -> lists.Row:
        titles = [(t, tap) for h, t, tap in events if h == hour]

        def build(frame: Rect) -> Sequence[Node]:
            nodes = [layout.text(_hour(hour), Rect(frame.x, frame.y + 4, 52, 16))]
            nodes += [layout.button(t, Rect(frame.x + 60 + 150 * i, frame.y + 4, 144,
                                            HOUR_HEIGHT - 8), tap)
                      for i, (t, tap) in enumerate(titles[:2])]
            return nodes

        return lists.Row(build=build, height=HOUR_HEIGHT, name=_hour(hour), container="Other")

    viewport = Rect(0, top, f.width, f.height - TOOLBAR_HEIGHT - top)
    return lists.table(state.hours, viewport, [lists.Section(tuple(
        hour_row(h) for h in range(24)))], key="hours",
        # the week strip above is no bar: the list starts under it (as Weather's under its
        # header), so an hour scrolled into the strip is outside the list for finger and log
        frame=lists.under_bars(f, top=viewport.y))


def spoken(day: date, name: str, f: DeviceFacts) -> str:
    """A date button's label: what it shows ("9", "Tue 9"), or for today's, as VoiceOver
    reads it, "Today, " and the date ("Today, Tuesday, January 9")."""
    return f"Today, {f.conventions.long_date(day)}" if day == today(f) else name


def _date_button(state: CalendarState, f: DeviceFacts, day: date, name: str, frame: Rect,
                 selected: bool) -> Node:
    """A button that shows a day: named by what it shows, labelled as `spoken` says; selected
    (the Selected trait) while it is the day shown."""
    return layout.button(spoken(day, name, f), frame, _showing(state, day, "Day"), name=name,
                         selected=selected)


def _day(state: CalendarState, host: Host, shown: date) -> list[Node]:
    f = host.facts
    start, width = week_start(shown, f), f.width // 7
    nodes = _weekday_header(f, layout.NAV_BOTTOM + 4)
    for i in range(7):
        day = start + timedelta(days=i)
        nodes.append(_date_button(state, f, day, str(day.day),
                                  Rect(i * width + 6, layout.NAV_BOTTOM + 24, width - 12, 36),
                                  day == shown))
    line = date_line(shown, f)
    nodes.append(layout.text(line, Rect((f.width - layout.text_width(line)) // 2,
                                        layout.NAV_BOTTOM + 66, layout.text_width(line), 22)))
    return [*nodes, _hours(state, f, layout.NAV_BOTTOM + 96, events_on(state, host, shown))]


def _week(state: CalendarState, host: Host, shown: date) -> list[Node]:
    f = host.facts
    start, width = week_start(shown, f), f.width // 7
    nodes: list[Node] = []
    events: list[Shown] = []
    for i in range(7):
        day = start + timedelta(days=i)
        label = f"{WEEKDAYS[day.weekday()][:3]} {day.day}"
        nodes.append(_date_button(state, f, day, label, Rect(i * width + 2, layout.NAV_BOTTOM + 8,
                                                             width - 4, 40), day == shown))
        events += [(h, f"{label}: {t}", tap) for h, t, tap in events_on(state, host, day)]
    return [*nodes, _hours(state, f, layout.NAV_BOTTOM + 56, events)]


def _month(state: CalendarState, f: DeviceFacts, shown: date) -> list[Node]:
    """A month's grid: today's cell says it is today in its label and is selected, as iOS's
    month grid reports the day its red circle is drawn on; no other day is."""
    first, width = shown.replace(day=1), f.width // 7
    title = MONTHS[shown.month - 1]
    nodes = [layout.text(title, Rect(16, layout.NAV_BOTTOM + 4, layout.text_width(title, 28),
                                     34), header=True)]
    nodes += _weekday_header(f, layout.NAV_BOTTOM + 48)
    lead = _lead(first, f)
    day = first
    while day.month == first.month:
        cell = lead + day.day - 1
        nodes.append(_date_button(state, f, day, str(day.day),
                                  Rect(cell % 7 * width + 4, layout.NAV_BOTTOM + 76
                                       + cell // 7 * 80, width - 8, 72), day == today(f)))
        day += timedelta(days=1)
    return nodes


def _year(state: CalendarState, f: DeviceFacts, shown: date) -> list[Node]:
    nodes = [layout.text(str(shown.year), Rect(16, layout.NAV_BOTTOM + 4, 90, 40), header=True)]
    width = (f.width - 32) // 3
    for i, name in enumerate(MONTHS):
        target = date(shown.year, i + 1, 1)
        nodes.append(layout.button(name, Rect(16 + i % 3 * width, layout.NAV_BOTTOM + 60
                                              + i // 3 * 150, width - 8, 140),
                                   _showing(state, target, "Month")))
    return nodes


def _showing(state: CalendarState, day: date, view: View) -> Handler:
    def show() -> None:
        state.shown, state.view, state.choosing = day, view, False
    return show


def render(state: CalendarState, host: Host) -> Node:
    """The current view under its navigation bar, over the toolbar with Today."""
    f = host.facts
    now = today(f)
    shown = state.shown or now
    if state.opened.showing:
        return calendar_events.render(state.opened, host, now)

    def choose() -> None:
        state.choosing = True

    up: dict[View, tuple[str, View]] = {"Day": (MONTHS[shown.month - 1], "Month"),
                                        "Week": (MONTHS[shown.month - 1], "Month"),
                                        "Month": (str(shown.year), "Year")}
    back, parent = up.get(state.view, (None, state.view))
    # The bar names no page: the real one shows only the way up (the month or year) and tools.
    def search() -> None:
        state.opened.searching, state.opened.search_shown = True, showing()
        host.focus(state.opened.query)

    def add() -> None:
        state.opened.form = new_form(None, (shown - now).days)
        host.focus(state.opened.form.title)

    bar = [layout.button("Search", Rect(f.width - 178, layout.NAV_TOP, 44, 44), search),
           layout.button("Add", Rect(f.width - 124, layout.NAV_TOP, 44, 44), add),
           layout.button("View", Rect(f.width - 70, layout.NAV_TOP, 54, 44), choose)]
    if back is not None:
        # the way up is one page (the month, the year): going up further is its own tap
        bar[:0] = layout.back_controls(f, back, Rect(16, layout.NAV_TOP, 90, 44),
                                       _showing(state, shown, parent), menu=state.back_menu)
    nav = Node("NavigationBar", Rect(0, layout.NAV_TOP, f.width,
                                     layout.NAV_BOTTOM - layout.NAV_TOP), children=tuple(bar))
    body = {"Day": lambda: _day(state, host, shown), "Week": lambda: _week(state, host, shown),
            "Month": lambda: _month(state, f, shown),
            "Year": lambda: _year(state, f, shown)}[state.view]()
    top = f.height - TOOLBAR_HEIGHT
    toolbar = Node("Toolbar", Rect(0, top, f.width, TOOLBAR_HEIGHT), name="Toolbar", children=(
        layout.button("Today", Rect(16, top + 8, 60, 36), _showing(state, now, state.view)),))
    kids = [nav, *body, toolbar]
    if state.choosing:
        def dismiss() -> None:
            state.choosing = False

        kids.append(layout.sheet(f, "View", [(v, _showing(state, shown, v)) for v in VIEWS],
                                 dismiss))
    return layout.screen(f, kids, key=f"calendar:{state.view}")


def on_drag(state: CalendarState, host: Host, drag: Drag) -> bool:
    """Page sideways by a day or week (day, week views), up and down by a month or year."""
    if state.choosing or state.opened.showing or max(abs(drag.dx), abs(drag.dy)) < 60:
        return False
    shown = state.shown or today(host.facts)
    forward = (drag.dx if not drag.vertical else drag.dy) < 0
    step = 1 if forward else -1
    if state.view in ("Day", "Week") and not drag.vertical:
        state.shown = shown + timedelta(days=step * (1 if state.view == "Day" else 7))
    elif state.view == "Month" and drag.vertical:
        state.shown = add_months(shown, step)
    elif state.view == "Year" and drag.vertical:
        state.shown = add_months(shown, 12 * step)
    else:
        return False
    return True


def keep(state: CalendarState) -> str:
    """The view Calendar shows as it stops: it opens on that view again, on today."""
    return state.view


def restore(state: CalendarState, view: str) -> None:
    """Open on the view Calendar stopped on (an unknown name: the day view)."""
    for known in get_args(View):
        if known == view:
            state.view = known


APP = register(AppModel(BUNDLE_ID, "Calendar", CalendarState, render, on_drag=on_drag,
                        rotates=True, keep=keep, restore=restore))
