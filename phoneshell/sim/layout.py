"""Layout helpers that turn screen descriptions into node trees, so app screens are data.

Geometry follows the iOS 26 dumps on a 402x874 pt iPhone: navigation bar from y=62 (54 pt, or
106 with a large title), inset-grouped list rows 370 pt wide at x=16, 52 pt tall, switches 63x31
at the right, a tab bar in the bottom 83 pt. The helpers build nodes and attach the handlers
they are given (`search_row` makes its own Cancel, the same in every list); none keeps state
(`table` only records its scroll limit in the `Scroll` it is handed). The keyboard has its own
module (`keyboard.py`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache, partial
from typing import TYPE_CHECKING

from PIL import ImageFont

from phoneshell.sim.facts import DeviceFacts
from phoneshell.sim.ui import EditText, Handler, Node, Rect, Scroll, Wheel, hidden

if TYPE_CHECKING:
    from phoneshell.sim.apps import Host

NAV_TOP = 62
NAV_BOTTOM = 116
"""Where content starts under a standard navigation bar."""
LARGE_NAV_BOTTOM = 168
"""Where content starts under a large-title navigation bar (a root list)."""
TAB_BAR_HEIGHT = 83
ROW_HEIGHT = 52
ROW_X, ROW_WIDTH = 16, 370


@lru_cache(maxsize=4096)
def text_width(text: str, size: int = 17) -> int:
    """The width in points of text at `size` points, in the font screenshots are drawn with.

    Real frames hug the glyphs; measuring with the screenshot font keeps the drawn text inside
    the frame the source reports.
    """
    return max(1, round(_measuring_font(size).getlength(text) / 4) + 2)


@lru_cache(maxsize=16)
def _measuring_font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size * 4)  # measured large: less rounding


def screen(facts: DeviceFacts, children: Sequence[Node], *, key: str | None = None) -> Node:
    """A full-screen container for an app's body (what `render` usually returns)."""
    return Node("Other", Rect(0, 0, facts.width, facts.height), children=tuple(children), key=key)


def text(label: str, frame: Rect, *, header: bool = False, name: str | None = None,
         visible: bool = True, pixels_text: str | None = None) -> Node:
    """A StaticText whose value, name and label are the text (as WDA reports labels)."""
    return Node("StaticText", frame, label=label, name=name or label, value=label,
                visible=visible, traits="Header" if header else None, pixels_text=pixels_text)


def centred_text(facts: DeviceFacts, label: str, y: int, size: int = 17) -> Node:
    """A StaticText centred across the screen at `y`, its frame fitted to `size`-point text."""
    width = min(facts.width - 32, text_width(label, size))
    return text(label, Rect((facts.width - width) // 2, y, width, round(size * 1.2)))


def button(label: str, frame: Rect, on_tap: Handler | None, *, name: str | None = None,
           enabled: bool = True, value: str | None = None, selected: bool = False) -> Node:
    """A Button; disabled buttons ignore taps."""
    traits = "Button" if enabled else "NotEnabled, Button"
    return Node("Button", frame, label=label, name=name or label, value=value, enabled=enabled,
                selected=selected, traits=traits, on_tap=on_tap)


def image(name: str, frame: Rect, *, label: str | None = None) -> Node:
    """A decorative Image (SF Symbol names such as "chevron.forward")."""
    return Node("Image", frame, name=name, label=label)


def nav_bar(facts: DeviceFacts, title: str, *, back: str | None = None,
            on_back: Handler | None = None, large: bool = False,
            trailing: Sequence[Node] = ()) -> Node:
    """A NavigationBar named after its page, with a back button labelled with the previous page.

    The back button is named "BackButton", as in the real Settings dump; an edge swipe from the
    left finds it by that name, so any app gets edge-swipe back for free.
    """
    width = facts.width
    kids: list[Node] = []
    if back is not None:
        kids.append(button(back, Rect(16, NAV_TOP, 44, 44), on_back, name="BackButton"))
    if large:
        kids.append(text(title, Rect(16, 119, text_width(title, 34), 42), header=True))
        height = LARGE_NAV_BOTTOM - NAV_TOP
    else:
        w = text_width(title)
        kids.append(text(title, Rect((width - w) // 2, NAV_TOP + 11, w, 22), header=True))
        height = NAV_BOTTOM - NAV_TOP
    kids.extend(trailing)
    return Node("NavigationBar", Rect(0, NAV_TOP, width, height), name=title,
                children=tuple(kids))


def search_field(field: EditText, frame: Rect, *, name: str = "Search") -> Node:
    """A SearchField bound to `field`; tapping it focuses it (the keyboard comes up)."""
    return Node("SearchField", frame, label=name, name=name, value=field.shown_value(),
                placeholder=field.placeholder, field=field,
                children=(image("magnifyingglass", Rect(frame.x + 12, frame.y + 9, 20, 20),
                                label="Search"),))


def text_field(field: EditText, frame: Rect, *, name: str | None = None) -> Node:
    """A TextField (or SecureTextField, or multi-line TextView) bound to `field`."""
    kind = "SecureTextField" if field.secure else "TextView" if field.multiline else "TextField"
    return Node(kind, frame, label=name or field.placeholder, name=name,
                value=field.shown_value(), placeholder=field.placeholder, field=field)


def switch(label: str, on: bool, frame: Rect, on_toggle: Handler | None, *,
           name: str | None = None, enabled: bool = True) -> Node:
    """A Switch whose value is "1" (on) or "0" (off)."""
    return Node("Switch", frame, label=label, name=name or label, value="1" if on else "0",
                enabled=enabled, on_tap=on_toggle)


def slider(label: str, position: float, frame: Rect, on_adjust: Callable[[float], None] | None,
           *, name: str | None = None) -> Node:
    """A Slider at `position` (0.0-1.0); WDA reports its value as a percentage string."""
    return Node("Slider", frame, label=label, name=name or label,
                value=f"{round(position * 100)}%", on_adjust=on_adjust)


@dataclass(frozen=True)
class Row:
    """One row of a list. Plain rows show a title, and optionally a detail, switch or chevron."""

    title: str = ""
    detail: str | None = None
    """Right-hand text (a link row's current value, an info row's value)."""
    subtitle: str | None = None
    on_tap: Handler | None = None
    switch: bool | None = None
    """None: no switch; True/False: a switch in that state (tapping the row toggles it)."""
    on_switch: Handler | None = None
    chevron: bool = False
    name: str | None = None
    """The cell's accessibility identifier (default: the title)."""
    height: int = ROW_HEIGHT
    build: Callable[[Rect], Sequence[Node]] | None = None
    """For custom rows (a search field, a slider): build the content inside the given frame."""
    container: str = "Cell"
    """The element type wrapping a custom row ("Other" for one that is not a list cell)."""


@dataclass(frozen=True)
class Section:
    """Rows grouped under an optional header and footer."""

    rows: tuple[Row, ...]
    header: str | None = None
    footer: str | None = None


def cell(row: Row, frame: Rect) -> Node:
    """A Cell for a plain row: StaticText title, then detail, switch and chevron as set.

    A row with a tap handler reports its detail as the cell's value ("Wi-Fi" / "HomeNet"); an
    info row joins it into the label ("Model Number, MQ163LL/A"), as the About page does.
    """
    x, y, h = frame.x, frame.y, frame.height
    kids: list[Node] = []
    title_y = y + (h - 22) // 2 - (9 if row.subtitle else 0)
    room = frame.width - 48
    kids.append(text(row.title, Rect(x + 16, title_y, min(room, text_width(row.title)), 22)))
    if row.subtitle:
        kids.append(text(row.subtitle, Rect(x + 16, title_y + 22,
                                            min(room, text_width(row.subtitle, 15)), 18)))
    right = x + frame.width - (34 if row.chevron else 16)
    if row.detail:
        w = text_width(row.detail)
        kids.append(text(row.detail, Rect(right - w, y + (h - 22) // 2, w, 22)))
    toggle = row.on_switch
    if row.switch is not None:
        kids.append(switch(row.title, row.switch, Rect(x + frame.width - 79, y + (h - 31) // 2,
                                                       63, 31), toggle))
    if row.chevron:
        kids.append(image("chevron.forward", Rect(x + frame.width - 26, y + (h - 13) // 2, 8, 13)))
    label, value = row.title, None
    if row.detail and row.on_tap is None:
        label = f"{row.title}, {row.detail}"
    elif row.detail:
        value = row.detail
    return Node("Cell", frame, label=label, name=row.name or row.title, value=value,
                on_tap=row.on_tap or toggle, children=tuple(kids))


def table(scroll: Scroll, viewport: Rect, sections: Sequence[Section], *, key: str) -> Node:
    """A scrollable inset-grouped list inside `viewport`, scrolled by `scroll`.

    Rows keep their frames when scrolled out of the viewport but become `visible=False` (a row
    counts as on screen while its centre is inside the viewport). Writes the scroll limit into
    `scroll`. `key` names the list for element identity (use the page id).
    """
    y = 18
    placed: list[tuple[int, Callable[[int], Node]]] = []
    for section in sections:
        if section.header:
            placed.append((y + 14, partial(_caption, section.header.upper(), 1)))
            y += 38
        for row in section.rows:
            placed.append((y, partial(_row_node, row)))
            y += row.height
        if section.footer:
            lines = 1 + len(section.footer) // 44
            placed.append((y + 8, partial(_caption, section.footer, lines)))
            y += 16 + 18 * lines
        y += 20
    scroll.clamp(y + 16 - viewport.height)
    top = viewport.y - scroll.offset
    kids = []
    for offset, build in placed:
        node = build(top + offset)
        centre = node.frame.y + node.frame.height // 2
        kids.append(node if viewport.y <= centre < viewport.bottom else hidden(node))
    return Node("Table", viewport, children=tuple(kids), scroll=scroll, key=key)


def _caption(label: str, lines: int, y: int) -> Node:
    return text(label, Rect(32, y, 338, 18 * lines))


def _row_node(row: Row, y: int) -> Node:
    frame = Rect(ROW_X, y, ROW_WIDTH, row.height)
    if row.build is None:
        return cell(row, frame)
    return Node(row.container, frame, name=row.name, traits="",
                children=tuple(row.build(frame)))


def search_row(field: EditText, host: Host, *, name: str = "Search") -> Row:
    """A list's first row: a search field, narrowed to make room for Cancel while searching.

    Searching means the field has focus or holds text, as in iOS lists with a search bar;
    Cancel clears the text and dismisses the keyboard, as it does in every such list.
    """
    active = field.focused or bool(field.text)

    def cancel() -> None:
        field.text = ""
        host.focus(None)

    def build(frame: Rect) -> Sequence[Node]:
        width = frame.width - (74 if active else 0)
        nodes = [search_field(field, Rect(frame.x, frame.y + 8, width, 36), name=name)]
        if active:
            nodes.append(button("Cancel", Rect(frame.x + width + 8, frame.y + 8, 66, 36),
                                cancel))
        return nodes

    return Row(build=build, name="SearchRow", container="Other")


def tab_bar(facts: DeviceFacts, tabs: Sequence[tuple[str, Handler]], selected: int) -> Node:
    """A TabBar across the bottom; the selected tab's button has value "1" and, as on iOS,
    "Selected" among its traits."""
    top = facts.height - TAB_BAR_HEIGHT
    width = facts.width // max(1, len(tabs))
    buttons = tuple(
        replace(button(title, Rect(i * width, top + 2, width, 48), handler,
                       selected=i == selected, value="1" if i == selected else None),
                traits="Button, Selected" if i == selected else "Button")
        for i, (title, handler) in enumerate(tabs))
    return Node("TabBar", Rect(0, top, facts.width, TAB_BAR_HEIGHT), name="Tab Bar",
                children=buttons)


def picker(frame: Rect, wheels: Sequence[tuple[Wheel, Rect]]) -> Node:
    """A Picker of PickerWheels, left to right, each reporting its selected row as its value.

    A tap above or below a wheel's centre turns it by the rows between; a vertical drag turns
    it as far as the finger moves; WDA's element value route selects a row by its text.
    """
    return Node("Picker", frame, children=tuple(
        Node("PickerWheel", at, value=wheel.value, wheel=wheel) for wheel, at in wheels))


def page_sheet(facts: DeviceFacts, children: Sequence[Node], *, top: int = NAV_TOP,
               key: str | None = None) -> Node:
    """A modal page sheet from `top` to the bottom, over a dimmed screen that takes no taps.

    What lies behind stays in the page source (as on a real phone, whose tree still lists the
    screen a sheet covers) but is hidden in screenshots and cannot be touched.
    """
    panel = Node("Other", Rect(0, top, facts.width, facts.height - top),
                 children=tuple(children), opaque=True, key=key)
    return Node("Other", Rect(0, 0, facts.width, facts.height), children=(panel,),
                on_tap=_ignore)


def alert(facts: DeviceFacts, title: str, message: str,
          actions: Sequence[tuple[str, Handler]]) -> Node:
    """A centred Alert over a dimmed screen; WDA's alert routes read and press it."""
    w, top = 300, facts.height // 2 - 90
    x = (facts.width - w) // 2
    kids = [text(title, Rect(x + 16, top + 20, w - 32, 22), header=True),
            text(message, Rect(x + 16, top + 46, w - 32, 40))]
    bw = w // max(1, len(actions))
    kids += [button(label, Rect(x + i * bw, top + 130, bw, 44), handler)
             for i, (label, handler) in enumerate(actions)]
    box = Node("Alert", Rect(x, top, w, 174), name=title, label=title, children=tuple(kids))
    # The dimmed backdrop swallows taps: nothing behind an alert can be touched.
    return Node("Other", Rect(0, 0, facts.width, facts.height), children=(box,),
                on_tap=_ignore)


def sheet(facts: DeviceFacts, title: str, actions: Sequence[tuple[str, Handler]],
          on_cancel: Handler) -> Node:
    """An action Sheet at the bottom: a title, one button per action, then Cancel."""
    height = 60 + 57 * len(actions) + 70
    top = facts.height - height - 20
    kids = [text(title, Rect(24, top + 16, facts.width - 48, 20))]
    kids += [button(label, Rect(8, top + 52 + 57 * i, facts.width - 16, 56), handler)
             for i, (label, handler) in enumerate(actions)]
    kids.append(button("Cancel", Rect(8, facts.height - 76, facts.width - 16, 56), on_cancel))
    box = Node("Sheet", Rect(8, top, facts.width - 16, height + 12), name=title, label=title,
               children=tuple(kids))
    # A tap on the dimmed backdrop cancels the sheet, as on iOS.
    return Node("Other", Rect(0, 0, facts.width, facts.height), children=(box,),
                on_tap=on_cancel)


def _ignore() -> None:
    """A tap that lands on a modal backdrop and does nothing."""


def status_bar(facts: DeviceFacts) -> Node:
    """The status bar: the frozen time and a battery indicator (no percentage, as on iOS)."""
    level = round(facts.battery_level * 100)
    return Node("StatusBar", Rect(0, 0, facts.width, 54), children=(
        Node("StaticText", Rect(52, 22, 44, 21), label=facts.time, name=facts.time,
             value=facts.time, traits="StaticText, UpdatesFrequently"),
        Node("Other", Rect(330, 22, 32, 13), name=f"{level} percent battery power",
             label=f"{level} percent battery power", accessible=True),
    ))
