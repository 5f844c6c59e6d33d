"""Maps (com.apple.Maps): a map under a sheet with the search field, results, and place cards.

The map is one opaque `Map` element filling the screen. The sheet starts collapsed at the
bottom, showing only the "Search Maps" field; tapping the field raises the sheet (with "Cancel")
and brings up the keyboard. Typing lists the places in `PLACES` whose name or category contains
the query, as result rows with a subtitle ("Eiffel Tower" / "Landmark · Paris, France"), or "No
Results"; Return keeps the results and dismisses the keyboard. Tapping a result opens its place
card (name, subtitle, "Directions", "Close"); Close returns to the results, Cancel collapses the
sheet. With an empty query the raised sheet suggests categories ("Restaurants"...), which fill
the query when tapped.

Turned to landscape, the sheet and the place card are a card at the left side, as wide as the
portrait screen, over the map; with the keyboard up the results list ends at the keyboard's top
(UIKit insets it: what lies under the keyboard scrolls up), so the first result row shows.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from phoneshell.sim import layout, lists, urls
from phoneshell.sim.apps import AppModel, Host, register
from phoneshell.sim.keyboard import above_keyboard
from phoneshell.sim.ui import EditText, Handler, Node, Rect, Scroll

BUNDLE_ID = "com.apple.Maps"
COLLAPSED_HEIGHT = 114
"""The collapsed search sheet, along the bottom of the screen however it is turned."""
RAISED_TOP = 70
PLACE_CARD_HEIGHT = 444
"""A place card's height in portrait; a landscape screen gives it what lies below RAISED_TOP."""


@dataclass(frozen=True)
class Place:
    """A place search can find."""

    name: str
    category: str
    where: str

    @property
    def subtitle(self) -> str:
        """The result row's second line, as Maps writes it."""
        return f"{self.category} · {self.where}"


PLACES = (
    Place("Eiffel Tower", "Landmark", "Paris, France"),
    Place("Louvre Museum", "Museum", "Paris, France"),
    Place("Golden Gate Bridge", "Landmark", "San Francisco, CA"),
    Place("Apple Park Visitor Center", "Store", "Cupertino, CA"),
    Place("Statue of Liberty", "Landmark", "New York, NY"),
    Place("Big Ben", "Landmark", "London, England"),
    Place("Blue Bottle Coffee", "Coffee", "Palo Alto, CA"),
    Place("Philz Coffee", "Coffee", "Cupertino, CA"),
    Place("Chez Panisse", "Restaurants", "Berkeley, CA"),
    Place("Le Jules Verne", "Restaurants", "Paris, France"),
    Place("Cupertino Village Market", "Groceries", "Cupertino, CA"),
)
CATEGORIES = ("Restaurants", "Coffee", "Groceries")
"""Find Nearby's suggestions: things near Cupertino, so no landmark is one tap away."""


@dataclass
class MapsState:
    """The query (its focus or text raises the sheet), the open place, the results' scroll."""

    query: EditText = field(default_factory=lambda: EditText("Search Maps", return_key="search"))
    place: Place | None = None
    results: Scroll = field(default_factory=Scroll)


def search(query: str) -> list[Place]:
    """Places whose name, category or location contains the query, names first."""
    q = query.strip().lower()
    if not q:
        return []
    by_name = [p for p in PLACES if q in p.name.lower()]
    return by_name + [p for p in PLACES if p not in by_name and q in p.subtitle.lower()]


def _opener(state: MapsState, host: Host, place: Place) -> Handler:
    def open_place() -> None:
        host.focus(None)
        state.place = place
    return open_place


def _filler(state: MapsState, text: str) -> Handler:
    def fill() -> None:
        state.query.text = text
        state.results.offset = 0
    return fill


def card_width(host: Host) -> int:
    """How wide the sheet and the place card are: the screen's width in portrait, and in
    landscape a card at the left side as wide as the portrait screen, where the list's rows lie
    (`lists.TABLE_X`); landscape Maps keeps its card at the side, never across the map."""
    return min(host.facts.width, host.facts.height)


def _sheet(state: MapsState, host: Host) -> Node:
    f = host.facts
    span = card_width(host)
    query = state.query
    raised = query.focused or bool(query.text)
    top = RAISED_TOP if raised else f.height - COLLAPSED_HEIGHT
    width = span - 32 - (74 if raised else 0)
    kids = [layout.search_field(query, Rect(16, top + 14, width, 40), name="Search Maps")]
    if raised:
        def cancel() -> None:
            query.text = ""
            host.focus(None)

        kids.append(layout.button("Cancel", Rect(16 + width + 8, top + 14, 66, 40), cancel))
        viewport = above_keyboard(f, Rect(0, top + 64, span, f.height - top - 64),
                                  query.focused)
        if query.text.strip():
            found = tuple(lists.Row(p.name, subtitle=p.subtitle, height=64,
                                     on_tap=_opener(state, host, p))
                          for p in search(query.text))
            sections = [lists.Section(found or (lists.Row("No Results"),))]
        else:
            sections = [lists.Section(tuple(lists.Row(c, on_tap=_filler(state, c))
                                             for c in CATEGORIES), header="Find Nearby")]
        kids.append(lists.table(state.results, viewport, sections, key="results",
                                frame=lists.under_bars(f, top, span)))
    return Node("Other", Rect(0, top, span, f.height - top), name="Sheet",
                children=tuple(kids))


def _card(state: MapsState, host: Host, place: Place) -> Node:
    f = host.facts
    span = card_width(host)
    top = max(RAISED_TOP, f.height - PLACE_CARD_HEIGHT)

    def close() -> None:
        state.place = None

    return Node("Other", Rect(0, top, span, f.height - top), name=place.name, children=(
        layout.text(place.name, Rect(16, top + 20, span - 90, 34), header=True),
        layout.button("Close", Rect(span - 60, top + 20, 44, 44), close),
        layout.text(place.subtitle, Rect(16, top + 58, span - 32, 20)),
        # Routing needs a route planner the simulator does not have.
        layout.button("Directions", Rect(16, top + 100, 170, 50), None, enabled=False),
    ))


def render(state: MapsState, host: Host) -> Node:
    """The map, with the search sheet or the open place's card over it."""
    f = host.facts
    world = Node("Map", Rect(0, 0, f.width, f.height))
    front = _card(state, host, state.place) if state.place else _sheet(state, host)
    return layout.screen(f, [world, front], key="maps")


def on_url(state: MapsState, host: Host, url: str) -> None:
    """A Maps link (maps://?q=coffee, https://maps.apple.com/?q=coffee): the search for its
    `q` shows its results, as Maps opens such a link; without one, the map as it was."""
    query = urls.maps_query(url)
    if query:
        host.focus(None)
        state.place = None
        _filler(state, query)()


APP = register(AppModel(BUNDLE_ID, "Maps", MapsState, render, rotates=True, on_url=on_url,
                        url_schemes=("maps",)))
