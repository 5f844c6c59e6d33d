"""App Store: five tabs, searching the catalogue, and Get that never downloads anything."""

from __future__ import annotations

import pytest
import wda
from lxml import etree

APP_STORE = "com.apple.AppStore"


@pytest.fixture
def store(client: wda.Client) -> wda.Client:
    """A session on a freshly launched App Store."""
    return client.session(APP_STORE)


def cells(session: wda.Client) -> list[str]:
    root = etree.fromstring(session.source().encode())
    return [c.get("name") for c in root.iter("XCUIElementTypeCell")]


def icons(client: wda.Client) -> set[str]:
    root = etree.fromstring(client.source().encode())
    return {e.get("label") for e in root.iter("XCUIElementTypeIcon")}


def test_opens_on_today_with_the_date(store):
    tabs = [b.label for b in store(xpath="//XCUIElementTypeTabBar/*").find_elements()]
    assert tabs == ["Today", "Games", "Apps", "Arcade", "Search"]
    assert store(className="Button", label="Today").get(timeout=1).value == "1"
    assert store(label="TUESDAY, JANUARY 9").exists and store(label="APP OF THE DAY").exists


def test_tabs_list_their_apps(store):
    store(className="Button", label="Games").click()
    assert "Pocket Planets" in cells(store) and "Focus Flow" not in cells(store)
    store(className="Button", label="Apps").click()
    assert "Focus Flow" in cells(store) and "Pocket Planets" not in cells(store)


def test_get_asks_to_sign_in_and_installs_nothing(store, client):
    client.home()
    before = icons(client)
    store.app_activate(APP_STORE)
    store(className="Button", label="Apps").click()
    store(name="Get Focus Flow").click()
    assert store.alert.exists and store.alert.buttons() == ["Not Now"]
    store(name="Get Budget Buddy").click()  # the alert blocks the list behind it
    store.alert.click("Not Now")
    assert not store.alert.exists
    client.home()
    assert icons(client) == before


def test_search_filters_the_catalogue(store):
    store(className="Button", label="Search").click()
    assert "chess" in cells(store)
    store(className="SearchField").click()
    store.send_keys("map")
    assert cells(store) == ["Trail Map Pro"]
    store.send_keys("\b\b\bzzz")
    assert cells(store) == ["No Results"]
    store(name="Cancel").click()
    store(className="Cell", name="sleep").click()  # a suggestion searches for itself
    assert cells(store) == ["Sleep Tides"]
