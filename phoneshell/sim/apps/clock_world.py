"""Clock's World Clock tab: the cities from Clock's store with their times, and the city chooser.

Cities live in Clock's persistent store (`cities`: records with a `city` name; a phone that
never changed them shows Cupertino, as a new iPhone in the US does). Each row is a Cell
labelled "London, 5:41 PM" ("London, 17:41" on a 24-hour phone) with the day and offset
("Today, +8HRS"), the city and the time as texts. Times come from the phone's frozen wall time
(`facts.time`) and each city's offset from the phone's time zone (America/Los_Angeles, in
January), so they never tick. "Add" opens a
sheet ("Choose a City.") with a search field that filters the cities; tapping one adds it.
Rows are deleted like alarms (`clock_lists`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from phoneshell.sim import layout, lists
from phoneshell.sim.apps import Drag, Host
from phoneshell.sim.apps.clock_alarms import BUNDLE_ID, wall_time
from phoneshell.sim.apps.clock_lists import ListRow, ListState, place, swipe, table
from phoneshell.sim.facts import DeviceFacts
from phoneshell.sim.keyboard import above_keyboard
from phoneshell.sim.store import Store
from phoneshell.sim.ui import EditText, Handler, Node, Rect, Scroll

STORE_KEY = "cities"
DEFAULT_CITIES = ("Cupertino",)
CITIES: dict[str, float] = {
    "Cupertino": 0, "Honolulu": -2, "Denver": 1, "Chicago": 2, "New York": 3, "London": 8,
    "Paris": 9, "Berlin": 9, "Dubai": 12, "Mumbai": 13.5, "Beijing": 16, "Tokyo": 17,
    "Sydney": 19,
}
"""Hours ahead of the phone's time zone (America/Los_Angeles) in January."""


@dataclass
class WorldState:
    """The list's UI state, and the city chooser's search field while it is open."""

    rows: ListState = field(default_factory=ListState)
    chooser: EditText | None = None
    chooser_scroll: Scroll = field(default_factory=Scroll)


def cities(store: Store) -> list[str]:
    """The cities shown, in the order they were added."""
    stored = store.data.get(STORE_KEY)
    if not isinstance(stored, list):
        return list(DEFAULT_CITIES)
    names = [r.get("city") for r in stored if isinstance(r, dict)]
    return [n for n in names if isinstance(n, str) and n in CITIES]


def _put(store: Store, names: Sequence[str]) -> None:
    store.put(STORE_KEY, [{"city": n} for n in names])


def city_time(facts: DeviceFacts, city: str) -> tuple[str, str]:
    """("5:41 PM", "Today, +8HRS") for a city at the phone's wall time (24-hour: "17:41")."""
    hour, minute = wall_time(facts)
    offset = CITIES.get(city, 0)
    total = hour * 60 + minute + round(offset * 60)
    day = "Today" if 0 <= total < 1440 else "Tomorrow" if total >= 1440 else "Yesterday"
    total %= 1440
    h, m = divmod(total, 60)
    whole, half = int(abs(offset)), abs(offset) % 1
    shift = f"{'-' if offset < 0 else '+'}{whole}{':30' if half else ''}HRS"
    return facts.time_of_day(h, m), f"{day}, {shift}"


def _viewport(facts: DeviceFacts) -> Rect:
    top = layout.LARGE_NAV_BOTTOM
    return Rect(0, top, facts.width, facts.height - layout.TAB_BAR_HEIGHT - top)


def _rows(host: Host) -> list[ListRow]:
    store, f = host.store(BUNDLE_ID), host.facts
    rows = []
    for city in cities(store):
        time_text, day = city_time(f, city)

        def content(frame: Rect, city: str = city, time_text: str = time_text,
                    day: str = day) -> Sequence[Node]:
            clock, _, period = time_text.partition(" ")
            width = layout.text_width(clock, 52)
            right = frame.x + frame.width - 16
            shown = [layout.text(day, Rect(frame.x + 16, frame.y + 18, 150, 18)),
                     layout.text(city, Rect(frame.x + 16, frame.y + 40, 170, 34))]
            if not period:  # 24-hour: no AM or PM beside the digits
                return [*shown, layout.text(clock, Rect(right - width, frame.y + 20, width, 58))]
            return [*shown,
                    layout.text(clock, Rect(right - 40 - width, frame.y + 20, width, 58)),
                    layout.text(period, Rect(right - 36, frame.y + 46, 36, 26))]

        def delete(city: str = city) -> None:
            _put(store, [c for c in cities(store) if c != city])

        rows.append(ListRow(f"city:{city}", f"{city}, {time_text}", content, delete))
    return rows


def screen(state: WorldState, host: Host) -> list[Node]:
    """The World Clock tab under its navigation bar (Edit on the left, Add on the right)."""
    f = host.facts

    def add() -> None:
        state.rows.revealed = None
        state.chooser = EditText("Search", return_key="search")
        state.chooser_scroll = Scroll()
        host.focus(state.chooser)

    edit = layout.button("Done" if state.rows.editing else "Edit",
                         Rect(16, layout.NAV_TOP, 60, 44), state.rows.toggle_editing)
    plus = Node("Button", Rect(f.width - 60, layout.NAV_TOP, 44, 44), label="Add", name="Add",
                on_tap=add, pixels_text="+")
    nav = layout.nav_bar(f, "World Clock", large=True, trailing=[edit, plus])
    return [nav, table(state.rows, _viewport(f), _rows(host), key="cities",
                  frame=lists.under_bars(f))]


def swipe_row(state: WorldState, host: Host, drag: Drag) -> bool:
    """Swipe-to-delete on the list (not while the chooser is up)."""
    if state.chooser is not None:
        return False
    viewport = _viewport(host.facts)
    return swipe(state.rows, place(state.rows, viewport, _rows(host)), viewport, drag)


def sheet(state: WorldState, host: Host) -> Node | None:
    """The city chooser, when open."""
    query = state.chooser
    if query is None:
        return None
    f, store = host.facts, host.store(BUNDLE_ID)

    def close() -> None:
        host.focus(None)
        state.chooser = None

    def chooser(city: str) -> Handler:
        def choose() -> None:
            shown = cities(store)
            if city not in shown:
                _put(store, [*shown, city])
            close()
        return choose

    wanted = query.text.strip().lower()
    found = [c for c in CITIES if wanted in c.lower()]
    rows = tuple(lists.Row(c, on_tap=chooser(c)) for c in found) or (lists.Row("No Results"),)
    # iOS's chooser is a search controller in the sheet's navigation bar: the bar, titled,
    # holds the field and its Cancel, and the list lies under it from the sheet's top.
    field_at = Rect(16, layout.SEARCH_TOP, f.width - 102, 36)
    bar = layout.nav_bar(f, "Choose a City.", search=[
        layout.search_field(query, field_at),
        layout.button("Cancel", Rect(f.width - 80, field_at.y, 70, 36), close)])
    top = bar.frame.y + bar.frame.height
    # UIKit insets the list by the keyboard over it: cities under the keyboard scroll up.
    shown = above_keyboard(f, Rect(0, top, f.width, f.height - top), query.focused)
    chosen = lists.table(state.chooser_scroll, shown,
                         [lists.Section(rows)], key="city-chooser",
                         frame=lists.under_bars(f, layout.NAV_TOP))
    return layout.page_sheet(f, bar, [chosen], dismiss=close, key="city-sheet")
