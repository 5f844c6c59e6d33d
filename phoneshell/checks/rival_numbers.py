"""Which numbers of an answer offer another value besides a value with numbers. Pure.

`values.candidates` reads an answer's numbers with `rivals` for its hedging rules, which are
wider than naming: a value is named only in digits and, where the answer writes degrees or
percent anywhere, with its unit ("87, and 57° outside" does not name 87%); but a second number
is a candidate however it is written. Where the question fixes the measure (a value that is one
number of degrees or percent, or a time), a bare number the answer offers as an alternative is
one in the value's unit, glued to letters ("86ish") or spelt out ("57°, maybe fifty-eight") too
(`offered`): after a hedging word or joined to the value ("87% or 86", "87%/86", "It's 57°.
Could be 58"), alone in its item ("87%. 86", "Battery 87%, earlier 86", "(86?)"), or in brackets
right after the value ("57° (58 feels-like)"). A number attached to something of its own is no
candidate: a list's marker ("1. Opened Settings"), a name before it ("iOS 26", "iPhone 17", "UV
index 1"), a word or unit after it ("2 taps", "24h", "72 m", "20 W", "10-day"), a date, a count
of a whole ("page 1 of 2"); nor is one in a sentence about something else ("The widget showed
86"). A number with a unit of its own keeps it ("87%, about 5 hours left" names one percentage).

Naming reads a bare number by the same rule (`naming`, red team 118): one attached to something
of its own names no value either, and where the answer's bare numbers are read in the value's
unit (it writes none in degrees or percent), every other one is a rival, offered or not; so no
answer names two values and passes for both ("H:0 L:1 H:2 ...", "41 in Cupertino, 42 in Paris").
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache

from phoneshell.checks.headings import BETWEEN, POINTS
from phoneshell.checks.reading import (
    BARE_READ,
    BELOW_ZERO,
    Number,
    numbers,
    read,
    said,
    script,
    unit_after,
)
from phoneshell.checks.rival_words import HEDGE, everyday, opens
from phoneshell.spelling import folded

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


_FILLER_WORDS = ("""
a an the it it's its that that's this is was be been being are were say says said read reads shows
or nor maybe perhaps possibly probably unless either otherwise alternatively else instead vs
versus not sure if could might may can would also too again though although then now earlier
before later previously currently actually really just even still about around approximately
approx roughly nearly almost like ish feels feel real apparent at most least tops max min more
less higher lower percent pct per cent degrees degree deg f c am pm o'clock
battery level charge charged percentage temperature temp heading bearing direction time answer
value reading result number
""")
_FILLER = frozenset(_FILLER_WORDS.split())
"""Words that leave a number free: hedging, approximating and joining words, words of the
value's measure and the words that say it ("it's", "shows"): "or it's 86", "earlier 86", "58
feels-like" offer 86 and 58, where "2 taps" and "iOS 26" do not."""
_DAY_RANGE = frozenset(("high", "low"))
"""Words that label a day's range ("high 64, low 50", as Weather writes "H:64° L:50°"): a bare
number after one is the range's, no temperature offered beside the value, unless it stands in
brackets right after the value ("57 (low 50, high 63)", red team 100)."""
_NAMING_WORDS = ("page line tab screen image photo picture paragraph box title banner header "
                 "label link sentence word letter probe font row card ios high low")
_NAMING = frozenset(_NAMING_WORDS.split())
"""Everyday words (`EVERYDAY`) that name what a number after them belongs to ("page 1")."""
_LOOSE_AFTER_WORDS = ("in on at for from by with to of as when while after since until if but "
                      "and than so right today tonight outside here there currently exactly "
                      "fine sunny cloudy clear rainy windy foggy snowy mostly partly overcast")
_LOOSE_AFTER = frozenset(_LOOSE_AFTER_WORDS.split())
"""Words after a number that it does not count: joining words ("58 in the shade"), when and
where ("57 right now", "57 outside"), the weather ("57 Fine")."""
_POINT_WORDS = frozenset(("north south east west northeast northwest southeast southwest "
                          + " ".join(p.lower() for p in (*POINTS, *BETWEEN))).split())
"""Beside a heading, a point after a number is the heading's: "274 W", "223 south-southwest"."""
_SPACE = re.compile(r"\s")
_UNNUMBERED = re.compile(r"[^\s]*\d[^\s]*")
"""A word with a digit in it: the numbers of an item, blanked out to read its words."""
_WORDS = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")
_ITEM = re.compile(r"(?<!\d)\.(?!\d)|\.{2,}|(?<!\d):|:(?!\d)|,(?!\d{3}(?!\d))|[;!?()\[\]{}\n|&±/]"
                   r"|\s-+\s|\s(?i:or|nor|and)\s")
"""Where an item of an answer ends: a clause's punctuation, a bracket, a list's joint, a dash
between spaces; never inside a number ("26.1", "9:41", "4,000")."""
_CLAUSE = re.compile(r"(?<!\d)\.(?!\d)|\.{2,}|[;!?()\[\]{}\n]|\s-+\s")
_MONTH = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
          r"|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?")
_DATE = re.compile(rf"(?i)(?<!\w){_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?(?!\w)"
                   rf"|(?<!\w)\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH}(?:,?\s+\d{{4}})?(?!\w)"
                   r"|(?<![\w/.-])(?:\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4})"
                   r"(?![\w/.-])")
"""A date: "Dec 6, 2026", "6 December", "2026-12-06", "12/6/2026"."""
_MARKER = re.compile(r"(?<![^\s:*-])(\d{1,2})[.)](?=[ \t]+[^\W\d_])")
"""A list's marker: "1. Opened", "2) Tapped"."""
NEAR = 120
"""How far before a number the word that owns it is looked for (`_word_before`), and the words
that settle whether it is offered (`_direct`): a fixed window, so that reading an answer takes
time in its length, not its square."""
_OF_AFTER = re.compile(r"\s+(?:out\s+)?of\s+(?:the\s+)?\d")
_WORD_AFTER = re.compile(r"[\s-]*([^\W\d_]+)")
_OF_BEFORE = re.compile(r"(?i)(?:\s+eht)?\s+fo(?:\s+tuo)?\s*"
                        r"(?:\d|(?:tsrif|tsal|eno|owt|eerht|ruof|evif|xis|neves|thgie|enin|net)\b"
                        r"|\s\w)")
"""A count of a whole ending right before a number ("1 of", "one out of the"), spelt backwards:
matched on the answer reversed (`_backwards`) from the number's start, it reads only as far back
as the words go, however far the answer runs before them."""


@lru_cache(maxsize=8)
def _backwards(text: str) -> str:
    return text[::-1]


def _markers(text: str) -> set[int]:
    """Where the list markers of `text` start: at a line's start, or numbered in a row on one
    line ("Steps: 1. Settings 2. General")."""
    shaped = {m.start(1): int(m.group(1)) for m in _MARKER.finditer(text)}
    counts = set(shaped.values())
    return {at for at, n in shaped.items()
            if re.fullmatch(r"[ \t*#-]*", text[text.rfind("\n", 0, at) + 1:at])
            or n - 1 in counts or n + 1 in counts}


@dataclass(frozen=True)
class _Marks:
    """What owns a number in one answer read against one value: where its list markers start,
    its dates, and the words after a number that it does not count."""

    markers: set[int]
    dates: list[range]
    loose: frozenset[str]

    @staticmethod
    def of(text: str, want: str) -> _Marks:
        """`text`'s marks, beside `want`: a heading's point after a number is the heading's
        ("274 W"), elsewhere a unit's ("20 W")."""
        heading = re.fullmatch(r"\S+°\s*(?:N|NE|E|SE|S|SW|W|NW)", want.strip()) is not None
        return _Marks(_markers(text), [range(*d.span()) for d in _DATE.finditer(text)],
                      _LOOSE_AFTER | _POINT_WORDS if heading else _LOOSE_AFTER)

    def marked(self, at: int) -> bool:
        """Whether a number at `at` is a list's marker or in a date."""
        return at in self.markers or any(at in d for d in self.dates)


def _word_before(text: str, start: int) -> str:
    """The word right before `start` of `text` (spaces, quotes, markdown's marks and a label's
    colon between), or ""."""
    before = re.search(r"([^\W\d_]+(?:'[^\W\d_]+)?)[\s\"'*_`]*(?::[\s\"'*_`]*)?-?$",
                       text[max(0, start - NEAR):start])  # a word and its marks, no further
    return before.group(1) if before else ""


def _owned(text: str, start: int, end: int, marks: _Marks) -> bool:
    """Whether the number at `start`:`end` of `text` is attached to something of its own: a
    list marker, a date, a name before it, a word or unit after it (glued or not), a count of
    a whole ("1 of 2")."""
    if marks.marked(start):
        return True
    written = BELOW_ZERO.sub("", re.sub(r"(?i)^(?:-|minus\s?)", "", text[start:end]))
    glued = written.lstrip("0123456789.,' ")  # "minus 3", "3 below zero" are numbers whole
    if glued and folded(glued) != "ish":  # "24h", "5G", "34pt"
        return True
    if _SIGN_AFTER.match(text, end):
        return True  # "55‰", "16′", "20 ★": a unit or a mark of something else
    # `EVERYDAY` is English: in another script nothing tells a label from a word of the
    # sentence ("气温57度" is "temperature 57 degrees"), so only a Latin word owns a number
    before = _word_before(text, start)
    if (start and text[start - 1] == "#") or (before and script(before) == "LATIN"
                                      and folded(before) not in _FILLER
                                      and (not everyday(before) or folded(before) in _NAMING)):
        return True  # "iOS 26", "UV index 1", "page 1", '"steps": 3', "#1"
    if (_OF_BEFORE.match(_backwards(text), len(text) - start)
            or _OF_AFTER.match(text, end)):
        return True  # "1 of 2", "one of eight"
    after = _WORD_AFTER.match(text, end)
    return after is not None and script(after.group(1)) == "LATIN" and (
        folded(after.group(1)) not in _FILLER | marks.loose)


_SIGN_AFTER = re.compile(r"\s?[‰‱′″\u2190-\u21ff\u2300-\u2bff\U0001f000-\U0001faff]")
"""A sign right after a number that is no unit an answer is read in: per mille, per ten
thousand, a prime (arcminutes), a symbol or pictograph ("55‰", "16′", "20 ★")."""


@lru_cache(maxsize=64)
def _marks_in(pattern: re.Pattern[str], text: str
              ) -> tuple[tuple[tuple[int, int, str], ...], list[int]]:
    """Where `pattern` matches in `text`, each match's start, end and mark, and their ends in
    order (read once per text: an answer of hundreds of numbers asks for each one's part)."""
    found = tuple((m.start(), m.end(), m.group(0).strip()) for m in pattern.finditer(text))
    return found, [end for _, end, _ in found]


def _span(pattern: re.Pattern[str], text: str, at: int) -> tuple[int, int, str]:
    """The part of `text` between `pattern`'s marks that holds `at`, and the mark before it.
    The marks do not overlap, so their ends are in order: found by bisection, as an answer of
    hundreds of numbers would otherwise take time in the square of its length."""
    found, ends = _marks_in(pattern, text)
    before = bisect_right(ends, at)  # the marks that end at or before `at`
    start, mark = (found[before - 1][1], found[before - 1][2]) if before else (0, "")
    after = before if before < len(found) and found[before][0] >= at else before + 1
    return start, found[after][0] if after < len(found) else len(text), mark


def _free(words: str) -> bool:
    """Whether `words` hold no word but those that leave a number free (`_FILLER`)."""
    return all(folded(w) in _FILLER for w in _WORDS.findall(words))


def _direct(text: str, start: int, marks: _Marks) -> bool:
    """Whether the bare number at `start` of `text` follows a hedging word or joint with
    nothing but filler between ("87% or 86", "87%/86", "Could be 58 though")."""
    item_start, _, mark = _span(_ITEM, text, start)
    space = _SPACE.search(text, start - NEAR, start) if start - NEAR > item_start else None
    near = space.end() if space else item_start
    if not _free(_UNNUMBERED.sub(" ", text[near:start])):
        return False  # a word of its own right before it (whole words: `near` is after a space)
    before = _UNNUMBERED.sub(" ", text[item_start:start])
    direct = _free(before) and (mark.lower() in ("/", "±", "or", "nor")
                                or bool(HEDGE.search(before)))
    return direct and not marks.marked(start)


def _labelled(text: str, start: int, end: int, marks: _Marks) -> bool:
    """Whether the bare number at `start`:`end` of `text` is another thing's (`_owned`) and
    not offered by a hedging word: such a number neither names a value nor rivals it."""
    return _owned(text, start, end, marks) and not _direct(text, start, marks)


def offered(text: str, start: int, end: int, wanted: list[Number],
            marks: _Marks) -> bool:
    """Whether the bare number at `start`:`end` of `text` (read) is offered as an alternative
    to `wanted` (see the module docstring)."""
    item_start, item_end, _ = _span(_ITEM, text, start)
    if _direct(text, start, marks):
        return True  # "87% or 86", "87%/86", "Could be 58 though", "or 354 depending"
    if _owned(text, start, end, marks):
        return folded(_word_before(text, start)) in _DAY_RANGE and _after_value(
            text, start, wanted)  # "57 (low 50, high 63)"
    rest = _UNNUMBERED.sub(" ", text[item_start:start] + " " + text[end:item_end])
    if _free(rest):
        return True  # "87%. 86", "Battery 87%, earlier 86", "(86?)", "(58 feels-like)"
    clause_start, clause_end, _ = _span(_CLAUSE, text, start)
    clause = text[clause_start:clause_end]
    hedge = HEDGE.search(text, clause_start, start)
    if hedge and (opens(clause) or any(
            w.same(n) or n.same(w) for n in numbers(clause) for w in wanted)):
        return True  # "87%, unless the widget shows 86"
    if text[item_end:item_end + 1] == "?":
        return True
    return _after_value(text, start, wanted)


def _after_value(text: str, start: int, wanted: list[Number]) -> bool:
    """Whether the number at `start` of `text` stands in brackets right after the value:
    "57° (58 in the shade)"."""
    head = text[:_span(_CLAUSE, text, start)[0]].rstrip()
    if head.endswith(("(", "[")):
        head = head[:-1].rstrip(" *_\"'NSEW")
        return any(head.endswith(n.text) and any(n.value == w.value for w in wanted)
                   for n in numbers(head)[-1:])
    return False


def _placed(text: str, found: list[Number]) -> list[tuple[Number, int, int]]:
    """`found` (in the order `text` writes them) with where each starts and ends in `text`."""
    placed, at = [], 0
    for n in found:
        start = text.find(n.text, at)
        start = start if start >= 0 else text.find(n.text)
        placed.append((n, start, start + len(n.text)))
        at = max(at, start + len(n.text)) if start >= 0 else at
    return placed


def naming(answer: str, want: str) -> list[Number]:
    """The numbers of `answer` that may name `want`: `reading.said`'s, less the bare ones
    attached to something of their own (`_labelled`: "Step 20", "H:64", "(20 Z)", "41 K"),
    which `rivals` never reads as candidates either. One reading for both sides: a bare
    number that names the value is a rival beside another value, and one that is no rival
    names nothing, so "H:0 L:1 H:2 ..." names no value at all (red team 118, RT118-1)."""
    text = read(answer)
    found, got = numbers(text), said(text, want)
    if got == found:
        return got
    marks = _Marks.of(text, want)
    return [g for g, (n, start, end) in zip(got, _placed(text, found), strict=True)
            if n.unit or start < 0 or not _labelled(text, start, end, marks)]


def rivals(answer: str, want: str) -> list[Number]:
    """The numbers of `answer` as the hedging rules read them against `want`: as `numbers`
    reads them; and where every number of `want` has one unit of degrees or percent, or is a
    time (the question fixed the measure), every bare one the answer offers (`offered`) in the
    value's ("87% or 86", "57° (58 feels-like)", "7:05 PM or 8", "or 0705"), those glued to
    letters ("86ish") and those spelt out ("maybe fifty-eight") among them, but none attached to
    something of its own ("2 taps", "iOS 26"). A number with a unit of its own keeps it ("87%,
    5 hours left")."""
    wanted = numbers(want)
    units = {n.unit for n in wanted}
    unit = next(iter(units)) if len(units) == 1 else ""
    if unit not in (*BARE_READ, "time"):
        return numbers(answer)
    text = read(answer)
    marks = _Marks.of(text, want)
    # where a bare number is read in the value's unit (`reading.said`), every one that would
    # name it is a rival too (`naming`): "Right now it's 41, right now it's 42" names two
    read_bare = len(wanted) == 1 and said(text, want) != numbers(text)
    found = [n for n, start, end in _placed(text, numbers(text, glued=True)) + _placed(
                 text, spelt(text))
             if n.unit or start < 0 or offered(text, start, end, wanted, marks)
             or (read_bare and not _labelled(text, start, end, marks))]
    if unit == "time":
        return [_on_the_clock(n) if not n.unit else n for n in found]
    return [Number(n.value, unit, n.text) if not n.unit else n for n in found]
