"""App Store (com.apple.AppStore): the Today, Games, Apps, Arcade and Search tabs. Nothing installs.

Each tab is a list from `CATALOGUE` and `STORIES`; the Search tab filters the catalogue by name
or subtitle as you type ("No Results" when nothing matches; tapping a suggestion searches for
it). Every "Get" button answers with an alert asking to sign in to an Apple Account, as a phone
without one does, so no app is ever downloaded and the home screen never changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from phoneshell.sim import layout, lists
from phoneshell.sim.apps import AppModel, Host, register
from phoneshell.sim.ui import EditText, Handler, Node, Rect, Scroll

BUNDLE_ID = "com.apple.AppStore"
TABS = ("Today", "Games", "Apps", "Arcade", "Search")
Kind = Literal["Games", "Apps", "Arcade"]


@dataclass(frozen=True)
class Listing:
    """An app the store offers."""

    name: str
    subtitle: str
    kind: Kind


CATALOGUE = (
    Listing("Pocket Planets", "Build a tiny solar system", "Games"),
    Listing("Word Garden", "Grow words, letter by letter", "Games"),
    Listing("Harbour Chess", "Play friends or the computer", "Games"),
    Listing("Tile Trails", "Relaxing puzzle adventures", "Games"),
    Listing("Kart Rally 3", "Race against the world", "Games"),
    Listing("Focus Flow", "Plan your day in minutes", "Apps"),
    Listing("Budget Buddy", "Track spending and save", "Apps"),
    Listing("Trail Map Pro", "Offline hiking maps", "Apps"),
    Listing("Recipe Box", "Cook from what you have", "Apps"),
    Listing("Sleep Tides", "Sounds for deeper sleep", "Apps"),
    Listing("Lumen Quest", "An Arcade original", "Arcade"),
    Listing("Skyline Drift", "Glide over endless cities", "Arcade"),
)
STORIES = (("APP OF THE DAY", "Focus Flow", "Plan your day in minutes"),
           ("GAME OF THE DAY", "Pocket Planets", "Build a tiny solar system"),
           ("GET STARTED", "Apps for the New Year", "Fresh starts, made easier"))
SUGGESTIONS = ("chess", "budget", "maps", "sleep")


@dataclass
class AppStoreState:
    """The tab that shows, a scroll offset per tab, the search query, and the sign-in alert."""

    tab: int = 0
    scrolls: list[Scroll] = field(default_factory=lambda: [Scroll() for _ in TABS])
    query: EditText = field(default_factory=lambda: EditText("Games, Apps, Stories and More",
                                                       return_key="search"))
    signing_in: bool = False


def search(query: str) -> list[Listing]:
    """Listings whose name or subtitle contains the query, ignoring case."""
    q = query.strip().lower()
    return [a for a in CATALOGUE if q and (q in a.name.lower() or q in a.subtitle.lower())]


def _listing_row(app: Listing, state: AppStoreState) -> lists.Row:
    def get() -> None:
        state.signing_in = True

    def build(frame: Rect) -> Sequence[Node]:
        return [layout.text(app.name, Rect(frame.x + 16, frame.y + 14, 240, 22)),
                layout.text(app.subtitle, Rect(frame.x + 16, frame.y + 38, 240, 18)),
                layout.button("Get", Rect(frame.x + frame.width - 86, frame.y + 22, 70, 32),
                              get, name=f"Get {app.name}")]

    return lists.Row(app.name, build=build, height=76, name=app.name)


def _story_row(kicker: str, title: str, line: str) -> lists.Row:
    def build(frame: Rect) -> Sequence[Node]:
        return [layout.text(kicker, Rect(frame.x + 16, frame.y + 16, 200, 18)),
                layout.text(title, Rect(frame.x + 16, frame.y + 40, 300, 34)),
                layout.text(line, Rect(frame.x + 16, frame.y + frame.height - 40, 300, 22))]

    return lists.Row(title, build=build, height=220, name=title)


def _sections(state: AppStoreState, host: Host) -> list[lists.Section]:
    name = TABS[state.tab]
    if name == "Today":
        return [lists.Section(tuple(_story_row(*s) for s in STORIES))]
    if name != "Search":
        return [lists.Section(tuple(_listing_row(a, state) for a in CATALOGUE
                                     if a.kind == name), header=f"Top {name}")]
    query = state.query
    head = lists.Section((lists.search_row(query, host, name="Search"),))
    if not query.text.strip():
        return [head, lists.Section(tuple(lists.Row(s, on_tap=_searcher(query, s))
                                           for s in SUGGESTIONS), header="Discover")]
    found = search(query.text)
    if not found:
        return [head, lists.Section((lists.Row("No Results"),))]
    return [head, lists.Section(tuple(_listing_row(a, state) for a in found))]


def _searcher(query: EditText, text: str) -> Handler:
    def fill() -> None:
        query.text = text
    return fill


def render(state: AppStoreState, host: Host) -> Node:
    """The selected tab's large title and list, the tab bar, and the sign-in alert if up."""
    f = host.facts
    name = TABS[state.tab]
    # Today's date is drawn over its large title, and is part of it (`nav_bar`'s over_title).
    kids = [layout.nav_bar(f, name, large=True,
                           over_title=f.date_text.upper() if name == "Today" else None)]
    bottom = f.height - layout.TAB_BAR_HEIGHT
    viewport = Rect(0, layout.LARGE_NAV_BOTTOM, f.width, bottom - layout.LARGE_NAV_BOTTOM)
    kids.append(lists.table(state.scrolls[state.tab], viewport, _sections(state, host),
                             key=f"tab:{name}", frame=lists.under_bars(f)))

    def choose(index: int) -> Handler:
        def pick() -> None:
            if index != state.tab:
                host.focus(None)
            state.tab = index
        return pick

    kids.append(layout.tab_bar(f, [(t, choose(i)) for i, t in enumerate(TABS)], state.tab))
    if state.signing_in:
        def dismiss() -> None:
            state.signing_in = False

        kids.append(layout.alert(f, "Apple Account", "Sign in to download apps.",
                                 [("Not Now", dismiss)]))
    return layout.screen(f, kids, key=f"appstore:{name}")


APP = register(AppModel(BUNDLE_ID, "App Store", AppStoreState, render))
