"""Which parts of an answer remark on the value it names, and so offer no other. Pure.

An answer names its value and often goes on, in the same sentence, to say something about it:
"It's Example Domain, the IANA placeholder page.", "... Example Domain, followed by a
paragraph", "LANTERN, in a serif typeface", "LANTERN, as in the camping gear",
"LANTERN; the surrounding caption was blank". Such a part *describes* (`describes`): it opens,
in small letters, with an article, a preposition, a relative word, a participle or an adverb,
and offers nothing, whatever its words: whether a word is common is no sign of a second value
(red team 110). A part after "and" or in brackets goes on with a description before it ("a
term from astronomy and geography", "in a serif typeface (possibly Georgia)"). So
`values.candidates` reads the word rules (`rival_words`, a capitalised run, an ALL-CAPS word,
a list item) on the answer with those parts blanked (`unremarked`); a near spelling, a number
and one of the check's `others` count wherever they stand.

A part does not describe when it offers: a hedging word before something that is no description
("LANTERN, possibly in Georgia" describes, "Example Domain, or the Loaded Page" offers), a word
that says a second choice, a doubt, a list's joint or a likeness (`_OFFERS`), another name
("spelled nutmeg"), a capital ("Example Domain, Loaded Page"), or a question. Nor does the part
that names the value: a description comes after what it describes. So where the value is named
only in a remark on another part ("The word is LANTERN, in a candle typeface", graded for
candle), or as the object of a preposition after a short phrase in its part ("lantern in
candle", "The word is lantern on a candle background", graded for candle), what came first is
the answer, and its words are the rivals (`ahead`): no answer passes for both the value it
gives and one it remarks with.

Nor is a part a remark that holds a candidate of the value's kind, whatever words frame it: no
list of offering words is complete ("Example Domain, with Loaded Page as runner up", "LANTERN,
with Nutmeg if that is wrong", red team 113). `unremarked` keeps such a part for the word rules
(for a heading, `values` passes its own test: a second title-cased run), and `offered` names a
part of a remark's shape that sets a word apart (`marked`) as a candidate of a word's kind.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from phoneshell.checks.rival_words import HEDGE, WORD, everyday
from phoneshell.spelling import folded, word_set

SENTENCE = re.compile(r"(?<!(?<![^\W\d_])[^\W\d_])\.+(?=\s|$)|[!?]+|\n")
"""Where a sentence ends: full stops before a space or the end ("example.com" goes on) but
after a letter alone ("i.e. Loaded Page" goes on), "!", "?", a new line."""
PART = re.compile(r"[,;:()\[\]{}]|\s-+\s|\s(?i:and)\s")
"""Where a part of a sentence ends: a comma, semicolon or colon, a bracket, a dash between
spaces, "and"."""
_PREPOSITION_WORDS = """
in on at with from by as for of under over below above beside behind inside across near against
via through throughout without within into onto beneath underneath after before like per along
around among upon toward towards about beyond atop amid despite except
"""
PREPOSITIONS = frozenset(_PREPOSITION_WORDS.split())
_RELATIVES = word_set("which who whose where when")
OPENERS = PREPOSITIONS | _RELATIVES | word_set("a an the its their")
"""Words a description opens with: prepositions, articles, relative words."""
_PARTICIPLES = word_set("shown written seen drawn set found made held taken given hidden laid "
                        "shot")
"""Participles without the "-ed" of the rest ("written in white", "shown below it")."""
_NAMING = word_set("called named spelled spelt read titled labelled labeled known "
                   "aka")
"""Words that give a value another name ("spelled candle", "also known as candle"): a part
they open names one, and describes nothing."""
_UNSURE = word_set("maybe possibly probably perhaps")
"""Words that may come before a description and leave it one ("maybe in Helvetica")."""
_ANSWERING = word_set("word answer heading value reading result")
"""What the answer is ("the word is nutmeg"): a part that says so after an article is no
description of something else."""
_OFFERS = re.compile(r"(?i)(?<![\w'])(?:other|another|second|alternatives?|alt|backup|fallback"
                     r"|options?|guess(?:es)?|choices?|candidates?|runner-up|possible|likely"
                     r"|plausibl[ey]|arguably|conceivably|presumably|supposedly|seemingly"
                     r"|apparently|alternately|potentially|equally|failing|barring|plus"
                     r"|besides|alongside|as\s+well\s+as|along\s+with|together\s+with"
                     r"|in\s+addition\s+to|in\s+(?:fact|truth|reality|case|short)"
                     r"|at\s+(?:least|best|most)|of\s+course|for\s+(?:sure|certain)|also"
                     r"|resembl\w*|similar\w*|look(?:s|ed|ing)?\s+like|misread\w*|mistak\w*"
                     r"|confus\w*)(?![\w'])")
"""Words that say a second choice, an adverb that doubts, a list's joint, a phrase that asserts
("in fact") or a likeness: a part holding one offers what it names ("arguably candle", "as well
as candle", "perhaps in fact candle", "read also as candle", "looking like candle")."""

VERB = re.compile(
    r"(?i)(?:(?:(?<![\w'])(?:might|could|may|must|would|should|can|will)|(?<=\w)'(?:d|ll))"
    r"(?:\s+(?:also|well|just|even|actually|instead|really))?\s+(?:be|read|say|spell|show"
    r"|go\s+with|pick|choose)|(?<![\w'])(?:is|was|are|were)(?:\s+"
    r"(?:also|actually|probably|possibly|maybe|perhaps|likely|really|instead|just))?"
    r"|(?<![\w'])(?:reads?|says|said|shows|showed|displays|displayed|spells|spelled|spelt"
    r"|appears\s+to\s+be|seems\s+to\s+be))(?![\w'])")
"""A verb of being or saying, perhaps hedged ("might also be"): what follows it is what a
clause says something is."""
HOLDS = word_set("has have had holds contains features bears carries includes see saw sees "
                  "find found spot spotted notice noticed")
"""Verbs that say what a thing holds ("a picture with a lighthouse has LANTERN on it")."""

Names = Callable[[str, str], bool]
"""`values.names`: whether a text names a value."""


def spans(pattern: re.Pattern[str], text: str, start: int,
          end: int) -> Iterator[tuple[int, int, str]]:
    """The pieces of `text[start:end]` between `pattern`'s marks, as (start, end, the mark
    before it, stripped)."""
    at, mark = start, ""
    for found in pattern.finditer(text, start, end):
        yield at, found.start(), mark
        at, mark = found.end(), found.group(0).strip().lower()
    yield at, end, mark


def _opens(word: str, more: bool) -> bool:
    """Whether `word` opens a description: an opener, or, with `more` words after it, a
    participle ("followed by a paragraph", "written in white", "using the zoom") or an adverb
    ("clearly legible", "slightly blurry")."""
    return word in OPENERS or (more and (word in _PARTICIPLES or (
        len(word) > 4 and word.endswith(("ed", "ing", "ly")))))


def describes(part: str) -> bool:
    """Whether `part` of an answer describes rather than offers (see the module docstring):
    it opens with a description's word (`_opens`) in small letters, after "maybe" or
    "possibly" ("possibly in Georgia"), and is no sentence about what the answer is ("the word
    is nutmeg"); each hedging word (`HEDGE`) in it is followed by a preposition ("maybe in
    Helvetica"; "maybe the nutmeg" offers), or in a relative clause by an article too; and no
    word says a second choice (`_OFFERS`)."""
    written = WORD.findall(part)
    while len(written) > 1 and folded(written[0]) in _UNSURE:
        written.pop(0)
    words = [folded(w) for w in written]
    # a capital in mid-sentence is a name's: "Example Domain, Loaded Page" lists two
    if (not words or not written[0].islower() or words[0] in _NAMING
            or not _opens(words[0], len(words) > 1)):
        return False
    if _OFFERS.search(part):
        return False
    if words[0] in ("a", "an", "the") and _ANSWERING & set(words):
        return False
    # a relative clause says what the value may be ("which might be a reference to the spice")
    then = PREPOSITIONS | ({"a", "an", "the"} if words[0] in _RELATIVES else set())
    for found in HEDGE.finditer(part):
        after = WORD.findall(part[found.end():])
        if not after or folded(after[0]) not in then:
            return False
    return True


_QUOTED = re.compile(r"[\"«»]|(?<!\w)'|'(?!\w)")
"""A quotation mark: an apostrophe inside a word ("page's") is none."""


def marked(part: str, want: str, everyday_too: bool = True) -> bool:
    """Whether `part` sets a word apart as a name: a word with a capital letter that is not
    one of `want`'s ("Loaded Page", "NUTMEG", "Nutmeg", "I"; with `everyday_too` false, not an
    everyday word either), or a quotation mark. Such a word is a candidate of any value's kind
    (a heading is capitalised words, a probe's word is written in capitals, a word in small
    letters is set apart by quotes), so a part holding one is never blanked as a remark,
    whatever its other words: the word rules read it as they read any part ("Example Domain,
    with Loaded Page as runner up")."""
    own = {folded(w) for w in WORD.findall(want)}
    return bool(_QUOTED.search(part)) or any(
        not w.islower() and folded(w) not in own and (everyday_too or not everyday(w))
        for w in WORD.findall(part))


def _sentences(answer: str, want: str,
               names: Names) -> Iterator[tuple[list[tuple[int, int]], list[bool], int]]:
    """Each sentence of `answer` that names `want` and asks nothing: its parts (`PART`), which
    of them remark (one that describes, or goes on from one after "and" or in a bracket: "a
    term from astronomy and geography", "in a serif typeface (possibly Georgia)"), and the
    first that names `want`."""
    for start, end, _ in spans(SENTENCE, answer, 0, len(answer)):
        if answer[end:end + 1] == "?" or not names(answer[start:end], want):
            continue
        parts: list[tuple[int, int]] = []
        remark: list[bool] = []
        for s, e, mark in spans(PART, answer, start, end):
            if s == e:
                continue
            goes_on = bool(remark) and remark[-1] and mark in ("and", "(", "[")
            parts.append((s, e))
            remark.append(goes_on or describes(answer[s:e]))
        first = next((i for i, (s, e) in enumerate(parts) if names(answer[s:e], want)), None)
        if first is not None:
            yield parts, remark, first


def unremarked(answer: str, want: str, names: Names,
               kind: Callable[[str], bool] | None = None) -> str:
    """`answer` with its remarks on the value blanked: in each sentence that names `want`, the
    parts after the first that names it which remark (`_sentences`), do not name it and hold
    no candidate of its kind (`kind`, by default `marked`). Positions are kept."""
    holds = kind or (lambda part: marked(part, want))
    blanked = list(answer)
    for parts, remark, first in _sentences(answer, want, names):
        for (s, e), remarks in list(zip(parts, remark, strict=True))[first + 1:]:
            if remarks and not names(answer[s:e], want) and not holds(answer[s:e]):
                blanked[s:e] = " " * (e - s)
    return "".join(blanked)


def offered(answer: str, want: str, names: Names) -> list[str]:
    """The remarks on a word `want` (`_sentences`) that set a word apart as a name: in quotes,
    or with a capital and no everyday word ("Nutmeg"; "I", "Probe" are everyday words). Each
    names a candidate of a word's kind, whatever words frame it ("LANTERN, with Nutmeg if
    that is wrong", "lantern, with 'candle' as runner up"): no list of framing words could
    tell a second choice from a description."""
    found = []
    for parts, remark, first in _sentences(answer, want, names):
        for (s, e), remarks in list(zip(parts, remark, strict=True))[first + 1:]:
            part = answer[s:e]
            if remarks and not names(part, want) and marked(part, want, everyday_too=False):
                found.append(part.strip())
    return found


def _object(answer: str, start: int, end: int, want: str, names: Names) -> int:
    """Where the preposition starts of which `want` is the object, with at most three words
    between and a word before it, in the part `answer[start:end]` ("lantern in candle", "lantern
    on a candle background"); -1 where there is none ("The heading of example.com is Example
    Domain": a verb comes between, `VERB` or `HOLDS`)."""
    words = list(WORD.finditer(answer, start, end))
    last = next((i for i, w in enumerate(words) if names(answer[start:w.end()], want)), 0)
    at = last - len(WORD.findall(want))  # the word before the value
    for i in range(at, max(at - 4, 0), -1):
        word = folded(words[i].group(0))
        if word in PREPOSITIONS or word in ("to", "than", "not"):
            return words[i].start()
        if VERB.fullmatch(word) or word in HOLDS or HEDGE.fullmatch(word):
            break
    return -1


def ahead(answer: str, want: str, names: Names) -> list[str]:
    """Where the value is named only in a remark (`_sentences`) on what came before it, the
    parts before it: "The word is LANTERN" in "The word is LANTERN, in a candle typeface",
    graded for candle. A value that is a preposition's object (`_object`) in the part that
    names it remarks on a short phrase before: what a verb of being or saying says (or, with
    nothing after the verb, its subject), of at most the value's words and two more, articles
    aside: "lantern" in "The word is lantern in candle" and in "lantern is above candle",
    graded for candle. So an answer that passes for its value with such a remark fails for
    the value remarked with."""
    found: list[str] = []
    for parts, remark, first in _sentences(answer, want, names):
        if remark[first]:
            found += [answer[s:e] for s, e in parts[:first]]
            continue
        s, e = parts[first]
        at = _object(answer, s, e, want, names)
        if at < 0:
            continue
        said = list(VERB.finditer(answer, s, at))
        before = answer[said[-1].end() if said else s:at]
        if said and not WORD.search(before):
            before = answer[s:said[-1].start()]
        words = [w for w in WORD.findall(before) if folded(w) not in ("a", "an", "the")]
        if len(words) <= len(WORD.findall(want)) + 2:
            found.append(before)
    return found
