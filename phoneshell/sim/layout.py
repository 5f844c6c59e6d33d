"""Layout helpers that turn screen descriptions into node trees, so app screens are data.

Geometry follows the iOS 26 dumps on a 402x874 pt iPhone: navigation bar from y=62 (54 pt, or
106 with a large title), a tab bar in the bottom 83 pt. Shapes follow them too: `screen` puts an
app's views inside the chain of unnamed container views UIKit's window, navigation controller
and transition views leave in every real tree (`wrap` makes such chains), and controls are named
and flagged as the dumps show them (a navigation bar's title is an accessible Header, its back
button is "BackButton"). The helpers build nodes and attach the handlers they are given; none
keeps state. Lists and their rows live in `lists.py`, the windows around a screen in
`windows.py`, the keyboard in `keyboard.py`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import lru_cache

from PIL import ImageFont

from phoneshell.sim import back_menu
from phoneshell.sim.back_menu import BackMenu
from phoneshell.sim.facts import DeviceFacts
from phoneshell.sim.touch_paths import hit_path
from phoneshell.sim.ui import EditText, Handler, Node, Rect, Wheel, hidden, walk

NAV_TOP = 62
NAV_BOTTOM = 116
"""Where content starts under a standard navigation bar."""
LARGE_NAV_BOTTOM = 168
"""Where content starts under a large-title navigation bar (a root list), while its list is
scrolled to its top (`large_title_shown`: the bar collapses as it scrolls)."""
LARGE_TITLE = LARGE_NAV_BOTTOM - NAV_BOTTOM
"""The height of a large title's band under the standard bar: how far a list under it scrolls
before its bar has shrunk to the standard one."""
LARGE_TITLE_Y = 119
"""Where a large title's text starts (the Settings root's dump), while its list is at its top."""
OVER_TITLE_Y = LARGE_TITLE_Y - 19
"""Where a line drawn over a large title starts (`nav_bar`'s `over_title`: App Store's date)."""
TAB_BAR_HEIGHT = 83
SEARCH_TOP = NAV_TOP + 46
"""Where a search field in a navigation bar starts, under its title (`nav_bar`'s `search`;
inferred, no dump of such a bar)."""
SEARCH_GAP = 8
"""How far a navigation bar holding a search field reaches below it."""


MEASURED = 1000
"""The most characters `text_width` measures: a thousand run wider than any screen at any
size, so a longer text (a pasted book) costs a frame no more than that."""


def text_width(text: str, size: int = 17) -> int:
    """The width in points of text at `size` points, in the font screenshots are drawn with.

    Real frames hug the glyphs; measuring with the screenshot font keeps the drawn text inside
    the frame the source reports.
    """
    return _width(text[:MEASURED], size)


def line_count(words: str, size: int, width: int) -> int:
    """How many lines `words` wrap to at `size` points in `width` points (by `text_width`,
    breaking between words as UIKit's labels do)."""
    count, line = 1, ""
    for word in words.split():
        trial = f"{line} {word}".strip()
        if line and text_width(trial, size) > width:
            count, line = count + 1, word
        else:
            line = trial
    return count


@lru_cache(maxsize=4096)
def _width(text: str, size: int) -> int:
    return max(1, round(_measuring_font(size).getlength(text) / 4) + 2)


@lru_cache(maxsize=16)
def _measuring_font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size * 4)  # measured large: less rounding


def wrap(node: Node, levels: int, frame: Rect | None = None, *, visible: bool = True) -> Node:
    """`node` inside `levels` unnamed `Other`s of `frame` (default: the node's own frame).

    UIKit leaves such views around everything (a cell's content view, a controller's view, a
    transition view), and WDA lists each one: the real trees are three to four times deeper
    than the controls they hold, and a client that walks them must meet the same depth here.
    """
    at = frame or node.frame
    for _ in range(levels):
        node = Node("Other", at, children=(node,), visible=visible)
    return node


def screen(facts: DeviceFacts, children: Sequence[Node], *, key: str | None = None) -> Node:
    """A full-screen app body (what `render` usually returns), nested as UIKit nests it.

    Inside the window's root controller and transition views (eight levels in every iOS 26
    dump), a navigation controller's views (`_navigation`).
    """
    full = Rect(0, 0, facts.width, facts.height)
    children, menus = _lifted(children)
    children = _collapsed(children)
    return wrap(_navigation(full, children, menus, key=key), 4)


def _navigation(frame: Rect, children: Sequence[Node], menus: Sequence[Node] = (), *,
                key: str | None = None) -> Node:
    """A navigation controller's views over `frame`: leading `NavigationBar`s beside the
    content, the rest, in order, in the content view three wrappers further down, then its
    (empty, hidden) palette container, `menus`, and an empty sibling view, as in the dumps."""
    split = next((i for i, c in enumerate(children) if c.type != "NavigationBar"), len(children))
    bars, rest = tuple(children[:split]), tuple(children[split:])
    content = wrap(Node("Other", frame, children=rest), 3)
    # A navigation controller keeps its (empty, hidden) palette container after the content.
    palette = wrap(Node("Other", frame, visible=False), 1, visible=False)
    inner = wrap(Node("Other", frame, children=(*bars, content, palette, *menus), key=key), 2)
    return Node("Other", frame, children=(inner, wrap(Node("Other", frame), 1)))


def text(label: str, frame: Rect, *, header: bool = False, name: str | None = None,
         visible: bool = True, pixels_text: str | None = None,
         accessible: bool | None = None) -> Node:
    """A StaticText whose name and label are the text, and so its value (WDA's wdValue).

    Text inside a cell or a button is read with it, not on its own: pass `accessible=False`
    there, as the real trees mark it.
    """
    return Node("StaticText", frame, label=label, name=name or label, visible=visible,
                traits="Header" if header else None, pixels_text=pixels_text,
                accessible=accessible)


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


def image(name: str | None, frame: Rect, *, label: str | None = None) -> Node:
    """A decorative Image (SF Symbol names such as "chevron.forward"; None: an unnamed one)."""
    return Node("Image", frame, name=name, label=label)


def nav_bar(facts: DeviceFacts, title: str, *, back: str | None = None,
            on_back: Handler | None = None, large: bool = False,
            trailing: Sequence[Node] = (), menu: BackMenu | None = None,
            behind: Sequence[str] = (), search: Sequence[Node] = (),
            over_title: str | None = None) -> Node:
    """A NavigationBar named after its page, with a back button labelled with the previous page.

    `over_title`: a line of small capitals over a large title (App Store's Today date), part
    of the large title as on a phone: inside the bar's frame, so a touch there is the bar's
    (the bridge names what a bar covers as the bar's, whatever is laid under it), and it
    scrolls away with the title (`_collapsed`).

    `search`: a search field and its Cancel, placed from `SEARCH_TOP` under the title, the bar
    reaching down past them as a bar with a search controller does (Clock's city chooser): a
    list under the bar shows from its bottom, and the bar takes the touches beside the field.

    The back button is named "BackButton", as in the real Settings dumps; an edge swipe from the
    left finds it by that name, so any app gets edge-swipe back for free. A touch and hold on it
    opens its history menu and never goes back (`back_controls`).
    """
    width = facts.width
    kids: list[Node] = []
    if back is not None:
        kids += back_controls(facts, back, Rect(16, NAV_TOP, 44, 44), on_back, menu=menu,
                              behind=behind)
    if large:
        if over_title is not None:
            kids.append(text(over_title, Rect(16, OVER_TITLE_Y,
                                              text_width(over_title, 13) + 20, 16)))
        kids.append(text(title, Rect(16, LARGE_TITLE_Y, text_width(title, 34), 42),
                         header=True))
        height = LARGE_NAV_BOTTOM - NAV_TOP
    else:
        w = text_width(title)
        kids.append(text(title, Rect((width - w) // 2, NAV_TOP + 11, w, 22), header=True))
        height = max([NAV_BOTTOM, *(n.frame.y + n.frame.height + SEARCH_GAP for n in search)])
        height -= NAV_TOP
    kids += [*trailing, *search]
    return Node("NavigationBar", Rect(0, NAV_TOP, width, height), name=title,
                children=tuple(kids))


def large_title_shown(viewport: Rect, offset: int) -> Rect:
    """The part of a list's frame its bars leave uncovered, `viewport` being that part while
    it is scrolled to its top and `offset` how far it has scrolled: a list whose content starts
    under a large title (at `LARGE_NAV_BOTTOM`) shows from higher as it scrolls, up to the
    standard bar's bottom (`LARGE_TITLE` higher), as UIKit's `prefersLargeTitles` bar shrinks
    to the standard one while its scroll view scrolls up past the title (the large title
    scrolls away with the content, the small title appears in the bar). Its content does not
    move: only what covers it shrinks. Other lists show `viewport`. Inferred from UIKit's
    documented behaviour: no dump of a scrolled large-title screen."""
    if viewport.y != LARGE_NAV_BOTTOM:
        return viewport
    rise = max(0, min(offset, LARGE_TITLE))
    return Rect(viewport.x, viewport.y - rise, viewport.width, viewport.height + rise)


def _collapsed(children: Sequence[Node]) -> tuple[Node, ...]:
    """`children` with a large-title navigation bar ending where the list under it starts to
    show (`large_title_shown`): shrunk by as much as the list has scrolled, its large title
    moved up with the content and, once the bar is the standard one, shown inline in it."""
    bar = next((c for c in children if c.type == "NavigationBar"), None)
    if bar is None or bar.frame.y != NAV_TOP or bar.frame.bottom != LARGE_NAV_BOTTOM:
        return tuple(children)
    lists = (n for c in children for n in walk(c)
             if n.scroll is not None and not n.scroll.horizontal and n.uncovered is not None)
    under = next(lists, None)
    if under is None or not NAV_BOTTOM <= under.open_part.y < LARGE_NAV_BOTTOM:
        return tuple(children)
    rise = LARGE_NAV_BOTTOM - under.open_part.y

    def moved(node: Node) -> Node:
        if node.type == "StaticText" and node.frame.y == OVER_TITLE_Y:
            # The line over the title scrolls up with it, and is gone once it would leave the
            # bar (a phone clips it to the bar as it scrolls under the status bar).
            up = replace(node, frame=Rect(node.frame.x, OVER_TITLE_Y - rise,
                                          node.frame.width, node.frame.height))
            return up if up.frame.y >= NAV_TOP else hidden(up)
        if node.type != "StaticText" or node.frame.y != LARGE_TITLE_Y:
            return node
        if rise < LARGE_TITLE:
            return replace(node, frame=Rect(node.frame.x, LARGE_TITLE_Y - rise,
                                            node.frame.width, node.frame.height))
        w = text_width(node.label or "")
        return replace(node, frame=Rect((bar.frame.width - w) // 2, NAV_TOP + 11, w, 22))

    shrunk = replace(bar, frame=Rect(bar.frame.x, NAV_TOP, bar.frame.width,
                                     under.open_part.y - NAV_TOP),
                     children=tuple(moved(c) for c in bar.children))
    return tuple(shrunk if c is bar else c for c in children)


def back_controls(f: DeviceFacts, back: str, frame: Rect, on_back: Handler | None, *,
                  menu: BackMenu | None = None, behind: Sequence[str] = ()) -> list[Node]:
    """A navigation bar's back button, named "BackButton" and labelled `back` (the page under
    this one), whose touch and hold opens its history menu and never goes back (`back_menu`:
    the app's `menu` state; `behind`, the titles of the pages further back, nearest first);
    while the menu shows, its layer too, which `screen` and `page_sheet` lift over everything
    else. Children for a bar (`nav_bar`, or a bar an app draws itself)."""
    kids = [replace(button(back, frame, on_back, name="BackButton"),
                    on_hold=back_menu.held_back(menu))]
    if on_back is not None and menu is not None and menu.shown:
        kids.append(_menu_layer(f, back_menu.items(menu, (back, *behind), on_back), menu.close))
    return kids


def _menu_layer(f: DeviceFacts, items: Sequence[tuple[str, Handler]], close: Handler) -> Node:
    """The back button's history menu, under the bar's left end (`back_menu`)."""
    return menu(f, "ContextMenu", items, back_menu.MENU_TOP, back_menu.MENU_LEFT, close)


def _lifted(children: Sequence[Node]) -> tuple[tuple[Node, ...], tuple[Node, ...]]:
    """`children` without the menu layers their navigation bars hold (`nav_bar`), and those
    layers, to be drawn over everything else as a presented menu is."""
    kept: list[Node] = []
    layers: list[Node] = []
    for child in children:
        if child.type == "NavigationBar" and any(c.modal for c in child.children):
            layers += [c for c in child.children if c.modal]
            child = replace(child, children=tuple(c for c in child.children if not c.modal))
        kept.append(child)
    return tuple(kept), tuple(layers)


def search_field(field: EditText, frame: Rect, *, name: str = "Search") -> Node:
    """A SearchField bound to `field`; tapping it focuses it (the keyboard comes up).

    As in the iOS 26 dumps, the magnifying glass and the dictation button inside it are not
    accessible on their own: VoiceOver reads the field.
    """
    glass = image("magnifyingglass", Rect(frame.x + 13, frame.y + 9, 22, 19), label="Search")
    kids = [glass]
    end = Rect(frame.x + frame.width - 34, frame.y + 8, 18, 22)
    if not field.text:
        kids.append(Node("Button", end, label="Dictate", name="Dictate", accessible=False,
                         traits="Button"))
    else:
        # UIKit's clear button, in the field while it holds text (XCUITest suites tap it as
        # searchField.buttons["Clear text"]); the field keeps its focus.
        def clear() -> None:
            field.text = ""

        kids.append(Node("Button", end, label="Clear text", name="Clear text", traits="Button",
                         on_tap=clear))
    return Node("SearchField", frame, label=name, name=name, value=field.shown_value(),
                placeholder=field.placeholder, field=field, children=tuple(kids))


def text_field(field: EditText, frame: Rect, *, name: str | None = None) -> Node:
    """A TextField (or SecureTextField, or multi-line TextView) bound to `field`."""
    kind = "SecureTextField" if field.secure else "TextView" if field.multiline else "TextField"
    return Node(kind, frame, label=name or field.placeholder, name=name,
                value=field.shown_value(), placeholder=field.placeholder, field=field)


def switch(label: str, on: bool, frame: Rect, on_toggle: Handler | None, *,
           name: str | None = None, enabled: bool = True) -> Node:
    """A plain Switch (the knob only) whose value is "1" (on) or "0" (off).

    Settings-style rows, where the switch element spans the whole row, are `lists.Row`s.
    """
    return Node("Switch", frame, label=label, name=name or label, value="1" if on else "0",
                enabled=enabled, on_tap=on_toggle)


def slider(label: str, position: float, frame: Rect, on_adjust: Callable[[float], None] | None,
           *, name: str | None = None) -> Node:
    """A Slider at `position` (0.0-1.0); WDA reports its value as a percentage string."""
    return Node("Slider", frame, label=label, name=name or label,
                value=f"{round(position * 100)}%", on_adjust=on_adjust)


def tab_bar(facts: DeviceFacts, tabs: Sequence[tuple[str, Handler]], selected: int) -> Node:
    """A TabBar across the bottom; the selected tab's button has value "1" and, as on iOS,
    "Selected" among its traits."""
    top = facts.height - TAB_BAR_HEIGHT
    width = facts.width // max(1, len(tabs))
    buttons = tuple(button(title, Rect(i * width, top + 2, width, 48), handler,
                           selected=i == selected) for i, (title, handler) in enumerate(tabs))
    return Node("TabBar", Rect(0, top, facts.width, TAB_BAR_HEIGHT), name="Tab Bar",
                children=buttons)


def picker(frame: Rect, wheels: Sequence[tuple[Wheel, Rect]]) -> Node:
    """A Picker of PickerWheels, left to right, each reporting its selected row as its value.

    A tap above or below a wheel's centre turns it by the rows between; a vertical drag turns
    it as far as the finger moves; WDA's element value route selects a row by its text.
    """
    return Node("Picker", frame, children=tuple(
        Node("PickerWheel", at, value=wheel.value, wheel=wheel) for wheel, at in wheels))


def page_sheet(facts: DeviceFacts, bar: Node, children: Sequence[Node], *, dismiss: Handler,
               top: int = NAV_TOP, key: str | None = None) -> Node:
    """A modal page sheet from `top` to the bottom, over a dimmed screen that takes no taps.

    A sheet presents a navigation controller, nested as a screen's (`_navigation`): `bar` is
    its header, a NavigationBar from the sheet's top named by its title, holding the title, its
    bar buttons and a searchable chooser's search field (`nav_bar`); a list in
    `children` spans the sheet under it (`lists.under_bars(facts, top)`), so the bar, drawn
    over the list, takes the touches on its blank parts as every screen's bar does. Modals in
    `children` (a confirmation) are presented over the whole sheet.

    What lies behind stays in the page source, reported not visible (as on a real phone, whose
    tree still lists the screen a sheet covers), is hidden in screenshots and cannot be touched.
    A downward swipe on the sheet does `dismiss` (`pulled_sheet`), as iOS's sheet presentation
    dismisses every page sheet: what its Cancel does, which for a sheet holding changes asks
    first (Reminders' Discard Changes), as iOS's `isModalInPresentation` sheets do.

    Raises:
        ValueError: `bar` is not a NavigationBar, or does not start at the sheet's top.
    """
    if bar.type != "NavigationBar" or bar.frame.y != top:
        raise ValueError(f"a page sheet's header is a NavigationBar from its top (y {top}); "
                         f"got {bar.type} at y {bar.frame.y}")
    kids, menus = _lifted((bar, *children))
    frame = Rect(0, top, facts.width, facts.height - top)
    shown = _navigation(frame, [c for c in kids if not c.modal])
    panel = Node("Other", frame, children=(shown, *(c for c in kids if c.modal)), opaque=True,
                 key=key, on_pull_down=dismiss)
    return modal_layer(facts, (wrap(panel, 2), *menus), _ignore)


def pulled_sheet(root: Node, x: float, y: float) -> Handler | None:
    """What a downward swipe going down at (x, y) does to the page sheet there: its dismissal,
    or None when no sheet is pulled. A sheet follows the finger from its top part (its grabber
    and navigation bar) and from any part that does not take the drag itself, as UIKit's sheet
    does: not from a picker wheel or a slider, nor from a list scrolled down from its top (that
    scrolls back first), nor through a modal presented over the sheet (a confirmation)."""
    for node in reversed(hit_path(root, x, y)):
        if node.on_pull_down is not None:
            return node.on_pull_down
        if node.presents:  # a modal's layer, where the sheet's blank parts let touches through
            panel = _sheet_panel(node)
            return panel.on_pull_down if panel and panel.frame.contains(x, y) else None
        if (node.wheel is not None or node.on_adjust is not None
                or (node.scroll is not None and not node.scroll.horizontal
                    and node.scroll.offset > 0)):
            return None
    return None


def _sheet_panel(layer: Node) -> Node | None:
    """The page sheet's panel a modal layer holds (not one of a modal presented inside it)."""
    for child in layer.children:
        if child.on_pull_down is not None:
            return child
        found = None if child.presents else _sheet_panel(child)
        if found is not None:
            return found
    return None


def modal_layer(facts: DeviceFacts, children: Sequence[Node], on_tap: Handler | None, *,
                name: str | None = None) -> Node:
    """The full-screen layer every modal presentation puts over its app (`children`: the panel,
    alert, sheet, popover or menu, and what shows beside it): it takes the touches outside them
    (`on_tap`: nothing, or a dismissal; None: a child of its own takes them, as a popover's
    dismiss region does), and while it shows, everything else in its window is
    reported not visible (`ui.Node.modal`), as a real phone reports what a presentation covers.
    """
    return Node("Other", Rect(0, 0, facts.width, facts.height), name=name,
                children=tuple(children), on_tap=on_tap, modal=True)


ALERT_WIDTH = 320
"""An iOS 26 alert's width in points (the public app-alert dump's)."""
ALERT_BUTTON = 48
"""The height of an iOS 26 alert's capsule buttons."""


def alert(facts: DeviceFacts, title: str, message: str,
          actions: Sequence[tuple[str, Handler]]) -> Node:
    """A centred Alert over a dimmed screen; WDA's alert routes read and press it.

    Nested as iOS 26's UIAlertController is (the public app-alert dump, mobiumdev/mobium's
    ios-app-alert.xml): the Alert itself is not accessible; its title and message sit in a
    first ScrollView's content view, its buttons in a second ScrollView's, inside a 288-point
    row of 48-point capsules, under three wrappers; beside them, the backdrop's empty views. Two
    buttons sit side by side; three or more, or two whose titles do not fit side by side, are
    stacked ("Delete App", "Remove from Home Screen", "Cancel").
    """
    w, count = ALERT_WIDTH, max(1, len(actions))
    row_w, gap = w - 32, 8
    half = (row_w - gap) // 2
    stacked = count > 2 or any(text_width(label) > half - 16 for label, _ in actions)
    lines = max(1, -(-text_width(message, 15) // (w - 60))) if message else 0
    texts_h = 49 + 19 * lines + 4 if message else 55
    row_h = ALERT_BUTTON * count + gap * (count - 1) if stacked else ALERT_BUTTON
    height = texts_h + 16 + row_h + 16
    # Centred in the safe area (62 points under the top, 34 over the bottom on this phone):
    # the dump's 152-point alert sits at y 375 of 874.
    x, top = (facts.width - w) // 2, (62 + facts.height - 34 - height) // 2
    words = [text(title, Rect(x + 30, top + 22, w - 60, 21))]
    if message:
        words.append(text(message, Rect(x + 30, top + 49, w - 60, 19 * lines)))
    texts = Node("ScrollView", Rect(x, top, w, texts_h), children=(
        Node("Other", Rect(x, top, w, texts_h), children=tuple(words)),))
    row_top, bw = top + texts_h + 16, row_w if stacked else (row_w if count == 1 else half)
    buttons = tuple(
        button(label, Rect(x + 16 + (0 if stacked else i * (half + gap)),
                           row_top + (i * (ALERT_BUTTON + gap) if stacked else 0),
                           bw, ALERT_BUTTON), handler)
        for i, (label, handler) in enumerate(actions))
    lower = Rect(x, top + texts_h, w, height - texts_h)
    presses = Node("ScrollView", lower, children=(Node("Other", lower, children=(
        Node("Other", Rect(x + 16, row_top, row_w, row_h), children=buttons),)),))
    whole = Rect(x, top, w, height)
    content = wrap(Node("Other", whole, children=(
        Node("Other", whole, visible=False), Node("Other", whole, children=(texts, presses)))), 2)
    backdrop = wrap(Node("Other", whole), 3)
    box = Node("Alert", whole, name=title, label=title, accessible=False,
               children=(content, backdrop))
    # The dimmed backdrop swallows taps: nothing behind an alert can be touched.
    return modal_layer(facts, (box,), _ignore)


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
    return modal_layer(facts, (box,), on_cancel)


def menu(f: DeviceFacts, name: str, items: Sequence[tuple[str, Handler]], top: int, left: int,
         dismiss: Handler, above: Sequence[Node] = ()) -> Node:
    """A context menu of buttons over a full-screen backdrop (named `name`) that a tap outside
    dismisses; `above` are drawn over the backdrop beside it (a held link's preview)."""
    width = 250
    buttons = tuple(button(label, Rect(left, top + 44 * i, width, 44), handler)
                    for i, (label, handler) in enumerate(items))
    box = Node("Menu", Rect(left, top, width, 44 * len(items)), children=buttons, opaque=True)
    return modal_layer(f, (*above, box), dismiss, name=name)


def _ignore() -> None:
    """A tap that lands on a modal backdrop and does nothing."""
