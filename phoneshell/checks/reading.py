"""How the answer kinds read a text: its spelling folded, its numbers with their units. Pure.

Both sides of an answer check, the agent's answer and the value it must name, are read by
`read` first: `spelling.plain` (quote shapes, no-break spaces, NFKC, invisible characters),
after turning the degree look-alikes NFKC would spell otherwise (º, ˚, ⁰ after a number) into
°, and with a space put between two letters of different scripts ("这个词是LANTERN" holds the
word LANTERN, as its reader sees), and between a digit and a letter of a script other than
Latin ("电量86%" holds 86%: Chinese and Japanese put no space between words).

A number is read as people write it (`numbers`): thousands in groups of three after a comma, a
Swiss apostrophe or a space ("1,234", "1'234", "1 234": iOS's no-break spaces are spaces once
read); a decimal point (always: "1.234" is never German thousands), or a decimal comma where it
cannot group thousands (a comma right between digits, before one, two, or four or more of them
and no other comma: "12,5" is 12.5, "1,234" stays 1234, "21, 22" and "1,5,7" are lists); a time
("4:59", and "19h05" as the French write it) and a version ("26.2.1") as one value; a sign
("-", "minus"; "3° below zero" is -3°); a range's second number ("57-58" is 57 and 58); a number
after a unit's full stop or colon ("87%.86", "57°:58"). A number glued to Latin letters other
than its unit (the 163 of MQ163LL/A) is part of a word (`rival_numbers` reads "86ish" as a
number too). Numbers spelt out are not read here (`rival_numbers.spelt` reads them).

Its unit follows it (or, for money, may come before it): degrees and percent as `_UNIT` reads
them, or a word unit of `WORD_UNITS` ("256 GB", "256GB" and "256 gigabytes" are one quantity;
"$5", "5 USD" and "5 dollars" another). Each unit is of a *measure* (`measure`): the kind of
quantity it counts, so "1 TB" is another capacity beside "256 GB". A number with no unit
(`unit` "") is bare; a word after it that is no unit ("42 songs") stays a word. A range or a
list writes its unit once, after its last number: the bare numbers joined to it take it ("272
to 276°", "57, 58 or 59°"); or after its first, when the bare numbers after it count nothing
("256 GB or 512", "57°, 58", but "$6, 5 items"). A time takes AM or PM after it ("7:05pm",
"7:05 p.m.", and "7 pm" is 19:00), on the 24-hour clock: "19:05" is 7:05 PM (`Number.half`).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass
from decimal import Decimal

from phoneshell.spelling import plain

# A time first, so "4:59" is one value and not two numbers; then thousands (a comma, a Swiss
# apostrophe or a space before each group of three), a decimal comma where no group of three can
# follow it, a plain number. A number may follow a digit and a hyphen: a range's second end
# ("57-58", "57°-58°", where the hyphen is no minus sign); a letter's colon or dot, which ends
# a label ("Battery:88%", "heading.274°"), and a unit's, which ends a number ("87%.86", "57°:58"),
# or an ellipsis ("87%...86", "26..27"): only after a digit do they join one number to the next
# (a time's or a version's parts, read whole above). A sign is "-" or "minus".
_NUMBER = re.compile(r"(?:(?<![\w.:-])|(?<=[\d°%]-)|(?<=°[FC]-)|(?<=[^\W\d_][.:])"
                     r"|(?<=[°%][.:_])|(?<=\.\.))"
                     r"(?:(?P<time>\d{1,2}(?::\d{2}){1,2}|\d{1,2}h\d{2}(?!\w))(?![\d:])"
                     r"|(?P<version>\d+(?:\.\d+){2,})(?!\.?\d)"
                     r"|(?P<sign>(?<![\d°%])(?<!°[FC])-|(?i:minus)\s?)?"
                     r"(?:(?P<comma>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{1,3}(?:'\d{3})+(?:\.\d+)?)"
                     r"|(?P<space>\d{1,3}(?: \d{3})+(?:[.,]\d+)?)"
                     r"|(?<!\d,)(?P<decimal>\d+,(?:\d{1,2}|\d{4,}))(?!,\d)"
                     r"|(?P<num>\d+(?:\.\d+)?))(?!\d|\.\d))")
# A scale after degrees; F or C alone only when no letter follows, so "57 Fine" keeps its word.
_SCALE = r"(?:[FC]|(?i:fahrenheit|celsius))(?!\w)"
_UNIT = re.compile(rf"\s?(?:(?P<degrees>°(?:\s?{_SCALE})?"
                   rf"|(?i:deg(?:ree)?s?)(?!\w)\.?(?:\s?{_SCALE})?|{_SCALE})"
                   r"|(?P<percent>[%٪]|(?i:per\s?cent|pct)(?!\w)))")
_DEGREE_SIGNS = re.compile(r"(?<=\d)(\s?)[º˚⁰]")
"""The ordinal sign, the ring above and a superscript zero after a number are degrees: NFKC
would read them as "o", a ring and "0" ("57⁰F" as 570F)."""

WORD_UNITS: dict[str, tuple[str, tuple[str, ...]]] = {
    "B": ("data", ("byte",)), "KB": ("data", ("kb", "kib", "kilobyte")),
    "MB": ("data", ("mb", "mib", "megabyte")), "GB": ("data", ("gb", "gib", "gig", "gigabyte")),
    "TB": ("data", ("tb", "tib", "terabyte")), "PB": ("data", ("pb", "pib", "petabyte")),
    "Hz": ("frequency", ("hz", "hertz")), "kHz": ("frequency", ("khz", "kilohertz")),
    "MHz": ("frequency", ("mhz", "megahertz")), "GHz": ("frequency", ("ghz", "gigahertz")),
    "mm": ("length", ("mm", "millimetre", "millimeter")),
    "cm": ("length", ("cm", "centimetre", "centimeter")), "m": ("length", ("metre", "meter")),
    "km": ("length", ("km", "kilometre", "kilometer")), "in": ("length", ("inch", "inches")),
    "ft": ("length", ("ft", "foot", "feet")), "mi": ("length", ("mi", "mile")),
    "yd": ("length", ("yd", "yard")), "mg": ("mass", ("mg", "milligram")),
    "g": ("mass", ("gram",)), "kg": ("mass", ("kg", "kilo", "kilogram")),
    "lb": ("mass", ("lb", "pound")), "oz": ("mass", ("oz", "ounce")),
    "ml": ("volume", ("ml", "millilitre", "milliliter")), "l": ("volume", ("litre", "liter")),
    "ms": ("duration", ("ms", "millisecond")), "s": ("duration", ("sec", "second")),
    "min": ("duration", ("min", "minute")), "h": ("duration", ("hr", "hour")),
    "d": ("duration", ("day",)), "wk": ("duration", ("wk", "week")),
    "mo": ("duration", ("month",)), "yr": ("duration", ("yr", "year")),
    "am": ("time", ("am", "a.m.", "a.m")), "pm": ("time", ("pm", "p.m.", "p.m")),
    "mph": ("speed", ("mph",)), "km/h": ("speed", ("km/h", "kph", "kmh")),
    "mAh": ("charge", ("mah",)), "Wh": ("energy", ("wh",)), "kWh": ("energy", ("kwh",)),
    "K": ("temperature", ("kelvin",)), "USD": ("money", ("$", "usd", "dollar", "buck")),
    "EUR": ("money", ("€", "eur", "euro")), "GBP": ("money", ("£", "gbp")),
    "JPY": ("money", ("¥", "jpy", "yen")), "INR": ("money", ("₹", "inr", "rupee")),
    "cent": ("money", ("¢", "cent")),
}
"""Units written after a number, as words or symbols: each one's measure and its spellings, in
any case, a word's with an "s" or not. Single letters are left out ("5 m", "5 s" and "5 W" are
too often something else: "274 W" is a heading)."""
_SPELLINGS = {spelled: unit for unit, (_, spelled_as) in WORD_UNITS.items()
              for spelled in spelled_as}
_WORD_UNIT = re.compile(r"\s?(?i:(" + "|".join(
    re.escape(s) + ("s?" if s[-1].isalpha() else "")
    for s in sorted(_SPELLINGS, key=len, reverse=True)) + r"))(?!\w)")
_MONEY_BEFORE = re.compile(r"(?:US\$|[$€£¥₹])\s?$")
_MONEY_SIGN = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "₹": "INR"}


def measure(unit: str) -> str:
    """The kind of quantity `unit` counts: "data" for GB, "money" for USD; °, %, "time" and ""
    (bare) are each their own, and a version ("26.2.1") is bare: a count, a size, an id."""
    if unit == "version":
        return ""
    return WORD_UNITS[unit][0] if unit in WORD_UNITS else unit


@dataclass(frozen=True)
class Number:
    """A number as an answer or a value writes it: its value and its unit ("" for none)."""

    value: Decimal
    unit: str
    """"°", "%", "time" (h:mm or h:mm:ss as its digits, on the 24-hour clock where its half of
    the day is known: `half`), "version" (three or more parts, "26.2.1"), a key of
    `WORD_UNITS` ("GB") or "" (bare)."""
    text: str
    half: str = ""
    """For a time, how its half of the day is known: "am" or "pm" (written after it), "24" (a
    24-hour reading: hour 0, 13 or more, or a leading zero), or "" (unknown: "7:05" may be a
    morning's, an evening's or a countdown's)."""
    scale: str = ""
    """For degrees, what they are degrees of: "F" or "C" (a temperature scale written after
    them: "57°F", "57 degrees Celsius", "57C"), "angle" (a heading's), or "" (not said)."""

    def same(self, other: Number) -> bool:
        """Whether `other` is this number, in this unit (a bare value takes a bare number). A
        time whose half is known is named only by one whose half is known ("19:05" is "7:05
        PM", "7:05" is not); one whose half is unknown by either half ("9:41" by "9:41 PM")."""
        if self.unit != other.unit:
            return False
        if self.scale and other.scale and self.scale != other.scale:
            return False  # 41°C is no reading of 41°F, nor 16°F of a heading
        if self.unit != "time":
            return self.value == other.value
        if self.half:
            return bool(other.half) and self.value == other.value
        # 7:05 is 705 and 19:05 1905: 1200 apart (120000 with seconds); "0705" and an hour
        # alone ("8", as `rival_numbers` reads it beside a time) have minutes too
        noon = 12 * 100 ** max(1, self.text.count(":"))
        return self.value == other.value or (other.half in _HALVES
                                             and other.value % noon == self.value % noon)

    @property
    def measure(self) -> str:
        """The kind of quantity it counts (`measure`)."""
        return measure(self.unit)


def script(text: str) -> str:
    """The script the first letter of `text` is written in, from its Unicode name: "LATIN",
    "HEBREW", "CJK"; "" when it has no letter."""
    letter = next((c for c in text if c.isalpha()), "")
    return unicodedata.name(letter, "?").split(" ", 1)[0] if letter else ""


def _apart(one: str, other: str) -> bool:
    """Whether a space goes between two characters written in `one` and `other` (scripts, or
    "DIGIT"): between two scripts, and between a digit and a letter of a script other than
    Latin, whose words may be unspaced (Chinese, Japanese, Thai) or are another script's."""
    if one == other:
        return False
    return "LATIN" not in (one, other) if "DIGIT" in (one, other) else True


def _spaced(text: str) -> str:
    """`text` with a space where a letter of one script meets a letter of another, or a digit
    meets a letter of a script other than Latin ("电量86%" is 电量 and 86%: Chinese and Japanese
    put no space between words); a number glued to Latin letters stays a word's (the 163 of
    MQ163LL/A). A combining mark (a vowel sign) and a numeral that is no digit keep the script
    of what they follow."""
    out, last = [], ""
    for char in text:
        written = script(char) or ("DIGIT" if char.isdigit() else "")
        if written and last and _apart(written, last):
            out.append(" ")
        if written:
            last = written
        elif not (char.isalnum() or unicodedata.category(char).startswith("M")):
            last = ""
        out.append(char)
    return "".join(out)


def read(text: str) -> str:
    """`text` as the answer kinds read it (see the module docstring)."""
    if text.isascii():
        return text
    return _spaced(plain(_DEGREE_SIGNS.sub(r"\1°", text)))


def _scale_of(written: str) -> str:
    """The temperature scale of degrees written so ("°F", " degrees Celsius", "C"): "F", "C"
    or ""."""
    scale = re.search(_SCALE, written)
    return scale.group(0)[0].upper() if scale else ""


def unit_after(text: str, end: int) -> tuple[str, int]:
    """The unit written at `end` of `text` ("" if none) and where it ends."""
    unit = _UNIT.match(text, end)
    if unit:
        return ("°" if unit.group("degrees") else "%"), unit.end()
    word = _WORD_UNIT.match(text, end)
    if word:
        spelled = word.group(1).lower()
        return _SPELLINGS.get(spelled) or _SPELLINGS[spelled[:-1]], word.end()
    return "", end


def _value(match: re.Match[str]) -> Decimal:
    if match.group("comma"):
        digits = match.group("comma").replace(",", "").replace("'", "")
    elif match.group("space"):
        digits = match.group("space").replace(" ", "").replace(",", ".")
    elif match.group("decimal"):
        digits = match.group("decimal").replace(",", ".")
    else:
        digits = match.group("num")
    value = Decimal(digits)
    return -value if match.group("sign") else value


_HALVES = ("am", "pm")
_HOURS = tuple(str(h) for h in range(1, 13))
_MERIDIEM = re.compile(r"\s?(?i:([ap])\.?m(?:\.|(?!\w)))")
"""AM or PM after a time, glued or not, dotted or not ("7:05pm", "7:05 p.m.", "7:05 PM")."""
_BOTH = re.compile(r"\s*(?:/|-|&|,|(?i:or|and)(?!\w))\s*")
"""What joins AM to PM when an answer names both ("7:05 AM/PM")."""
BELOW_ZERO = re.compile(r"\s(?i:below\s+(?:zero|0))(?!\w)")
_JOINED = re.compile(r"\s*(?:-|~|/|&|,|\.\.|,?\s*(?i:to|through|thru|or|and)(?!\w))\s*")
"""What joins the numbers of a range or a list ("20-22°C", "272 to 276°", "57, 58 or 59°"),
whose last number's unit is the others' (`numbers`)."""


def _clock(hour: int, rest: str, half: str) -> Decimal:
    """A time's digits on the 24-hour clock: `hour` read in `half` ("am", "pm", or "" as
    written), then the minutes (and seconds) `rest` ("05", "0530")."""
    if half in _HALVES:
        hour = hour % 12 + (12 if half == "pm" else 0)
    return Decimal(f"{hour}{rest}")


def _halves(text: str, end: int) -> tuple[list[str], int]:
    """The halves of the day written at `end` of `text` after a time: none, "am" or "pm", or
    both ("7:05 AM/PM" names two times); and where they end."""
    halves: list[str] = []
    meridiem = _MERIDIEM.match(text, end)
    while meridiem is not None and len(halves) < 2:
        halves.append(meridiem.group(1).lower() + "m")
        end = meridiem.end()
        joint = _BOTH.match(text, end)
        meridiem = _MERIDIEM.match(text, joint.end()) if joint else None
    return list(dict.fromkeys(halves)), end


def _times(text: str, start: int, hour: int, rest: str, end: int,
           halves: list[str]) -> list[tuple[Number, int, int]]:
    """A time read from `start` to `end` of `text`, once in each half of the day written."""
    return [(Number(_clock(hour, rest, h), "time", text[start:end], h), start, end)
            for h in halves]


_GLUED = re.compile(r"(?!(?i:st|nd|rd|th)(?!\w))[A-Za-z]+(?!\w)")
"""Latin letters glued after a number that are no unit ("86ish", "86x"), an ordinal's
excepted ("2nd"): read by the hedging rules, for which no number hides in a word
(`rival_numbers.rivals`)."""


def numbers(text: str, glued: bool = False) -> list[Number]:
    """The numbers written in `text` (as `read` reads it), with their units (see the module
    docstring); with `glued`, also those glued to Latin letters that are no unit ("86ish"), as
    bare numbers."""
    return list(_numbers(text, glued))


@functools.lru_cache(maxsize=4096)
def _numbers(text: str, glued: bool) -> tuple[Number, ...]:
    # A check reads the same few texts (the value wanted, the answer, the screen's lines) many
    # times over, one rule after another: each is read once.
    found: list[tuple[Number, int, int]]
    text, found = read(text), []  # each number with where it starts and ends
    for match in _NUMBER.finditer(text):
        if match.group("time"):
            hour, *rest = re.split("[:h]", match.group("time"))
            halves, end = _halves(text, match.end())
            if not halves:  # a 24-hour reading, or one whose half is unknown
                halves = ["24" if hour.startswith("0") or not 1 <= int(hour) <= 12 else ""]
            found += _times(text, match.start(), int(hour), "".join(rest), end, halves)
            continue
        if match.group("version"):  # each part in four digits: 26.2.1 is 2600020001
            parts = match.group("version").split(".")
            found.append((Number(Decimal("".join(p.zfill(4) for p in parts)), "version",
                                 match.group(0)), match.start(), match.end()))
            continue
        halves, end = _halves(text, match.end())
        if halves and not match.group("sign") and match.group("num") in _HOURS:  # "7 pm": 19:00
            found += _times(text, match.start(), int(match.group("num")), "00", end, halves)
            continue
        unit, end = unit_after(text, match.end())
        word = _GLUED.match(text, end) if glued and not unit else None
        if word:
            found.append((Number(_value(match), "", text[match.start():word.end()]),
                          match.start(), word.end()))
            continue
        if not unit and re.match(r"\w", text[end:end + 1]):
            continue
        start, before = match.start(), _MONEY_BEFORE.search(text, 0, match.start())
        if not unit and before:
            unit, start = _MONEY_SIGN[before.group(0).strip()[-1]], before.start()
        value, scale = _value(match), _scale_of(text[match.end():end]) if unit == "°" else ""
        below = BELOW_ZERO.match(text, end) if unit in ("", "°") else None
        if below:  # "3° below zero" is -3°
            value, end = -abs(value), below.end()
        found.append((Number(value, unit, text[start:end], scale=scale), start, end))
    return tuple(_ranges(text, found))


_COUNTING = re.compile(r"\s*(?!(?i:or|and|to|through|thru)(?!\w))[^\W\d_]")
"""A word after a bare number that is no joint of a list: the number counts it ("5 items")."""


def _ranges(text: str, found: list[tuple[Number, int, int]]) -> list[Number]:
    """`found` with the unit of a range's or a list's last number given to the bare numbers
    joined to it ("272 to 276°" is 272° and 276°, as people write a range), and then its first
    number's to the bare ones joined after it that count no word ("256 GB or 512")."""
    numbers = [n for n, _, _ in found]
    for i in range(len(found) - 2, -1, -1):  # from the last, so a unit passes down a list
        bare, after, end, start = numbers[i], numbers[i + 1], found[i][2], found[i + 1][1]
        if (not bare.unit and after.unit not in ("", "time", "version")
                and _JOINED.fullmatch(text, end, start)):
            numbers[i] = Number(bare.value, after.unit, bare.text, scale=after.scale)
    for i in range(1, len(found)):
        bare, before, end, start = numbers[i], numbers[i - 1], found[i - 1][2], found[i][1]
        if (not bare.unit and before.unit not in ("", "time", "version")
                and _JOINED.fullmatch(text, end, start) and not _COUNTING.match(text, found[i][2])):
            numbers[i] = Number(bare.value, before.unit, bare.text, scale=before.scale)
    return numbers


BARE_READ = ("°", "%")
"""The units a bare number is read in when the value has one (see `said`)."""


def said(answer: str, want: str) -> list[Number]:
    """The numbers of `answer` as they are read against `want`: a bare number in the unit of a
    value that is one number of degrees or percent, when the answer writes no number in
    either unit (the question asked for that measure: "87" names 87%)."""
    found, wanted = numbers(answer), numbers(want)
    if len(wanted) != 1 or wanted[0].unit not in BARE_READ or any(
            n.unit in BARE_READ for n in found):
        return found
    return [Number(n.value, wanted[0].unit, n.text) if not n.unit else n for n in found]


def notation(n: Number, wanted: Number) -> str:
    """Why `n`, which has `wanted`'s value, is not it: its unit, its scale, or a time's half of
    the day (for a detail)."""
    if n.unit == wanted.unit == "°" and n.scale != wanted.scale:
        return (f"it writes {n.text!r}, degrees {n.scale}, and the value is degrees "
                f"{wanted.scale}" if wanted.scale != "angle" else
                f"it writes {n.text!r}, a temperature, and the value is a heading's angle")
    if n.unit == wanted.unit == "time":
        return f"it writes {n.text!r} without AM or PM; the value is {wanted.text}"
    if not wanted.unit:
        return f"it writes {n.text!r} with a unit ({n.unit}); the value has none"
    if n.unit not in ("", *BARE_READ) and n.measure != wanted.measure:
        return f"it writes {n.text!r} with a unit of another measure after it"
    if not n.unit and wanted.unit in BARE_READ:
        return (f"it writes {n.text!r} without the value's unit {wanted.unit!r} beside "
                f"numbers with a unit, so it reads as another quantity")
    if not n.unit:
        return f"it writes {n.text!r} without the value's unit {wanted.unit!r}"
    return f"it writes {n.text!r}, whose unit is not the value's {wanted.unit!r}"
