"""How Safari's screens are laid out: web content, the start page, the bottom bar, address
editing, and menus. Pure layout: every function builds nodes from data and the handlers it is
given, and changes nothing (`safari.py` owns the state and the behaviour).

Element names follow the iOS 26 dumps: a page is an `XCUIElementTypeWebView` named "WebView"
holding a document `Other` named after the page title, with headings (StaticText, traits "Header,
StaticText"), paragraphs, and `Link`s wrapping a StaticText; the bottom bar has "BackButton"
(labelled "Back"), the address capsule "CapsuleNavigationBar" with the TextField
"TabBarItemTitle" (labelled "Address"), and "MoreMenuButton"; the start page is the collection
"StartPageCollectionView". Forward ("ForwardButton") and Tabs ("TabOverviewButton") are icons.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from phoneshell.sim import layout
from phoneshell.sim.apps.safari_pages import FAVORITES, Block, Page, is_address
from phoneshell.sim.apps.safari_tabs import BAR_HEIGHT, bar_top
from phoneshell.sim.facts import DeviceFacts
from phoneshell.sim.keyboard import KEYBOARD_HEIGHT
from phoneshell.sim.ui import EditText, Handler, Node, Rect, Scroll, hidden

PLACEHOLDER = "Search or enter website"
WEB_TOP = 62
"""Where web content starts (below the status bar), as in the dumps."""
MARGIN = 24
"""Web content's left and right margin."""

LinkAction = Callable[[str], Handler]
"""Given a link's URL, what a tap (or a hold) on it does."""


def _lines(words: str, size: int, width: int) -> int:
    """How many lines `words` wrap to at `size` points in `width` points."""
    count, line = 1, ""
    for word in words.split():
        trial = f"{line} {word}".strip()
        if line and layout.text_width(trial, size) > width:
            count, line = count + 1, word
        else:
            line = trial
    return count


def _text(words: str, frame: Rect, traits: str | None = None) -> Node:
    return Node("StaticText", frame, label=words, name=words, value=words, traits=traits)


def block_node(block: Block, y: int, width: int, open_link: LinkAction,
               hold_link: LinkAction) -> tuple[Node, int]:
    """The node of one block of a page at `y`, and the height it takes."""
    x = MARGIN
    if block.kind == "picture":
        # The word is in the pixels only: no name, label or value carries it.
        return Node("Image", Rect(x, y, width, 160), pixels_text=block.text), 160
    if block.kind == "link" and block.href is not None:
        frame = Rect(x, y, min(width, layout.text_width(block.text)), 22)
        # As in the dumps, the Link is a container; VoiceOver reads the text inside it.
        return Node("Link", frame, label=block.text, name=block.text, traits="Link",
                    accessible=False, on_tap=open_link(block.href),
                    on_hold=hold_link(block.href),
                    children=(_text(block.text, frame, "Link, StaticText"),)), 22
    size, pitch = {"heading": (32, 41), "caption": (15, 20)}.get(block.kind, (17, 22))
    lines = _lines(block.text, size, width)
    w = width if lines > 1 else min(width, layout.text_width(block.text, size))
    traits = "Header, StaticText" if block.kind == "heading" else None
    return _text(block.text, Rect(x, y, w, pitch * lines), traits), pitch * lines


def web_view(f: DeviceFacts, page: Page, scroll: Scroll, open_link: LinkAction,
             hold_link: LinkAction) -> Node:
    """A loaded page: its blocks top to bottom, scrolled by `scroll` (off-view ones hidden)."""
    viewport = Rect(0, WEB_TOP, f.width, bar_top(f) - WEB_TOP)
    y, placed = MARGIN, []
    for block in page.blocks:
        node, height = block_node(block, viewport.y + y - scroll.offset, f.width - 2 * MARGIN,
                                  open_link, hold_link)
        placed.append(node)
        y += height + (20 if block.kind in ("heading", "picture") else 14)
    scroll.clamp(y + MARGIN - viewport.height)
    shown = [n if viewport.y <= n.frame.y + n.frame.height // 2 < viewport.bottom else hidden(n)
             for n in placed]
    document = Node("Other", viewport, name=page.title, label=page.title, children=tuple(shown))
    return Node("WebView", viewport, name="WebView", children=(document,), scroll=scroll,
                key=f"web:{page.url}")


def start_page(f: DeviceFacts, open_link: LinkAction) -> Node:
    """What a blank tab shows: Favorites and the Privacy Report."""
    kids = [layout.text("Favorites", Rect(16, 90, 123, 27), header=True)]
    for i, (title, url) in enumerate(FAVORITES):
        frame = Rect(16 + i * 94, 126, 84, 96)
        kids.append(Node("Cell", frame, label=title, name=title, on_tap=open_link(url),
                         children=(layout.text(title, Rect(frame.x, frame.y + 74, 84, 18)),)))
    kids += [layout.text("Privacy Report", Rect(16, 250, 151, 27), header=True),
             layout.text("In the last seven days, Safari has prevented 0 trackers from "
                         "profiling you.", Rect(36, 290, 330, 44),
                         name="TrackersPreventedCount")]
    return Node("CollectionView", Rect(0, WEB_TOP, f.width, bar_top(f) - WEB_TOP),
                name="StartPageCollectionView", children=tuple(kids), key="start-page")


def address_field(address: EditText, frame: Rect, shown: str | None, on_tap: Handler) -> Node:
    """The address field: what is typed while editing, else the page's address."""
    value = address.shown_value() if address.focused else shown or PLACEHOLDER
    return Node("TextField", frame, label="Address", name="TabBarItemTitle", value=value,
                placeholder=PLACEHOLDER, field=address, on_tap=on_tap)


@dataclass(frozen=True)
class BarActions:
    """What the bottom bar's controls do."""

    back: Handler
    forward: Handler
    edit: Handler
    tabs: Handler
    more: Handler


def bottom_bar(f: DeviceFacts, address: EditText, shown: str | None, can_go: tuple[bool, bool],
               act: BarActions) -> Node:
    """Back, Forward, the address capsule, Tabs and More, along the bottom.

    Args:
        f: screen geometry.
        address: the address field's binding.
        shown: what the address field shows (None: the placeholder).
        can_go: whether Back and Forward are enabled.
        act: what the controls do.
    """
    top = bar_top(f)
    capsule = Node("Other", Rect(106, top + 16, 190, 48), name="CapsuleNavigationBar",
                   children=(address_field(address, Rect(110, top + 22, 182, 36), shown,
                                           act.edit),))
    return Node("Other", Rect(0, top, f.width, BAR_HEIGHT), children=(
        layout.button("Back", Rect(8, top + 16, 50, 48), act.back, name="BackButton",
                      enabled=can_go[0]),
        _icon_button("Forward", "ForwardButton", ">", Rect(60, top + 16, 44, 48), act.forward,
                     enabled=can_go[1]),
        capsule,
        _icon_button("Tabs", "TabOverviewButton", "[ ]", Rect(300, top + 16, 44, 48),
                     act.tabs),
        _icon_button("More", "MoreMenuButton", "...", Rect(348, top + 16, 44, 48), act.more),
    ))


def _icon_button(label: str, name: str, drawn: str, frame: Rect, on_tap: Handler, *,
                 enabled: bool = True) -> Node:
    # Safari's toolbar buttons are icons: the label is for VoiceOver, the pixels show a glyph.
    return Node("Button", frame, label=label, name=name, enabled=enabled,
                traits="Button" if enabled else "NotEnabled, Button", on_tap=on_tap,
                pixels_text=drawn)


def editing(f: DeviceFacts, address: EditText, cancel: Handler, submit: Handler) -> list[Node]:
    """The address bar above the keyboard, over a sheet of suggestions that cancels on a tap."""
    top = f.height - KEYBOARD_HEIGHT - 56
    typed = address.text.strip()
    kids: list[Node] = []
    if typed:
        hint = "Go to site" if is_address(typed) else "Google Search"
        kids.append(layout.cell(layout.Row(typed, subtitle=hint, on_tap=submit),
                                Rect(16, WEB_TOP + 16, 370, 64)))
    sheet = Node("Other", Rect(0, WEB_TOP, f.width, top - WEB_TOP), name="Suggestions",
                 children=tuple(kids), on_tap=cancel, opaque=True)
    bar = Node("Other", Rect(0, top, f.width, 56), name="CapsuleNavigationBar", children=(
        address_field(address, Rect(16, top + 6, 292, 40), None, _keep_editing),
        layout.button("Cancel", Rect(316, top + 6, 74, 40), cancel),
    ))
    return [sheet, bar]


def _keep_editing() -> None:
    """Tapping the address field while it is being edited only keeps focus there."""


def menu(f: DeviceFacts, name: str, items: Sequence[tuple[str, Handler]], top: int, left: int,
         dismiss: Handler, above: Sequence[Node] = ()) -> Node:
    """A context menu of buttons over a full-screen backdrop that a tap outside dismisses."""
    width = 250
    buttons = tuple(layout.button(label, Rect(left, top + 44 * i, width, 44), handler)
                    for i, (label, handler) in enumerate(items))
    box = Node("Menu", Rect(left, top, width, 44 * len(items)), children=buttons, opaque=True)
    return Node("Other", Rect(0, 0, f.width, f.height), name=name, children=(*above, box),
                on_tap=dismiss)


def link_preview(target: Page) -> Node:
    """The preview of a held link's page, above its menu."""
    return Node("Other", Rect(16, 120, 370, 240), name="LinkPreview", opaque=True, children=(
        layout.text(target.title, Rect(32, 140, 338, 26), header=True),
        layout.text(target.address, Rect(32, 172, 338, 20)),
    ))
