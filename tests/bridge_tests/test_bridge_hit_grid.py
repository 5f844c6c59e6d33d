"""The bridge's hit test against the simulator's: over a grid of points on screens where a bar,
the keyboard, a panel or an alert lies over a list, the element `node_at` names is one the
simulator's tap passes through (`phoneshell.sim.touch_paths.hit_path`); the phone hands such
touches to what lies on top, and a log naming the row under it records a tap that never reached
it."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import pytest
import wda

from bridge.targets import node_at
from phoneshell.sim.apps import builtin_apps
from phoneshell.sim.apps.clock_world import CITIES
from phoneshell.sim.server import SimServer
from phoneshell.sim.source import to_json
from phoneshell.sim.touch_paths import hit_path
from phoneshell.sim.ui import Node

CONTAINERS = ("Other", "Window", "Application")
"""Types the simulator lets touches fall through; the bridge may name one where no element lies
(nothing there takes the touch, and an unnamed container is what the source shows). Never a
list: every list lies under its bars (`lists.under_bars`), a page sheet's too (its header is a
navigation bar), so where a bar covers a list the bar takes the touch, and the bridge must not
name the list beneath."""
PASSED_THROUGH = ("CapsuleNavigationBar",)
"""Named panels the simulator lets touches through on their blank space while the bridge names
them: Safari's address capsule over the start page. On a phone the bar takes those touches, so
the bridge's answer is the phone's; the simulator's bar is a plain container (noted for sim/)."""


@pytest.fixture
def sim() -> Iterator[tuple[SimServer, wda.Client]]:
    server = SimServer(port=0).start()
    try:
        yield server, wda.Client(server.url)
    finally:
        server.stop()


def _same(found: Mapping[str, object], node: Node) -> bool:
    r, f = found.get("rect"), node.frame
    return (found.get("type") == node.type and found.get("name") == node.name
            and found.get("label") == node.label
            and r == {"x": f.x, "y": f.y, "width": f.width, "height": f.height})


def _misses(server: SimServer, bottom: int = 860, across: int = 14) -> list[str]:
    """Where the bridge and the simulator disagree, over points 6 pt apart down the screen
    and `across` pt apart along it."""
    with server.lock:
        screen = server.phone.screen()
        tree, root = to_json(screen), screen.root
    wrong = []
    for y in range(50, bottom, 6):
        for x in range(5, 400, across):
            found, path = node_at(tree, x, y), hit_path(root, x, y)
            if found is None or any(_same(found, n) for n in path):
                continue
            if found.get("type") in CONTAINERS and not (found.get("name") or found.get("label")):
                continue
            if found.get("name") in PASSED_THROUGH:
                continue
            wrong.append(f"({x},{y}) bridge {found.get('type')} {found.get('label')!r}, sim "
                         f"{[(n.type, n.label or n.name) for n in path[-2:]]}")
    return wrong


@pytest.mark.slow  # a grid of every point of a screen, about ten seconds: CI runs it
def test_a_row_scrolled_under_the_navigation_bar_is_not_what_a_tap_on_the_bar_names(
        sim: tuple[SimServer, wda.Client]) -> None:
    server, client = sim
    s = client.session("com.apple.Preferences")
    s(label="General").click()
    s.swipe(200, 500, 200, 460, 0.2)  # About (y 93-146) slides under the bar (y 62-116)
    assert _misses(server) == []


@pytest.mark.slow  # a grid of every point of a screen, about ten seconds: CI runs it
def test_the_keyboard_takes_the_touches_over_the_search_results(
        sim: tuple[SimServer, wda.Client]) -> None:
    server, client = sim
    s = client.session("com.apple.Preferences")
    s(label="Search").click()
    s.send_keys("Display")
    assert _misses(server) == []


@pytest.mark.slow  # a grid of every point of a screen, about ten seconds: CI runs it
def test_safaris_suggestions_panel_takes_the_touches_over_the_start_page(
        sim: tuple[SimServer, wda.Client]) -> None:
    """With something typed, the suggestions cover the favourites: a tap there only cancels."""
    server, client = sim
    s = client.session("com.apple.mobilesafari")
    s(name="TabBarItemTitle").click()
    s.send_keys("app")
    with server.lock:
        found = node_at(to_json(server.phone.screen()), 52, 494)  # the Apple favourite's place
    assert found is not None and found.get("name") == "Suggestions"
    assert _misses(server) == []


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_with_nothing_typed_the_start_pages_favourites_take_their_taps(
        sim: tuple[SimServer, wda.Client]) -> None:
    """A phone shows no suggestions for an empty field: the favourites stay showing and a tap
    opens one, as the log says (an empty opaque panel took it while the log named the cell)."""
    server, client = sim
    s = client.session("com.apple.mobilesafari")
    s(name="TabBarItemTitle").click()
    assert s(label="Cancel", className="XCUIElementTypeButton").exists  # editing
    assert _misses(server) == []
    with server.lock:
        found = node_at(to_json(server.phone.screen()), 52, 494)
    assert found is not None and (found.get("type"), found.get("label")) == ("Cell", "Apple")
    s.tap(52, 494)
    assert s(className="XCUIElementTypeWebView").exists


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_a_menus_full_screen_layer_takes_the_touches_around_it(
        sim: tuple[SimServer, wda.Client]) -> None:
    """Safari's More menu: a tap on the page's link beside it only closes the menu."""
    server, client = sim
    s = client.session("com.apple.mobilesafari")
    s._session_http.post("/url", {"url": "https://example.com"})
    s(label="More", className="XCUIElementTypeButton").get(timeout=3).click()
    assert _misses(server) == []


@pytest.mark.slow  # a whole program of seconds: CI runs it, the README's command stays quick
def test_an_action_sheets_backdrop_takes_the_touches_around_it(
        sim: tuple[SimServer, wda.Client]) -> None:
    """Notes' action sheet over a note: a tap on the back button beside it closes the sheet."""
    server, client = sim
    s = client.session("com.apple.mobilenotes")
    s(className="XCUIElementTypeCell").get(timeout=3).click()
    s(label="More", className="XCUIElementTypeButton").get(timeout=3).click()
    assert _misses(server) == []


def _choose_city(s: wda.Client) -> None:
    s(label="World Clock").get(timeout=3).click()
    s(label="Add").get(timeout=3).click()


def _add_alarm(s: wda.Client) -> None:
    s(label="Alarms").get(timeout=3).click()
    s(label="Add").get(timeout=3).click()


def _new_reminder(s: wda.Client) -> None:
    s(label="New Reminder", className="XCUIElementTypeButton").get(timeout=3).click()


def _reminders_list_page(s: wda.Client) -> None:
    _new_reminder(s)
    s(label="List, Reminders").get(timeout=3).tap()


SHEETS = {  # a page sheet: its app, how to open it, how far down the keyboard leaves it
    "city chooser": ("com.apple.mobiletimer", _choose_city, 560),
    "Add Alarm": ("com.apple.mobiletimer", _add_alarm, 860),
    "New Reminder": ("com.apple.reminders", _new_reminder, 560),
    "New Reminder's List page": ("com.apple.reminders", _reminders_list_page, 860),
}


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
@pytest.mark.parametrize("sheet", sorted(SHEETS))
def test_a_page_sheets_bar_and_dimmed_screen_take_the_touches_on_them(
        sim: tuple[SimServer, wda.Client], sheet: str) -> None:
    """A tap on the dimmed screen above a sheet does nothing, and the log names no control
    beneath it (what a modal covers is reported not visible); one on the sheet's bar is the
    bar's, never the list's under it (a sheet's list spans it from its top)."""
    server, client = sim
    bundle, opener, bottom = SHEETS[sheet]
    opener(client.session(bundle))
    assert _misses(server, bottom=bottom) == []


def test_the_bridge_names_the_bar_over_a_row_scrolled_under_a_sheets_header(
        sim: tuple[SimServer, wda.Client]) -> None:
    """The city chooser's list scrolls its cities under the sheet's bar: a touch on the bar
    beside the search field, with a showing row beneath, is named as the bar, as the
    simulator hands it to the bar."""
    server, client = sim
    s = client.session("com.apple.mobiletimer")
    _choose_city(s)
    s.swipe(200, 500, 200, 300, 0.3)
    with server.lock:
        screen = server.phone.screen()
        tree, root = to_json(screen), screen.root
    bar = s(className="XCUIElementTypeNavigationBar", name="Choose a City.").get(timeout=3)
    field = s(className="XCUIElementTypeSearchField").get(timeout=3).bounds
    y = (field.y + field.height + bar.bounds.y + bar.bounds.height) // 2  # under the field
    x = 200
    row = next(c for c in s(className="XCUIElementTypeCell").find_elements()
               if c.visible and c.bounds.y <= y < c.bounds.y + c.bounds.height)
    assert row.label in CITIES  # a showing city lies under the bar there
    found = node_at(tree, x, y)
    assert found is not None
    assert (found.get("type"), found.get("name")) == ("NavigationBar", "Choose a City.")
    assert [(n.type, n.name) for n in hit_path(root, x, y)[-1:]] == \
        [("NavigationBar", "Choose a City.")]


FIRST_SCREENS = sorted(app.bundle_id for app in builtin_apps())
"""Every app, on the screen it opens on: content laid in a bar's frame (App Store's date,
RT136-1) or a list cut by something that is no bar (Weather's header, RT136-2) shows only on
screens nobody listed, so the grid covers them all."""


@pytest.mark.slow  # about a minute over every app (15 before node_at read each tree once)
@pytest.mark.parametrize("bundle", FIRST_SCREENS)
def test_every_apps_first_screen_scrolled_is_hit_as_the_bridge_names_it(
        sim: tuple[SimServer, wda.Client], bundle: str) -> None:
    """Unscrolled, then scrolled 30 pt (a large title half collapsed) and 120 pt (rows under
    the collapsed bar), every grid point names one of the elements the simulator's touch
    passes through. Points 6 pt apart down the screen (a band is a few points tall), 42 along
    it (what lies under a bar spans the width)."""
    server, client = sim
    s = client.session(bundle)
    wrong = []
    for scrolled, more in ((0, 0), (30, 30), (120, 90)):
        if more:
            s.swipe(200, 600, 200, 600 - more, 0.3)
        wrong += [f"{scrolled}: {miss}" for miss in _misses(server, across=42)]
    assert wrong == []


@pytest.mark.slow  # a grid of every point of a screen, seconds: CI runs it
def test_the_keyboards_blank_strip_is_the_keyboards(
        sim: tuple[SimServer, wda.Client]) -> None:
    """Spotlight's keyboard: the strip between the globe and dictation, and the gaps between
    keys, are the Keyboard's for the simulator as for the bridge (RT136-3: the simulator
    passed them to the window beneath)."""
    server, client = sim
    client.home()
    s = client.session()
    s.swipe(201, 300, 201, 620, 0.3)
    assert _misses(server, across=7) == []
    with server.lock:
        root = server.phone.screen().root
    assert [n.type for n in hit_path(root, 120, 830)][-1] == "Keyboard"


@pytest.mark.slow  # a grid of a screen, seconds: CI runs it
def test_a_weather_row_scrolled_into_the_places_header_is_no_ones(
        sim: tuple[SimServer, wda.Client]) -> None:
    """RT136-2: after a 200 pt swipe the first day's row runs 5 pt up into the place's header;
    the bridge named the row there while the simulator's list, cut by the header, took
    nothing. The header is no bar: the list starts under it, for both."""
    server, client = sim
    s = client.session("com.apple.weather")
    s.swipe(200, 700, 200, 500, 0.3)
    assert _misses(server, across=42) == []
