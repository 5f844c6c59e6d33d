"""Device facts of the simulated iPhone (identity, screen, battery, clock) and its locale.

Defaults describe an iPhone 17 Pro on iOS 26.2 (402x874 points at scale 3), the device of the
reference dumps, set up for the United States (`en_US`, what WDA's `/wda/device/info` reports
as `currentLocale`). The clock is frozen at Apple's 9:41 on a fixed date so that two reads of an
unchanged screen are identical: the harness detects a tap's effect by comparing sources, and a
ticking clock would look like an effect.

One locale drives every screen: `DeviceFacts.conventions` is what apps format dates, times,
temperatures and spellings with ("Notification Center" in en_US, "Notification Centre" in
en_GB), so no app hard-codes a region's habits. A time of day is written 12-hour ("9:41 AM")
or 24-hour ("09:41") by `DeviceFacts.time_of_day`: the locale's habit (a UK phone is 24-hour),
until Settings > General > Date & Time's "24-Hour Time" switch says otherwise (the phone
reads it into `time_format`).

What a task asks an agent to read off the phone (its model and serial numbers, the battery level,
the heading, the temperature) must differ from phone to phone, as on real phones, or an agent
that remembers one phone's values passes without reading. `DeviceFacts.drawn(seed)` is the phone
of a seed: seed 0 is the reference phone (the defaults below), any other seed draws each of
those values from its own generator, plausible for an iPhone 17 Pro in Cupertino.
"""

from __future__ import annotations

import datetime
import os
import random
import re
import secrets
from dataclasses import asdict, dataclass, fields, replace
from datetime import date
from functools import cache, cached_property

from phoneshell.errors import PhoneshellError
from phoneshell.sim.store import JSON, Store

HOUR_24_KEY = "time_24h"
"""The key of the "24-Hour Time" switch in Settings' store."""
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
"""In `date.weekday()` order."""
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")


@dataclass(frozen=True)
class Conventions:
    """How one locale writes what apps show. Screens are written in US English; `spell` turns
    a US word into the locale's own."""

    code: str
    """The locale identifier, as WDA reports it ("en_US")."""
    region: str = "United States"
    """The region's name, as Language & Region shows it."""
    day_first: bool = False
    """Dates read "Tuesday 9 January" (True) or "Tuesday, January 9" (False)."""
    fahrenheit: bool = True
    """Weather shows °F (the US) or °C."""
    sunday_first: bool = True
    """Calendar weeks start on Sunday (the US) or Monday."""
    hour_24: bool = False
    """Times of day are 24-hour by default ("09:41", the UK) or 12-hour ("9:41 AM", the US)."""
    spellings: tuple[tuple[str, str], ...] = ()
    """(US word stem, local stem) pairs, matched at word starts ("Center" -> "Centre")."""

    @cached_property
    def _pattern(self) -> re.Pattern[str] | None:
        if not self.spellings:
            return None
        return re.compile(r"\b(" + "|".join(re.escape(us) for us, _ in self.spellings) + ")")

    def spell(self, text: str) -> str:
        """`text` with US spellings replaced by the locale's ("Optimized" -> "Optimised")."""
        pattern = self._pattern
        if pattern is None:
            return text
        local = dict(self.spellings)
        return pattern.sub(lambda m: local[m.group(1)], text)

    def long_date(self, day: date) -> str:
        """Weekday, month and day, as the lock screen writes them."""
        weekday, month = WEEKDAYS[day.weekday()], MONTHS[day.month - 1]
        if self.day_first:
            return f"{weekday} {day.day} {month}"
        return f"{weekday}, {month} {day.day}"

    def short_date(self, day: date, year: bool = False) -> str:
        """"Jan 31" or "31 Jan" (with the year: "Jan 9, 2027" or "9 Jan 2027")."""
        month = MONTHS[day.month - 1][:3]
        if self.day_first:
            return f"{day.day} {month}" + (f" {day.year}" if year else "")
        return f"{month} {day.day}" + (f", {day.year}" if year else "")

    def temperature(self, fahrenheit: float) -> int:
        """A temperature in the locale's unit, rounded as Weather shows it."""
        return round(fahrenheit if self.fahrenheit else (fahrenheit - 32) * 5 / 9)


_BRITISH = (("Center", "Centre"), ("center", "centre"), ("Favorite", "Favourite"),
            ("favorite", "favourite"), ("Color", "Colour"), ("color", "colour"),
            ("Neighbor", "Neighbour"), ("Optimized", "Optimised"),
            ("Capitalization", "Capitalisation"), ("Customize", "Customise"),
            ("customize", "customise"), ("Organize", "Organise"), ("Gray", "Grey"))
LOCALES = {
    "en_US": Conventions("en_US"),
    "en_GB": Conventions("en_GB", "United Kingdom", day_first=True, fahrenheit=False,
                         sunday_first=False, hour_24=True, spellings=_BRITISH),
}
"""The locales the simulator can show."""


def conventions_for(code: str) -> Conventions:
    """The conventions of a locale identifier.

    Raises:
        PhoneshellError: the simulator does not model that locale.
    """
    found = LOCALES.get(code)
    if found is None:
        raise PhoneshellError(f"the simulated iPhone has no locale {code!r}",
                              hint=f"use one of: {', '.join(LOCALES)}")
    return found


REGIONS = (("LL/A", "A3256"), ("VC/A", "A3522"), ("J/A", "A3522"), ("CH/A", "A3523"),
           ("ZA/A", "A3523"), ("B/A", "A3524"), ("X/A", "A3524"))
"""(part number suffix, regulatory model number) of the regions an iPhone 17 Pro is sold in:
the suffix says the region the phone was made for (LL/A the US), the "A" number differs with
its radios. Plausible forms for a drawn phone, not Apple's list."""
BATTERY_PERCENT = (20, 99)
TEMPERATURE_F = (38, 92)
"""Cupertino's range over a year, roughly: a drawn temperature lies within it."""
SEED_VARIABLE = "PHONESHELL_SIM_SEED"
"""Fixes the seed of every simulated iPhone phoneshell starts (`phoneshell sim` without
`--seed`, `--device sim` and `sim:N`): tests, and a replay of a recorded run's phones."""


def pick_seed(given: int | None = None) -> int:
    """The seed of a simulated iPhone being started: `given`, else `SEED_VARIABLE`'s, else a
    fresh one (1 to 2**63-1), so that each phone started is another phone.

    Raises:
        PhoneshellError: the variable is set to something other than a whole number >= 0.
    """
    if given is None:
        text = os.environ.get(SEED_VARIABLE, "").strip()
        if not text:
            return secrets.randbelow(2**63 - 1) + 1
        if not (text.isascii() and text.isdigit()):
            raise PhoneshellError(f"{SEED_VARIABLE}={text!r} is not a seed",
                                  hint="a whole number: 0 is the reference phone")
        given = int(text)
    if given < 0:
        raise PhoneshellError(f"seed {given} is negative", hint="0 is the reference phone")
    return given


_UPPER, _DIGITS = "ABCDEFGHJKLMNPQRSTUVWXYZ", "0123456789"
_SERIAL = "BCDFGHJKLMNPQRTVWXYZ0123456789"
"""Apple's randomised serial numbers (2021 on) are ten letters and digits, no vowels."""


@dataclass(frozen=True)
class DeviceFacts:
    """What the phone says about itself (About page, /status, device/info, screen size)."""

    name: str = "iPhone"
    """The user-visible device name (Settings > General > About > Name)."""
    model: str = "iPhone 17 Pro"
    """Model Name on the About page."""
    model_number: str = "MQ163LL/A"
    """Model Number on the About page (cell `ProductModel`): the part number it shows first."""
    regulatory_model: str = "A3256"
    """The model number a tap on the Model Number row shows instead of the part number (the
    "A" number printed on the phone; A3256 is the iPhone 17 Pro's, as its iOS 26.2 simulator
    writes it in "A3256LL/A")."""
    serial: str = "F4GZK7Q2XM"
    """Serial Number on the About page (cell `SerialNumber`)."""
    ios_version: str = "26.2"
    udid: str = "00008150-001A24E11E78801C"
    width: int = 402
    """Screen width in points."""
    height: int = 874
    """Screen height in points."""
    scale: int = 3
    """Pixels per point: screenshots are width*scale x height*scale pixels."""
    capacity: str = "256 GB"
    available: str = "201.35 GB"
    battery_level: float = 0.87
    """0.0 to 1.0; the Battery page shows it as a percentage."""
    battery_state: int = 1
    """UIDeviceBatteryState: 1 unplugged, 2 charging, 3 full."""
    locale: str = "en_US"
    """The region format every screen follows (see `conventions`); en_US or en_GB."""
    time_zone: str = "America/Los_Angeles"
    time: str = "9:41"
    """The wall time, 24-hour "H:MM", frozen (see the module docstring)."""
    date: str = "2024-01-09"
    """Today, ISO 8601 (a Tuesday), frozen like the time."""
    time_format: str = ""
    """How times of day show: "12" ("9:41 AM"), "24" ("09:41"), or "" for the locale's habit
    (24-hour in en_GB). The phone sets it from Settings' "24-Hour Time" switch once it is
    turned (`Phone.facts`)."""
    wifi_network: str = "HomeNet"
    """The network Wi-Fi is joined to while the Wi-Fi switch is on."""
    heading: int = 274
    """Which way the phone points, whole degrees from north (Compass shows it, "274° W"); the
    Compass store's `heading` overrides it."""
    temperature_f: int = 57
    """The temperature where the phone is, °F (Weather's My Location); the Weather store's
    `temperature` overrides it."""

    @classmethod
    def drawn(cls, seed: int) -> DeviceFacts:
        """The phone of `seed`: 0 is the reference phone (the defaults); any other seed draws
        the values tasks ask agents to read (`model_number`, `regulatory_model`, `serial`,
        `udid`, `battery_level`, `heading`, `temperature_f`; the rest are the reference
        phone's), each from its own generator, so that knowing one (the udid /status shows)
        tells nothing of another."""
        if seed == 0:
            return cls()

        def rng(name: str) -> random.Random:
            return random.Random(f"phoneshell-sim:{seed}:{name}")

        part, regulatory = rng("region").choice(REGIONS)
        letters = rng("model_number")
        model_number = ("M" + letters.choice(_UPPER) + letters.choice(_UPPER + _DIGITS)
                        + letters.choice(_DIGITS) + letters.choice(_UPPER + _DIGITS) + part)
        chars = rng("serial")
        serial = "".join(chars.choice(_SERIAL) for _ in range(10))
        return cls(model_number=model_number, regulatory_model=regulatory, serial=serial,
                   udid=f"00008150-{rng('udid').getrandbits(56):016X}",
                   battery_level=rng("battery").randint(*BATTERY_PERCENT) / 100,
                   heading=rng("heading").randrange(360),
                   temperature_f=rng("temperature").randint(*TEMPERATURE_F))

    def __post_init__(self) -> None:
        conventions_for(self.locale)
        try:
            date.fromisoformat(self.date)
        except ValueError as exc:
            raise PhoneshellError(f"device fact 'date' must be YYYY-MM-DD, not {self.date!r}",
                                  hint='e.g. "2024-01-09"') from exc
        if not re.fullmatch(r"([01]?\d|2[0-3]):[0-5]\d", self.time):
            raise PhoneshellError(f"device fact 'time' must be 24-hour H:MM, not {self.time!r}",
                                  hint='e.g. "9:41" or "17:05"')
        if self.time_format not in ("", "12", "24"):
            raise PhoneshellError(f"device fact 'time_format' must be \"12\", \"24\" or \"\" "
                                  f"(the locale's), not {self.time_format!r}",
                                  hint="24-hour time is Settings > General > Date & Time")

    @property
    def conventions(self) -> Conventions:
        """How this phone's locale writes dates, temperatures and words."""
        return conventions_for(self.locale)

    @property
    def today(self) -> datetime.date:
        """The phone's (frozen) date."""
        return datetime.date.fromisoformat(self.date)

    @property
    def clock(self) -> tuple[int, int]:
        """The wall time as (hour 0-23, minute)."""
        hour, minute = self.time.split(":")
        return int(hour), int(minute)

    @property
    def hour_24(self) -> bool:
        """Whether times of day show 24-hour (`time_format`, else the locale's habit)."""
        return self.time_format == "24" if self.time_format else self.conventions.hour_24

    def time_parts(self, hour: int, minute: int) -> tuple[str, str]:
        """A time of day (hour 0-23) as Clock's rows draw it: the digits and the AM or PM
        beside them, ("7:30", "AM"); 24-hour, ("07:30", "")."""
        if self.hour_24:
            return f"{hour:02d}:{minute:02d}", ""
        return f"{(hour + 11) % 12 + 1}:{minute:02d}", "AM" if hour < 12 else "PM"

    def time_of_day(self, hour: int, minute: int) -> str:
        """A time of day (hour 0-23) as iOS writes it: "7:30 AM", or "07:30" 24-hour."""
        clock, period = self.time_parts(hour, minute)
        return f"{clock} {period}" if period else clock

    @property
    def time_text(self) -> str:
        """The wall time as VoiceOver reads the status bar: "9:41 AM" (24-hour: "09:41")."""
        return self.time_of_day(*self.clock)

    @property
    def clock_face(self) -> str:
        """The wall time as the status bar and lock screen draw it, without AM/PM: "9:41"
        (24-hour: "09:41")."""
        return self.time_parts(*self.clock)[0]

    @property
    def date_text(self) -> str:
        """Today as the lock screen and Notification Center write it."""
        return self.conventions.long_date(self.today)

    @property
    def battery_percent(self) -> str:
        """The battery level as the Battery page shows it, e.g. "87%"."""
        return f"{round(self.battery_level * 100)}%"

    def to_json(self) -> dict[str, JSON]:
        """Every fact as a JSON object (for the state route and state files)."""
        return dict(asdict(self))

    def overrides(self) -> dict[str, JSON]:
        """The facts that differ from the defaults (what a state file's "facts" holds)."""
        default = DeviceFacts().to_json()
        return {k: v for k, v in self.to_json().items() if v != default[k]}

    def updated(self, data: dict[str, JSON]) -> DeviceFacts:
        """A copy with the given facts replaced; unknown keys or wrong types are an error.

        Raises:
            PhoneshellError: a key that is not a fact, a value of the wrong type, or a value
                the phone cannot show (an unknown locale, a malformed date).
        """
        known = {f.name: type(getattr(self, f.name)) for f in fields(self)}
        changes: dict[str, object] = {}
        for key, value in data.items():
            want = known.get(key)
            if want is None:
                raise PhoneshellError(f"unknown device fact {key!r}",
                                      hint=f"device facts are: {', '.join(known)}")
            if want is float and isinstance(value, int) and not isinstance(value, bool):
                value = float(value)
            if not isinstance(value, want) or isinstance(value, bool) != (want is bool):
                raise PhoneshellError(f"device fact {key!r} must be {want.__name__}, "
                                      f"not {value!r}", hint="fix the state file's facts")
            changes[key] = value
        return replace(self, **changes)  # type: ignore[arg-type]


def as_switched(facts: DeviceFacts, settings: Store | None) -> DeviceFacts:
    """`facts` as Settings' "24-Hour Time" switch (`HOUR_24_KEY` in its store) shows times,
    once the switch has been turned (before that, the locale's habit or the `time_format`
    fact)."""
    value = settings.data.get(HOUR_24_KEY) if settings is not None else None
    if not isinstance(value, bool):
        return facts
    return _formatted(facts, "24" if value else "12")


@cache
def _formatted(facts: DeviceFacts, time_format: str) -> DeviceFacts:
    # Apps read the facts many times a render; one copy per phone and setting will do.
    return facts if facts.time_format == time_format else replace(facts, time_format=time_format)
