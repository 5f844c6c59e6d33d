"""Which characters a screenshot draws for a text, and on which lines: what fits its frame.

Each paragraph (a newline starts one) is one line when it fits the width; otherwise its words
wrap, and a word wider than a line is broken between characters, as UIKit's word wrapping
breaks it. What is drawn costs what it shows, never what the text holds: no glyph of the font
is narrower than `narrowest`, so a line never needs more than `Fit.cap` characters; lines are
made lazily, so a caller that can show twenty lines wraps twenty; a label cut to one line is
cut by halving. A note of a million characters draws as fast as one of a hundred.

Text is drawn with Pillow's default font, which covers basic Latin only: `printable` draws
other characters as the nearest it has (x for the multiplication sign, e for é).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Generator, Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
Span = tuple[int, int]
"""Characters text[start:end]."""
Line = tuple[Span, ...]
"""What one line shows: its spans of the text, a space between each."""
ELLIPSIS = "\u2026"
WORD = re.compile(r"\S+")
"""A word, as `str.split` finds them (`\\S` and `split` both use Unicode's whitespace)."""
_SUBSTITUTES = {"\u00f7": "/", "\u00d7": "x", "\u2212": "-", "\u2013": "-", "\u2014": "-",
                "\u2022": "*", "\u25cf": "*", "\u2019": "'", "\u2713": "v", "\u2190": "<-",
                "\u2192": "->", "\u2032": "'", "\u2033": '"', "\u25cb": "o",
                "\u200e": ""}


@lru_cache(maxsize=64)
def font(px: int) -> Font:
    """The screenshot font at `px` pixels."""
    return ImageFont.load_default(size=px)


@lru_cache(maxsize=64)
def narrowest(px: int) -> float:
    """The advance of the font's narrowest printable glyph at `px` (an apostrophe, a full stop):
    no line of n characters is narrower than n of them (characters the font lacks draw wider,
    as its missing-glyph box)."""
    face = font(px)
    return max(1.0, min(face.getlength(chr(c)) for c in range(0x20, 0x7F)))


@lru_cache(maxsize=1024)
def _drawable(char: str) -> str:
    """The char, or the nearest the default font has (it covers basic Latin only)."""
    face = font(40)
    if char.isspace() or face.getmask(char).getbbox() != face.getmask("\uffff").getbbox():
        return char
    if char in _SUBSTITUTES:
        return _SUBSTITUTES[char]
    base = unicodedata.normalize("NFKD", char)[:1]
    return base if base and base != char and _drawable(base) == base else "?"


def printable(text: str) -> str:
    """Text with characters the screenshot font lacks replaced by near ASCII (x for ×)."""
    return text if text.isascii() else "".join(_drawable(c) for c in text)


def paragraphs(text: str) -> Iterator[Span]:
    """The (start, end) of each line of `text` as `split("\\n")` cuts it, found lazily."""
    start = 0
    while start <= len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        yield start, end
        start = end + 1


@dataclass(frozen=True)
class Fit:
    """Lines of text in `width` pixels of the font at `px` pixels.

    A line is the spans of the text drawn on it, a space between each: one span is a paragraph
    as typed (its spaces kept), or a word, or the piece of a word a line holds.
    """

    px: int
    width: float
    reach: float = 0.0
    """How far past its frame an unwrapped line can still show (pixels: the screen's width)."""
    cap: int = field(init=False)
    """Characters enough to overfill a line: more than `width` holds of the narrowest glyph."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "cap", self._holding(self.width))

    def _holding(self, width: float) -> int:
        return int(max(0.0, width) // narrowest(self.px)) + 2

    def measure(self, text: str, tail: str = "") -> float:
        """The width in pixels of text as drawn (`printable`), and `tail` drawn as it is."""
        return text_length(printable(text) + tail, self.px)

    def head(self, text: str, start: int = 0, end: int | None = None) -> str:
        """The characters of text[start:end] a line can show (at most `cap`), as typed."""
        stop = len(text) if end is None else end
        return text[start:min(stop, start + self.cap)]

    @staticmethod
    def shown(text: str, line: Line) -> str:
        """The characters drawn for a line."""
        return printable(" ".join(text[start:end] for start, end in line))

    def lines(self, text: str, wrap: bool = True) -> Iterator[str]:
        """The lines drawn for the text, lazily (see `spans`)."""
        return (self.shown(text, line) for line in self.spans(text, wrap))

    def spans(self, text: str, wrap: bool = True) -> Iterator[Line]:
        """The lines the text is drawn on, lazily: each paragraph, wrapped if `wrap`; else a
        paragraph wider than the frame is one line (cut where even `reach` ends)."""
        reach = self._holding(self.width + self.reach)
        for start, end in paragraphs(text):
            if wrap:
                yield from self._wrapped(text, start, end)
            else:
                yield ((start, min(end, start + reach)),)

    def _wrapped(self, text: str, start: int, end: int) -> Iterator[Line]:
        if end - start <= self.cap and self.measure(text[start:end]) <= self.width:
            yield ((start, end),)  # as typed, its spaces kept
            return
        line: list[Span] = []
        drawn = ""
        for match in WORD.finditer(text, start, end):
            first, last = match.span()
            if line and last - first <= self.cap:
                trial = f"{drawn} {text[first:last]}"
                if self.measure(trial) <= self.width:
                    line.append((first, last))
                    drawn = trial
                    continue
            if line:
                yield tuple(line)
            rest = yield from self._broken(text, first, last)
            line, drawn = [rest], text[rest[0]:rest[1]]
        yield tuple(line)

    def _broken(self, text: str, start: int, end: int) -> Generator[Line, None, Span]:
        """Yield the lines a word too wide for one fills; return the rest of it, which fits."""
        while end - start > 1:
            head = self.head(text, start, end)
            if self.measure(head) <= self.width:
                break
            cut = self._longest(head, "")
            yield ((start, start + cut),)
            start += cut
        return start, min(end, start + self.cap)

    def _longest(self, line: str, tail: str) -> int:
        """How many leading characters (at least one) fit the width with `tail` after them."""
        low, high = 1, len(line)
        while low < high:
            middle = (low + high + 1) // 2
            if self.measure(line[:middle], tail) <= self.width:
                low = middle
            else:
                high = middle - 1
        return low

    def truncated(self, text: str) -> str:
        """The first paragraph cut to one line that ends in an ellipsis."""
        first = self.head(text, 0, next(paragraphs(text))[1])
        return printable(first[:self._longest(first, ELLIPSIS)].rstrip()) + ELLIPSIS


def text_length(text: str, px: int) -> float:
    """The width in pixels of text drawn at `px` pixels as it is (no `printable`)."""
    if len(text) > KEPT_CHARS:
        return _MEASURER.textlength(text, font=font(px))
    return _length(text, px)


KEPT_CHARS = 160
"""Texts up to this long keep what was worked out for them (`_length`, `glyphs`): a screen's
labels, a note's lines, the status bar are drawn again on every screenshot after a change."""


@lru_cache(maxsize=8192)
def _length(text: str, px: int) -> float:
    return _MEASURER.textlength(text, font=font(px))


def glyphs(line: str, px: int) -> tuple[Image.Image, int, int] | None:
    """One line drawn at `px` pixels, as a one-bit mask, and where its top left lies from the
    point it is drawn at (None: nothing shows). The screenshot pastes it in its ink: the same
    pixels as drawing the text there at a whole pixel, worked out once for a short line."""
    if len(line) > KEPT_CHARS:
        return _glyphs(line, px)
    return _kept_glyphs(line, px)


def _glyphs(line: str, px: int) -> tuple[Image.Image, int, int] | None:
    face = font(px)
    left, top, right, bottom = (int(v) for v in face.getbbox(line, mode="1"))
    if right <= left or bottom <= top:
        return None
    mask = Image.new("1", (right - left, bottom - top))
    ImageDraw.Draw(mask).text((-left, -top), line, fill=1, font=face)
    return mask, left, top


_kept_glyphs = lru_cache(maxsize=4096)(_glyphs)


_MEASURER = ImageDraw.Draw(Image.new("P", (1, 1)))
"""Measures text as the screenshot's palette image draws it."""
