"""How the answer kinds read a text: its spelling folded, its numbers with their units. Pure.

Both sides of an answer check, the agent's answer and the value it must name, are read by
`read` first: `spelling.plain` (quote shapes, no-break spaces, NFKC, invisible characters),
after turning the degree look-alikes NFKC would spell otherwise (º, ˚, ⁰ after a number) into
°, and with a space put between two letters of different scripts ("这个词是LANTERN" holds the
word LANTERN, as its reader sees).

A number is read as people write it (`numbers`): thousands in groups of three after a comma or
a space ("1,234", "1 234": iOS's no-break spaces are spaces once read); a decimal point, or a
decimal comma where it cannot group thousands (a comma right between digits, before one, two,
or four or more of them and no other comma: "12,5" is 12.5, "1,234" stays 1234, "21, 22" and
"1,5,7" are lists); a time ("4:59") and a version ("26.2.1") as one value; a sign; a range's
second number ("57-58" is 57 and 58). A number glued to letters other than its unit (the 163 of
MQ163LL/A) is part of a word.

Its unit follows it (or, for money, may come before it): degrees and percent as `_UNIT` reads
them, or a word unit of `WORD_UNITS` ("256 GB", "256GB" and "256 gigabytes" are one quantity;
"$5", "5 USD" and "5 dollars" another). Each unit is of a *measure* (`measure`): the kind of
quantity it counts, so "1 TB" is another capacity beside "256 GB". A number with no unit
(`unit` "") is bare; a word after it that is no unit ("42 songs") stays a word.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from decimal import Decimal

from phoneshell.spelling import plain

# A time first, so "4:59" is one value and not two numbers; then thousands (a comma or a space
# before each group of three), a decimal comma where no group of three can follow it, a plain
# number. A number may follow a digit and a hyphen: a range's second end ("57-58"); and a
# letter's colon or dot, which ends a label ("Battery:88%", "heading.274°"): only after a digit
# do they join one number to the next (a time's or a version's parts, read whole above).
_NUMBER = re.compile(r"(?:(?<![\w.:-])|(?<=\d-)|(?<=[^\W\d_][.:]))"
                     r"(?:(?P<time>\d{1,2}(?::\d{2}){1,2})(?![\d:])"
                     r"|(?P<version>\d+(?:\.\d+){2,})(?!\.?\d)"
                     r"|(?P<sign>(?<!\d)-)?(?:(?P<comma>\d{1,3}(?:,\d{3})+(?:\.\d+)?)"
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
    "am": ("clock", ("am", "a.m.", "a.m")), "pm": ("clock", ("pm", "p.m.", "p.m")),
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
    """"°", "%", "time" (h:mm or h:mm:ss, compared as written), "version" (three or more
    parts, "26.2.1"), a key of `WORD_UNITS` ("GB") or "" (bare)."""
    text: str

    def same(self, other: Number) -> bool:
        """Whether `other` is this number, in this unit (a bare value takes a bare number)."""
        return self.value == other.value and self.unit == other.unit

    @property
    def measure(self) -> str:
        """The kind of quantity it counts (`measure`)."""
        return measure(self.unit)


def script(text: str) -> str:
    """The script the first letter of `text` is written in, from its Unicode name: "LATIN",
    "HEBREW", "CJK"; "" when it has no letter."""
    letter = next((c for c in text if c.isalpha()), "")
    return unicodedata.name(letter, "?").split(" ", 1)[0] if letter else ""


def _spaced(text: str) -> str:
    """`text` with a space where a letter of one script meets a letter of another."""
    out, last = [], ""
    for char in text:
        written = script(char)
        if written and last and written != last:
            out.append(" ")
        last = written or (last if char.isalnum() else "")
        out.append(char)
    return "".join(out)


def read(text: str) -> str:
    """`text` as the answer kinds read it (see the module docstring)."""
    if text.isascii():
        return text
    return _spaced(plain(_DEGREE_SIGNS.sub(r"\1°", text)))


def _unit_after(text: str, end: int) -> tuple[str, int]:
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
        digits = match.group("comma").replace(",", "")
    elif match.group("space"):
        digits = match.group("space").replace(" ", "").replace(",", ".")
    elif match.group("decimal"):
        digits = match.group("decimal").replace(",", ".")
    else:
        digits = match.group("num")
    value = Decimal(digits)
    return -value if match.group("sign") else value


def numbers(text: str) -> list[Number]:
    """The numbers written in `text` (as `read` reads it), with their units (see the module
    docstring)."""
    text, found = read(text), []
    for match in _NUMBER.finditer(text):
        if match.group("time"):
            digits = match.group("time").replace(":", "")
            found.append(Number(Decimal(digits), "time", match.group(0)))
            continue
        if match.group("version"):  # each part in four digits: 26.2.1 is 2600020001
            parts = match.group("version").split(".")
            found.append(Number(Decimal("".join(p.zfill(4) for p in parts)), "version",
                                match.group(0)))
            continue
        unit, end = _unit_after(text, match.end())
        if not unit and re.match(r"\w", text[end:end + 1]):
            continue
        start, before = match.start(), _MONEY_BEFORE.search(text, 0, match.start())
        if not unit and before:
            unit, start = _MONEY_SIGN[before.group(0).strip()[-1]], before.start()
        found.append(Number(_value(match), unit, text[start:end]))
    return found


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
