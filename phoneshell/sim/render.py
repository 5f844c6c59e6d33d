"""Screenshots of the simulated iPhone: a PNG wireframe of the current screen, drawn with Pillow.

Every visible element is drawn at its frame (points x scale pixels): list rows as white bands,
buttons as blue text or filled keys, switches as pills (green when on), text fields as rounded
boxes (blue outline while focused), home-screen icons as coloured tiles (in edit mode with
their minus badges), the keyboard's keys, and every label or value as text large enough for a
vision model to read. A node's `pixels_text` is drawn in place of its label: that text exists
in the pixels only, never in the page source (Safari's image probe pages rely on this).

Which characters of a text are drawn, on which lines, is `render_text`'s: only what can show is
ever measured, so a screenshot costs what it shows however long its texts are. Drawn in palette
mode with Pillow's default font: non-antialiased text at 3x is still sharp, and a palette PNG
encodes several times faster than RGB (the Settings root takes ~20 ms).
"""

from __future__ import annotations

import io
import re
import zlib
from itertools import islice

from PIL import Image, ImageDraw

from phoneshell.sim.facts import DeviceFacts
from phoneshell.sim.render_text import Fit, glyphs, paragraphs, printable, text_length
from phoneshell.sim.touch_paths import clipped_only
from phoneshell.sim.ui import Node, Rect, Screen

__all__ = ["OPERATOR_SYMBOLS", "TEXT_VIEW_INSET", "TEXT_VIEW_LINE", "png", "printable",
           "wheel_face"]

RGB = tuple[int, int, int]
BACKGROUND: RGB = (242, 242, 247)
WALLPAPER: RGB = (38, 62, 96)
WHITE: RGB = (255, 255, 255)
BLACK: RGB = (0, 0, 0)
GREY: RGB = (142, 142, 147)
SEPARATOR: RGB = (198, 198, 200)
BLUE: RGB = (0, 122, 255)
GREEN: RGB = (52, 199, 89)
FIELD: RGB = (227, 227, 232)
KEY_BED: RGB = (209, 211, 217)
KEY_FILL: RGB = (188, 192, 200)
ORANGE: RGB = (255, 149, 0)
PICTURE: RGB = (255, 236, 200)
PICTURE_INK: RGB = (120, 60, 20)
TEXT_VIEW_INSET = 8
"""Points from a text view's top to its first line (app models lay words out the same way)."""
TEXT_VIEW_LINE = 22
"""Points from one line of a text view to the next."""
OPERATOR_SYMBOLS = frozenset("\u00f7\u00d7\u2212+=")
"""Keys showing these are drawn orange, as Calculator's operator column is."""
_LIGHT_CONTAINERS = frozenset({"Cell", "Alert", "Sheet", "Keyboard", "TabBar", "Menu",
                               "Popover"})


class _Painter:
    """Draws one screen; `s` is the scale (pixels per point)."""

    def __init__(self, image: Image.Image, scale: int, bounds: Rect) -> None:
        self.image = image
        self.draw = ImageDraw.Draw(image)
        self.s = scale
        self.bounds = bounds
        self.widest = 2 * image.width
        """No line is laid out wider than this (pixels): a frame far wider than the screen
        shows no more of its text than two screens' worth."""
        self.height = image.height

    def box(self, r: Rect, inset: int = 0) -> tuple[int, int, int, int]:
        s = self.s
        return ((r.x + inset) * s, (r.y + inset) * s, (r.x + r.width - inset) * s - 1,
                (r.y + r.height - inset) * s - 1)

    def outside(self, frame: Rect, part: Rect) -> list[tuple[int, int, int, int]]:
        """The pixel boxes of `frame` on the image that lie outside `part` (above, below, left
        and right of it; none when `part` holds all of `frame` that is on the image)."""
        s, w, h = self.s, self.image.width, self.image.height
        left, top = max(0, frame.x * s), max(0, frame.y * s)
        right, bottom = min(w, (frame.x + frame.width) * s), min(h, frame.bottom * s)
        in_left, in_top = max(left, part.x * s), max(top, part.y * s)
        in_right = min(right, (part.x + part.width) * s)
        in_bottom = min(bottom, part.bottom * s)
        if in_right <= in_left or in_bottom <= in_top:  # nothing of it open
            in_left = in_right = left
            in_top = in_bottom = top
        boxes = [(left, top, right, in_top), (left, in_bottom, right, bottom),
                 (left, in_top, in_left, in_bottom), (in_right, in_top, right, in_bottom)]
        return [b for b in boxes if b[2] > b[0] and b[3] > b[1]]

    def text(self, text: str, r: Rect, ink: RGB, *, pt: float = 17.0, center: bool = False,
             right: bool = False, wrap: bool = True) -> None:
        """Draw text in a frame: shrunk to fit one line, else wrapped, never below 11 pt. A
        newline starts a line (a footer's paragraphs, a note's lines); text too tall for the
        frame is its first line, cut with an ellipsis. Only what can show is laid out."""
        s = self.s
        width = min(r.width * s, self.widest)
        px = self._shrunk(text, r, max(11 * s, int(min(pt, max(r.height, 12) * 0.8) * s)),
                          width)
        fit = Fit(px, width, self.widest)
        lines = list(islice(fit.lines(text, wrap), self._most_lines(r, px)))
        if self._too_tall(r, px, len(lines)):
            lines = [fit.truncated(text)]
        top = r.y * s + max(0, (r.height * s - px * len(lines)) // 2)
        for i, line in enumerate(lines):
            y = top + i * px * 1.15
            if y > self.height:
                break  # below the screen, as every line after it
            w = text_length(line, px) if center or right else 0
            x = r.x * s + ((width - w) // 2 if center else width - w if right else 0)
            self.line(x, y, line, ink, px)

    def line(self, x: float, y: float, line: str, ink: RGB, px: int) -> None:
        """One line of text at `px` pixels, its origin at (x, y) taken to the whole pixel."""
        drawn = glyphs(line, px)
        if drawn is not None:
            mask, left, top = drawn
            self.image.paste(self._ink(ink), (int(x) + left, int(y) + top), mask)

    def _ink(self, ink: RGB) -> int:
        """The palette entry of a colour (added to the palette the first time it is used)."""
        palette = self.image.palette
        assert palette is not None  # a palette image
        return palette.getcolor(ink, self.image)

    def _shrunk(self, text: str, r: Rect, px: int, width: float) -> int:
        """The font size (pixels), down to 13 pt 2 pt at a time, at which every paragraph fits
        the width (only as many as could show are measured, each only as far as could)."""
        s = self.s
        if px <= 13 * s:
            return px
        smallest = Fit(11 * s, width)
        heads = [printable(smallest.head(text, start, end))
                 for start, end in islice(paragraphs(text), self._most_lines(r, 11 * s))]
        while max(text_length(head, px) for head in heads) > width and px > 13 * s:
            px -= 2 * s
        return px

    def _too_tall(self, r: Rect, px: int, lines: int) -> bool:
        """Whether that many lines overflow the frame by half: then only the first is drawn."""
        return lines > 1 and px * 1.15 * lines > r.height * self.s * 1.5

    def _most_lines(self, r: Rect, px: int) -> int:
        """The fewest lines too tall for the frame, or enough to fill two screens."""
        screens = int(2 * self.height // (px * 1.15)) + 2
        most = max(2, min(screens, int(r.height * self.s * 1.5 // (px * 1.15))))
        while most < screens and not self._too_tall(r, px, most):
            most += 1
        return most


def _tile_colour(name: str) -> RGB:
    h = zlib.crc32(name.encode())
    return (60 + h % 150, 60 + (h >> 8) % 150, 60 + (h >> 16) % 150)


def _label(node: Node) -> str:
    return node.pixels_text or node.value or node.label or ""


def _paint(p: _Painter, node: Node, light: bool) -> None:
    r, d, kind = node.frame, p.draw, node.type
    ink = BLACK if light else WHITE
    s = p.s
    if node.opaque:
        d.rounded_rectangle(p.box(r), 12 * s, fill=BACKGROUND, outline=SEPARATOR, width=s)
    if kind == "Popover":
        d.rounded_rectangle(p.box(r), 26 * s, fill=WHITE, outline=SEPARATOR, width=s)
    if kind == "Cell":
        d.rectangle(p.box(r), fill=WHITE)
        d.line((((r.x + 16) * s, r.bottom * s - 1), ((r.x + r.width) * s, r.bottom * s - 1)),
               fill=SEPARATOR, width=1)
    elif kind in ("Alert", "Sheet"):
        d.rounded_rectangle(p.box(r), 14 * s, fill=WHITE, outline=GREY, width=s)
    elif kind == "Keyboard":
        d.rectangle(p.box(r), fill=KEY_BED)
    elif kind == "TabBar":
        d.rectangle(p.box(r), fill=(249, 249, 249))
        d.line(((0, r.y * s), (r.width * s, r.y * s)), fill=SEPARATOR, width=s)
    elif kind == "Key":
        d.rounded_rectangle(p.box(r), 5 * s, fill=WHITE if len(node.label or "") == 1
                            else KEY_FILL)
        p.text(node.label or "", r, BLACK, pt=22 if len(node.label or "") == 1 else 14,
               center=True, wrap=False)
    elif kind in ("SearchField", "TextField", "SecureTextField", "TextView"):
        _paint_field(p, node)
    elif kind == "Switch" and not any(c.type == "Switch" for c in node.children):
        # A row-wide switch (the Motion dump's) is drawn by its label and its knob.
        on = node.value == "1"
        pill = Rect(r.x + r.width - 51, r.y + (r.height - 31) // 2, 51, 31)
        d.rounded_rectangle(p.box(pill), 15 * s, fill=GREEN if on else (233, 233, 234))
        knob = Rect(pill.x + (22 if on else 2), pill.y + 2, 27, 27)
        d.ellipse(p.box(knob), fill=WHITE, outline=SEPARATOR)
    elif kind == "Slider":
        position = float((node.value or "0%").rstrip("%") or 0) / 100
        mid = (r.y + r.height // 2) * s
        split = (r.x + round(r.width * position)) * s
        d.line(((r.x * s, mid), (split, mid)), fill=BLUE, width=2 * s)
        d.line(((split, mid), ((r.x + r.width) * s, mid)), fill=SEPARATOR, width=2 * s)
        d.ellipse((split - 13 * s, mid - 13 * s, split + 13 * s, mid + 13 * s), fill=WHITE,
                  outline=GREY, width=s)
    elif kind == "Icon":
        tile = Rect(r.x + (r.width - 60) // 2, r.y, 60, 60)
        d.rounded_rectangle(p.box(tile), 14 * s, fill=_tile_colour(node.name or ""))
        p.text((node.label or "?")[:1], tile, WHITE, pt=32, center=True, wrap=False)
        if r.height > 70:
            p.text(node.label or "", Rect(r.x - 8, r.y + 64, r.width + 16, 18), ink, pt=12,
                   center=True, wrap=False)
    elif kind in ("Button", "MenuItem"):
        _paint_button(p, node, light)
    elif kind == "PageIndicator":
        d.rounded_rectangle(p.box(r), r.height * s // 2, fill=(74, 98, 130))
    elif kind == "Image" and node.name == "chevron.forward":
        p.text("\u203a", Rect(r.x - 4, r.y - 6, 16, 24), GREY, pt=22, center=True, wrap=False)
    elif kind == "StaticText":
        # Web links are blue, as Safari draws them; WDA marks their text with the Link trait.
        colour = BLUE if "Link" in node.trait_text else ink
        p.text(_label(node), r, colour, pt=r.height * 0.8 if r.height > 40 else 17)
    elif kind == "Other" and node.label and node.is_accessible and not node.children:
        # A list footer: grey words under its section.
        p.text(node.label, Rect(r.x + 16, r.y + 4, r.width - 32, r.height - 8), GREY, pt=13)
    elif kind == "Image" and node.pixels_text:
        # A picture of a word (Safari's image probe pages): a tinted panel, the word large.
        d.rounded_rectangle(p.box(r), 12 * s, fill=PICTURE)
        p.text(node.pixels_text, Rect(r.x + 16, r.y, r.width - 32, r.height), PICTURE_INK,
               pt=min(48, r.height * 0.4), center=True, wrap=False)
    elif kind == "PickerWheel":
        _paint_wheel(p, node)


_SPOKEN_ROW = re.compile(r"^(\d+) (o\u2019clock|minutes?|hours?|min|sec)$")
_UNIT_BESIDE = frozenset({"hour", "hours", "min", "sec"})


def wheel_face(value: str) -> tuple[str, str]:
    """What a picker wheel's row draws for the value it reports, which is what VoiceOver
    speaks: (the row's text, the unit drawn beside the selected row). The number is drawn as
    the value spells it, so a wheel's values are its one table (a padded minute is padded in
    both: "05 minutes" draws "05", `clock_alarms.MINUTES`). Clock's alarm wheels draw the number
    alone ("7 o’clock" draws "7"); its timer wheels draw it with the unit beside the selected
    row ("15 min": "15", "min"); any other row draws its value ("AM")."""
    match = _SPOKEN_ROW.match(value)
    if match is None:
        return value, ""
    number, unit = match.groups()
    return number, unit if unit in _UNIT_BESIDE else ""


def _paint_wheel(p: _Painter, node: Node) -> None:
    # The selected row in black in a grey band, two neighbours on each side in grey.
    r, wheel = node.frame, node.wheel
    row = wheel.row_height if wheel is not None else 34
    middle = r.y + (r.height - row) // 2
    p.draw.rounded_rectangle(p.box(Rect(r.x, middle, r.width, row)), 8 * p.s, fill=FIELD)
    for offset in (-2, -1, 0, 1, 2):
        if wheel is None and offset:
            continue
        at = Rect(r.x + 4, middle + offset * row, r.width - 8, row)
        if wheel is None:
            value = node.value or ""
        elif not wheel.wrap and not 0 <= wheel.index + offset < len(wheel.rows):
            continue
        else:
            value = wheel.rows[(wheel.index + offset) % len(wheel.rows)]
        shown, unit = wheel_face(value)
        ink = BLACK if offset == 0 else GREY
        if not unit:
            p.text(shown, at, ink, pt=20, center=True, wrap=False)
            continue
        half = at.width // 2
        p.text(shown, Rect(at.x, at.y, half - 4, row), ink, pt=20, right=True, wrap=False)
        if offset == 0:
            p.text(unit, Rect(at.x + half + 4, at.y, at.width - half - 4, row), ink, pt=17,
                   wrap=False)


def _paint_field(p: _Painter, node: Node) -> None:
    r, d, s = node.frame, p.draw, p.s
    if node.type == "TextView":
        _paint_text_view(p, node)
        return
    d.rounded_rectangle(p.box(r), 10 * s, fill=FIELD,
                        outline=BLUE if node.focused else None, width=2 * s)
    # A value that is not the placeholder is content too (Safari's address bar shows the
    # page's host while nothing is being typed).
    typed = (node.field is not None and bool(node.field.text)) or (
        node.value is not None and node.value != node.placeholder)
    shown = node.value or "" if typed else node.placeholder or node.value or ""
    inner = Rect(r.x + 36, r.y, r.width - 44, r.height)
    p.text(shown, inner, BLACK if typed else GREY, pt=17, wrap=False)
    if node.focused:
        # After the last character (of the line it is on), or past the screen's edge when the
        # text runs beyond it.
        typed_head = shown[:Fit(17 * s, p.widest).cap] if typed else ""
        end = inner.x * s + int(text_length(typed_head.rpartition("\n")[2], 17 * s))
        d.line(((end + s, (r.y + 8) * s), (end + s, (r.bottom - 8) * s)), fill=BLUE,
               width=2 * s)


def _paint_text_view(p: _Painter, node: Node) -> None:
    """A text view is a page of text (a note): lines wrapped to the frame, 17 pt on 22 pt."""
    r, s = node.frame, p.s
    typed = node.field is not None and bool(node.field.text)
    shown = (node.value or "") if typed else (node.placeholder or "")
    fit = Fit(17 * s, min(r.width * s, p.widest))
    rows = max(1, (r.height - TEXT_VIEW_INSET) // TEXT_VIEW_LINE)
    lines = list(islice(fit.lines(shown), rows))
    for i, line in enumerate(lines):
        p.line(r.x * s, (r.y + TEXT_VIEW_INSET + i * TEXT_VIEW_LINE) * s, line,
               BLACK if typed else GREY, 17 * s)
    if node.focused:
        # The caret after the last character (typing always appends).
        x = r.x * s + (int(text_length(lines[-1], 17 * s)) if typed else 0)
        top = (r.y + TEXT_VIEW_INSET + (len(lines) - 1 if typed else 0) * TEXT_VIEW_LINE) * s
        p.draw.line(((x + s, top), (x + s, top + 20 * s)), fill=BLUE, width=2 * s)


def _paint_button(p: _Painter, node: Node, light: bool) -> None:
    r, d, s = node.frame, p.draw, p.s
    if node.children:
        return  # a row's Button: its texts and icons draw themselves
    if node.name == "chevron":  # a table row's disclosure indicator
        p.text("\u203a", Rect(r.x - 4, r.y - 5, 16, 24), GREY, pt=22, center=True, wrap=False)
        return
    if node.name == "DeleteButton":  # edit mode's minus badge on a home-screen icon
        d.ellipse(p.box(r), fill=(118, 118, 128), outline=WHITE, width=s)
        p.text("-", r, WHITE, pt=22, center=True, wrap=False)
        return
    # A button shows its label; its value is state (a selected tab's "1"), not what is drawn.
    label = node.pixels_text or node.label or node.value or ""
    if "StaticText" in node.trait_text:
        p.text(label, r, BLACK if light else WHITE, wrap=False)  # a switch row's title
        return
    if min(r.width, r.height) >= 60:
        # Keypad-sized buttons are drawn as filled keys, so their grid reads as a keypad.
        fill = (BLUE if node.selected else ORANGE if label in OPERATOR_SYMBOLS
                else (80, 80, 84) if node.enabled else KEY_FILL)
        d.rounded_rectangle(p.box(r), min(r.width, r.height) * s // 2, fill=fill)
        p.text(label, r, WHITE, pt=30 if len(label) < 3 else 20, center=True, wrap=False)
        return
    ink = BLUE if node.enabled else GREY
    if node.name == "BackButton":
        p.text("\u2039 " + label, Rect(r.x, r.y, max(r.width, 120), r.height), ink, wrap=False)
    else:
        p.text(label, r, ink if light or node.selected else WHITE, center=True, wrap=False)


def _walk(p: _Painter, node: Node, light: bool, parts: tuple[Rect, ...] = ()) -> None:
    """Draw `node` and what it holds, `parts` being the open parts of the vertical lists
    around it (as `touch_paths.hit_path` walks them)."""
    if node.type == "StatusBar":
        return  # drawn from the facts (`_status_bar`), as every screen shows it
    # What a modal covers is reported not visible but still shows behind it (`Node.covered`);
    # a row a list hides only by its middle (under a bar) shows its strip, and takes a tap
    # there (`touch_paths.clipped_only`): a vision agent must see what it can press.
    if ((node.visible or node.covered or clipped_only(node, parts))
            and node.frame.intersects(p.bounds)):
        _paint(p, node, light)
    light = light or node.type in _LIGHT_CONTAINERS or (node.opaque and node.type == "Other")
    if node.scroll is None or node.scroll.horizontal:
        for child in node.children:
            _walk(p, child, light, parts)
        return
    # A list shows its rows only in its open part: what its bars cover (drawn before it, as
    # real sources order them) is put back over whatever its rows drew there.
    kept = [(box, p.image.crop(box)) for box in p.outside(node.frame, node.open_part)]
    for child in node.children:
        _walk(p, child, light, (*parts, node.open_part))
    for box, pixels in kept:
        p.image.paste(pixels, box)


def _status_bar(p: _Painter, facts: DeviceFacts, screen: Screen, light: bool) -> None:
    """The time and battery at the top: SpringBoard's status bar, which the screenshot shows
    over every app though only SpringBoard's tree lists it (and hides while the cover sheet's
    big clock shows). SpringBoard's tree holds several (each app switcher card keeps a hidden
    copy): the screen shows one when any of them is visible, whichever comes first."""
    bars = [n for n in screen.nodes if n.type == "StatusBar"]
    if bars and not any(bar.visible for bar in bars):
        return
    ink = BLACK if light else WHITE
    p.text(facts.clock_face, Rect(40, 18, 64, 24), ink, pt=17, center=True, wrap=False)
    p.text(facts.battery_percent, Rect(330, 18, 44, 24), ink, pt=13, center=True, wrap=False)


def png(screen: Screen, facts: DeviceFacts, compress_level: int = 1) -> bytes:
    """Render the screen as PNG bytes of (width x scale) by (height x scale) pixels."""
    s = facts.scale
    dark = screen.bundle_id == "com.apple.springboard"
    image = Image.new("P", (facts.width * s, facts.height * s))
    # One entry: each colour drawn is appended to it. A palette padded to 256 entries made Pillow
    # look for a free entry in the image's histogram at every new colour (a quarter of a shot).
    image.putpalette([*(WALLPAPER if dark else BACKGROUND)])
    painter = _Painter(image, s, Rect(0, 0, facts.width, facts.height))
    _walk(painter, screen.root, not dark)
    _status_bar(painter, facts, screen, not dark)
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=compress_level)
    return out.getvalue()
