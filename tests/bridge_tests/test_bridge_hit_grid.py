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
from phoneshell.sim.server import SimServer
from phoneshell.sim.source import to_json
from phoneshell.sim.touch_paths import hit_path
from phoneshell.sim.ui import Node

CONTAINERS = ("Other", "Window", "Application", "Table", "CollectionView")
"""Types the simulator lets touches fall through; the bridge may name one where no element lies
(nothing there takes the touch, and an unnamed container is what the source shows). A list lies
under its bars (`lists.under_bars`): where a bar's blank part covers it (a page sheet's header,
which the simulator draws as text, a field and a button, no bar), the simulator gives the touch
to the blank, and the bridge, reading the tree, may name the unnamed list beneath: no control
either way."""
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


def _misses(server: SimServer, bottom: int = 860) -> list[str]:
    with server.lock:
        screen = server.phone.screen()
        tree, root = to_json(screen), screen.root
    wrong = []
    for y in range(50, bottom, 6):
        for x in range(5, 400, 14):
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


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_a_page_sheets_dimmed_screen_takes_the_touches_above_it(
        sim: tuple[SimServer, wda.Client]) -> None:
    """Clock's city chooser: a tap on the dimmed Edit button above the sheet does nothing, and
    the log names no control beneath it: what a modal covers is reported not visible."""
    server, client = sim
    s = client.session("com.apple.mobiletimer")
    s(label="World Clock").get(timeout=3).click()
    s(label="Add").get(timeout=3).click()
    assert _misses(server, bottom=560) == []  # above the keyboard the search field brings
