"""Which clauses of an answer say what the answer is, or what a part of the screen shows. Pure.

A hedge need not stand beside the value: "The word is lantern. The answer might also be
candle.", "The word is lantern. The heading is candle.", "Answer: candle", "candle might be the
answer" each offer a second value in a sentence of their own, and passed for both values (red
team 110's leftovers). So the clauses of an answer (the parts of its sentences, `remarks.PART`,
split at "but", "while" and "though" too) are read as *statements* (`statements`) of what
something is:

* of the answer (`Statement.answers`): a subject about the answer's thing (`ANSWER_NOUNS`: "the
  word", "the real answer", "the page's main heading", "the word under it") before a verb of
  being or saying (`remarks.VERB`: "is", "reads", "might also be"); "I" before one ("I'd say
  candle", "I read candle"); a guess, whatever its subject but a part of the screen ("Some might
  read it as candle"); a label of such words before a colon ("Answer:", "Word shown:"); a thing
  said to be the answer ("candle might be the answer", "candle could also be it", "candle is
  another reading"); a sentence that opens with a value alone ("Candle.", "Example Domain,
  followed by a paragraph");
* of another part of the screen: any other subject or label before such a verb ("The tab says
  Loaded Page", "Below it: the candle", "I see candle"), where a subject that names no part may
  be the value it offers ("lantern is written in the picture").

Graded for a value (`stated`), each statement of the answer that does not name it offers what it
says (`_offers`: in a phrase of at most the value's words and one more, its words that are no
everyday words, or the phrase where two of its words are capitalised: "Loaded Page"), so two
such statements give two values and fail for both. A statement about another part is a remark
where a statement of the answer names the value ("The heading is Example Domain. The tab says
Loaded Page." passes for Example Domain: an agent may say what else the screen shows). Where none
does, the first value given is the answer: a statement before the value offers what it says
("The tab says lantern. The page shows candle." passes for lantern only). A part of the screen
that the value names offers what it shows ("The lantern image shows candle", "The lantern on the
page has candle"). So no answer passes for two values, whatever parts of the screen it puts them
on; what a remark inside the value's sentence holds is `remarks.ahead`'s.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from phoneshell.checks.remarks import (
    HOLDS,
    OPENERS,
    PART,
    SENTENCE,
    VERB,
    Names,
    ahead,
    spans,
)
from phoneshell.checks.rival_words import WORD, bare
from phoneshell.spelling import folded, word_set

ANSWER_NOUNS = word_set("word words answer answers heading value reading result")
"""The answer's thing: what the tasks ask to be told ("which word appears", "what heading the
page shows") and what an answer calls it ("the answer", "the value", "the reading")."""
_PART_NOUNS = word_set("tab title link caption button text paragraph page picture image photo "
                       "label banner header body address bar url font colour color background "
                       "footer subtitle subheading icon logo screen site line")
"""Other parts of a screen a subject may name: "the page's main heading" is a heading, "the
text under the heading" a text."""
_AS_ANSWER = ANSWER_NOUNS | word_set("it one option possibility candidate guess alternative "
                                     "choice interpretation")
"""What a thing is said to be when it is offered as the answer ("candle might be the answer",
"candle could also be it", "candle is another reading")."""
_FILLERS = word_set("a an the another other second real actual correct true final right "
                    "also too just possibly probably perhaps maybe likely well different same "
                    "blank empty none nothing unknown it as")
"""Words around a thing said or offered that say nothing of it ("the real answer", "candle too",
"a different word")."""
_CLAUSE = re.compile(PART.pattern + r"|\s(?i:but|while|whilst|whereas|though|although)\s")
"""Where a clause ends: where a part does (`remarks.PART`), and at a word that sets two
clauses side by side ("The picture says lantern while the heading says candle")."""
_SUBJECT = re.compile(r"^[\s\"'*_`]*((?:[\w'./-]+\s+){0,5}?[\w'./-]+)\s*$")
"""A subject: one to six words, nothing but words."""
_NOT_SUBJECT = word_set("can could may might must would should will shall be been being do does "
                        "did not only never")
"""Words no subject holds: "its word can only be read visually" says how, not what."""
_GUESS = re.compile(r"(?i)might|could|may|must|would|should|can|will|'")
"""The verbs (`remarks.VERB`) that guess: "Some might read it as candle" offers an answer, as
"It could be candle" does; "The font might be Futura" says what another part is."""
_SAYING = re.compile(r"(?i)read|say|said|show|display|spel")
"""The verbs (`remarks.VERB`) that say what a thing shows, not what it is."""
_HOLDING = re.compile(r"(?i)(?<![\w'])(?:" + "|".join(sorted(HOLDS)) + r")(?![\w'])")
"""A verb that says what a thing holds (`remarks.HOLDS`: "has", "contains", "see")."""
_PERSONS = word_set("i we it this that there so here")
"""Subjects that name no value ("I'd say candle", "It is candle", "So is candle")."""


@dataclass(frozen=True)
class Statement:
    """A clause of an answer that says what something is, shows or holds."""

    start: int
    """Where the clause starts in the answer."""
    end: int
    """Where it ends."""
    says: tuple[int, int]
    """Where what it says (or offers as the answer) is."""
    answers: bool
    """Whether it says what the answer is, rather than what another part of the screen shows."""
    subject: tuple[int, int] = (0, 0)
    """Where its subject is where that may be a value ("lantern is written in the picture"):
    no word of the answer's thing or of a part of the screen, nor "I" or "it"."""
    shows: bool = False
    """Whether it says what a part of the screen its subject names shows or holds ("The
    lantern image shows candle", "The lantern on the page has candle")."""
    holds: bool = False
    """Whether its verb says what a thing holds ("The image has a gradient background"): such
    a statement is read only where its subject names the value."""


def _thing(subject: str) -> str:
    """What `subject` is about: its first word that names the answer's thing or a part of the
    screen, a possessive aside ("the page's main heading": heading), or ""."""
    for word in WORD.findall(subject):
        noun = folded(word)
        if noun.endswith(("'s", "s'")):
            continue
        if noun in ANSWER_NOUNS or noun in _PART_NOUNS:
            return noun
    return ""


def _said(text: str) -> list[str]:
    """The words of `text` that say something (`_FILLERS` aside)."""
    return [w for w in WORD.findall(text) if folded(w) not in _FILLERS]


def _subject(text: str) -> re.Match[str] | None:
    """`text` as a subject (`_SUBJECT`), of no word that makes it a verb's (`_NOT_SUBJECT`)."""
    found = _SUBJECT.match(text)
    if found is None or _NOT_SUBJECT & {folded(w) for w in WORD.findall(text)}:
        return None
    return found


def _clause(answer: str, start: int, end: int, first: bool) -> Statement | None:
    """The statement the part `answer[start:end]` makes, if any (see the module docstring);
    `first` when it opens its sentence."""
    part = answer[start:end]
    verb = VERB.search(part)
    held = None if verb else _HOLDING.search(part)
    joint = verb or held
    subject = _subject(part[:joint.start()]) if joint else None
    if joint and subject:
        at = (start + subject.start(1), start + subject.end(1))
        then = {folded(w) for w in WORD.findall(part[joint.end():])}
        if verb and then & _AS_ANSWER and then <= _AS_ANSWER | _FILLERS:
            return Statement(start, end, at, True)  # "candle might be the answer"
        thing, who = _thing(subject.group(1)), folded(subject.group(1))
        agent = who in ("i", "we")  # "I'd say candle" answers; "I see candle" gives one
        guess = verb is not None and _GUESS.match(verb[0]) is not None and thing not in _PART_NOUNS
        return Statement(start, end, (start + joint.end(), end),
                         thing in ANSWER_NOUNS or guess or (agent and verb is not None),
                         at if not thing and who not in _PERSONS else (0, 0),
                         thing in _PART_NOUNS and bool(held or _SAYING.search(joint[0])),
                         held is not None and not agent)
    words = [folded(w) for w in WORD.findall(part)]
    if (first and not verb and not held and words and words[0] not in OPENERS
            and not set(words) & (ANSWER_NOUNS | _PART_NOUNS) and 1 <= len(_said(part)) <= 3):
        return Statement(start, end, (start, end), True)  # "Candle.", "Example Domain (h1)"
    return None


def statements(answer: str) -> list[Statement]:
    """The statements of `answer`'s clauses (`_CLAUSE`, in sentences): each clause with a
    verb of being or saying, each label before a colon with the part after it, and each
    sentence's first part that is a value alone."""
    found: list[Statement] = []
    for start, end, _ in spans(SENTENCE, answer, 0, len(answer)):
        parts = [(s, e, mark) for s, e, mark in spans(_CLAUSE, answer, start, end)
                 if answer[s:e].strip()]
        for i, (s, e, _) in enumerate(parts):
            after = parts[i + 1] if i + 1 < len(parts) else None
            if after and after[2] == ":" and _SUBJECT.match(answer[s:e]):
                named = {folded(w) for w in WORD.findall(answer[s:e])}
                found.append(Statement(s, after[1], (after[0], after[1]),
                                       bool(ANSWER_NOUNS & named)))
                continue
            if i and parts[i][2] == ":" and found and found[-1].says == (s, e):
                continue  # a label's value, read with it
            clause = _clause(answer, s, e, first=i == 0)
            if clause:
                found.append(clause)
    return found


def _offers(answer: str, at: tuple[int, int], want: str, label: str) -> list[str]:
    """What the phrase `answer[at[0]:at[1]]` offers as a value: nothing if it holds more
    words than the value and one more (`_FILLERS` aside: prose, not a value); else its words
    that are no everyday words, or the phrase where two words of it are capitalised besides one
    that opens a sentence ("Loaded Page"; "Opened Safari" is a sentence, and the words of what
    the check reads, `label`, are none: "Model Name, iPhone Air")."""
    text = answer[at[0]:at[1]]
    said = _said(text)
    if not said or len(said) > len(want.split()) + 1:
        return []
    opening = not answer[:at[0]].strip() or answer[:at[0]].rstrip()[-1:] in ".!?\n"
    titled = {folded(w) for w in WORD.findall(label)}  # "Model Name, iPhone Air"
    capitals = [w for w in WORD.findall(text)[(1 if opening else 0):]
                if w[:1].isupper() and folded(w) not in titled]
    if len(capitals) > 1:
        return [" ".join(text.split()).strip(" \"'*_`")]
    return [w for w in bare(text, want, label=label) if len(w) > 1]


def _first(answer: str, want: str, names: Names) -> int:
    """Where the first clause (`_CLAUSE`) of `answer` that names `want` starts."""
    for start, end, _ in spans(SENTENCE, answer, 0, len(answer)):
        for s, e, _ in spans(_CLAUSE, answer, start, end):
            if names(answer[s:e], want):
                return s
    return len(answer)


def stated(answer: str, want: str, names: Names, label: str = "") -> list[str]:
    """The values `answer` offers besides `want` in its statements (see the module docstring),
    and in the parts of a sentence a remark holding `want` follows (`remarks.ahead`)."""
    found = [w for part in ahead(answer, want, names) for w in bare(part, want, label=label)
             if len(w) > 1]
    said = statements(answer)
    answered = any(s.answers and names(answer[s.start:s.end], want) for s in said)
    first = _first(answer, want, names)
    for s in said:
        if names(answer[s.start:s.end], want):
            # "The lantern image shows candle": what the value's part shows is offered
            if s.shows and not names(answer[s.says[0]:s.says[1]], want):
                found += _offers(answer, s.says, want, label)
        elif s.answers or (not answered and not s.holds and s.end <= first):
            found += _offers(answer, s.says, want, label) + _offers(answer, s.subject, want,
                                                                     label)
    return found
