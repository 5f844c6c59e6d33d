"""Lists as iOS 26 shows them: rows in sections, in the two shapes Apple's apps are built from.

* `table`: an inset-grouped UITableView, as on Settings' sub-pages (the General > About and
  Accessibility > Motion dumps). A row is a `Cell` named by its identifier and labelled
  "Title, Detail"; VoiceOver reads the cell, so the texts inside it are not accessible. A switch
  row is the Motion dump's: an accessible `Switch` spanning the row (named by the identifier,
  labelled with the title) around a label `Button` and the knob, an unnamed inner `Switch`. Only
  the knob toggles: XCUITest taps an element's centre, and the centre of a row-wide switch is
  its label, which does nothing on a phone either.
* `grouped`: the iOS 26 Settings root, a UICollectionView list. Its cells are unnamed and not
  accessible; the `Button` inside carries the identifier (`com.apple.settings.general`), the
  title and the action.

Both nest their rows in the wrapper views UIKit leaves (content views, background views,
separators). Every app's list spans its screen (all three Settings dumps frame it 0,0,402,874;
`under_bars`): iOS 26 lays it under its glass bars and insets its content, so its rows start
below the bars; the bars are drawn over it (`Node.uncovered`). Both hold only the rows near
their visible part, as UIKit makes cells only for those: rows further away are not in the tree
at all, rows on the edge keep their frames with `visible="false"`. `search_row` is a list's
search field with its Cancel.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING

from phoneshell.sim.layout import (
    button,
    image,
    large_title_shown,
    line_count,
    search_field,
    text,
    text_width,
    wrap,
)
from phoneshell.sim.ui import EditText, Handler, Node, Rect, Scroll

if TYPE_CHECKING:
    from phoneshell.sim.apps import Host
    from phoneshell.sim.facts import DeviceFacts

ROW_HEIGHT = 52
ROW_X, ROW_WIDTH = 16, 370
"""Where the rows of a grouped list lie (the Settings root)."""
TABLE_X, TABLE_WIDTH = 20, 362
"""Where the cells of a table lie (Settings' sub-pages)."""
MARGIN = ROW_HEIGHT
"""How far past its visible part a list keeps rows in the tree (the dumps hold one more)."""
FOOTER_SIZE = 13
"""A section footer's text size (points)."""
AFTER_FOOTER = 17
"""The gap between a footer's frame and the next section's first row (the Motion dump: a
footer ending at 233, the next cell at 250): the footer's own frame carries the rest."""


@dataclass(frozen=True)
class Row:
    """One row of a list. Plain rows show a title, and optionally a detail, switch or chevron."""

    title: str = ""
    detail: str | None = None
    """Right-hand text (a link row's current value, an info row's value)."""
    subtitle: str | None = None
    on_tap: Handler | None = None
    switch: bool | None = None
    """None: no switch; True/False: a switch in that state (its knob toggles it)."""
    on_switch: Handler | None = None
    chevron: bool = False
    name: str | None = None
    """The row's accessibility identifier (default: the title)."""
    height: int = ROW_HEIGHT
    build: Callable[[Rect], Sequence[Node]] | None = None
    """For custom rows (a search field, a slider): build the content inside the given frame."""
    container: str = "Cell"
    """The element type wrapping a custom row ("Other" for one that is not a list cell)."""
    icon: str | None = None
    """The Settings root's coloured icon at the left (an image name; "" for an unnamed one)."""
    swipe: tuple[str, Handler] | None = None
    """A swiped row's action button over its right end ("Delete"), with what it does."""
    key: str | None = None
    """The row's identity for element ids and hooks (default: from its identifier)."""
    checked: bool = False
    """A checkmark at the row's right end: the option chosen in a list of options."""
    silent: bool = False
    """A tap does something the row does not announce: no Button trait (About's Model Number,
    which a tap switches to the regulatory model number, has none in the dump)."""
    accessory: tuple[str, Handler] | None = None
    """A Button of its own at the row's right end, with what it does (a Wi-Fi network's or a
    Bluetooth device's "More Info")."""

    @property
    def ident(self) -> str:
        """The identifier the row's element is named by."""
        return self.name or self.title


@dataclass(frozen=True)
class Section:
    """Rows grouped under an optional header and footer."""

    rows: tuple[Row, ...]
    header: str | None = None
    footer: str | None = None


def _switch_row(row: Row, frame: Rect, left: int, icon: Sequence[Node] = ()) -> Node:
    """The Motion dump's switch: a row-wide Switch around its label Button and the knob."""
    x, y, h = frame.x, frame.y, frame.height
    state = "1" if row.switch else "0"
    label = Node("Button", Rect(left, y + (h - 22) // 2, text_width(row.title), 22),
                 label=row.title, name=row.ident, traits="StaticText, Button", accessible=False)
    knob = Node("Switch", Rect(x + frame.width - 77, y + (h - 29) // 2, 63, 29), value=state,
                traits="ToggleButton, Button", accessible=False, on_tap=row.on_switch)
    return Node("Switch", Rect(x + 16, y + (h - 29) // 2, frame.width - 32, 29),
                label=row.title, name=row.ident, value=state,
                traits="ToggleButton, StaticText, Button", children=(*icon, label, knob))


def _texts(row: Row, frame: Rect, left: int, right: int) -> list[Node]:
    """The title (and subtitle, detail) of a row as texts read with their row."""
    y, h = frame.y, frame.height
    room = right - left
    title_y = y + (h - 22) // 2 - (10 if row.subtitle else 0)
    kids = [text(row.title, Rect(left, title_y, min(room, text_width(row.title)), 22),
                 accessible=False)]
    if row.subtitle:
        kids.append(text(row.subtitle, Rect(left, title_y + 24,
                                            min(room, text_width(row.subtitle, 15)), 36),
                         accessible=False))
    if row.detail:
        w = min(room // 2, text_width(row.detail))
        kids.append(text(row.detail, Rect(right - w, y + (h - 22) // 2, w, 22),
                         accessible=False))
    return kids


def cell(row: Row, frame: Rect) -> Node:
    """A table Cell for a plain row (the General > About dump's shape).

    A row's detail joins its label ("Model Number, MQ163LL/A"; a link row's too: "iOS Version,
    26.2"), and title and detail sit in a Button named like the cell; a link row ends in a
    disabled "chevron" button, as the dump's rows do.
    """
    if row.switch is not None:
        return Node("Cell", frame, name=row.ident, traits="", accessible=False,
                    key=f"row:{row.ident}",
                    children=(wrap(_switch_row(row, frame, frame.x + 16), 2, frame),))
    x, y, w, h = frame.x, frame.y, frame.width, frame.height
    texts = _texts(row, frame, x + 16, x + w - (30 if row.chevron else 54 if row.accessory
                                                 else 16))
    label = f"{row.title}, {row.detail}" if row.detail else row.title
    content: Sequence[Node] = texts
    if row.detail:
        content = [Node("Button", Rect(x + 16, y + (h - 21) // 2, w - 32, 21), label=label,
                        name=row.ident, traits="StaticText, Button", accessible=False,
                        children=tuple(texts))]
    kids = [wrap(Node("Other", frame, children=tuple(content)), 1),
            wrap(Node("Other", frame), 1),
            Node("Other", Rect(x + 16, y + h - 2, w - 16, 2))]
    if row.chevron:
        kids.append(Node("Button", Rect(x + w - 31, y + (h - 15) // 2, 11, 15), label="chevron",
                         name="chevron", enabled=False, traits="NotEnabled, Button",
                         accessible=False))
    if row.checked:
        # UIKit's checkmark accessory: a Button labelled "checkmark" inside the cell, which
        # itself reports no selection (no Selected trait, no value), as upstream found on iOS 26
        kids.append(Node("Button", Rect(x + w - 36, y + (h - 20) // 2, 20, 20),
                         label="checkmark", name="checkmark", traits="Button",
                         accessible=False))
    if row.accessory is not None:
        accessory, press = row.accessory  # the cell keeps its own label ("Cafe Guest, Open")
        kids.append(button(accessory, Rect(x + w - 44, y + (h - 22) // 2, 22, 22), press))
    if row.swipe is not None:
        action, act = row.swipe
        kids.append(button(action, Rect(x + w - 84, y, 84, h), act))
    return Node("Cell", frame, label=label, name=row.ident,
                traits="Button" if (row.on_tap and not row.silent) or row.checked else "",
                on_tap=row.on_tap,
                key=row.key or f"row:{row.ident}", children=tuple(kids))


def _grouped_cell(row: Row, frame: Rect) -> Node:
    """A Settings-root cell: unnamed, holding the Button (or Switch) that is the row."""
    x, y, w, h = frame.x, frame.y, frame.width, frame.height
    left = x + 16
    icon: list[Node] = []
    if row.icon is not None:
        size = 60 if row.subtitle else 30
        icon.append(image(row.icon or None, Rect(x + 13, y + (h - size) // 2, size, size),
                          label=row.icon or None))
        left = x + 13 + size + (8 if row.subtitle else 12)
    if row.switch is not None:
        control = _switch_row(row, frame, left, icon)
    else:
        right = x + w - (34 if row.chevron else 16)
        kids = [*icon, *_texts(row, frame, left, right)]
        if row.chevron:
            kids.append(image("chevron.forward", Rect(x + w - 26, y + (h - 13) // 2, 8, 13)))
        label = f"{row.title}, {row.subtitle}" if row.subtitle else row.title
        control = Node("Button", frame, label=label, name=row.ident, value=row.detail,
                       traits="StaticText, Button", on_tap=row.on_tap, children=tuple(kids))
    selected = wrap(Node("Other", frame, visible=False), 1, visible=False)
    return Node("Cell", frame, traits="", accessible=False, key=f"row:{row.ident}",
                children=(selected, wrap(control, 3, frame)))


def _custom(row: Row, frame: Rect) -> Node:
    assert row.build is not None
    built = tuple(row.build(frame))
    # VoiceOver reads a cell as one element, the texts inside it not apart; a cell holding a
    # control (App Store's Get, a slider) is instead the container of it and its texts, as
    # WDA reports every such cell: accessible="false" around accessible elements.
    read_whole = row.container == "Cell" and bool(row.title)
    quieted = tuple(quiet(n) for n in built) if read_whole else built
    if read_whole and any(n.is_accessible or n.holds_accessible for n in quieted):
        read_whole, quieted = False, built
    inner = wrap(Node("Other", frame, children=quieted), 1)
    return Node(row.container, frame, name=row.name, traits="",
                label=row.title if row.container == "Cell" and row.title else None,
                accessible=read_whole, children=(inner,),
                key=row.key or f"row:{row.name or row.container}")


def quiet(node: Node) -> Node:
    """`node` with every text in it read with its cell, not on its own (not accessible)."""
    if node.type == "StaticText":
        return replace(node, accessible=False)
    if not node.children:
        return node
    return replace(node, children=tuple(quiet(c) for c in node.children))


def _header(label: str, y: int, width: int) -> Node:
    return Node("Other", Rect(0, y, width, 38), name=label, children=(
        text(label, Rect(TABLE_X + 16, y + 14, min(width - 72, text_width(label, 13)), 18),
             header=True),))


def footer_height(label: str) -> int:
    """A section footer's height: 15 points and 16 a line, its text wrapped at the width inside
    a table's cells (the Motion dump: 51 characters on one line in 31 points, 82 and 92 on
    two in 47)."""
    return 15 + 16 * line_count(label, FOOTER_SIZE, TABLE_WIDTH - 32)


def _footer(label: str, y: int, height: int, width: int) -> Node:
    """A section footer, as the Motion dump has them: a named Other around the text."""
    return Node("Other", Rect(0, y, width, height), name=label, children=(
        Node("Other", Rect(TABLE_X, y, TABLE_WIDTH, height), name=label, label=label,
             accessible=True),))


def scroll_bars(scroll: Scroll, viewport: Rect, content: int) -> list[Node]:
    """The scroll indicators every UIScrollView holds; hidden while nothing scrolls."""
    # a list squeezed to nothing has nothing to page through (not content-many pages)
    pages = max(1, -(-content // viewport.height)) if viewport.height > 0 else 1
    vertical = f"Vertical scroll bar, {pages} page{'s' if pages > 1 else ''}"
    share = f"{round(100 * scroll.offset / scroll.limit) if scroll.limit else 0}%"
    horizontal = "Horizontal scroll bar, 1 page"
    bottom = viewport.bottom
    return [
        Node("Other", Rect(viewport.x + viewport.width - 33, viewport.y, 30, viewport.height),
             name=vertical, label=vertical, value=share, traits="Adjustable", visible=False,
             children=(Node("Other", Rect(viewport.x + viewport.width - 6, viewport.y + 3, 3,
                                          max(3, viewport.height - 6)), visible=False),)),
        Node("Other", Rect(62, bottom - 33, 278, 30), name=horizontal, label=horizontal,
             value="0%", traits="Adjustable", visible=False,
             children=(Node("Other", Rect(65, bottom - 6, 272, 3), visible=False),)),
    ]


def _band(x: int, width: int, height: int, y: int) -> Node:
    """An empty view across a list: a section's background, a separator, a spacer."""
    return Node("Other", Rect(x, y, width, height))


def _row_at(build: Callable[[Row, Rect], Node], row: Row, x: int, width: int, extra: int,
            y: int) -> Node:
    return build(row, Rect(x, y, width, row.height + extra))


Placed = tuple[int, int, Callable[[int], Node]]
"""(top, height, build at y) of one node of a list, in content coordinates."""


def _place(sections: Sequence[Section], width: int, grouped: bool) -> tuple[list[Placed], int]:
    """Where every header, row, separator and footer of a list goes; and the content height."""
    placed: list[Placed] = []
    y = 0
    row_node = _grouped_cell if grouped else cell
    left, span = (ROW_X, ROW_WIDTH) if grouped else (TABLE_X, TABLE_WIDTH)
    for s, section in enumerate(sections):
        if section.header:
            placed.append((y, 38, partial(_header, section.header.upper(), width=width)))
            y += 38
        elif not grouped:
            placed.append((y, 18, partial(_band, 0, width, 18)))
            y += 17
        elif s:
            height = sum(r.height for r in section.rows) + 34
            placed.append((y - 17, height, partial(_band, left - 32, span + 64, height)))
        for i, row in enumerate(section.rows):
            build = row_node if row.build is None else _custom
            placed.append((y, row.height, partial(_row_at, build, row, left, span,
                                                  0 if grouped else 1)))
            if grouped and i < len(section.rows) - 1:
                placed.append((y + row.height - 1, 2, partial(_band, left + 56, span - 72, 2)))
            y += row.height + (0 if grouped else 1)
        if section.footer:
            height = footer_height(section.footer)
            placed.append((y, height, partial(_footer, section.footer, height=height,
                                              width=width)))
            # a table's next section starts with a band of 17 of its own
            y += height + (AFTER_FOOTER if grouped else 0)
            continue
        if not grouped:
            placed.append((y, 19, partial(_band, 0, width, 19)))
        y += 34 if grouped else 18
    return placed, y + 16


def _rows_in_view(placed: list[Placed], scroll: Scroll, viewport: Rect,
                  frame: Rect | None = None, shown: Rect | None = None) -> list[Node]:
    """The rows a list holds: those near its `viewport` (by `MARGIN`) and any its own `frame`
    holds, under its bars too (UIKit makes a cell for every row within the list's bounds: the
    real root dump's last cell lies across the screen's bottom, under its toolbar); each element
    of them is shown by its own centre (`covers.shown`: in the list's `uncovered` part)."""
    top = viewport.y - scroll.offset
    span = frame or viewport
    shown = shown or viewport
    kids = []
    for offset, height, build in placed:
        y = top + offset
        if (y + height < shown.y - MARGIN or y > shown.bottom + MARGIN) and (
                y + height <= span.y or y >= span.bottom):
            continue  # no cell is made for a row this far out of view
        kids.append(build(y))  # each element shows by its own centre (`covers`)
    return kids


def squeezed(viewport: Rect) -> Rect:
    """A list's frame never below 0 points wide or tall, however an app squeezed it (the
    keyboard, a toolbar, a turned screen): no phone reports a negative frame."""
    return Rect(viewport.x, viewport.y, max(0, viewport.width), max(0, viewport.height))


def spans(viewport: Rect, frame: Rect | None, scroll: Scroll) -> tuple[Rect, Rect | None]:
    """A list's own frame and the part of it its bars leave uncovered (None: all of it): under
    a large title, more as it scrolls (`layout.large_title_shown`)."""
    if frame is None:
        return viewport, None
    return frame, large_title_shown(viewport, scroll.offset)


def under_bars(facts: DeviceFacts, top: int = 0, width: int | None = None) -> Rect:
    """The frame every app's list spans, its bars drawn over it: down to the screen's bottom
    from `top` (0: the screen's top; a page sheet's or a card's own top), across `width` (None:
    the screen's). Since iOS 7 a view controller's view lies under its navigation bar, toolbar
    and tab bar (`edgesForExtendedLayout`), and a list in it spans it, its content inset by
    the bars and by the keyboard, never cut by them: all three Settings dumps frame the list
    0,0,402,874. What a list shows (`viewport`) is the part its bars leave uncovered."""
    return Rect(0, top, facts.width if width is None else width, facts.height - top)


def table(scroll: Scroll, viewport: Rect, sections: Sequence[Section], *, key: str,
          frame: Rect | None = None) -> Node:
    """An inset-grouped Table showing its rows in `viewport`, scrolled by `scroll`.

    Writes the scroll limit into `scroll`. `key` names the list for element identity (use the
    page id). `frame`: the view controller's view the list spans under its bars (a navigation
    controller's screen), `viewport` then being the part the bars leave uncovered, where its
    content is inset to; None: the list is framed by `viewport`. Returned inside the view
    that holds it.
    """
    viewport = squeezed(viewport)
    placed, content = _place(sections, viewport.x + viewport.width, grouped=False)
    scroll.clamp(content - viewport.height)
    own, uncovered = spans(viewport, frame, scroll)
    kids = [*_rows_in_view(placed, scroll, viewport, own, uncovered),
            *scroll_bars(scroll, viewport, content)]
    return Node("Other", viewport, children=(
        Node("Table", own, children=tuple(kids), scroll=scroll, key=key,
             uncovered=uncovered),))


def grouped(scroll: Scroll, viewport: Rect, sections: Sequence[Section], *, key: str,
            name: str | None = None, frame: Rect | None = None) -> Node:
    """The Settings root's list: a CollectionView of unnamed cells holding the row Buttons,
    showing them in `viewport` (`frame` as `table`'s)."""
    viewport = squeezed(viewport)
    width = viewport.x + viewport.width
    placed, content = _place(sections, width, grouped=True)
    scroll.clamp(content - viewport.height)
    own, uncovered = spans(viewport, frame, scroll)
    backdrop = Node("Other", Rect(-16, viewport.y - scroll.offset - 1580, width + 32,
                                  content + 1600))
    kids = [backdrop, Node("Other", Rect(0, 0, width, own.bottom)),
            *_rows_in_view(placed, scroll, viewport, own, uncovered),
            *scroll_bars(scroll, viewport, content)]
    # visible="false" while it fills the screen, as iOS 26 reports it (the real root dump):
    # only its rows are marked as shown
    lists = Node("CollectionView", own, name=name, children=tuple(kids), scroll=scroll,
                 key=key, visible=False, uncovered=uncovered)
    anchor = Node("Other", Rect(width // 2, viewport.y + viewport.height // 2, 0, 0),
                  visible=False)
    return Node("Other", own, children=(lists, anchor))


def search_row(field: EditText, host: Host, *, name: str = "Search") -> Row:
    """A list's first row: a search field, narrowed to make room for Cancel while searching.

    Searching means the field has focus or holds text, as in iOS lists with a search bar;
    Cancel clears the text and dismisses the keyboard, as it does in every such list.
    """
    active = field.focused or bool(field.text)

    def build(frame: Rect) -> Sequence[Node]:
        return search_bar(field, host, Rect(frame.x, frame.y + 8, frame.width, 36),
                          active=active, name=name)

    return Row(build=build, name="SearchRow", container="Other")


def search_bar(field: EditText, host: Host, frame: Rect, *, active: bool,
               name: str = "Search") -> list[Node]:
    """A search field in `frame`, with Cancel beside it while `active`."""
    width = frame.width - (74 if active else 0)
    nodes = [search_field(field, Rect(frame.x, frame.y, width, frame.height), name=name)]
    if active:
        def cancel() -> None:
            field.text = ""
            host.focus(None)

        nodes.append(button("Cancel", Rect(frame.x + width + 8, frame.y, 66, frame.height),
                            cancel))
    return nodes
