"""Weather (com.apple.weather): a page per saved location, and the list of locations.

The app opens on "My Location": the place name, the city, the current temperature ("57°"),
the conditions and the day's high and low, over a scrollable forecast (hourly, then ten days).
A horizontal swipe moves between saved locations; the "List" button shows every location with
a search field that filters them, and tapping one opens its page.

The weather is data in `PLACES`, in °F, shown in the locale's unit (°F in en_US, °C in en_GB),
but for My Location's temperature, which is where the phone is (`DeviceFacts.temperature_f`: 57°
on the reference phone, drawn per simulated phone from its seed), its high and low and the
hours' forecast following it. A state file may set My Location's reading through the app's
store: `temperature` (a number, °F) and `conditions` (text), e.g.
`{"com.apple.weather": {"temperature": 64}}`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from phoneshell.sim import layout, lists
from phoneshell.sim.apps import AppModel, Drag, Host, register
from phoneshell.sim.facts import WEEKDAYS, DeviceFacts
from phoneshell.sim.ui import EditText, Handler, Node, Rect, Scroll, showing

BUNDLE_ID = "com.apple.weather"
MY_LOCATION = "My Location"


@dataclass(frozen=True)
class Place:
    """One saved location and its (fixed) weather, in °F."""

    name: str
    city: str
    temperature: int
    conditions: str
    high: int
    low: int
    local_time: str
    """The time there, shown in the locations list under the name."""


PLACES = (
    Place(MY_LOCATION, "Cupertino", 57, "Partly Cloudy", 61, 44, "9:41"),
    Place("London", "London", 46, "Light Rain", 48, 39, "17:41"),
    Place("Tokyo", "Tokyo", 41, "Clear", 49, 34, "02:41"),
    Place("New York", "New York", 30, "Snow", 33, 24, "12:41"),
)
HOURS = ("Now", "10AM", "11AM", "12PM", "1PM", "2PM")
HOURLY_STEPS = (0, 1, 2, 3, 4, 3)
"""How far each hour's temperature is above the current one."""
TOOLBAR_TOP = 800


@dataclass
class WeatherState:
    """Which location page shows, whether the locations list is open, and its search."""

    page: int = 0
    listing: bool = False
    shown: int = 0
    """The showing (`ui.showing`) of the list or the pages, whichever shows: each shown
    again is new views, with new ids (paging between places keeps the pages')."""
    forecast: Scroll = field(default_factory=Scroll)
    places: Scroll = field(default_factory=Scroll)
    query: EditText = field(default_factory=lambda: EditText("Search for a city or airport",
                                                       return_key="search"))


def places(host: Host) -> tuple[Place, ...]:
    """The saved locations, My Location's reading the phone's own (its facts), or the store's
    when set; the day's high and low keep their distance from it."""
    store = host.store(BUNDLE_ID)
    here = PLACES[0]
    now = round(store.number("temperature", host.facts.temperature_f))
    here = replace(here, temperature=now, conditions=store.text("conditions", here.conditions),
                   high=now + here.high - here.temperature, low=now + here.low - here.temperature)
    return (here, *PLACES[1:])


def _days(f: DeviceFacts) -> list[str]:
    """"Today" and the next nine weekdays, counted from the phone's date."""
    start = f.today.weekday()
    return ["Today"] + [WEEKDAYS[(start + i) % 7][:3] for i in range(1, 10)]


def _hourly(place: Place, f: DeviceFacts) -> lists.Row:
    def build(frame: Rect) -> Sequence[Node]:
        width = frame.width // len(HOURS)
        nodes = []
        for i, (hour, step) in enumerate(zip(HOURS, HOURLY_STEPS, strict=True)):
            x = frame.x + i * width
            nodes.append(layout.text(hour, Rect(x + 8, frame.y + 14, width - 16, 20)))
            nodes.append(layout.text(f"{f.conventions.temperature(place.temperature + step)}°",
                                     Rect(x + 8, frame.y + 60, width - 16, 22)))
        return nodes

    return lists.Row(build=build, height=100, name="Hourly Forecast")


def _page(state: WeatherState, host: Host) -> Node:
    f = host.facts
    shown = places(host)
    index = min(state.page, len(shown) - 1)
    place = shown[index]
    header = [layout.centred_text(f, place.name, 80, 34)]
    if place.name == MY_LOCATION:
        header.append(layout.centred_text(f, place.city, 124, 15))
    deg = f.conventions.temperature
    header += [layout.centred_text(f, f"{deg(place.temperature)}°", 150, 96),
               layout.centred_text(f, place.conditions, 268, 20),
               layout.centred_text(f, f"H:{deg(place.high)}°  L:{deg(place.low)}°", 296, 20)]
    days = _days(f)
    ten_day = tuple(lists.Row(day, detail=f"{deg(place.low - i % 3)}° – "
                                          f"{deg(place.high + i % 4)}°")
                    for i, day in enumerate(days))
    sections = [lists.Section((_hourly(place, f),), header="Hourly Forecast"),
                lists.Section(ten_day, header="10-Day Forecast")]
    viewport = Rect(0, 340, f.width, TOOLBAR_TOP - 340)
    # The place's header is no bar: the list starts under it (spanning only the toolbar), so
    # a row scrolled up into the header's band is outside the list's frame, for the finger and
    # for the bridge alike (RT136-2: the bridge named a row where the sim's list took nothing).
    table = lists.table(state.forecast, viewport, sections, key=f"forecast:{place.name}",
                        frame=lists.under_bars(f, top=viewport.y))

    def open_list() -> None:
        state.listing, state.shown = True, showing()

    dots = Node("PageIndicator", Rect(f.width // 2 - 40, TOOLBAR_TOP + 8, 80, 28),
                name="Page control", value=f"page {index + 1} of {len(shown)}",
                traits="Adjustable")
    toolbar = Node("Toolbar", Rect(0, TOOLBAR_TOP, f.width, f.height - TOOLBAR_TOP),
                   name="Toolbar", children=(
                       dots, layout.button("List", Rect(f.width - 60, TOOLBAR_TOP + 4, 44, 36),
                                           open_list)))
    return layout.screen(f, [*header, table, toolbar], key=f"weather:{place.name}@{state.shown}")


def _opener(state: WeatherState, host: Host, index: int) -> Handler:
    def open_place() -> None:
        host.focus(None)
        state.query.text = ""
        state.page, state.listing, state.shown = index, False, showing()
        state.forecast.offset = 0
    return open_place


def _listing(state: WeatherState, host: Host) -> Node:
    f = host.facts
    query = state.query
    wanted = query.text.strip().lower()
    rows = tuple(
        lists.Row(p.name, subtitle=p.city if p.name == MY_LOCATION else p.local_time,
                  detail=f"{f.conventions.temperature(p.temperature)}°", height=76,
                  on_tap=_opener(state, host, i))
        for i, p in enumerate(places(host))
        if not wanted or wanted in p.name.lower() or wanted in p.city.lower())
    sections = [lists.Section((lists.search_row(query, host),))]
    sections.append(lists.Section(rows) if rows
                    else lists.Section((lists.Row("No Results"),)))
    viewport = Rect(0, layout.LARGE_NAV_BOTTOM, f.width, f.height - layout.LARGE_NAV_BOTTOM)
    return layout.screen(f, [layout.nav_bar(f, "Weather", large=True),
                             lists.table(state.places, viewport, sections, key="places",
                                         frame=lists.under_bars(f))],
                         key=f"weather:list@{state.shown}")


def render(state: WeatherState, host: Host) -> Node:
    """A location's page, or the list of locations."""
    return _listing(state, host) if state.listing else _page(state, host)


def on_drag(state: WeatherState, host: Host, drag: Drag) -> bool:
    """Swipe left or right between location pages, as on the real app."""
    if state.listing or drag.vertical or abs(drag.dx) < 60:
        return False
    count = len(PLACES)
    state.page = max(0, min(count - 1, state.page + (1 if drag.dx < 0 else -1)))
    state.forecast.offset = 0
    return True


APP = register(AppModel(BUNDLE_ID, "Weather", WeatherState, render, on_drag=on_drag))
