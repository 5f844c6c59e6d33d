"""Which words of an answer offer another value besides a value in words. Pure.

`values.candidates` asks these rules for a value with words that is no code and no heading of
the compass; both texts are read (`reading.read`) first. The words an answer puts around a value
(`EVERYDAY`) are no candidates, and a word of the value's own or of what the check reads
(`label`) is none. Besides them, an answer offers another value with (docs/checks.md, "Answers
that hedge"):

* a spelling a letter or two from the value's (`near`): "LANTERN (possibly Lantren)", an OCR
  misreading "LANT3RN", "Example Domian";
* a word after a hedging word, to the end of the clause, in the clause that names the value or
  one that opens with the hedging word (`hedged`): "LANTERN unless it's candle", "LANTERN (or
  CanDle)", "LANTERN. Could also be Candle"; for a value of several words, the words after it
  too when they hold one of the value's words and not the value ("Example Domain (possibly
  example website)"); and a word before a word of possibility ("Candle is also possible");
* a clause of the answer (not a label before a colon) that does not name the value and is
  made of such words alone, or asks a question with one (`fragments`): "Lantern. Candle.",
  "LANTERN: candle", "LANTERN - candle", "lantern? candle?".

So "OTTER (the animal)" names one word and "OTTER (animal)" two: a grader cannot tell a
labelled extra value from a hedge (docs/agents.md).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from phoneshell.checks.reading import script
from phoneshell.spelling import folded

WORD = re.compile(r"[^\W\d_][\w'-]*")
_TOKEN = re.compile(r"(?<![\w'-])(?=[\w'-]*[^\W\d_])[^\W_][\w'-]*")
"""A word, or letters and digits together ("MER1DIAN", "0BSIDIAN": a misreading is a word)."""
_EVERYDAY_WORDS = """
a about above after again all also am an and answer answered answers any appear appeared appears
are around as at back background be because been before being below between big black blue
bold both bottom box but by called can capital capitalised capitalized capitals caps center
centered centre centred clear clearly colour color could currently did displayed displays do
does done each either else even exactly example fairly first font for found from front full
given go going guess had has have he heading her here hers him his how however i i'd i'll i'm
i've if image in inside into is it it's its just large larger left letter letters like likely
line lines looked looks lower lowercase main maybe me middle might mine more most much must my
near no not now of on one only onto or other our out over page paragraph perhaps photo picture
plain possibly pretty printed probably quite rather read reads red right said same say saw says
screen see seems seen sentence shown shows single site small so some spelled spelt still such
sure text than that that's the their them then there there's these they think this those title
to top under upper uppercase us very visible was we web webpage website were what when where
which while white who whose will with word words would writes writing written yes you your
ok okay alright hi hello hey well thanks thank yeah yep
opened open opening loaded load loading visited visit visiting navigated navigate went checked
check checking looked look looking viewed view reached reach tapped tap clicked click scrolled
scroll typed type searched search launched launch showed show showing saying successfully
link url address browser safari tab nothing everything anything
result value field source confidence high low medium certain
unless otherwise alternatively instead versus vs nor second may
way least something someone sort kind bit believe assume suppose seem mean means meant
find finding confirm confirmed confirming verify verified success successful complete
completed finished task probe unsure uncertain confident correct correctly wrong exact
misspelled misspelt misread spelling case cased typo italic italics serif cursive stylised
stylized decorative handwritten blurry blurred cropped hidden obscured partially partly
rendered logo banner header headline label labelled labeled caption highlighted foreground
dark light yellow green orange purple pink brown grey gray gold silver zoom zoomed zooming
http https www com org net io ai html blolabel ios
"""
EVERYDAY = frozenset(_EVERYDAY_WORDS.split())
"""Words an answer uses around a value ("The word is written in big letters at the top of the
page, I think"; "OK, I opened the page in Safari and it shows ..."; a JSON answer's
"confidence": "high"; "LANTERN, possibly misspelled", "... in yellow italics"; the parts of the
addresses the tasks open, "https://blolabel.ai/probe/1/"), each also with an "s" ("pages"):
never taken for a candidate. Anything else may be one. So a value that is one of them ("Open")
is not hedged by another of them ("Open or Close" names Close): a task with such a value lists
the others it could be as `others`."""


def everyday(word: str) -> bool:
    """Whether `word` is an everyday word (`EVERYDAY`), or one of three letters or more with an
    "s" after it ("pages"; "iOS" is no "io" with an "s")."""
    word = folded(word)
    return word in EVERYDAY or (len(word) > 3 and word.endswith("s") and word[:-1] in EVERYDAY)


_SPELT_OUT = re.compile(r"(?<![\w-])(?:[^\W\d_]-)+[^\W\d_](?![\w-])")


def spelt_out(answer: str, want: str) -> str:
    """`answer` with each word of `want` it spells out letter by letter written as the word:
    "L-A-N-T-E-R-N" is LANTERN spelt, no second value."""
    own = {folded(w) for w in WORD.findall(want)}
    return _SPELT_OUT.sub(lambda m: m.group(0).replace("-", "")
                          if folded(m.group(0).replace("-", "")) in own else m.group(0), answer)


def bare(text: str, want: str, everyday_too: bool = False, own: bool = True,
         label: str = "", any_script: bool = False) -> list[str]:
    """The words of `text` that could be values: written in `want`'s script (a word of another
    script is no candidate for it, unless `any_script`), not words of `want` (unless `own` is
    off), nor of `label` (the row's title: "Model Number"), nor (unless `everyday_too`)
    everyday words."""
    skip = ({folded(w) for w in WORD.findall(want)} if own else set()) | {
        folded(w) for w in WORD.findall(label)}
    alphabet = script(want)
    return [w for w in WORD.findall(text) if folded(w) not in skip
            and (everyday_too or not everyday(w)) and (any_script or script(w) == alphabet)]


def _apart(one: str, other: str, most: int) -> int:
    """How many letters apart two words are (inserted, left out, changed or two swapped), or
    `most` + 1 when more than `most`."""
    if abs(len(one) - len(other)) > most:
        return most + 1
    before, row = None, list(range(len(other) + 1))
    for i, a in enumerate(one, 1):
        now = [i] + [0] * len(other)
        for j, b in enumerate(other, 1):
            now[j] = min(row[j] + 1, now[j - 1] + 1, row[j - 1] + (a != b))
            if before is not None and j > 1 and (a, b) == (other[j - 2], one[i - 2]):
                now[j] = min(now[j], before[j - 2] + 1)  # two letters swapped
        before, row = row, now
    return min(row[-1], most + 1)


def _tokens(text: str) -> list[str]:
    """The words of `text`, a possessive's "'s" left off."""
    return [re.sub(r"'s?$", "", t) for t in _TOKEN.findall(text)]


def near(answer: str, want: str, label: str = "") -> list[str]:
    """Spellings within a letter of the value (two, for a value of seven letters or more):
    "Lantren", "LANT3RN", "Example Domian", but not its plural or possessive ("lanterns",
    "lantern's": the value in a sentence about it); as many words as the value has,
    none of them everyday words (all, for a value of several) nor words of `label`. A value of
    fewer than five letters has none: too many words are a letter from it."""
    words = [folded(t) for t in _tokens(want)]
    phrase, size = " ".join(words), len(words)
    if not words or len(phrase.replace(" ", "")) < 5:
        return []
    most = 1 if len(phrase) <= 6 else 2
    titled = {folded(w) for w in WORD.findall(label)}
    tokens, found = _tokens(answer), []
    for i in range(len(tokens) - size + 1):
        window = tokens[i:i + size]
        if any(folded(t) in titled for t in window) or all(everyday(t) for t in window):
            continue
        said = folded(" ".join(window))
        if said in (phrase + "s", phrase + "es", phrase + "'"):
            continue  # its plural is the value ("lanterns light the path")
        if said != phrase and _apart(said, phrase, most) <= most:
            found.append(" ".join(window))
    return found


HEDGE = re.compile(r"(?i)(?<![\w'])(?:or|nor|maybe|perhaps|possibly|probably|unless|either"
                   r"|otherwise|alternatively|else|instead|vs\.?|versus|if\s+not|not\s+sure"
                   r"|then\s+again|in\s+place\s+of"
                   r"|(?:could|might|may|can)(?:\s+(?:also|well|just|even|actually))?"
                   r"\s+(?:be|read|say|spell|mean|have\s+been))(?![\w'])")
"""The words that offer an alternative: what follows them in the clause is a second guess.
"could" and "might" offer one as "could be", "might read": "I could see it clearly" offers
nothing."""
_LIKELY = re.compile(r"(?i)(?<![\w'])(?:possible|likely|plausible|alternatives?|runner-up)"
                     r"(?![\w'])")
"""The words that say a possibility of what comes before them ("Candle is also possible")."""
_CLAUSE = re.compile(r"[.;:!?()\[\]{}\"\n]|\s-+\s")
"""Where a clause ends: a sentence's or a label's punctuation, a bracket, a quote, a new line,
or a dash between spaces ("LANTERN - candle")."""

Names = Callable[[str, str], bool]
"""`values.names`: whether a text names a value."""


def _clauses(answer: str) -> Iterator[tuple[str, str]]:
    """The clauses of `answer`, each with the mark that ends it ("" for the last)."""
    start = 0
    for end in _CLAUSE.finditer(answer):
        yield answer[start:end.start()], end.group(0)
        start = end.end()
    yield answer[start:], ""


def _offered(part: str, want: str, label: str, names: Names) -> list[str]:
    """What a part of an answer that offers a value offers: its bare words of any script, and
    for a value of several words, the part itself when it holds one of them but not the
    value ("example website" beside Example Domain)."""
    found = [w for w in bare(part, want, label=label, any_script=True) if len(w) > 1]
    own = {folded(w) for w in WORD.findall(want)}
    if len(own) > 1 and own & {folded(w) for w in WORD.findall(part)} and not names(part, want):
        found.append(" ".join(part.split()))
    return found


OPENERS_WORDS = ("but and though although so it it's that this which i i'd i'm or the value "
                 "reading also then well")
OPENERS = frozenset(OPENERS_WORDS.split())
"""Words a clause may say before its hedging word and still open with it ("It could be 58",
"But maybe candle")."""
_PLAIN_WORDS = ("a an the be been it it's is was also just even actually called named spelled "
                "spelt read reads say says well too instead rather though")
_PLAIN = frozenset(_PLAIN_WORDS.split())
"""Words around a value offered in a clause of its own ("Could also be the spice Candle")."""


def opens(clause: str) -> bool:
    """Whether `clause` opens with a hedging word, after a few words that say nothing
    (`OPENERS`): "It could be 58", "But maybe candle"."""
    hedge = HEDGE.search(clause)
    return hedge is not None and all(folded(t) in OPENERS
                                     for t in _tokens(clause[:hedge.start()]))


def _value_like(part: str, want: str) -> bool:
    """Whether `part` is one value of `want`'s kind, not prose: one to (the value's words + 1)
    words besides a few plain ones (`_PLAIN`). "Could also be Candle" offers one; "It may be a
    test page for reading" none."""
    said = [t for t in _tokens(part) if folded(t) not in _PLAIN]
    return 1 <= len(said) <= len(want.split()) + 1


def _after_value(answer: str, at: int, want: str) -> bool:
    """Whether the bracket that opens just before `at` follows the value ("CANDLE (or wick)"),
    not another word ("in a serif typeface (possibly Georgia)")."""
    head = folded(answer[:at]).rstrip()
    return head.endswith(("(", "[")) and head[:-1].rstrip(" \"'*_`").endswith(folded(want))


def hedged(answer: str, want: str, label: str, names: Names) -> list[str]:
    """Words after a hedging word (`HEDGE`), up to the clause's end (`_offered`), in the
    clause that names the value ("LANTERN unless it's candle"), or in one that opens with a
    hedge (`opens`) and offers one value (`_value_like`): "Could also be Candle", "(or
    CanDle)" in brackets right after the value. A hedge in a sentence about something else
    offers nothing: "It might be a test page", "a serif typeface (possibly Georgia)",
    "without prior coordination or asking for permission" (example.com's text). And words
    before a word of possibility (`_LIKELY`), in any clause: "Candle is also possible"."""
    found: list[str] = []
    start = 0
    for end in [*_CLAUSE.finditer(answer), None]:
        at, clause = start, answer[start:end.start() if end else len(answer)]
        start = end.end() if end else len(answer)
        for likely in _LIKELY.finditer(clause):
            found += _offered(clause[:likely.start()], want, label, names)
        hedges = list(HEDGE.finditer(clause))
        if not hedges:
            continue
        named = names(clause, want)
        if not named and not (opens(clause) and (
                not folded(answer[:at]).rstrip().endswith(("(", "["))
                or _after_value(answer, at, want))):
            continue
        for hedge, then in zip(hedges, [*hedges[1:], None], strict=True):
            part = clause[hedge.end():then.start() if then else len(clause)]
            if named or _value_like(part, want):
                found += _offered(part, want, label, names)
    return found


def fragments(answer: str, want: str, label: str, names: Names) -> list[str]:
    """Clauses that do not name the value and offer another (`_offered`): made only of words
    that are not everyday ("Candle.", "(candle)", ": candle", "- candle"), or asking a question
    ("candle?"). A clause before a colon is a label ("Probe: LANTERN")."""
    if script(want) != "LATIN":  # the everyday words are English: elsewhere all are bare
        return []
    titled, found = {folded(w) for w in WORD.findall(label)}, []
    for clause, mark in _clauses(answer):
        words = _tokens(clause)
        if not words or mark == ":" or names(clause, want):
            continue
        if mark == "?" or not any(everyday(t) or folded(t) in titled for t in words):
            found += _offered(clause, want, label, names)
    return found
