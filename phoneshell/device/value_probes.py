"""Value probes: the values answer checks compare an agent's answer with, read off the phone.

Each reads what a fresh start of its app shows (the note edited last, a Settings row, the
battery readout, the temperature, the heading) and stops the app again; see `probes` for how a
probe runs and fails.
"""

from __future__ import annotations

import re
from weakref import WeakKeyDictionary

from phoneshell.checks.values import EITHER
from phoneshell.device.phone import Phone
from phoneshell.device.probes import (
    NO_RESULTS,
    NOTES,
    SCROLLS,
    ProbeError,
    fresh_app,
    has_search_field,
    probe,
    stop_app,
)
from phoneshell.device.steps import scroll_points
from phoneshell.errors import DeviceError
from phoneshell.patterns import compile_pattern
from phoneshell.tasks import Step
from phoneshell.tree import Element, PageSource
from phoneshell.xcui import SETTINGS

WEATHER, COMPASS = "com.apple.weather", "com.apple.compass"


@probe("newest_note")
def newest_note(phone: Phone, arg: str) -> str:
    """The text of the note at the top of Notes' list (the one edited last: Notes sorts by date
    edited), read from its text view after opening it."""
    page = fresh_app(phone, NOTES, ready=has_search_field)  # the list, not a note
    cells = [e for e in page.on_screen() if e.type == "XCUIElementTypeCell"
             and e.label.strip().lower() not in NO_RESULTS]
    if not cells:
        raise ProbeError(f"Notes lists no note; it shows {page.summary()}")
    top = min(cells, key=lambda e: e.y)
    phone.tap(*top.centre)
    opened: list[PageSource] = []

    def note_open() -> bool:
        opened[:] = [phone.page()]
        return any(e.type == "XCUIElementTypeTextView" for e in opened[0].on_screen())

    if not phone.poll(note_open, phone.effect_timeout_s):
        raise ProbeError(f"the note {top.label!r} did not open; Notes shows "
                         f"{opened[0].summary() if opened else 'nothing'}")
    view = next(e for e in opened[0].on_screen() if e.type == "XCUIElementTypeTextView")
    stop_app(phone, NOTES)
    return view.value



def _row_cell(page: PageSource, label: str) -> Element | None:
    """The settings row labelled "LABEL, VALUE" (how iOS labels them)."""
    prefix = label.strip().lower() + ", "
    for element in page.on_screen():
        if element.type == "XCUIElementTypeCell" and element.label.lower().startswith(prefix):
            return element
    return None


def _row_value(page: PageSource, label: str) -> str | None:
    """The value of a settings row: the cell labelled "LABEL, VALUE"."""
    cell = _row_cell(page, label)
    return None if cell is None else cell.label[len(label.strip()) + 2:].strip()


TAPPED_NOTATIONS = ("Model Number",)
"""Rows a tap switches to another notation of the same value (Model Number: the part number
MQ163LL/A, then the regulatory model number A3256). Both are read, the row's own first: it
answers; the other may be named beside it (`answer._notations`)."""


def _other_notation(phone: Phone, page: PageSource, row: str, value: str) -> str:
    """`value` and, for a row of `TAPPED_NOTATIONS`, the notation a tap on it shows, joined
    by `EITHER`; the value alone when the tap showed nothing else."""
    cell = _row_cell(page, row)
    if row not in TAPPED_NOTATIONS or cell is None:
        return value
    phone.tap(cell.x + cell.width / 2, cell.y + cell.height / 2)
    other = _row_value(phone.page(), row)
    return value if not other or other == value else f"{value}{EITHER}{other}"


@probe("settings_value")
def settings_value(phone: Phone, arg: str) -> str:
    """The value of a Settings row, by path: `General > About > Model Number` opens General,
    then About, and reads the row "Model Number" (scrolling down to it if needed), as a fresh
    Settings shows it, whatever the agent tapped; a row a tap shows in another notation
    (`TAPPED_NOTATIONS`) is read in both, the row's own first: "MQ163LL/A | A3256"."""
    *pages, row = [part.strip() for part in arg.split(">")]
    page = fresh_app(phone, SETTINGS, *(Step("tap", p) for p in pages))
    for _ in range(SCROLLS):
        value = _row_value(page, row)
        if value is not None:
            value = _other_notation(phone, page, row, value)
            stop_app(phone, SETTINGS)
            return value
        start, end = scroll_points(phone, "down")
        phone.drag(start, end)
        page = phone.page()
    raise ProbeError(f"no row {row!r} under Settings > {' > '.join(pages)}")


BATTERY_READOUT = re.compile(r"^\s*(\d{1,3})\s?%\s*(?:,|$)")
"""iOS 26's Battery readout: a label that is the level, or starts with it ("87%, Last Charged
to 100%, 8:12 AM"); a row of Daily Usage reads "Safari, 24%" and never matches."""


@probe("battery_level")
def battery_level(phone: Phone, arg: str) -> str:
    """The charge Settings > Battery shows in the large readout at its top (iOS 26: there is no
    "Battery Level" row), as "87%": the first thing on the page, below its navigation bar,
    whose label is a percentage or starts with one."""
    page = fresh_app(phone, SETTINGS, Step("tap", "Battery"))
    bars = [e for e in page.on_screen() if e.short_type == "NavigationBar"]
    if not bars or bars[-1].name != "Battery":
        raise ProbeError(f"Settings' Battery page did not open; it shows {page.summary()}")
    below = bars[-1].y + bars[-1].height
    for element in page.on_screen():
        match = BATTERY_READOUT.match(element.label)
        if match is not None and element.y >= below:
            stop_app(phone, SETTINGS)
            return f"{int(match.group(1))}%"
    raise ProbeError(f"no battery readout on Settings > Battery; it shows {page.summary()}")


def _first_match(page: PageSource, pattern: str, what: str) -> str:
    hit = page.search(compile_pattern(pattern))
    if hit is None:
        raise ProbeError(f"no {what} on screen; it shows {page.summary()}")
    return hit.matched


@probe("weather_temperature")
def weather_temperature(phone: Phone, arg: str) -> str:
    """The current temperature Weather shows for My Location when it opens, with the scale
    the phone's locale implies (`temperature_scale`: "57°F"; "57°" when it says none)."""
    value = _first_match(fresh_app(phone, WEATHER), r"^-?\d+°$", "temperature")
    stop_app(phone, WEATHER)
    return value + temperature_scale(phone)


FAHRENHEIT_REGIONS = frozenset(["US", "PR", "GU", "VI", "AS", "MP", "UM", "BS", "BZ", "KY", "PW",
                                "LR", "FM", "MH"])
"""The regions whose phones show °F (the US and its territories, the Bahamas, Belize, the
Cayman Islands, Palau, Liberia, Micronesia, the Marshall Islands); every other shows °C."""
_SCALES: WeakKeyDictionary[Phone, str] = WeakKeyDictionary()


def locale_scale(locale: str) -> str:
    """The temperature scale ("F" or "C") a phone of `locale` shows, as WDA writes its
    `currentLocale` ("en_US", "en_US@rg=gbzzzz", "en_GB@mu=fahrenheit"): a unit override
    (`mu`, CLDR's keyword for Settings > General > Language & Region > Temperature) first,
    then the region (`rg`, else the identifier's own); "" when it names none."""
    unit = re.search(r"(?i)\bmu[=-](celsius|fahrenheit)", locale)
    if unit:
        return unit.group(1)[0].upper()
    region = (re.search(r"(?i)\brg[=-]([a-z]{2})", locale)  # "en_US@rg=gbzzzz": the UK's
              or re.match(r"[A-Za-z]{2,3}[_-](?:[A-Za-z]{4}[_-])?([A-Za-z]{2})(?![A-Za-z])",
                          locale))
    if region is None:
        return ""
    return "F" if region.group(1).upper() in FAHRENHEIT_REGIONS else "C"


def temperature_scale(phone: Phone) -> str:
    """The scale `phone`'s Weather writes its degrees in ("F", "C"), which the screen does not
    show: inferred from its locale (`locale_scale`), read once per `Phone` (a run's, so one
    request a run); "" when WDA does not say."""
    if phone not in _SCALES:
        try:
            info = phone.device_info()
        except DeviceError:
            return ""  # unknown: a written °C or °F is then taken at its number
        _SCALES[phone] = locale_scale(str(info.get("currentLocale", "")))
    return _SCALES[phone]


@probe("compass_heading")
def compass_heading(phone: Phone, arg: str) -> str:
    """The heading Compass shows (e.g. "274° W")."""
    value = _first_match(fresh_app(phone, COMPASS), r"^\d+°\s*(N|NE|E|SE|S|SW|W|NW)$", "heading")
    stop_app(phone, COMPASS)
    return value
