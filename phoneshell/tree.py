"""WebDriverAgent XML page sources -> an index of elements, and the text matching checks use.

Pure: never talks to a device. What counts as "on screen" and what text is searched is defined
here once (docs/checks.md quotes it):

* An element is **on screen** when its `visible` attribute is not "false" and its frame has a
  positive width and height and overlaps the application's frame. The application node itself
  is never a match, nor is anything in SpringBoard's status bar (the clock, "87%" battery):
  that is the phone's chrome, not what an app shows.
* An element's **text** is its `label`, `name` and `value` attributes (WDA's `name` is the
  accessibility identifier when the app sets one, else the label). `placeholderValue` is not
  text: a hint in an empty field is not content.
* Text is read as `spelling` reads it (an apostrophe in any shape is ', a no-break space a
  space). **Substring matching** (`element_exists`...) compares `folded` text over those three.
* **Regex matching** (`regex_on_screen`) searches each of those three strings of each on-screen
  element, separately and case-sensitively (use `(?i)` to ignore case), so a pattern never spans
  two elements or two attributes; as written, then, where it differs, as `spelling` reads it
  (and the pattern's quotes too: `7 o'clock` matches `7 o’clock`). Each string is searched
  with the white space at its ends trimmed, as `device_value` and `typed_into`'s `whole` read
  a value: a typed word often ends in a space the typist or the keyboard put there (iOS adds
  one after a word picked from its suggestions), so `^anchor$` matches a note "anchor " and
  " anchor", while one of two lines ("anchor", Return, "harbour") still fails it (red team 110,
  98). A string of white space alone is no text. Patterns are Python `re`
  syntax, checked with `re` at load and run on the `regex` engine (its version-0 mode keeps
  `re`'s meaning) because that engine can be stopped: a pattern that backtracks catastrophically
  (`(a|a)+$` against a field of typed a's) would hold `re` for hours, so a search that takes
  longer than `PATTERN_BUDGET_S` in all raises `PatternTimeout` and the check fails saying so.
  Lookbehind, which RE2-style engines lack, is why this is a time limit and not a linear-time
  engine: the suite's `(?<![0-9])30 min` needs it.
* **What the agent typed is not what the app shows.** Checks match `shown` text: the value of a
  text input (text field, search field, secure field, and a text view while a keyboard is up)
  is the agent's own typing, and the keyboard's keys are the agent's tools, so neither counts
  unless the check asks for that type (`type: SearchField`, `type: Key`). Their labels and names
  (the app's words for the field) still count.

A source cut off mid-document (WDA under memory pressure, or a dropped connection) is parsed as
far as it goes and marked incomplete: what it shows is real, but absence in it proves nothing.
A source that declares a document type is not read at all (WDA never writes one; entity bombs
and external entities come in that way). Sources are read in one pass by expat, the C parser
calling back per element, which is what makes 5,000 elements cheap (scripts/bench_grade.py);
a faulty one is read again by libxml2, whose recovery reads on past a fault.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import NamedTuple
from xml.parsers import expat

from lxml import etree

from phoneshell.patterns import PATTERN_BUDGET_S, Pattern, search
from phoneshell.spelling import folded, plain, read_pattern
from phoneshell.xcui import TEXT_INPUT_TYPES, TYPE_PREFIX

APPLICATION = "XCUIElementTypeApplication"
STATUS_BAR = "XCUIElementTypeStatusBar"
KEYBOARD = "XCUIElementTypeKeyboard"
KEYBOARD_TYPES = frozenset({"Keyboard", "Key"})
"""Short types a check names to match the keyboard itself."""


class Element(NamedTuple):
    """One node of a page source, as WDA described it (a tuple: 5,000 of them build fast)."""

    type: str
    """The full WDA type, e.g. "XCUIElementTypeButton"."""
    label: str
    name: str
    value: str
    placeholder: str
    x: int
    y: int
    width: int
    height: int
    visible: bool
    enabled: bool
    order: int
    """Position in document order (0 is the application node)."""
    in_status_bar: bool = False
    """Inside SpringBoard's status bar (clock, battery): phone chrome, never app content."""
    traits: str = ""
    """WDA's accessibility traits, e.g. "Button, Selected" (not searched as text)."""
    parent: int = -1
    """The `order` of the element it sits in (-1 for the application node)."""
    in_keyboard: bool = False
    """Inside the on-screen keyboard: keys the agent types with, never app content."""

    @property
    def centre(self) -> tuple[float, float]:
        """The middle of its frame, where a tap on it lands."""
        return self.x + self.width / 2, self.y + self.height / 2

    @property
    def selected(self) -> bool:
        """Whether iOS reports it selected (the "Selected" trait: the tab, or the day, shown)."""
        return "Selected" in (t.strip() for t in self.traits.split(","))

    @property
    def short_type(self) -> str:
        """The type without WDA's prefix, e.g. "Button"."""
        return self.type[len(TYPE_PREFIX):] if self.type.startswith(TYPE_PREFIX) else self.type

    @property
    def value_text(self) -> str:
        """The value as text a screen shows: "" for WDA's selection flag. WDA gives a selected
        Button without a value of its own the value "1" (wdValue: a pending Calculator
        operator, the day Calendar shows, the tab in front), which no screen draws, so a check
        for "1" is not met by it."""
        flag = self.value == "1" and self.selected and self.short_type == "Button"
        return "" if flag else self.value

    def texts(self) -> tuple[tuple[str, str], ...]:
        """Return the (attribute, text) pairs that are searched, skipping empty ones."""
        return tuple((a, t) for a, t in (("label", self.label), ("name", self.name),
                                         ("value", self.value_text)) if t)

    def describe(self) -> str:
        """A short human description: type and the most telling text."""
        shown = self.label or self.value or self.name
        return f"{self.short_type} {shorten(shown)!r}" if shown else self.short_type


@dataclass(frozen=True, slots=True)
class RegexHit:
    """Where a pattern matched: the element, the attribute and the matched text."""

    element: Element
    attribute: str
    matched: str


class PageSource:
    """A parsed page source: every element in document order, plus what was wrong with it.

    Build with `PageSource.parse`. `complete` is False when the document was cut off; an
    empty or unparseable document has no elements and `readable` is False.
    """

    __slots__ = ("elements", "bundle_id", "width", "height", "complete", "problem",
                 "_on_screen", "_keyboard_up")

    def __init__(self, elements: tuple[Element, ...], bundle_id: str, width: int, height: int,
                 complete: bool, problem: str) -> None:
        self.elements = elements
        self.bundle_id = bundle_id
        self.width = width
        self.height = height
        self.complete = complete
        self.problem = problem
        self._on_screen: tuple[Element, ...] | None = None
        self._keyboard_up: bool | None = None

    @classmethod
    def parse(cls, xml: str | bytes) -> PageSource:
        """Parse WDA's XML `/source`; never raises on bad input (see `complete`, `problem`)."""
        data = xml.encode("utf-8") if isinstance(xml, str) else xml
        if not data or data.isspace():
            return cls((), "", 0, 0, False, "the page source is empty")
        reader = _Reader()
        try:
            problem = reader.read(data)
        except (expat.ExpatError, LookupError, ValueError):  # also: an encoding expat lacks
            # expat stops at the first fault; libxml2 reads on past one, as past the unescaped
            # "<" some WDA versions wrote into attributes (appium/appium#16035)
            reader = _Reader()
            problem = reader.recover(data)
        elements = tuple(reader.elements)
        if not elements:
            return cls((), "", 0, 0, False, problem or "the page source has no elements")
        top = elements[0]
        bundle = reader.bundle_id if top.type == APPLICATION else ""
        return cls(elements, bundle, top.width, top.height, not problem, problem)

    @property
    def readable(self) -> bool:
        """Whether the source shows anything beyond the application node."""
        return len(self.elements) > 1

    def on_screen(self) -> tuple[Element, ...]:
        """The elements a person could see (see the module docstring), application excluded."""
        if self._on_screen is None:
            w, h = self.width, self.height
            self._on_screen = tuple(
                e for e in self.elements[1:]
                if e.visible and not e.in_status_bar and e.width > 0 and e.height > 0
                and (w <= 0 or (e.x < w and e.x + e.width > 0))
                and (h <= 0 or (e.y < h and e.y + e.height > 0)))
        return self._on_screen

    def find(self, needle: str, everywhere: bool = False) -> list[Element]:
        """Elements whose label, name or value contains `needle`, ignoring case.

        Args:
            needle: the text to look for; empty matches nothing.
            everywhere: search off-screen and hidden elements too (not used by checks).
        """
        want = folded(needle)
        if not want:
            return []
        pool = self.elements[1:] if everywhere else self.on_screen()
        return [e for e in pool
                if any(want in folded(t) for t in (e.label, e.name, e.value_text))]

    @property
    def keyboard_up(self) -> bool:
        """Whether the on-screen keyboard shows (so a text input is being edited)."""
        if self._keyboard_up is None:
            self._keyboard_up = any(e.in_keyboard for e in self.on_screen())
        return self._keyboard_up

    def typed(self, element: Element) -> bool:
        """Whether `element`'s value is the agent's typing rather than what the app shows: the
        value of a text field or search field, and of a text view while a keyboard is up (an
        edited note; once editing ends, a text view's text is the app's content)."""
        kind = element.short_type
        if kind == "TextView":
            return self.keyboard_up
        return kind in TEXT_INPUT_TYPES

    def holds(self, holder: Element, element: Element) -> bool:
        """Whether `element` sits, at any depth, inside `holder` (of this page)."""
        parent = element.parent
        while parent > holder.order:  # parents come before their children in document order
            parent = self.elements[parent].parent
        return parent == holder.order

    def inside(self, element: Element, short_type: str) -> bool:
        """Whether `element` sits, at any depth, in an element of `short_type` (e.g. WebView)."""
        return self.holder(element, short_type) is not None

    def holder(self, element: Element, short_type: str) -> Element | None:
        """The nearest element of `short_type` `element` sits in, at any depth (a text's Cell)."""
        parent = element.parent
        while 0 <= parent < len(self.elements):
            holder = self.elements[parent]
            if holder.short_type == short_type:
                return holder
            parent = holder.parent
        return None

    def shown_texts(self, short_type: str = "", within: str = "", selected: bool = False,
                    ) -> Iterator[tuple[Element, tuple[tuple[str, str], ...]]]:
        """On-screen elements a check may match, each with the (attribute, text) pairs it may
        match in: only elements of `short_type`, inside a `within` element and, with `selected`,
        selected (WDA's traits say "Selected": the tab, or the day, being shown) when given;
        never what the agent typed or the keyboard, unless `short_type` names a text input or a
        key.
        """
        fields, keys = short_type in TEXT_INPUT_TYPES, short_type in KEYBOARD_TYPES
        for element in self.on_screen():
            if short_type and element.short_type != short_type:
                continue
            if selected and not element.selected:
                continue
            if within and not self.inside(element, within):
                continue
            if element.in_keyboard and not keys:
                continue
            texts = element.texts()
            if not fields and self.typed(element):
                texts = tuple((a, t) for a, t in texts if a != "value")
            if texts:
                yield element, texts

    def shown(self, needle: str, short_type: str = "", within: str = "") -> list[Element]:
        """Elements whose shown text (`shown_texts`) contains `needle`, ignoring case."""
        want = folded(needle)
        if not want:
            return []
        return [e for e, texts in self.shown_texts(short_type, within)
                if any(want in folded(t) for _, t in texts)]

    def search(self, pattern: Pattern, short_type: str = "", within: str = "",
               budget_s: float = PATTERN_BUDGET_S, selected: bool = False) -> RegexHit | None:
        """The first (element, attribute) of the shown text (`shown_texts`) that matches
        `pattern`, or None; with `short_type` (e.g. "Button"), only elements of that type, and
        with `selected` only selected ones.

        Raises:
            PatternTimeout: the whole search took longer than `budget_s`.
        """
        since, read = time.monotonic(), read_pattern(pattern)
        for element, texts in self.shown_texts(short_type, within, selected):
            for attribute, text in texts:
                # a string's ends' white space is no text (see the module docstring)
                readings = ((pattern, text.strip()), (read, plain(text).strip()))
                for rule, seen in dict.fromkeys(r for r in readings if r[1]):
                    match = search(rule, seen, budget_s=budget_s, since=since,
                                   where=f"{attribute} of {element.describe()}")
                    if match:
                        return RegexHit(element, attribute, match.group(0))
        return None

    def summary(self, limit: int = 6) -> str:
        """A few on-screen texts, for details that say what was seen instead."""
        seen: list[str] = []
        for element in self.on_screen():
            text = element.label or element.value
            if text and text not in seen:
                seen.append(text)
            if len(seen) >= limit:
                break
        return ", ".join(repr(shorten(t, 30)) for t in seen) or "no text"


_STRICT = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True)
_RECOVER = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True, recover=True)
_DOCTYPE = "the page source declares a document type, which WDA never does"
"""The refusal: a DTD is how entity expansion (billion laughs) and external entities (local
files) come in, so no source with one is read."""


class _Refused(Exception):
    """A document type declaration met while reading (see `_DOCTYPE`)."""


def _refuse(*_: object) -> None:
    raise _Refused


class _Reader:
    """Elements from a parser's start and end events, in one pass: each one's parent and whether
    it sits in the status bar or the keyboard come down a stack of the elements still open."""

    __slots__ = ("elements", "bundle_id", "_open")

    def __init__(self) -> None:
        self.elements: list[Element] = []
        self.bundle_id = ""
        self._open: list[tuple[int, bool, bool]] = []

    def read(self, data: bytes) -> str:
        """Read a well-formed `data` with expat, fast: "" or `_DOCTYPE`.

        Raises:
            expat.ExpatError, LookupError, ValueError: it is not, or not in a known encoding.
        """
        parser = expat.ParserCreate()
        parser.StartElementHandler, parser.EndElementHandler = self.start, self.end
        parser.StartDoctypeDeclHandler = _refuse
        try:
            parser.Parse(data, True)
        except _Refused:
            return _DOCTYPE
        return ""

    def recover(self, data: bytes) -> str:
        """Read `data` with libxml2, recovering what it can from a faulty one; return what was
        wrong ("" when nothing: an encoding expat lacks)."""
        problem = ""
        try:
            root = etree.fromstring(data, parser=_STRICT)
        except etree.XMLSyntaxError as exc:
            problem = f"the page source is cut off or malformed ({exc})"
            try:
                root = etree.fromstring(data, parser=_RECOVER)
            except etree.XMLSyntaxError:
                return problem
        if root is None:
            return problem or "the page source could not be parsed"
        if root.getroottree().docinfo.internalDTD is not None:
            return _DOCTYPE
        for event, node in etree.iterwalk(root, events=("start", "end")):
            if event == "start":
                self.start(str(node.tag), node.attrib)
            else:
                self.end(str(node.tag))
        return problem

    def start(self, tag: str, attrib: Mapping[str, str]) -> None:
        """Open an element (expat's StartElementHandler)."""
        get, order = attrib.get, len(self.elements)
        if self._open:
            parent, bar, board = self._open[-1]
            bar, board = bar or tag == STATUS_BAR, board or tag == KEYBOARD
        else:
            parent, bar, board = -1, tag == STATUS_BAR, tag == KEYBOARD
            self.bundle_id = get("bundleId") or ""
        try:  # WDA writes whole points; anything else takes the careful path
            x, y = int(get("x") or 0), int(get("y") or 0)
            width, height = int(get("width") or 0), int(get("height") or 0)
        except ValueError:
            x, y, width, height = (_points(get(k)) for k in ("x", "y", "width", "height"))
        # tuple.__new__ skips NamedTuple's Python-level __new__: a third of the build, per node
        self.elements.append(_new(Element, (
            get("type") or tag, get("label") or "", get("name") or "", get("value") or "",
            get("placeholderValue") or "", x, y, width, height, get("visible") != "false",
            get("enabled") != "false", order, bar, get("traits") or "", parent, board)))
        self._open.append((order, bar, board))

    def end(self, tag: str) -> None:
        """Close the innermost open element (expat's EndElementHandler)."""
        self._open.pop()


_new = tuple.__new__


def _points(value: str | None) -> int:
    try:
        return int(float(value or 0))
    except (ValueError, OverflowError):  # "inf"/"nan" from a broken frame: treat as no frame
        return 0


LINE_BREAK = "↵"
"""A line break as a one-line text shows it: a value of two lines is not the one line it would
read as with a space there (red team 98: a note "benchmark-test", Return, "(v2)", quoted as
"benchmark-test (v2)" beside a failed match of that very text)."""


def shorten(text: str, limit: int = 60) -> str:
    """Cut `text` to `limit` characters with an ellipsis, on one line: other white space runs as
    one space, a line break (with the spaces around it) as `LINE_BREAK`."""
    flat = LINE_BREAK.join(" ".join(line.split()) for line in text.strip().splitlines())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
