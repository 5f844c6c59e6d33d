"""Which numbers of an answer offer another value besides a value with numbers. Pure.

`values.candidates` reads an answer's numbers with `rivals` for its hedging rules, which are
wider than naming: a value is named only in digits and, where the answer writes degrees or
percent anywhere, with its unit ("87, and 57° outside" does not name 87%); but a second number
is a candidate however it is written. Where the question fixes the measure (a value that is one
number of degrees or percent, or a time), every bare number of the answer is one in the value's
unit ("87% or 86", "57° (58 feels-like)", "7:05 PM or 8", "7:05 PM or 0705"), as are numbers
glued to letters ("86ish") and spelt out ("57°, maybe fifty-eight"). A number with a unit of its
own keeps it ("87%, about 5 hours left" names one percentage).
"""

from __future__ import annotations

import re
from decimal import Decimal

from phoneshell.checks.reading import BARE_READ, BELOW_ZERO, Number, numbers, read, unit_after

_ONES = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
_TEENS = ("ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
          "eighteen", "nineteen")
_TENS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_BELOW_100 = (rf"(?:(?:{'|'.join(_TENS)})(?:[\s-]+(?:{'|'.join(_ONES[1:])}))?"
              rf"|{'|'.join(_TEENS)}|{'|'.join(_ONES)})")
_SPELT = re.compile(rf"(?i)(?<![\w-])(?P<minus>minus\s+)?(?:(?:{'|'.join(_ONES[1:])})[\s-]+hundred"
                    rf"(?:[\s-]+(?:and[\s-]+)?{_BELOW_100})?|{_BELOW_100})(?![\w-])")
_WORTH = {w: n for n, w in enumerate(_ONES + _TEENS)} | {
    w: 20 + 10 * n for n, w in enumerate(_TENS)} | {"hundred": 100, "and": 0}


def spelt(text: str) -> list[Number]:
    """The numbers `text` spells out below a thousand ("fifty-eight", "two hundred and
    seventy"), each with the unit written after it, for the hedging rules only: a value is
    named in digits, but "57°, maybe fifty-eight" names a second temperature. "one" alone is
    left out: it is mostly no number ("the one at the top")."""
    text, found = BELOW_ZERO.sub(" ", read(text)), []  # "3° below zero" is -3°, read
    for match in _SPELT.finditer(text):
        words = re.split(r"[\s-]+", match.group(0).lower())[1 if match.group("minus") else 0:]
        if words == ["one"]:
            continue
        value = 0
        for word in words:
            value = value * 100 if word == "hundred" else value + _WORTH[word]
        unit, end = unit_after(text, match.end())
        found.append(Number(Decimal(-value if match.group("minus") else value), unit,
                            text[match.start():end]))
    return found


def _on_the_clock(n: Number) -> Number:
    """A bare number as a time: an hour alone ("8", "19"), or hours and minutes run together
    ("0705", "1905"), on the 24-hour clock where it says so (`Number.half`); any other stays
    a number the value is not."""
    whole = int(n.value) if n.value == n.value.to_integral_value() and n.value >= 0 else -1
    digits = "".join(c for c in n.text if c.isdigit()) or str(whole)
    if 0 <= whole <= 24 and len(digits) <= 2:
        hour, minutes = whole, 0
    elif 3 <= len(digits) <= 4 and whole // 100 < 24 and whole % 100 < 60:
        hour, minutes = divmod(whole, 100)
    else:
        return Number(n.value, "time", n.text, "24")
    half = "24" if digits.startswith("0") or not 1 <= hour <= 12 else ""
    return Number(Decimal(hour * 100 + minutes), "time", n.text, half)


def rivals(answer: str, want: str) -> list[Number]:
    """The numbers of `answer` as the hedging rules read them against `want`: as `numbers`
    reads them; and where every number of `want` has one unit of degrees or percent, or is a
    time (the question fixed the measure), every bare one in the value's, whatever else the
    answer writes ("87% or 86", "57° (58 feels-like)", "7:05 PM or 8", "or 0705"), those glued
    to letters ("86ish") and those spelt out ("maybe fifty-eight") among them. A number with a
    unit of its own keeps it ("87%, 5 hours left")."""
    units = {n.unit for n in numbers(want)}
    unit = next(iter(units)) if len(units) == 1 else ""
    if unit not in (*BARE_READ, "time"):
        return numbers(answer)
    found = numbers(answer, glued=True) + spelt(answer)
    if unit == "time":
        return [_on_the_clock(n) if not n.unit else n for n in found]
    return [Number(n.value, unit, n.text) if not n.unit else n for n in found]
