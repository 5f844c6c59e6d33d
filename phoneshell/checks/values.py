"""How an answer names a value: numbers as numbers, words as whole words, and hedging. Pure.

An answer *names* a value when every number of the value appears in it as that number (87% is
"87 %" or "87 percent", never the 87 inside 187 or 870) with the value's unit, and the rest of
the value appears as whole words, ignoring case ("MQ163LL/A", not "MQ163LL/AB").

An answer *hedges* when it also names another candidate of the value's kind, so it would pass
whichever candidate was right (docs/checks.md, "Answers that hedge"):

* a number with the same unit (another temperature, angle, percentage or time);
* for a code mixing letters and digits (a model number), another such code;
* for an ALL-CAPS word, another ALL-CAPS word of three letters or more;
* for a phrase of capitalised words (a heading), another run of two or more capitalised words;
* for a value without a number, another item of a list the value is an item of (items split on
  commas, semicolons, slashes, bars, new lines and " or ") that looks like a value: it holds a
  digit, a capitalised word other than "I", or as many words as the value, not only filler.

So "It's 21°C and sunny" names 21° and hedges nothing, while "21°, 22° or 23°" hedges.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

_UNITS = {"°": "°", "degree": "°", "degrees": "°", "%": "%", "percent": "%", "per cent": "%"}
# A time first, so "4:59" is one value and not two numbers; thousands separators only in groups
# of three ("1,000"), so "21,22" is two numbers.
_NUMBER = re.compile(r"(?<![\w.:\u2212-])(?:(?P<time>\d{1,2}(?::\d{2}){1,2})(?![\d:])"
                     r"|(?P<sign>[-\u2212])?(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
                     r"(?!\d|\.\d))")
_UNIT = re.compile(r"\s?(°|%|per cent|percent|degrees?)", re.IGNORECASE)
_CODE = re.compile(r"(?<![\w/])(?=[\w/]*[A-Za-z])(?=[\w/]*\d)[A-Za-z0-9][\w/]{3,}(?![\w/])")
_CAPS = re.compile(r"(?<!\w)[A-Z][A-Z'-]{2,}(?!\w)")
_CAPITALISED_RUN = re.compile(r"(?<!\w)(?:[A-Z][\w'-]*)(?:[ \t]+[A-Z][\w'-]*)+(?!\w)")
_SEPARATORS = re.compile(r"\s*(?:[,;|\n/]|\s+or\s+)\s*", re.IGNORECASE)


@dataclass(frozen=True)
class Number:
    """A number as an answer or a value writes it: its value and its unit ("" for none)."""

    value: Decimal
    unit: str
    """"°", "%", "time" (h:mm or h:mm:ss, compared as written) or ""."""
    text: str

    def same(self, other: Number) -> bool:
        """Whether `other` is this number (a unit-less value accepts any unit)."""
        return self.value == other.value and (not self.unit or self.unit == other.unit)


def numbers(text: str) -> list[Number]:
    """The numbers written in `text`, with their units (a number glued to letters, as in the
    code MQ163LL/A, is part of a word, not a number)."""
    found = []
    for match in _NUMBER.finditer(text):
        if match.group("time"):
            digits = match.group("time").replace(":", "")
            found.append(Number(Decimal(digits), "time", match.group(0)))
            continue
        unit = _UNIT.match(text, match.end())
        end = unit.end() if unit else match.end()
        if not unit and re.match(r"\w", text[end:end + 1]):
            continue
        value = Decimal(match.group("num").replace(",", ""))
        if match.group("sign"):
            value = -value
        symbol = _UNITS[unit.group(1).lower()] if unit else ""
        found.append(Number(value, symbol, text[match.start():end]))
    return found


def _words(text: str) -> str:
    """`text` without its numbers (and their units), for the whole-word part of a match."""
    for number in numbers(text):
        text = text.replace(number.text, " ", 1)
    return " ".join(text.split())


def _whole(phrase: str, text: str) -> bool:
    """Whether `phrase` occurs in `text` as whole words, ignoring case and spacing."""
    parts = [re.escape(p) for p in phrase.split()]
    if not parts:
        return True
    pattern = r"\s+".join(parts)
    before = r"(?<!\w)" if phrase[:1].isalnum() else ""
    after = r"(?!\w)" if phrase[-1:].isalnum() else ""
    return re.search(before + pattern + after, text, re.IGNORECASE) is not None


def names(answer: str, want: str) -> bool:
    """Whether `answer` names `want`: each number of it as a number with its unit, the rest as
    whole words (ignoring case)."""
    wanted = numbers(want)
    if not wanted:
        return _whole(want.strip(), answer)
    said = numbers(answer)
    if not all(any(w.same(s) for s in said) for w in wanted):
        return False
    rest = _words(want)
    return all(_whole(word, answer) for word in rest.split())


def _fold(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s°%:/.-]", " ", text).lower().split()).strip(" .")


_FILLER = frozenset({"i", "i'm", "it", "it's", "is", "was", "think", "maybe", "perhaps",
                     "probably", "possibly", "not", "sure", "but", "the", "a", "an", "that",
                     "this", "which", "or", "and", "so", "guess", "believe", "likely"})
"""Words of a list item that hedges in words, not in values ("..., I think")."""


def _value_like(item: str, want: str) -> bool:
    """Whether a list item could be a value: a digit, a capitalised word other than I, or as
    many words as the value and not only filler words."""
    words = re.findall(r"[\w'-]+", item)
    if any(c.isdigit() for c in item) or any(w[:1].isupper() and w != "I" for w in words):
        return True
    return len(words) == len(want.split()) and any(w.lower() not in _FILLER for w in words)


def candidates(answer: str, want: str) -> list[str]:
    """Other candidates of `want`'s kind that `answer` names besides it (see the module
    docstring); empty when the answer commits to one value."""
    want = want.strip()
    found: list[str] = []
    wanted = numbers(want)
    for number in numbers(answer):
        if any(number.unit == w.unit and number.unit and not w.same(number) for w in wanted):
            found.append(number.text)
    folded = want.lower()
    if _CODE.fullmatch(want):
        found += [c for c in _CODE.findall(answer) if c.lower() != folded]
    if _CAPS.fullmatch(want):
        found += [c for c in _CAPS.findall(answer) if c.lower() != folded]
    if _CAPITALISED_RUN.fullmatch(want):
        found += [run for run in _CAPITALISED_RUN.findall(answer)
                  if not _whole(want, run)]
    items = [i for i in _SEPARATORS.split(answer) if i.strip()]
    # A value with a number is judged by its numbers: "West, 274° W" names one heading.
    if not wanted and len(items) > 1 and any(_fold(i) == _fold(want) for i in items):
        found += [i.strip() for i in items if _fold(i) != _fold(want) and _value_like(i, want)]
    unique: list[str] = []
    for item in found:
        if item not in unique:
            unique.append(item)
    return unique
