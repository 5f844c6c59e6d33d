"""Files (com.apple.DocumentsApp): the Recents, Shared and Browse tabs, and folders to open.

The app opens on Recents. Browse lists "Locations" (iCloud Drive, On My iPhone, Recently
Deleted), "Favorites" and "Tags"; tapping a location or a folder pushes its contents (back pops
it, as does the left-edge swipe). Each tab's search field filters every file and folder by name.
The file system is data (`FOLDERS`): a folder maps to the names it holds, sub-folders ending in
"/". Nothing can be created, moved or deleted.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from phoneshell.sim import layout, lists
from phoneshell.sim.apps import AppModel, Host, register
from phoneshell.sim.back_menu import BackMenu
from phoneshell.sim.ui import EditText, Handler, Node, Rect, Scroll, showing

BUNDLE_ID = "com.apple.DocumentsApp"
TABS = ("Recents", "Shared", "Browse")
LOCATIONS = ("iCloud Drive", "On My iPhone", "Recently Deleted")
FAVORITES = ("Downloads",)
TAGS = ("Red", "Orange", "Yellow", "Green", "Blue", "Purple", "Gray")
FOLDERS: dict[str, tuple[str, ...]] = {
    "iCloud Drive": ("Desktop/", "Documents/", "Downloads/", "Shortcuts/"),
    "On My iPhone": ("GarageBand/", "Scans/"),
    "Recently Deleted": (),
    "Desktop": ("Screenshot 2024-01-08.png",),
    "Documents": ("Quarterly Report.pdf", "Packing List.txt", "Recipes/"),
    "Downloads": ("Boarding Pass.pdf", "Invoice 1042.pdf"),
    "Shortcuts": (),
    "GarageBand": ("My Song.band",),
    "Scans": ("Receipt.pdf", "Warranty.pdf"),
    "Recipes": ("Banana Bread.pdf", "Pancakes.pdf"),
}
RECENTS = (("Quarterly Report.pdf", "Documents"), ("Packing List.txt", "Documents"),
           ("Boarding Pass.pdf", "Downloads"), ("Receipt.pdf", "Scans"))
SHARED = (("Family Budget.numbers", "Shared by Anna Haro"),
          ("Trip Itinerary.pages", "Shared by Kate Bell"))


@dataclass
class FilesState:
    """The tab, the folders opened under Browse, a scroll per list, the search query."""

    back_menu: BackMenu = field(default_factory=BackMenu)
    """The back button's history menu (a hold on it): whether it shows."""
    tab: int = 0
    path: list[str] = field(default_factory=list)
    """Folders pushed under Browse, outermost first (empty: the Browse root)."""
    scrolls: list[Scroll] = field(default_factory=lambda: [Scroll()])
    showings: list[int] = field(default_factory=list)
    """Each pushed folder's showing (`ui.showing`): one pushed again is new views, new ids."""
    query: EditText = field(default_factory=lambda: EditText("Search", return_key="search"))


def search(query: str) -> list[tuple[str, str]]:
    """(name, folder) of every item whose name contains the query, ignoring case."""
    q = query.strip().lower()
    return [(item.rstrip("/"), folder) for folder, items in FOLDERS.items() for item in items
            if q and q in item.rstrip("/").lower()]


def _opener(state: FilesState, host: Host, folder: str) -> Handler:
    def open_folder() -> None:
        host.focus(None)
        state.query.text = ""
        state.tab = TABS.index("Browse")
        state.path.append(folder)
        state.scrolls.append(Scroll())
        state.showings.append(showing())
    return open_folder


def _item_row(state: FilesState, host: Host, item: str, subtitle: str | None = None) -> lists.Row:
    name = item.rstrip("/")
    if item.endswith("/"):
        return lists.Row(name, subtitle=subtitle, chevron=True,
                          on_tap=_opener(state, host, name),
                          height=64 if subtitle else lists.ROW_HEIGHT)
    return lists.Row(name, subtitle=subtitle, height=64 if subtitle else lists.ROW_HEIGHT)


def _sections(state: FilesState, host: Host) -> list[lists.Section]:
    query = state.query
    head = lists.Section((lists.search_row(query, host),))
    if query.text.strip():
        found = tuple(lists.Row(n, subtitle=f, height=64) for n, f in search(query.text))
        return [head, lists.Section(found or (lists.Row("No Results"),))]
    tab = TABS[state.tab]
    if tab == "Recents":
        return [head, lists.Section(tuple(lists.Row(n, subtitle=f, height=64)
                                           for n, f in RECENTS))]
    if tab == "Shared":
        return [head, lists.Section(tuple(lists.Row(n, subtitle=s, height=64)
                                           for n, s in SHARED))]
    if state.path:
        items = FOLDERS.get(state.path[-1], ())
        rows = tuple(_item_row(state, host, i) for i in items)
        return [head, lists.Section(rows or (lists.Row("No items"),))]
    return [head,
            lists.Section(tuple(_item_row(state, host, f"{loc}/") for loc in LOCATIONS),
                           header="Locations"),
            lists.Section(tuple(_item_row(state, host, f"{fav}/") for fav in FAVORITES),
                           header="Favorites"),
            lists.Section(tuple(lists.Row(t) for t in TAGS), header="Tags")]


def render(state: FilesState, host: Host) -> Node:
    """The tab's list under its title (a folder's name inside Browse), over the tab bar."""
    f = host.facts
    tab = TABS[state.tab]
    deep = tab == "Browse" and bool(state.path)
    if deep:
        back = state.path[-2] if len(state.path) > 1 else "Browse"
        behind = [*reversed(state.path[:-2]), "Browse"] if len(state.path) > 1 else []
        nav = layout.nav_bar(f, state.path[-1], back=back, on_back=lambda: _pop(state),
                             menu=state.back_menu, behind=behind)
        top = layout.NAV_BOTTOM
    else:
        nav, top = layout.nav_bar(f, tab, large=True), layout.LARGE_NAV_BOTTOM
    bottom = f.height - layout.TAB_BAR_HEIGHT
    scroll = state.scrolls[-1] if deep else state.scrolls[0]
    where = "/".join(state.path) if deep else tab
    table = lists.table(scroll, Rect(0, top, f.width, bottom - top), _sections(state, host),
                         key=f"list:{where}", frame=lists.under_bars(f))

    def choose(index: int) -> Handler:
        def pick() -> None:
            host.focus(None)
            state.query.text = ""
            if index == state.tab and TABS[index] == "Browse":
                _pop_all(state)  # tapping the selected tab goes back to its root, as on iOS
            state.tab = index
            state.scrolls[0].offset = 0
        return pick

    tabs = layout.tab_bar(f, [(t, choose(i)) for i, t in enumerate(TABS)], state.tab)
    shown = state.showings[-1] if deep else 0
    return layout.screen(f, [nav, table, tabs], key=f"files:{where}@{shown}")


def _pop(state: FilesState) -> None:
    if state.path:
        state.path.pop()
        state.scrolls.pop()
        state.showings.pop()


def _pop_all(state: FilesState) -> None:
    del state.path[:], state.scrolls[1:], state.showings[:]


def keep(state: FilesState) -> str:
    """The tab Files shows as it stops: it opens on it again (Browse at its root)."""
    return TABS[state.tab]


def restore(state: FilesState, tab: str) -> None:
    """Open on the tab Files stopped on (an unknown name: Recents)."""
    if tab in TABS:
        state.tab = TABS.index(tab)


APP = register(AppModel(BUNDLE_ID, "Files", FilesState, render, rotates=True, keep=keep,
                        restore=restore))
