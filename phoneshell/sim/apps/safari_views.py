"""How Safari's content is laid out: the window around it, web pages, and the start page.

Pure layout: every function builds nodes from data and the handlers it is given, and changes
nothing (`safari.py` owns the state and the behaviour; the bottom bar, address editing, menus and
the share sheet are in `safari_bars.py`). Shapes follow the iOS 26 dumps: the window is an
`Other` named "SafariWindow?View=Narrow&...", a page is a `ScrollView` holding the
"TabDocument?..." view, the `WebView` named "WebView" and, a few wrappers down, a document `Other`
named after the page title; a heading is an `Other` (value: its level, traits "Header") around a
StaticText (traits "Header, StaticText"), a link a `Link` around its StaticText, a text's value
the text with its own spaces (its label and name without), a line of texts and buttons an
`Other` around them side by side, tiles an `Other` around an `Other` a tile. The start page
is the collection "StartPageCollectionView": the Customize Start Page card, Favorites and the
Privacy Report, each under its identifier ("favoritesItemIdentifierContent"...).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Sequence
from dataclasses import replace

from phoneshell.sim import layout
from phoneshell.sim.apps.safari_pages import FAVORITES, Block, Page
from phoneshell.sim.apps.safari_tabs import bar_top
from phoneshell.sim.facts import DeviceFacts
from phoneshell.sim.lists import scroll_bars
from phoneshell.sim.processes import APP_PIDS
from phoneshell.sim.ui import Handler, Node, Rect, Scroll, hidden

WEB_TOP = 62
"""Where web content starts (below the status bar), as in the dumps."""
MARGIN = 24
"""Web content's left and right margin."""
WINDOW_UUID = "59D4EDC6-84A3-494C-A617-A948485E587B"
TAB_UUID = "72842639-ADBB-4D56-A4D1-75153F22FAA2"
"""Safari names its window and tab views with UUIDs; fixed here, so sources repeat exactly."""

LinkAction = Callable[[str], Handler]
"""Given a link's URL, what a tap (or a hold) on it does."""
HEADINGS = {1: (32, 41), 2: (28, 36), 3: (22, 28)}
"""A heading's font size and line pitch in points, by its level (deeper ones as body text)."""
TILE_WIDTH, TILE_HEIGHT, TILE_GAP, TILE_PITCH = 80, 120, 36, 155
"""Tiles (squoosh's samples): their size, the space between two side by side, a row's pitch."""
AFTER = {"heading": 20, "picture": 20, "gap": 0}
"""The space below a block of each kind (14 points below any other)."""


def _text(words: str, frame: Rect, traits: str | None = None) -> Node:
    # WebKit's value is the text node's own ("Or " before "try one"); its label is trimmed
    shown = words.strip() or None
    return Node("StaticText", frame, label=shown, name=shown, value=words, traits=traits)


def _button(label: str, frame: Rect) -> Node:
    return Node("Button", frame, name=label or None, label=label or None, traits="Button",
                on_tap=_nothing)


def _link(block: Block, frame: Rect, open_link: LinkAction, hold_link: LinkAction) -> Node:
    # As in the dumps, the Link is a container; VoiceOver reads the text inside it.
    href = block.href or ""
    return Node("Link", frame, label=block.text, name=block.text, traits="Link",
                accessible=False, on_tap=open_link(href), on_hold=hold_link(href),
                children=(_text(block.text, frame, "Link, StaticText"),))


def _inline(block: Block, x: int, y: int, open_link: LinkAction,
            hold_link: LinkAction) -> Node:
    """A text, button or link of a line, at (x, y), as wide as it is drawn."""
    frame = Rect(x, y, max(1, layout.text_width(block.text)), 22)
    if block.kind == "button":
        return _button(block.text, frame)
    if block.kind == "link" and block.href is not None:
        return _link(block, frame, open_link, hold_link)
    return _text(block.text, frame)


def _line(block: Block, y: int, width: int, open_link: LinkAction,
          hold_link: LinkAction) -> tuple[Node, int]:
    widths = [max(1, layout.text_width(p.text)) for p in block.parts]
    x = MARGIN + max(0, width - sum(widths)) // 2
    kids: list[Node] = []
    for part, w in zip(block.parts, widths, strict=True):
        kids.append(_inline(part, x, y, open_link, hold_link))
        x += w
    frame = Rect(MARGIN, y, width, 22)
    return Node("Other", frame, children=tuple(kids)), 22


def _tiles(block: Block, y: int, width: int) -> tuple[Node, int]:
    across = min(3, len(block.parts)) or 1
    left = MARGIN + (width - across * TILE_WIDTH - (across - 1) * TILE_GAP) // 2
    kids: list[Node] = []
    for i, part in enumerate(block.parts):
        row, column = divmod(i, 3)
        frame = Rect(left + column * (TILE_WIDTH + TILE_GAP), y + row * TILE_PITCH,
                     TILE_WIDTH, TILE_HEIGHT)
        kids.append(Node("Other", frame, children=(_button(part.text, frame),)))
    rows = (len(block.parts) + 2) // 3
    height = (rows - 1) * TILE_PITCH + TILE_HEIGHT if rows else 0
    return Node("Other", Rect(0, y, width + 2 * MARGIN, height), children=tuple(kids)), height


def block_node(block: Block, y: int, width: int, open_link: LinkAction,
               hold_link: LinkAction) -> tuple[Node, int]:
    """The node of one block of a page at `y`, and the height it takes."""
    x = MARGIN
    if block.kind == "picture":
        # The word is in the pixels only: no name, label or value carries it.
        return Node("Image", Rect(x, y, width, 160), pixels_text=block.text), 160
    if block.kind == "image":
        return Node("Image", Rect(x, y, width, 200), name=block.text, label=block.text,
                    accessible=True), 200
    if block.kind == "button":
        frame = Rect(x, y, max(60, layout.text_width(block.text) + 24), 44)
        return _button(block.text, frame), 44
    if block.kind == "link" and block.href is not None:
        frame = Rect(x, y, min(width, layout.text_width(block.text)), 22)
        return _link(block, frame, open_link, hold_link), 22
    if block.kind == "line":
        return _line(block, y, width, open_link, hold_link)
    if block.kind == "tiles":
        return _tiles(block, y, width)
    size, pitch = (HEADINGS.get(block.level, (17, 22)) if block.kind == "heading" else
                   (15, 20) if block.kind == "caption" else (17, 22))
    lines = layout.line_count(block.text, size, width)
    w = width if lines > 1 else min(width, layout.text_width(block.text, size))
    frame = Rect(x, y, w, pitch * lines)
    if block.kind == "heading":
        words = _text(block.text, frame, "Header, StaticText")
        return Node("Other", frame, name=block.text, label=block.text, value=str(block.level),
                    traits="Header", children=(layout.wrap(words, 1),)), pitch * lines
    return layout.wrap(_text(block.text, frame), 1), pitch * lines


def _in_view(node: Node, viewport: Rect) -> Node:
    """The node as the viewport shows it: not visible when its middle is outside, its parts
    each by their own (the first row of tiles visible in a container that is not)."""
    kids = tuple(_in_view(c, viewport) for c in node.children)
    inside = viewport.y <= node.frame.y + node.frame.height // 2 < viewport.bottom
    if not inside and not any(k.visible for k in kids):
        return hidden(node)
    if inside and all(k is c for k, c in zip(kids, node.children, strict=True)):
        return node
    return replace(node, visible=node.visible and inside, children=kids)


def _nothing() -> None:
    """A web page's button: the simulated web runs no scripts."""


def web_view(f: DeviceFacts, page: Page, scroll: Scroll, open_link: LinkAction,
             hold_link: LinkAction, *, app_pid: int | None = None) -> Node:
    """A loaded page: its blocks top to bottom, scrolled by `scroll` (off-view ones hidden);
    `app_pid`, Safari's, gives the page's process id (`web_content_pid`)."""
    viewport = Rect(0, WEB_TOP, f.width, bar_top(f) - WEB_TOP)
    y, placed = MARGIN, []
    for block in page.blocks:
        if block.kind == "gap":
            y += block.height
            continue
        node, height = block_node(block, viewport.y + y - scroll.offset, f.width - 2 * MARGIN,
                                  open_link, hold_link)
        placed.append(node)
        y += height + AFTER.get(block.kind, 14)
    scroll.clamp(y + MARGIN - viewport.height)
    shown = [_in_view(n, viewport) for n in placed]
    full = Rect(0, 0, f.width, f.height)
    document = Node("Other", viewport, name=page.title, label=page.title, children=tuple(shown))
    content = Node("WebView", full, children=(
        Node("Other", full, visible=False),
        Node("WebView", full, children=(layout.wrap(document, 3, full),)),
        *scroll_bars(scroll, viewport, y + MARGIN)))
    # Both dumps frame the WebView full-screen, under the bars; the page's document is what
    # sits between them.
    web = Node("WebView", full, name="WebView", children=(content,), scroll=scroll,
               key=f"web:{page.url}")
    return _tab_document(f, web, shown=True, app_pid=app_pid)


def web_content_pid(f: DeviceFacts, app_pid: int | None = None) -> int:
    """The pid of the process drawing Safari's pages (WebKit's WebContent), as the tab document
    names it: launched just after Safari, so a little above Safari's own (the dumps: 29401 and
    29405, 95218 and 95237). Fixed per phone when Safari's pid is not given."""
    base = app_pid if app_pid is not None else APP_PIDS[0] + zlib.crc32(f.udid.encode()) % (
        APP_PIDS[1] - APP_PIDS[0] - 40)
    return base + 3 + zlib.crc32(f"{f.udid}:{base}".encode()) % 17


def _tab_document(f: DeviceFacts, web: Node, *, shown: bool, app_pid: int | None = None) -> Node:
    """The tab's document views, named as both dumps name them: the page counts as loaded on
    the start page too (WebKit's blank document is), with the WebContent process's id."""
    full = Rect(0, 0, f.width, f.height)
    name = (f"TabDocument?IsLoadedUsingDesktopUserAgent=false&InReaderMode=false&UUID="
            f"{TAB_UUID}&IsPrivate=false&IsPageLoaded=true"
            f"&WebViewProcessID={web_content_pid(f, app_pid)}")
    return Node("ScrollView", full, visible=shown, children=(
        Node("Other", full, name=name, visible=shown, children=(web,)),))


def start_page(f: DeviceFacts, open_link: LinkAction, card: Handler | None, *,
               app_pid: int | None = None) -> list[Node]:
    """What a blank tab shows: the Customize Start Page card (while `card` can close it),
    Favorites and the Privacy Report, in the collection the start-page dump has (`app_pid` as
    `web_view`'s).

    Returns the empty tab document (hidden) and the start page's views.
    """
    full = Rect(0, 0, f.width, f.height)
    spell = f.conventions.spell
    kids: list[Node] = [Node("Other", full), Node("Other", full)]
    top = 82
    if card is not None:
        kids.append(_customize_card(f, top, card))
        top += 328
    kids.append(_header(spell("Favorites"), "favoritesItemIdentifierHeader", top, 123))
    for i, (title, url) in enumerate(FAVORITES):
        frame = Rect(16 + i * 99, top + 37, 72, 95)
        kids.append(Node("Cell", frame, label=title, name="favoritesItemIdentifierContent",
                         traits="Button", accessible=True, on_tap=open_link(url), children=(
                             Node("Other", frame, children=(layout.text(
                                 title, Rect(frame.x - 6, frame.y + 80, 84, 15),
                                 accessible=False),)),)))
    top += 161
    kids.append(_header("Privacy Report", "privacyReportIdentifierHeader", top, 151))
    report = Rect(16, top + 36, 370, 79)
    kids.append(Node("Cell", report, name="privacyReportIdentifierContent", children=(
        layout.wrap(Node("Other", report, visible=False), 1, visible=False),
        Node("Other", report, children=(
            # The dump reads the whole phrase (value, name and label) where the page draws "0".
            layout.text("0 blocked trackers", Rect(36, report.y + 20, 21, 39),
                        pixels_text="0"),
            Node("StaticText", Rect(77, report.y + 20, 289, 39),
                 name="TrackersPreventedCount?TrackingPreventionDataExists=false",
                 label="In the last seven days, Safari has prevented 0 trackers from "
                       "profiling you.",
                 value="In the last seven days, Safari has prevented 0 trackers from "
                       "profiling you."))))))
    edit = Rect(16, report.bottom + 29, 370, 51)
    kids.append(Node("Cell", edit, name="com.apple.mobilesafari.framework-customization-"
                                        "sectionContent", children=(Node("Other", edit, children=(
                                            Node("Other", Rect(165, edit.y + 8, 72, 35),
                                                 visible=False),
                                            Node("Button", Rect(165, edit.y + 8, 72, 35),
                                                 name="customizationsSheetButton", label="Edit",
                                                 traits="Button", on_tap=_nothing, children=(
                                                     layout.text("Edit", Rect(185, edit.y + 15,
                                                                              32, 21),
                                                                 accessible=False),)))),)))
    viewport = Rect(0, WEB_TOP, f.width, bar_top(f) - WEB_TOP)
    # The page does not scroll here: what falls below the bar (in landscape) is not visible.
    kids = [k if k.frame.y + k.frame.height // 2 < viewport.bottom else hidden(k) for k in kids]
    kids += scroll_bars(Scroll(), viewport, edit.bottom + 20)
    grid = Node("CollectionView", viewport, name="StartPageCollectionView", children=tuple(kids),
                key="start-page", visible=False)  # as the real start page dump has it
    views = layout.wrap(Node("Other", full, children=(Node("Other", full, visible=False),
                                                      grid)), 5)
    empty = _tab_document(f, Node("WebView", full, name="WebView", visible=False), shown=False,
                          app_pid=app_pid)
    return [empty, views]


def _header(label: str, name: str, y: int, width: int) -> Node:
    return Node("Other", Rect(16, y, 370, 37), name=name, traits="Header", children=(
        Node("Other", Rect(16, y, width, 27), children=(
            layout.text(label, Rect(16, y, width, 27)),)),))


def _customize_card(f: DeviceFacts, top: int, close: Handler) -> Node:
    frame = Rect(16, top, 370, 299)
    words = f.conventions.spell("Customize your wallpaper and sections that appear when "
                                "creating new tabs.")
    action = f.conventions.spell("Customize Start Page")
    body = Node("Other", Rect(36, top + 20, 330, 259), children=(
        layout.text("Start Page", Rect(159, top + 20, 84, 21)),
        Node("Other", Rect(46, top + 52, 310, 131), children=(
            layout.image("SafariOnboardingCustomizeStartPage", Rect(46, top + 52, 310, 131)),)),
        layout.text(words, Rect(36, top + 194, 330, 39)),
        Node("Button", Rect(36, top + 244, 330, 35), name="onboardingButton-CustomizeStartPage",
             label=action, traits="Button", on_tap=_nothing, children=(
                 layout.text(action, Rect(114, top + 251, 173, 21), accessible=False),))))
    return Node("Cell", frame, name="onboardingItemIdentifierContent-CustomizeStartPage",
                children=(layout.wrap(Node("Other", frame, visible=False), 1, visible=False),
                          Node("Other", frame, children=(
                              body, Node("Button", Rect(347, top + 16, 23, 23), name="close",
                                         label="close", traits="Button", on_tap=close)))))


def safari_window(f: DeviceFacts, content: Sequence[Node], bar: Node | None, *,
                  secure: bool) -> Node:
    """Safari's window: the named window view holding the content and the bottom bar, inside
    the wrapper views of every UIKit window. Under the share sheet all of it but the page's own
    content is reported not visible, as every modal presentation covers what lies behind it
    (`modal_cover.presented`)."""
    full = Rect(0, 0, f.width, f.height)
    name = (f"SafariWindow?View=Narrow&BarsKeptMinimized=false&UUID={WINDOW_UUID}&UsingLowered"
            f"Bar=true&IsSecure={'true' if secure else 'false'}&IsTabBarAvailable=false")
    status = Rect(0, 0, f.width, 49)
    hidden_bar = Node("Other", status, visible=False, children=(
        Node("Other", status, visible=False), Node("Other", status, visible=False)))
    views = Node("Other", full, children=(Node("Other", full, children=(
        hidden_bar, Node("Other", Rect(0, 0, f.width, WEB_TOP)), *content)),))
    safari = Node("Other", full, name=name, children=(views, *(() if bar is None else (bar,))))
    inner = layout.wrap(Node("Other", full, children=(
        safari, layout.wrap(Node("Other", full, visible=False), 1, visible=False))), 7)
    chain = Node("Other", full, children=(inner, layout.wrap(Node("Other", full), 1)))
    return chain
