"""How phoneshell reads text to compare it, as a reader reads it: one fold, for both sides. Pure.

A reader cannot tell which of two code points draws an apostrophe, nor a no-break space from a
space, and neither can an author copying a screen into a task file or an agent copying it into
an answer: iOS writes `7 o’clock` (U+2019), a task file `7 o'clock`, an answer "Don’t Panic" or
"Don't Panic". So every comparison of a check's text with the phone's text or the agent's answer
(`tree`'s text reads, the answer kinds, `set_picker`) reads both sides through `plain`:

* Unicode NFKC: composed and decomposed accents alike ("Café" either way), full-width letters
  and digits as ASCII ("ＮＩＭＢＵＳ"), ligatures spelled out, and every space (no-break U+00A0,
  narrow no-break U+202F, thin, en and em spaces) as a plain space;
* apostrophes and single quotes (’ ‘ ‚ ‛ ʼ ′) as `'`, double quotes (“ ” „ ‟ ″ « ») as `"`,
  hyphens, dashes and the minus sign (‐ ‑ ‒ – — ― −) as `-`;
* invisible format characters (zero-width spaces and joiners, direction marks, soft hyphens,
  tag characters) dropped: they change no word a reader sees.

`folded` also ignores case (`str.casefold`: "STRASSE" is "straße") and runs of white space:
what the case-insensitive comparisons use. Text that is all ASCII has nothing to fold but its
case, so it costs a `lower()`: a page source of 5,000 elements stays cheap to search.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from phoneshell.patterns import Pattern, PatternError, compile_pattern

__all__ = ["folded", "plain", "read_pattern"]

_SHAPES = str.maketrans({
    **dict.fromkeys("\u2018\u2019\u201a\u201b\u02bc\u2032", "'"),
    **dict.fromkeys("\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb", '"'),
    **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63", "-"),
})
_INVISIBLE = re.compile("[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff"
                        "\U000e0000-\U000e007f]")
_SPACES = re.compile("[\u00a0\u2000-\u200a\u202f\u205f\u3000]")


def word_set(words: str) -> frozenset[str]:
    """The words of a list written with spaces between them, as a set (a table of words)."""
    return frozenset(words.split())


def plain(text: str) -> str:
    """`text` as a reader reads it, case kept (see the module docstring)."""
    if text.isascii():
        return text
    # Shapes first and again: NFKC turns some into others (″ into ′′, ＇ into ')
    text = unicodedata.normalize("NFKC", text.translate(_SHAPES)).translate(_SHAPES)
    return _INVISIBLE.sub("", text)


def folded(text: str) -> str:
    """`text` as case-insensitive comparisons read it: `plain`, case folded, white space runs as
    one space, the ends trimmed."""
    if text.isascii():
        return " ".join(text.lower().split())
    return " ".join(unicodedata.normalize("NFKC", plain(text).casefold()).split())


def folded_lines(text: str) -> str:
    """`text` as `folded` reads each of its lines, the line breaks kept (a trailing one dropped):
    typing compared with what was asked, where a Return in a note is not the space asked for."""
    return "\n".join(folded(line) for line in text.rstrip("\r\n").splitlines())


@functools.lru_cache(maxsize=256)
def read_pattern(pattern: Pattern) -> Pattern:
    """`pattern` for `plain` text: its quotes, dashes, spaces and invisible characters read as
    `plain` reads them, composed (NFC) but never NFKC, which would turn a full-width bracket
    into the pattern's own; `pattern` itself when that changes nothing, or breaks it."""
    source = pattern.pattern
    if source.isascii():
        return pattern
    shaped = unicodedata.normalize("NFC", source.translate(_SHAPES))
    shaped = _INVISIBLE.sub("", _SPACES.sub(" ", shaped))
    if shaped == source:
        return pattern
    try:
        return compile_pattern(shaped)
    except PatternError:  # a dash folded into a class range that runs backwards ([z–a])
        return pattern
