"""SpringBoard's Spotlight: what it lists for a query (apps, then Settings pages) and opens.

A real iOS 26 phone lists Settings pages in Spotlight as well as apps: typing "Bluetooth" shows
Settings > Bluetooth as a result, and tapping it opens Settings on that page (inferred from how
Spotlight shows them, no page source at hand: the rows' names, the "Settings" header and the
trail under each title are this model's). An agent that reaches a Settings page through
Spotlight ends where one that taps through Settings does; the checks that ask for the way
(`tapped` on a page, `opened_from_search` in Settings' own field) tell them apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from phoneshell.sim import layout
from phoneshell.sim.apps import AppModel, Host
from phoneshell.sim.apps import settings as prefs
from phoneshell.sim.apps.settings_pages import PAGES
from phoneshell.sim.apps.settings_rows import Page
from phoneshell.sim.ui import EditText, Handler, Node, Rect

ROWS = 6
"""Results listed at most, apps and pages together (the rest is under the keyboard)."""


def matches(apps: Sequence[AppModel[Any]], query: str) -> list[AppModel[Any]]:
    """Apps Spotlight lists for a query: the name or one of its words starts with it."""
    q = query.strip().lower()
    return [a for a in apps if a.home_icon and q and _starts(a.name, q)]


def settings_pages(host: Host, query: str) -> list[Page]:
    """Settings pages Spotlight lists for a query, as Settings names them on this phone: the
    title or one of its words starts with it (none when Settings is not installed)."""
    q = query.strip().lower()
    if not q or not any(a.bundle_id == prefs.BUNDLE_ID for a in host.apps()):
        return []
    spell = host.facts.conventions.spell
    return [p for p in PAGES.values() if p.id != prefs.ROOT
            and (_starts(spell(p.title), q) or _starts(p.title, q))]


def _starts(name: str, q: str) -> bool:
    name = name.lower()
    return name.startswith(q) or any(word.startswith(q) for word in name.split())


def open_top_hit(host: Host, query: str) -> None:
    """Return in Spotlight's field: open the first result, an app before a page."""
    found, pages = matches(host.apps(), query), settings_pages(host, query)
    if found:
        host.launch(found[0].bundle_id)
    elif pages:
        _page_opener(host, pages[0].id)()


def _app_opener(host: Host, bundle_id: str) -> Handler:
    return lambda: host.launch(bundle_id)


def _page_opener(host: Host, page_id: str) -> Handler:
    def open_page() -> None:
        host.launch(prefs.BUNDLE_ID)
        settings = host.running_state(prefs.BUNDLE_ID)
        if isinstance(settings, prefs.SettingsState):
            prefs.open_page(settings, host, page_id)
    return open_page


def _result(frame: Rect, title: str, kind: str, on_tap: Handler) -> Node:
    """One result row: a Cell named by its title, its kind ("Application", the page's trail)
    under it."""
    return Node("Cell", frame, label=title, name=title, traits="Button", on_tap=on_tap,
                children=(layout.wrap(Node("Other", frame, children=(
                    layout.text(title, Rect(32, frame.y + 9, 300, 22), accessible=False),
                    layout.text(kind, Rect(32, frame.y + 33, 300, 18), accessible=False))), 1),))


def results(host: Host, query: EditText) -> list[Node]:
    """What Spotlight shows under its field for the query typed: the apps under
    "Applications", then the Settings pages under "Settings", else "No Results"."""
    found, pages = matches(host.apps(), query.text), settings_pages(host, query.text)
    spell = host.facts.conventions.spell
    kids: list[Node] = []
    y = 120
    if found:
        kids.append(layout.text("Applications", Rect(20, y, 120, 20), header=True))
        for app in found[:ROWS]:
            kids.append(_result(Rect(16, y + 30, 370, 60), app.name, "Application",
                                _app_opener(host, app.bundle_id)))
            y += 60
        y += 40
    room = ROWS - min(len(found), ROWS)
    if pages and room:
        kids.append(layout.text("Settings", Rect(20, y, 120, 20), header=True))
        for page in pages[:room]:
            trail = " > ".join(spell(PAGES[p].title) for p in prefs.trail(page.id)[:-1])
            kids.append(_result(Rect(16, y + 30, 370, 60), spell(page.title), trail,
                                _page_opener(host, page.id)))
            y += 60
    if not kids:
        kids.append(layout.text("No Results", Rect(150, 200, 102, 22)))
    return kids
