"""How an answer names a value: numbers as numbers, words as whole words, and hedging. Pure.

Both the answer and the value are read first as `reading.read` reads them: quotes, dashes and
spaces of any shape alike, accents composed, full-width letters as letters, a space between two
scripts; numbers in the notations people write (thousands, decimal commas, versions), each with
its unit and the unit's measure.

An answer *names* a value when every number of the value appears in it as that number (87% is
"87 %" or "87 percent", never the 87 inside 187 or 870) in the value's unit (256 GB as "256GB"
or "256 gigabytes"; a bare value, 26.2, as a number without a unit), and the rest of the value
appears as whole words, ignoring case ("MQ163LL/A", not "MQ163LL/AB"). A value that is one
number of degrees or percent (57°, 87%) is what the question asks for, so a bare number in an
answer that writes no degrees or percentage anywhere is read in the value's unit ("87" names
87%, `reading.said`), unless it is attached to something of its own ("H:87", "Step 87", "87
K": `rival_numbers.naming`, the rivals' own rule). Degrees written with a scale are named only
on that scale ("41°C" is no reading of 41°F), and a heading's never with one. A heading (274°
W) is named by its number; its point may be left out or written in words, never given alone
(eight points: a guess names one in eight headings); a point the degrees are measured from
("from north", "true north") is none of its (`headings`).

An answer *hedges* when it also names another candidate of the value's kind, so it would pass
whichever candidate was right (docs/checks.md, "Answers that hedge"):

* another number of the measure of one of the value's numbers (`_numbered`, reading the
  answer as `rival_numbers.rivals` does): another temperature, angle, percentage, time,
  capacity in any unit of data, sum of money; for a bare number (a count, a version, an id),
  another bare number; beside a value of degrees, percent or a time, any bare number, glued to
  letters or spelt out ("87% or 86", "57° (58 feels-like)", "7:05 PM or 8"). Every number has
  a measure, so no value with a number goes without this rule;
* for a code mixing letters and digits (a model number), another such code, and only that:
  no word or list item is another model number, so the row's title may go beside it ("Model
  Number, MQ163LL/A");
* for an ALL-CAPS word, another ALL-CAPS word of three letters or more;
* for a phrase of capitalised words (a heading), another run of two or more capitalised words,
  less the everyday words a sentence starts with (`_unsaid`: "Example Domain or Loaded Page"
  names two);
* (not for a code) another item of a list whose items one names the value (`_listed`; items
  split on commas, semicolons, slashes, bars, ampersands, new lines, " or " and " and ", a
  bracket that does not name the value left to the clause rules): for
  a value without a number, one that looks like a value (a digit, or one to (the value's words
  + 1) words of its script that are neither everyday words, `EVERYDAY`, "I think", "written in
  big letters", nor words of what the check reads); for a value with one, one that shares a
  word with it ("iPhone Air" beside "iPhone 17 Pro");
* for a value in Latin letters (not a heading nor a code), bare words of its script (neither
  everyday words, the value's own nor the words of what the check reads, `_loose`): two or
  more making up three quarters or more of the other words of the clause that names the value
  (clauses end at . : ; ! ? brackets, quotes and new lines): "one of: lantern otter quill",
  "iphone 17 pro iphone air iphone 17 pro max"; or, for a value without a digit, ten or more in
  the whole answer, however padded. The everyday words are English, so in another script
  nothing tells a sentence from a list of words; in any, a word of another script than the
  value's is a candidate only after a hedging word;
* for a value in words (not a code nor a heading of the compass), the rivals `rival_words`
  finds anywhere in the answer: a spelling a letter or two from it ("Lantren"), a word after a
  hedging word ("LANTERN unless it's candle"), a clause of words that are not everyday or a
  question ("Lantern. Candle.", "lantern? candle?");
* any of the values the check lists as `others` (the answers of the task's siblings, which an
  agent that learned a suite's answers would list), named as the value would be, in any case.

For a value in words, the word rules but near spellings read the answer without its remarks on
the value (`remarks`), a part holding a candidate of the value's kind never being one (a second
title-cased run beside a heading, a word set apart beside a word); each clause saying what the
answer is offers what it says (`statements`).

So "It's 21°C and sunny" names 21° and hedges nothing, while "21°, 22° or 23°" hedges.
"""

from __future__ import annotations

import re
from dataclasses import replace

from phoneshell.checks.headings import BETWEEN, POINTS, between_named, points_named, unreferenced
from phoneshell.checks.headings import compass_point as compass_point  # answer.py's
from phoneshell.checks.reading import Number, notation, numbers, read, said, script
from phoneshell.checks.remarks import SENTENCE, offered, spans, unremarked
from phoneshell.checks.rival_numbers import naming, rivals
from phoneshell.checks.rival_words import (
    HEDGE,
    OPENERS,
    WORD,
    bare,
    everyday,
    fragments,
    hedged,
    near,
    spelt_out,
)
from phoneshell.checks.statements import stated
from phoneshell.spelling import folded

_CODE = re.compile(r"(?<![\w/])(?=[\w/]*[A-Za-z])(?=[\w/]*\d)[A-Za-z0-9][\w/]{3,}(?![\w/])")
# A word ends in a letter or digit: the quote after 'LANTERN' (an apostrophe) is not part of it
_CAPS = re.compile(r"(?<!\w)[A-Z][A-Z'-]+[A-Z](?!\w)")
_CAPITALISED_RUN = re.compile(
    r"(?<!\w)(?:[A-Z](?:[\w'-]*\w)?)(?:[ \t]+[A-Z](?:[\w'-]*\w)?)+(?!\w)")
_SEPARATORS = re.compile(r"\s*(?:[,;|\n/&]|\s+or\s+|\s+and\s+)\s*", re.IGNORECASE)
_CLAUSES = re.compile(r"[.:;!?()\[\]{}\"\n]")
_SENTENCES = re.compile(r"(?<!\d)\.(?!\d)|[!?]|\n\s*\n")
"""Where a sentence ends, for lists: "No other words or images needed" after the sentence
that names the value is no list beside it."""


EITHER = " | "
"""How a probe writes a value the device shows in two notations a tap apart ("MQ163LL/A |
A3256", About's Model Number: the part number the row shows, then the regulatory model number
a tap shows): the first answers; the others are this phone's too, so naming them besides it is
no hedge, but alone they answer nothing (`answer._notations` says why)."""

def _words(text: str) -> str:
    """`text` without its numbers (and their units), for the whole-word part of a match."""
    for number in numbers(text):
        text = text.replace(number.text, " ", 1)
    return " ".join(text.split())


def _whole(phrase: str, text: str) -> bool:
    """Whether `phrase` occurs in `text` as whole words, ignoring case (`str.casefold`: "SS"
    is "ß") and spacing."""
    parts = [re.escape(p) for p in folded(phrase).split()]
    if not parts:
        return True
    pattern = r"\s+".join(parts)
    before = r"(?<!\w)" if phrase[:1].isalnum() else ""
    after = r"(?!\w)" if phrase[-1:].isalnum() else ""
    return re.search(before + pattern + after, folded(text)) is not None


SECTOR = 11.25 + 2
"""How far from its bearing a sixteen-point name may be and still name a heading: half of its
sector, and the compass's drift (`answer._drifted`)."""


def _astray(answer: str, want: str) -> str:
    """A sixteen-point name in `answer` that disagrees with the heading `want` ("274° W"), or
    "" when none does."""
    degrees = next((n.value for n in numbers(want) if n.unit == "°"), None)
    if degrees is None:
        return ""
    for point in sorted(between_named(_words(answer))):
        if abs((float(degrees) - BETWEEN[point] + 180) % 360 - 180) > SECTOR:
            return point
    return ""


def _heading(want: str) -> str:
    """The compass point of a heading ("274° W": "W"), or "" for any other value."""
    wanted, rest = numbers(want), _words(want).split()
    if len(wanted) == 1 and wanted[0].unit == "°" and len(rest) == 1 and rest[0] in POINTS:
        return rest[0]
    return ""


def _wanted(want: str) -> list[Number]:
    """The numbers of `want` (read), a heading's degrees as an angle's: "16°F" is no heading."""
    found = numbers(want)
    return [replace(n, scale="angle") for n in found] if _heading(want) else found


def _read_answer(answer: str, want: str) -> str:
    """`answer` as `reading.read` reads it, and, for a heading (`want`, already read), without
    what its degrees are measured from (`headings.unreferenced`: "from north", "where 0° is
    north")."""
    answer = read(answer)
    return unreferenced(answer) if _heading(want) else answer


def names(answer: str, want: str) -> bool:
    """Whether `answer` names `want`: each number of it as a number with its unit, the rest as
    whole words (ignoring case). A compass point after a number ("274° W") is the number's: an
    answer may leave it out or write it in words ("274 degrees west"), not name another, and
    never give it alone ("West" is one heading in eight, so a guess would name it as often).
    Both are read as `reading.read` reads them."""
    want = read(want)
    answer = _read_answer(answer, want)
    wanted = _wanted(want)
    if not wanted:
        return _whole(want.strip(), answer)
    got = naming(answer, want)
    if not all(any(w.same(n) for n in got) for w in wanted):
        return False
    point = _heading(want)
    if point:
        named = points_named(_words(answer))
        if named and point not in named:  # another point only (several: a hedge's)
            return False
        if _astray(answer, want):
            return False
    return all(_whole(word, answer) for word in _words(want).split() if word != point)


def misnamed(answer: str, want: str) -> str:
    """Why `answer` does not name `want` when the notation is the reason (the number written
    with another unit, without one beside numbers that have one, or inside a word; a heading's
    point alone, or another point); "" when it is not."""
    want = read(want)
    answer = _read_answer(answer, want)
    got = said(answer, want)
    point, named = _heading(want), points_named(_words(answer))
    if point and named and not any(n.unit == "°" for n in got):
        return (f"it names the point {'/'.join(sorted(named))} without the heading's degrees; "
                f"a point alone is one heading in eight")
    if numbers(want) and not any(c.isdigit() for c in answer):
        return "it writes no number in digits (numbers are read in digits: 57, not fifty-seven)"
    naming_ones = naming(answer, want)
    for wanted in _wanted(want):
        if any(wanted.same(n) for n in got) and not any(wanted.same(n) for n in naming_ones):
            return (f"its {wanted.value} is another thing's (a label before it or a word or "
                    f"sign after it, as in \"H:64\", \"Step 2\", \"41 K\"), so it names no "
                    f"value, as it would be no rival beside one")
        if any(wanted.same(n) for n in got):
            continue
        for n in (n for n in got if n.value == wanted.value or n.same(wanted)):
            return notation(n, wanted)
        digits = str(abs(wanted.value))
        for word in re.findall(r"[\w./-]+", answer):
            if re.search(rf"(?<![\d.]){digits}(?![\d.])", word) and WORD.search(word):
                return f"its {digits} is part of the word {word!r}, not a number"
    if point and named and named != {point}:
        return f"it names the point(s) {'/'.join(sorted(named))}; the heading's is {point}"
    astray = _astray(answer, want) if point else ""
    if astray:
        return f"it names {astray}, which is not where the heading points ({want})"
    return ""




def _fold(text: str) -> str:
    return folded(re.sub(r"[^\w\s°%:/.-]", " ", text)).strip(" .")


def _starts_sentence(text: str, at: int) -> bool:
    """Whether `at` in `text` is a sentence's first word: after nothing, or a sentence's end (a
    table's cell starts anew), with spaces, quotes or markdown's marks between."""
    before = text[max(0, at - 40):at].rstrip(" \t\"'*_")
    if SENTENCE.search(before + " ", len(before) - 1) is None and before[-1:] == ".":
        return False  # "i.e. Loaded Page": a full stop after a letter alone ends no sentence
    return before[-1:] in (".", "!", "?", "\n", "|") or (not before and at <= 40)


def _unsaid(run: re.Match[str], answer: str, want: str) -> str:
    """A run of capitalised words, without the everyday words it starts with where it starts a
    sentence, unless they are the value's own: a sentence's first word is capitalised by
    grammar ("In Safari the heading is ...", "The Safari page"); elsewhere a capital is the
    writer's ("Example Domain or Loaded Page" names a second heading), and "Example Page"
    beside Example Domain is a heading anywhere."""
    words = run.group(0).split()
    if not _starts_sentence(answer, run.start()):
        return " ".join(words)
    own = {folded(w) for w in WORD.findall(want)}
    while words and everyday(words[0]) and folded(words[0]) not in own:
        words.pop(0)
    return " ".join(words)


def _beside(answer: str, at: int, run: str, want: str) -> bool:
    """Whether a capitalised run at `at` is offered beside the heading `want`: it holds one of
    its words ("Example Page"), or stands in the sentence that names it (`remarks.SENTENCE`:
    "Example Domain or Loaded Page", "Example Domain (with Loaded Page as runner up)",
    "Example Domain, the heading; Loaded Page, the heading"; whatever the words around it, a
    second title in the value's sentence is a second heading) or alone in a clause of its own,
    hedging words aside ("Example Domain. Or Loaded Page"). In a sentence about something else
    it names a thing on the screen: "Example Domain. Safari's Reader view wasn't needed"."""
    if {folded(w) for w in WORD.findall(run)} & {folded(w) for w in WORD.findall(want)}:
        return True
    if any(s <= at < e and names(answer[s:e], want)
           for s, e, _ in spans(SENTENCE, answer, 0, len(answer))):
        return True
    start = max((m.end() for m in _CLAUSES.finditer(answer, 0, at)), default=0)
    end = next((m.start() for m in _CLAUSES.finditer(answer, at)), len(answer))
    clause = answer[start:end]
    rest = re.sub(re.escape(run), " ", clause, count=1)
    return names(clause, want) or all(folded(w) in OPENERS or HEDGE.fullmatch(w)
                                      for w in WORD.findall(rest))


def _value_like(item: str, want: str, label: str) -> bool:
    """Whether a list item could be a value: a digit, or one to (the value's words + 1) words
    of its script that are neither everyday words nor `label`'s, in an item of a few words
    more ("my other guess is nutmeg") or made mostly of them: ", rendered as an image rather
    than text (it's not in the accessibility tree)" is prose, not a value."""
    if any(c.isdigit() for c in item):
        return True
    loose, words = bare(item, want, own=False, label=label), WORD.findall(item)
    return (1 <= len(loose) <= len(want.split()) + 1
            and (len(words) <= len(want.split()) + 4 or 4 * len(loose) >= 3 * len(words)))


def _numbered(answer: str, want: str) -> list[str]:
    """The answer's numbers of the kind (`reading.measure`) of one of `want`'s, besides its
    own, as the hedging rules read them (`rival_numbers.rivals`): another temperature (a bare number
    beside 57°), another capacity in any unit of data, another bare number."""
    wanted = _wanted(want)
    return [n.text for n in rivals(answer, want)
            if any(n.measure == w.measure for w in wanted)
            and not any(w.same(n) or n.same(w) for w in wanted)]  # "7:05" beside 7:05 PM


def _quantity(word: str) -> bool:
    """Whether a run of letters and digits reads as one number with a unit ("256GB", "20W"):
    a quantity, no code."""
    read_as = numbers(word)
    return len(read_as) == 1 and bool(read_as[0].unit) and read_as[0].text == word


_BRACKET = re.compile(r"[(\[][^()\[\]]*[)\]]")


def _items(sentence: str, want: str) -> list[str]:
    """The items of a list in `sentence`, but its brackets that do not name `want`: clauses of
    their own (`fragments`, `hedged`), "(uppercase, sans-serif)" remarks on the value."""
    sentence = _BRACKET.sub(lambda b: b.group(0) if names(b.group(0), want) else " ", sentence)
    return [i.strip() for i in _SEPARATORS.split(sentence) if i.strip()]


def _listed(answer: str, want: str, label: str) -> list[str]:
    """Items of a list in the sentence that names `want` (a blank line ends one too), one of
    whose items names it, that could be values instead: for a
    value without a number, any that looks like one (`_value_like`); for one with a number,
    any that shares a word with it ("iPhone Air" beside "iPhone 17 Pro"), never a heading's
    point alone ("West, 274° W" names one heading)."""
    sentence = next((s for s in _SENTENCES.split(answer) if names(s, want)), "")
    items = [i.strip() for i in _SEPARATORS.split(sentence) if i.strip()]
    if len(items) < 2 or not any(names(i, want) for i in items):
        return []
    if not numbers(want):
        return [i for i in _items(sentence, want) if not names(i, want)
                and _value_like(i, want, label)]
    own = {folded(w) for w in bare(_words(want), want, own=False)}
    if _heading(want) or not own:
        return []
    return [i for i in items if not names(i, want)
            and own & {folded(w) for w in WORD.findall(i)}]


def _loose(answer: str, want: str, label: str) -> list[str]:
    """Bare words (`_bare`) that list candidates of a value: two or more making three quarters
    of the other words of a clause that names it ("iphone 17 pro iphone air iphone 17 pro
    max"), or, for a value without a digit, ten in the answer (an answer about a code or a
    number may well say ten other things). Only for a value in Latin letters, the script
    `EVERYDAY`'s words are in (elsewhere nothing tells a sentence from a list of words), and
    never a heading, whose point may be written in words ("pointing 274° west")."""
    if script(want) != "LATIN" or _heading(want):
        return []
    found = bare(answer, want, label=label)
    found = found if len(found) >= 10 and not any(c.isdigit() for c in want) else []
    for clause in _CLAUSES.split(answer):
        words = _words(clause)  # "128 gigabytes": the unit is the number's, no bare word
        loose = bare(words, want, label=label)
        if (names(clause, want) and len(loose) >= 2
                and 4 * len(loose) >= 3 * len(bare(words, want, everyday_too=True, label=label))):
            found += loose
    return found


def candidates(answer: str, want: str, others: tuple[str, ...] = (),
               label: str = "") -> list[str]:
    """Other candidates of `want`'s kind that `answer` names besides it, `others` (values known
    to be wrong here) among them (see the module docstring); empty when the answer commits to
    one value. `label` is what the check says it reads ("General > About > Model Number"),
    whose words an answer may copy beside the value. Both are read as `reading.read` reads
    them."""
    want = read(want).strip()
    answer = _read_answer(answer, want)
    found = _numbered(answer, want)
    code = _CODE.fullmatch(want) is not None
    worded = not code and not _heading(want) and bool(_words(want))  # a value in words
    whole = spelt_out(answer, want) if worded else answer  # "C-A-R-D-A-M-O-M" is its word
    heading = _CAPITALISED_RUN.fullmatch(want) is not None
    # a remark holding a candidate of the value's kind is read as any part: for a heading, a
    # second title-cased phrase; for any other word, a word set apart (`remarks.marked`)
    titled = (lambda part: any(len(r.group(0).split()) >= 2 and not _whole(want, r.group(0))
                               for r in _CAPITALISED_RUN.finditer(part))) if heading else None
    answer = unremarked(whole, want, names, titled) if worded else whole
    if code:
        found += [c for c in _CODE.findall(answer) if folded(c) != folded(want)
                  and not _quantity(c)]
    if _CAPS.fullmatch(want):
        found += [c for c in _CAPS.findall(answer)
                  if folded(c) != folded(want) and not everyday(c)]  # "OK", "URL"
    if _CAPITALISED_RUN.fullmatch(want):
        found += [run for run, at in ((_unsaid(r, answer, want), r.start())
                                      for r in _CAPITALISED_RUN.finditer(answer))
                  if len(run.split()) >= 2 and not _whole(want, run)
                  and _beside(answer, at, run, want)]
    if not code:  # another model number is a code: words and list items name none
        found += _listed(answer, want, label) + _loose(answer, want, label)
    if worded:
        found += (near(whole, want, label) + ([] if heading else offered(whole, want, names))
                  + hedged(answer, want, label, names)
                  + fragments(answer, want, label, names) + stated(whole, want, names, label))
    found += [o.strip() for o in others if _fold(o) != _fold(want) and names(whole, o)]
    return list(dict.fromkeys(found))
