"""What a model sees of the screen: a compact element table built from one page source.

An observation is numbered, and so are its rows: row 12 of observation 3 has the id `3.12`. An
id is valid only while its observation is the latest one issued, and a tap on it acts on the
element as that snapshot recorded it (its centre), never on a fresh read of the screen: the model
is held to what it saw. Building the table from a source is pure; `read_screen` is the one read
of the device (session-free: the page source, and the JSON source for focus when the screen has
a text field).

The table keeps on-screen elements worth acting on or reading, in document order, one row each:

    id  type  text  centre  size  flags

Text that only repeats the control it sits in (a cell's own label) is folded into that control;
keyboard keys are left out (the `type` tool types), and so are containers and unnamed images.
A text is cut to 80 characters in the table; a row keeps it whole too (`Row.whole`), for the
`read` tool and for deciding whether the screen changed.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from phoneshell.apps import name_for
from phoneshell.device import SPRINGBOARD, Phone
from phoneshell.tree import APPLICATION, Element, PageSource, shorten
from phoneshell.xcui import TEXT_INPUTS

CONTROLS = frozenset(f"XCUIElementType{t}" for t in (
    "Button", "Cell", "Link", "Icon", "Switch", "Toggle", "Tab", "SegmentedControl", "Slider",
    "Stepper", "PickerWheel", "MenuItem", "MenuBarItem", "DatePicker", "Picker", "PageIndicator",
    "ProgressIndicator", "ActivityIndicator")) | TEXT_INPUTS
"""Types a person acts on: always a row, named or not."""
READABLE = frozenset(f"XCUIElementType{t}" for t in (
    "StaticText", "Image", "Other", "Alert", "Sheet", "Map", "WebView", "Heading"))
"""Types kept only when they carry text of their own."""
LARGE_FRACTION = 0.5
"""An unnamed-control or readable node covering more than this share of the screen is a layer,
not something to tap (a full-screen `Other` with a label is a container)."""
MAX_ROWS = 120
TEXT_LIMIT = 80


@dataclass(frozen=True)
class Row:
    """One element of an observation, as the snapshot recorded it."""

    number: int
    """The row's number within its observation (the part after the dot of its id)."""
    type: str
    """The short type, e.g. "Cell"."""
    text: str
    """What the element says: its label (or name), then ` = value` when the value differs; on
    one line, cut to `TEXT_LIMIT` characters (ending in …, flagged `cut`)."""
    x: int
    y: int
    width: int
    height: int
    flags: tuple[str, ...] = ()
    """focused, disabled, on/off (switches), selected, empty (a text field showing only its
    placeholder), cut (`text` is the start of `whole`)."""
    whole: str = ""
    """The element's whole text as the source gives it (label, then ` = value`), line breaks
    kept: what `read` gives, and what "the screen changed" is decided on."""

    @property
    def centre(self) -> tuple[float, float]:
        """Where a tap on this row lands (screen points)."""
        return self.x + self.width / 2, self.y + self.height / 2


@dataclass(frozen=True)
class Observation:
    """One numbered read of the screen."""

    number: int
    app: str
    """The application's name as the source gives it ("Settings")."""
    bundle_id: str
    rows: tuple[Row, ...]
    keyboard: bool = False
    """A keyboard is up (its keys are not rows: use the type tool)."""
    more_below: bool = False
    """Elements lie below the bottom edge, or a list's last loaded row reaches its bottom edge
    (`_list_goes_on`): swiping down would show more. Its absence proves nothing."""
    more_above: bool = False
    """Elements lie above the top edge, or a list's first loaded row lies across its top edge."""
    unlisted: tuple[Row, ...] = ()
    """The rows past `MAX_ROWS`, left out of the table: they count for `signature` only."""
    readable: bool = True
    """False when the source was empty or cut off so badly that nothing could be read."""
    screen: tuple[int, int] = (0, 0)
    """The screen's width and height in points, as the source gives them ((0, 0): unknown):
    where a point given to tap, long_press or swipe may lie."""

    def row_id(self, row: Row) -> str:
        """The id a model uses for `row`: `<observation>.<row>`."""
        return f"{self.number}.{row.number}"

    def row(self, number: int) -> Row | None:
        """The row with this number, or None."""
        return self.rows[number - 1] if 0 < number <= len(self.rows) else None

    def signature(self) -> str:
        """What the screen showed, without the numbering: equal signatures, same screen."""
        # The whole texts, not the table's, of every row, listed or not: typing past a row's
        # 80th character changes the screen, as does a change in its 121st row.
        shown = [(r.type, r.whole, r.x, r.y, r.width, r.height, r.flags)
                 for r in self.rows + self.unlisted]
        key = (self.bundle_id, shown, self.keyboard, self.more_below, self.more_above)
        return hashlib.sha1(repr(key).encode()).hexdigest()

    def as_text(self) -> str:
        """The table a model reads (tab-separated: cheap in tokens, easy to parse)."""
        head = f"observation {self.number} · app: {self.app or '?'} ({self.bundle_id or '?'})"
        lines = [head]
        if self.screen[0] > 0 and self.screen[1] > 0:
            lines.append(f"screen: {self.screen[0]}x{self.screen[1]} points (x from the left "
                         "edge, y from the top edge)")
        if not self.readable:
            lines.append("the screen could not be read (empty or cut-off page source); "
                         "observe again")
        if self.keyboard:
            lines.append("keyboard: up (use type; \"\\n\" presses Return)")
        if self.more_above:
            lines.append("more content above: swipe up to see it")
        if self.more_below:
            lines.append("more content below: swipe down to see it")
        lines.append("id\ttype\ttext\tcentre\tsize\tflags")
        for row in self.rows:
            cx, cy = row.centre
            lines.append(f"{self.row_id(row)}\t{row.type}\t{row.text}\t{round(cx)},{round(cy)}"
                         f"\t{row.width}x{row.height}\t{','.join(row.flags)}")
        if self.unlisted:
            lines.append(f"({len(self.unlisted)} more elements not listed)")
        return "\n".join(lines)


def _is_switch(element: Element) -> bool:
    return element.type.endswith(("Switch", "Toggle"))


def _shown(element: Element) -> tuple[str, ...]:
    """The texts a person sees on the element: label and value (a switch's value is its state,
    a name alone is an identifier such as "REDUCE_MOTION")."""
    if _is_switch(element):
        return (element.label,) if element.label else ()
    return tuple(t for t in (element.label, element.value) if t)


BIDI_MARKS = dict.fromkeys(map(ord, "\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e"
                                 "\u2066\u2067\u2068\u2069"))
"""Direction marks and controls, left out of what a model reads: Safari writes a U+200E before
the address it shows ("\u200eexample.com"), which a model would copy back unseen into what it
types, where no person's typing puts one (`page_shown` then distrusts the field)."""


def _whole(element: Element) -> str:
    """Label (or name), then the value when it says something else, without direction marks."""
    if _is_switch(element):
        return (element.label or element.name).translate(BIDI_MARKS)
    primary = (element.label or element.name or element.value).translate(BIDI_MARKS)
    value = element.value.translate(BIDI_MARKS)
    if element.type in TEXT_INPUTS and value and value == element.placeholder:
        value = ""  # WDA reports the placeholder as the value of an empty field
    text = primary
    if value and value != primary:
        text = f"{primary} = {value}" if primary else value
    return text


def _flags(element: Element, focused: bool) -> tuple[str, ...]:
    flags = []
    if focused:
        flags.append("focused")
    if not element.enabled:
        flags.append("disabled")
    if _is_switch(element) and element.value in ("0", "1"):
        flags.append("on" if element.value == "1" else "off")
    if "Selected" in element.traits.split(", "):
        flags.append("selected")
    if element.type in TEXT_INPUTS and (not element.value or element.value == element.placeholder):
        flags.append("empty")
    return tuple(flags)


SLACK = 2
"""Points a child may stick out of its parent's frame and still count as inside it."""


def _inside(inner: Element, outer: Element) -> bool:
    return (outer.x - SLACK <= inner.x and outer.y - SLACK <= inner.y
            and inner.x + inner.width <= outer.x + outer.width + SLACK
            and inner.y + inner.height <= outer.y + outer.height + SLACK)


def _echoes(element: Element, kept: list[Element]) -> bool:
    """Whether `element` only repeats a control it lies inside: text whose every string is in
    the control's text (a cell labelled "Model Number, MQ163LL/A" already says what its two
    labels say), or a control with the very same text (a button filling its cell)."""
    mine = [t.lower() for t in _shown(element)]
    for control in kept:
        if control.type not in CONTROLS or not _inside(element, control):
            continue
        theirs = [t.lower() for t in _shown(control)]
        if element.type in CONTROLS:
            if set(mine) <= set(theirs):
                return True
        elif all(any(m in t for t in theirs) for m in mine):
            return True
    return False


def _worth_a_row(element: Element, area: int) -> bool:
    """Whether the element is something to act on or read (before folding)."""
    kind = element.type
    large = element.width * element.height > area * LARGE_FRACTION
    if kind in CONTROLS:
        return kind in TEXT_INPUTS or not large or bool(_shown(element))
    if kind in READABLE:
        # Scroll-bar indicators are chrome; a large labelled `Other` is a container.
        return bool(_shown(element)) and not (large and kind == "XCUIElementTypeOther") \
            and "scroll bar" not in element.label
    return False  # containers: windows, tables, bars, scroll views


def _select(page: PageSource) -> tuple[list[Element], bool]:
    """The elements that get a row, and whether a keyboard is up."""
    area = max(page.width * page.height, 1)
    kept: list[Element] = []
    seen: set[tuple[str, str, int, int, int, int]] = set()
    keyboard = False
    for element in page.on_screen():
        if element.type in ("XCUIElementTypeKeyboard", "XCUIElementTypeKey"):
            keyboard = True
            continue
        if element.type == APPLICATION or not _worth_a_row(element, area):
            continue
        key = (element.type, _whole(element), element.x, element.y, element.width,
               element.height)
        if key in seen:
            continue  # the same element twice (real sources repeat scroll indicators)
        # A switch or a text field is never folded away: its state is the point, and a real
        # row's label does not toggle, only the switch inside it does.
        own = element.type in TEXT_INPUTS or _is_switch(element)
        if own or not _echoes(element, kept):
            kept.append(element)
            seen.add(key)
    # A group or control that shows no text of its own ("Dock", a cell named REDUCE_MOTION)
    # around rows of its own says nothing more than they do.
    kept = [e for e in kept if not (
        (e.type == "XCUIElementTypeOther" or not _shown(e))
        and any(c is not e and _inside(c, e) for c in kept))]
    return _fold_knobs(kept), keyboard


def _fold_knobs(kept: list[Element]) -> list[Element]:
    """One row per row-wide switch: its label with its knob's frame.

    From iOS 17 a settings row's Switch spans the whole row (the Motion dump) and holds an
    unlabelled Switch, the knob; a tap on the row's centre lands on the label and toggles
    nothing, so the row is offered where the knob is, and the bare knob is not offered twice.
    """
    knobs = [k for k in kept if _is_switch(k) and not k.label]
    paired: dict[int, Element] = {}
    for element in kept:
        if _is_switch(element) and element.label:
            knob = next((k for k in knobs if _inside(k, element)
                         and all(v is not k for v in paired.values())), None)
            if knob is not None:
                paired[id(element)] = knob
    taken = {id(k) for k in paired.values()}
    out = []
    for element in kept:
        if id(element) in taken:
            continue
        knob = paired.get(id(element))
        if knob is not None:
            element = element._replace(x=knob.x, y=knob.y, width=knob.width, height=knob.height)
        out.append(element)
    return out


LISTS = frozenset(("XCUIElementTypeTable", "XCUIElementTypeCollectionView"))
"""Lists UIKit fills lazily: only the cells on screen (and a row or so about it) are loaded."""


def _list_goes_on(page: PageSource) -> tuple[bool, bool]:
    """Whether a list goes on above, and below, as far as its loaded rows say. UIKit loads only
    the cells a list shows, so a long list (Settings' main list, on a phone as on the
    simulator) has nothing past the screen's edges to say it goes on. Below: its last loaded
    row reaches the list's bottom edge (or the screen's), touching it or lying across it,
    partly hidden (under a toolbar, `visible="false"`). Above: its first lies across the top
    edge (a list at its top starts at it, so touching says nothing). A row as tall as the list
    is one of a sideways list (a carousel), which says nothing of what lies above or below."""
    by_order = {e.order: e for e in page.elements}
    spans: dict[int, tuple[int, int]] = {}
    """A list's order -> the top of its first loaded row and the bottom of its last."""
    for cell in page.elements:
        if cell.type != "XCUIElementTypeCell" or cell.width <= 0 or cell.height <= 0:
            continue
        owner = by_order.get(cell.parent)
        while owner is not None and owner.type not in LISTS:
            owner = by_order.get(owner.parent)
        if owner is None or (abs(cell.y - owner.y) <= SLACK and cell.height >= owner.height):
            continue
        top, bottom = spans.get(owner.order, (cell.y, cell.y + cell.height))
        spans[owner.order] = min(top, cell.y), max(bottom, cell.y + cell.height)
    above = below = False
    for order, (top, bottom) in spans.items():
        frame = by_order[order]
        upper, lower = max(frame.y, 0), frame.y + frame.height
        if page.height > 0:
            lower = min(lower, round(page.height))
        if upper < lower:  # a list on the screen
            above, below = above or top < upper, below or bottom >= lower
    return above, below


def _row(number: int, element: Element, focused: bool) -> Row:
    whole = _whole(element)
    text = shorten(whole, TEXT_LIMIT)
    cut = ("cut",) if len(shorten(whole, len(whole) + 1)) > TEXT_LIMIT else ()  # one line
    return Row(number, element.short_type, text, element.x, element.y, element.width,
               element.height, _flags(element, focused) + cut, whole)


def build_observation(number: int, page: PageSource,
                      focused: frozenset[tuple[str, str, str]] = frozenset()) -> Observation:
    """Build observation `number` from a parsed source.

    Args:
        number: the observation's number (the part before the dot of its ids).
        page: the page source.
        focused: (type, label, name) of the text inputs that have focus (from the JSON source,
            which alone carries focus).
    """
    kept, keyboard = _select(page)
    above, below = _list_goes_on(page)
    for element in page.elements[1:]:
        if element.in_status_bar or element.width <= 0 or element.height <= 0:
            continue
        below = below or (page.height > 0 and element.y >= page.height)
        above = above or element.y + element.height <= 0
    rows = tuple(_row(i, e, (e.short_type, e.label, e.name) in focused)
                 for i, e in enumerate(kept, start=1))
    app = (page.elements[0].label.strip() if page.elements else "")
    if not app:
        app = "SpringBoard" if page.bundle_id == SPRINGBOARD else name_for(page.bundle_id)
    return Observation(number, app, page.bundle_id, rows[:MAX_ROWS], keyboard, below, above,
                       rows[MAX_ROWS:], page.readable,
                       (round(page.width), round(page.height)))


def read_screen(phone: Phone, number: int) -> Observation:
    """Read the screen (session-free) and build observation `number` from it.

    Raises:
        DeviceError: WDA did not answer the read (the caller reports it to the model).
    """
    page = PageSource.parse(phone.source())
    focused: frozenset[tuple[str, str, str]] = frozenset()
    if any(e.type in TEXT_INPUTS for e in page.on_screen()):
        focused = frozenset((f.type, f.label, f.name) for f in phone.fields() if f.focused)
    return build_observation(number, page, focused)
