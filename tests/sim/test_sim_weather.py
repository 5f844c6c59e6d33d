"""Weather: My Location's reading, paging between locations, and the searchable locations list."""

from __future__ import annotations

import json
import re

import pytest
import wda
from lxml import etree

from phoneshell.sim import SimServer

WEATHER = "com.apple.weather"


@pytest.fixture
def weather(client: wda.Client) -> wda.Client:
    """A session on a freshly launched Weather."""
    return client.session(WEATHER)


def visible_texts(client: wda.Client) -> list[str]:
    root = etree.fromstring(client.source().encode())
    return [e.get("label") for e in root.iter("XCUIElementTypeStaticText")
            if e.get("visible") == "true"]


def test_opens_on_my_location_with_the_current_temperature(weather, client):
    texts = visible_texts(client)
    assert texts[:5] == ["My Location", "Cupertino", "57°", "Partly Cloudy", "H:61°  L:44°"]
    assert any(re.search(r"\d+\s?°", t) for t in texts)
    assert weather(className="PageIndicator").get(timeout=1).value == "page 1 of 4"


def test_the_forecast_scrolls(weather, client):
    assert weather(className="Cell", name="Today").exists
    assert len(weather(className="Cell", name="Thu").find_elements()) == 1  # the next: far below
    weather.swipe(201, 700, 201, 400)
    assert weather(className="Cell", name="Thu").find_elements()[-1].displayed is True


def test_swiping_sideways_moves_between_locations(weather, client):
    weather.swipe(300, 250, 80, 250)
    assert visible_texts(client)[:2] == ["London", "46°"]
    weather.swipe(80, 250, 300, 250)
    assert visible_texts(client)[0] == "My Location"
    weather.swipe(80, 250, 300, 250)  # already the first page
    assert visible_texts(client)[0] == "My Location"


def test_the_list_searches_and_opens_a_location(weather, client):
    weather(name="List").click()
    cells = [c.label for c in weather(className="Cell").find_elements()]
    assert cells == ["My Location, 57°", "London, 46°", "Tokyo, 41°", "New York, 30°"]
    weather(className="SearchField").click()
    weather.send_keys("tok")
    assert weather(name="Cancel").exists
    assert [c.label for c in weather(className="Cell").find_elements()] == ["Tokyo, 41°"]
    weather(className="Cell", name="Tokyo").click()
    assert visible_texts(client)[:2] == ["Tokyo", "41°"]
    assert not weather(className="Keyboard").exists
    assert weather(className="PageIndicator").get(timeout=1).value == "page 3 of 4"


def test_no_results_for_an_unknown_city(weather):
    weather(name="List").click()
    weather(className="SearchField").click()
    weather.send_keys("Atlantis")
    assert weather(label="No Results").exists
    weather(name="Cancel").click()
    assert weather(className="Cell", name="London").exists


def test_the_reading_is_configurable_through_the_store(tmp_path):
    path = tmp_path / "state.json"
    path.write_text(json.dumps({"version": 1, "stores": {WEATHER: {
        "temperature": 18, "conditions": "Sunny"}}}))
    with SimServer(state_file=path) as sim:
        client = wda.Client(sim.url)
        client.session(WEATHER)
        assert visible_texts(client)[2:4] == ["18°", "Sunny"]
