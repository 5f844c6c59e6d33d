"""The App Switcher and the App Library, as a Face ID iPhone shows them (red team 115, RT115-4).

The red team's honest agent swiped up from the bottom edge and paused, as people do to switch
apps, and landed on the home screen; it swiped left past the last home page and saw nothing.
Driven with the unmodified facebook-wda client (and W3C actions) over HTTP to the simulator.
"""

from __future__ import annotations

import pytest
import requests
import wda

from phoneshell.sim import SimServer

CALC, WEATHER, NOTES = "com.apple.calculator", "com.apple.weather", "com.apple.mobilenotes"
SPRINGBOARD = "com.apple.springboard"
RUNNER = "com.facebook.WebDriverAgentRunner.xctrunner"
RUNNER_NAME = "WebDriverAgentRunner-Runner"


def _front(client: wda.Client) -> str:
    return str(client.app_current()["bundleId"])


def _open(client: wda.Client, *bundles: str) -> wda.Client:
    app = client.session()
    for bundle in bundles:
        app.app_activate(bundle)
    return app


def _up_and_pause(app: wda.Client) -> None:
    """Up from the home indicator to mid-screen, held first (facebook-wda's swipe duration)."""
    size = app.window_size()
    app.swipe(size.width // 2, size.height - 4, size.width // 2, size.height // 2, 0.5)


def _cards(app: wda.Client) -> list[wda.Element]:
    return [e for e in app(nameContains="card:", visible=True).find_elements()]


def _labels(app: wda.Client) -> list[str]:
    """The cards showing, right to left: newest first."""
    return [c.label for c in sorted(_cards(app), key=lambda c: -c.bounds.x)]


def test_a_held_swipe_up_shows_the_switcher_newest_first_and_a_card_opens_its_app(
        sim: SimServer) -> None:
    client = wda.Client(sim.url)
    app = _open(client, WEATHER, CALC)
    app(name="7").click()
    _up_and_pause(app)
    assert _front(client) == SPRINGBOARD  # activeAppInfo: SpringBoard while it shows
    cards = _cards(app)
    # WDA's runner, started before any app, has the oldest card, as on a phone under WDA
    assert _labels(app) == ["Calculator", "Weather", RUNNER_NAME]
    assert app(name="SBSwitcherWindow:Main", visible=True).exists
    newest = next(c for c in cards if c.label == "Calculator")
    app.tap(*newest.bounds.center)
    assert _front(client) == CALC
    assert app(className="StaticText", value="7").exists  # where it was


def test_a_w3c_swipe_up_that_pauses_shows_the_switcher_and_a_quick_one_goes_home(
        sim: SimServer) -> None:
    client = wda.Client(sim.url)
    app = _open(client, CALC)
    height = app.window_size().height

    def swipe(pause_ms: int) -> None:
        chain = [{"type": "pointerMove", "duration": 0, "x": 200, "y": height - 5},
                 {"type": "pointerDown"},
                 {"type": "pointerMove", "duration": 300, "x": 200, "y": height // 2},
                 {"type": "pause", "duration": pause_ms}, {"type": "pointerUp"}]
        app._session_http.post("/actions", data={"actions": [{
            "type": "pointer", "id": "f", "parameters": {"pointerType": "touch"},
            "actions": chain}]})

    swipe(0)
    assert _front(client) == SPRINGBOARD
    assert not _cards(app)  # home, no switcher
    app.app_activate(CALC)
    swipe(600)
    assert _front(client) == SPRINGBOARD
    assert _labels(app) == ["Calculator", RUNNER_NAME]


def test_a_card_swiped_up_closes_its_app_and_the_runners_outlasts_the_last(
        sim: SimServer) -> None:
    client = wda.Client(sim.url)
    app = _open(client, NOTES, CALC)
    app(name="7").click()
    _up_and_pause(app)
    calc = next(c for c in _cards(app) if c.label == "Calculator")
    x, y = calc.bounds.center
    app.swipe(x, y, x, 60)
    assert app.app_state(CALC)["value"] == 1  # closed, as a terminate leaves it
    assert _labels(app) == ["Notes", RUNNER_NAME]
    notes = next(c for c in _cards(app) if c.label == "Notes")
    x, y = notes.bounds.center
    app.swipe(x, y, x, 60)
    assert _labels(app) == [RUNNER_NAME], "the switcher stays up on WDA's runner's card"
    app.press("home")
    assert not _cards(app) and app(name="Home screen icons").exists
    app.app_activate(CALC)
    assert not app(className="StaticText", value="7").exists  # it starts afresh


def test_empty_space_the_bottom_edge_and_home_leave_it_for_the_home_screen(
        sim: SimServer) -> None:
    client = wda.Client(sim.url)
    app = _open(client, CALC)
    height = app.window_size().height
    for leave in (lambda: app.tap(200, 60), lambda: app.swipe(200, height - 4, 200, 300),
                  lambda: app.press("home")):
        _up_and_pause(app)
        assert _cards(app)
        leave()
        assert not _cards(app) and app(name="Home screen icons").exists
        assert _front(client) == SPRINGBOARD
    assert app.app_state(CALC)["value"] == 3  # still in the background


def test_the_switcher_turned_to_landscape(sim: SimServer) -> None:
    client = wda.Client(sim.url)
    app = _open(client, WEATHER, CALC)
    app.orientation = "LANDSCAPE"
    _up_and_pause(app)
    size = app.window_size()
    newest = next(c for c in _cards(app) if c.label == "Calculator")
    assert newest.bounds.x >= 0 and newest.bounds.x + newest.bounds.width <= size.width
    app.tap(*newest.bounds.center)
    assert _front(client) == CALC


def _to_library(app: wda.Client) -> None:
    size = app.window_size()
    for _ in range(3):  # past the last home page
        app.swipe(size.width - 20, size.height // 2, 20, size.height // 2)


def test_a_swipe_left_past_the_last_page_shows_the_app_library(sim: SimServer) -> None:
    client = wda.Client(sim.url)
    app = client.session()
    _to_library(app)
    assert _front(client) == SPRINGBOARD
    assert app(className="SearchField", name="App Library").exists
    assert app(className="Other", name="Utilities").exists
    app(className="Icon", name="Compass", visible=True).click()
    assert _front(client) == "com.apple.compass"
    app.press("home")
    assert not app(className="SearchField", name="App Library").exists
    _to_library(app)
    size = app.window_size()
    app.swipe(20, size.height // 2, size.width - 20, size.height // 2)  # back to the last page
    assert not app(className="SearchField", name="App Library").exists
    assert app(className="PageIndicator", value="Page 2 of 2").exists


def test_the_app_library_search_lists_apps_and_a_row_opens_one(sim: SimServer) -> None:
    client = wda.Client(sim.url)
    app = client.session()
    _to_library(app)
    app(className="SearchField", name="App Library").click()
    assert app(className="Cell", name="Books").exists  # the whole list, alphabetically
    app.send_keys("wea")
    assert [c.label for c in app(className="Cell").find_elements()] == ["Weather"]
    app(className="Cell", name="Weather").click()
    assert _front(client) == WEATHER


def test_the_app_librarys_folders_scroll_and_a_full_folder_opens_whole(sim: SimServer) -> None:
    client = wda.Client(sim.url)
    app = client.session()
    _to_library(app)
    assert not app(className="Other", name="Health & Fitness", visible=True).exists
    size = app.window_size()
    app.swipe(size.width // 2, size.height - 150, size.width // 2, 200)
    app(className="Icon", name="Fitness", visible=True).click()
    assert _front(client) == "com.apple.Fitness"
    app.press("home")
    _to_library(app)
    assert not app(className="Icon", name="Voice Memos", visible=True).exists
    app(className="Other", name="Utilities folder").click()  # its cluster of small icons
    app(className="Icon", name="Voice Memos", visible=True).click()
    assert _front(client) == "com.apple.VoiceMemos"


def test_the_runners_card_swiped_up_stops_wda_until_it_is_started_again(
        sim: SimServer) -> None:
    client = wda.Client(sim.url)
    app = _open(client, CALC)
    _up_and_pause(app)
    runner = app(name=f"card:{RUNNER}:sceneID:{RUNNER}-default", visible=True).get(timeout=5)
    assert runner.label == RUNNER_NAME
    app.tap(*runner.bounds.center)  # a tap: the runner's own (empty) screen is not modelled
    assert not _cards(app) and app(name="Home screen icons").exists
    _up_and_pause(app)
    x, y = next(c for c in _cards(app) if c.label == RUNNER_NAME).bounds.center
    app.swipe(x, y, x, 60)  # the answer still goes out; then WDA is gone, as a terminate does
    assert sim.state()["wda_stopped"] is True
    with pytest.raises(requests.ConnectionError):
        requests.get(f"{sim.url}/status", timeout=5)
    sim.start_wda()
    assert client.status()["ready"] is True
    assert app.app_state(CALC)["value"] == 3, "the phone as it was: only WDA had stopped"
