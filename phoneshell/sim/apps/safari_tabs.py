"""Safari's tabs: the open tabs kept in Safari's store, their history, and the tab overview.

The store (`com.apple.mobilesafari`) holds `tabs`, a list of `{"url", "title", "back",
"forward"}` (url "" is a blank tab showing the start page), and `active`, the index of the tab
in front. Like a phone, Safari reopens them after a terminate, so the page a task left open is
there when the next one launches Safari. Private tabs live in the UI state only: they are gone
when Safari is terminated. A fresh phone has one blank tab; it is read as that default until the
first change writes it, so drawing a screen never writes the store.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from phoneshell.sim import layout
from phoneshell.sim.apps.safari_pages import START_PAGE_TITLE, Page, load
from phoneshell.sim.facts import DeviceFacts
from phoneshell.sim.store import JSON, Store
from phoneshell.sim.ui import Handler, Node, Rect, Scroll, hidden

CARD_WIDTH, CARD_HEIGHT, CARD_GAP = 177, 230, 16
GRID_TOP = 62
BAR_HEIGHT = 98
"""Safari's bottom bar (as in the iOS 26 dumps: 776-874), along the bottom however turned."""


def bar_top(f: DeviceFacts) -> int:
    """Where Safari's bottom bar starts on the screen as it is turned."""
    return f.height - BAR_HEIGHT


@dataclass
class Tab:
    """One open tab: the page showing (url "" is the start page) and its back/forward lists."""

    url: str = ""
    title: str = START_PAGE_TITLE
    back: list[str] = field(default_factory=list)
    forward: list[str] = field(default_factory=list)

    def visit(self, page: Page) -> None:
        """Show a newly loaded page, pushing the current one onto the back list."""
        if self.url and self.url != page.url:
            self.back.append(self.url)
            self.forward.clear()
        self.url, self.title = page.url, page.title

    def go_back(self) -> None:
        """Go to the previous page of this tab, if there is one."""
        if self.back:
            self.forward.insert(0, self.url)
            self._show(self.back.pop())

    def go_forward(self) -> None:
        """Go to the page Back left, if there is one."""
        if self.forward:
            self.back.append(self.url)
            self._show(self.forward.pop(0))

    def _show(self, url: str) -> None:
        self.url = url
        self.title = load(url).title if url else START_PAGE_TITLE

    def to_json(self) -> dict[str, JSON]:
        """The tab as the store keeps it."""
        return {"url": self.url, "title": self.title, "back": list[JSON](self.back),
                "forward": list[JSON](self.forward)}

    @classmethod
    def from_json(cls, data: JSON) -> Tab | None:
        """A tab from the store, or None for an entry that is not one."""
        if not isinstance(data, dict) or not isinstance(data.get("url"), str):
            return None
        url = str(data["url"])
        title = data.get("title")

        def urls(key: str) -> list[str]:
            value = data.get(key)
            return [u for u in value if isinstance(u, str)] if isinstance(value, list) else []

        return cls(url, title if isinstance(title, str) else START_PAGE_TITLE, urls("back"),
                   urls("forward"))


@dataclass
class Window:
    """A group of tabs and the one in front (the normal tabs, or the private ones)."""

    tabs: list[Tab] = field(default_factory=lambda: [Tab()])
    active: int = 0

    @property
    def current(self) -> Tab:
        """The tab in front."""
        return self.tabs[self.active]

    def open(self, page: Page | None = None) -> Tab:
        """Open a new tab (showing `page`, else the start page) and bring it to the front."""
        tab = Tab()
        if page is not None:
            tab.visit(page)
        self.tabs.append(tab)
        self.active = len(self.tabs) - 1
        return tab

    def step(self, by: int) -> None:
        """Bring the tab `by` places after the one in front (before it, negative) to the front,
        stopping at the first and the last: a swipe along the bar past the last tab springs
        back here (a phone may open a new tab there: not found stated, so not modelled)."""
        self.active = max(0, min(len(self.tabs) - 1, self.active + by))

    def close(self, index: int) -> None:
        """Close a tab; closing the last one leaves a blank tab, as Safari does."""
        if 0 <= index < len(self.tabs):
            del self.tabs[index]
        if not self.tabs:
            self.tabs.append(Tab())
        if index < self.active or self.active >= len(self.tabs):
            self.active = max(0, self.active - 1)


def load_window(store: Store) -> Window:
    """The normal tabs from Safari's store (one blank tab on a fresh phone); writes nothing."""
    raw = store.data.get("tabs")
    tabs = [t for t in (Tab.from_json(d) for d in raw) if t] if isinstance(raw, list) else []
    if not tabs:
        return Window()
    active = int(store.number("active", 0))
    return Window(tabs, active if 0 <= active < len(tabs) else 0)


def save_window(store: Store, window: Window) -> None:
    """Write the normal tabs back to Safari's store."""
    store.put("tabs", [t.to_json() for t in window.tabs])
    store.put("active", window.active)


@dataclass(frozen=True)
class OverviewActions:
    """What the tab overview's controls do."""

    select: Callable[[int], Handler]
    close: Callable[[int], Handler]
    new_tab: Handler
    done: Handler
    show_private: Callable[[bool], Handler]


def _viewport(f: DeviceFacts) -> Rect:
    return Rect(0, GRID_TOP, f.width, bar_top(f) - GRID_TOP)


def reveal(f: DeviceFacts, window: Window, scroll: Scroll) -> None:
    """Scroll the grid so the card of the tab in front shows whole, as Safari opens its
    overview (shrinking that tab into its card): with many tabs, at the newest one opened."""
    top = CARD_GAP + (window.active // 2) * (CARD_HEIGHT + CARD_GAP)
    height = _viewport(f).height
    if not scroll.offset <= top <= top + CARD_HEIGHT <= scroll.offset + height:
        scroll.offset = max(0, top + CARD_HEIGHT + CARD_GAP - height)


def overview(f: DeviceFacts, window: Window, private: bool, normal_count: int, scroll: Scroll,
             act: OverviewActions) -> Node:
    """The tab overview: a grid of tab cards, then New Tab, the groups, and Done at the bottom.

    Args:
        f: screen geometry.
        window: the tabs of the group showing (private or normal).
        private: whether the private group shows.
        normal_count: how many normal tabs are open (the group button says so).
        scroll: the grid's scroll offset.
        act: what the controls do.
    """
    viewport = _viewport(f)
    rows = (len(window.tabs) + 1) // 2
    scroll.clamp(CARD_GAP + rows * (CARD_HEIGHT + CARD_GAP) - viewport.height)
    cards: list[Node] = []
    for i, tab in enumerate(window.tabs):
        x = CARD_GAP + (i % 2) * (CARD_WIDTH + CARD_GAP)
        y = viewport.y + CARD_GAP + (i // 2) * (CARD_HEIGHT + CARD_GAP) - scroll.offset
        card = _card(tab, Rect(x, y, CARD_WIDTH, CARD_HEIGHT), i == window.active,
                     act.select(i), act.close(i))
        centre = y + CARD_HEIGHT // 2
        cards.append(card if viewport.y <= centre < viewport.bottom else hidden(card))
    # placed from the screen's middle and edges, never at portrait points: the overview turns
    mid, top = f.width // 2, bar_top(f)
    if private and not cards:
        says = viewport.y + (viewport.height - 58) // 2  # the two lines, centred in the grid
        cards = [layout.text("Private Browsing", Rect(mid - 81, says, 162, 26), header=True),
                 layout.text("Safari won't remember the pages you visit.",
                             Rect(mid - 161, says + 36, 322, 22))]
    grid = Node("CollectionView", viewport, name="TabOverview", children=tuple(cards),
                scroll=scroll, key="tab-overview")
    group = f"{normal_count} Tab{'s' if normal_count != 1 else ''}"
    bar = Node("Toolbar", Rect(0, top, f.width, BAR_HEIGHT), children=(
        Node("Button", Rect(16, top + 20, 48, 48), label="New Tab", name="AddTabButton",
             traits="Button", on_tap=act.new_tab, pixels_text="+"),
        layout.button("Private", Rect(mid - 91, top + 24, 84, 40), act.show_private(True),
                      selected=private),
        layout.button(group, Rect(mid - 1, top + 24, 92, 40),
                      act.show_private(False), name="TabGroupsButton", selected=not private),
        layout.button("Done", Rect(f.width - 86, top + 20, 70, 48), act.done, name="DoneButton"),
    ))
    return layout.screen(f, [grid, bar], key="safari-tabs")


def _card(tab: Tab, frame: Rect, active: bool, select: Handler, close: Handler) -> Node:
    x, y = frame.x, frame.y
    host = load(tab.url).address if tab.url else ""
    kids = [layout.text(tab.title, Rect(x + 8, y + 8, min(CARD_WIDTH - 48,
                                                          layout.text_width(tab.title, 15)), 20))]
    if host:
        kids.append(layout.text(host, Rect(x + 8, y + CARD_HEIGHT - 30,
                                           min(CARD_WIDTH - 16, layout.text_width(host, 13)),
                                           18)))
    kids.append(layout.button("Close", Rect(x + CARD_WIDTH - 36, y + 6, 30, 30), close,
                              name="closeTabButton"))
    return Node("Cell", frame, label=tab.title, name="TabOverviewItem", selected=active,
                value="1" if active else None, on_tap=select, children=tuple(kids))

