"""A touch and hold on Safari's Tabs button shows its menu, as a phone's does, never the tab
overview (red team 54, finding 6b: the hold fell back to a tap, so a hold passed
safari.tabs.open_switcher here and not on a phone); its items do what they say."""

from __future__ import annotations

import pytest
import wda
from fidelity import tree_rule_breaks
from lxml import etree

from phoneshell.sim import SimServer

SAFARI = "com.apple.mobilesafari"
PAGES = ("https://example.com/", "https://blolabel.ai/probe/one/")


def tab_urls(sim: SimServer) -> list[str]:
    return [tab["url"] for tab in sim.state()["stores"][SAFARI]["tabs"]]  # type: ignore[index]


def visible(client: wda.Client) -> dict[str, str]:
    """Each visible element's label by its name (or label), in document order."""
    tree = etree.fromstring(client.source().encode())
    return {e.get("name") or e.get("label"): e.get("label") or "" for e in tree.iter()
            if e.get("visible") == "true" and (e.get("name") or e.get("label"))}


@pytest.fixture
def held(sim: SimServer, client: wda.Client) -> wda.Client:
    """Safari with two tabs, its Tabs button held: the menu showing."""
    session = client.session(SAFARI)
    for url in PAGES:
        session.open_url(url)
    session(name="TabOverviewButton").get(timeout=2).tap_hold(1.0)
    return session


def test_a_hold_on_tabs_shows_its_menu_over_the_page_not_the_overview(
        held: wda.Client, client: wda.Client) -> None:
    menu = held(className="Menu").get(timeout=2)
    assert [e.get("label") for e in etree.fromstring(client.source().encode()).find(
        ".//XCUIElementTypeMenu")] == ["New Tab", "New Private Tab", "Close This Tab",
                                        "Close All 2 Tabs"]
    shown = visible(client)
    assert "TabsMenu" in shown and "TabOverview" not in shown and "2 Tabs" not in shown
    # a modal layer, as the link's and the More menu's: the bar beneath is covered
    assert "TabOverviewButton" not in shown and "TabBarItemTitle" not in shown
    assert menu.bounds.y + menu.bounds.height <= held(name="TabOverviewButton").get().bounds.y
    assert tree_rule_breaks(client.source()) == []
    held.tap(60, 200)  # outside it: the menu goes, the page stays
    assert not held(className="Menu").exists
    assert "TabOverviewButton" in visible(client)


def test_a_short_hold_is_still_a_tap_that_opens_the_overview(sim: SimServer,
                                                             client: wda.Client) -> None:
    session = client.session(SAFARI)
    session.open_url(PAGES[0])
    session(name="TabOverviewButton").get(timeout=2).tap_hold(0.2)
    assert session(label="1 Tab", className="Button").exists
    assert not session(className="Menu").exists


def test_new_tab_and_new_private_tab(sim: SimServer, held: wda.Client,
                                     client: wda.Client) -> None:
    held(label="New Tab", className="Button").click()
    assert tab_urls(sim) == [*PAGES, ""]
    assert held(name="TabBarItemTitle").get().value == "Search or enter website"
    held(name="TabOverviewButton").tap_hold(1.0)
    held(label="New Private Tab", className="Button").click()
    assert tab_urls(sim) == [*PAGES, ""], "a private tab is not kept"
    held(name="TabOverviewButton").click()
    assert held(label="Private", className="Button").get().value == "1"
    assert len(etree.fromstring(client.source().encode()).findall(
        ".//XCUIElementTypeCell")) == 1


def test_close_this_tab_closes_the_one_in_front(sim: SimServer, held: wda.Client) -> None:
    held(label="Close This Tab", className="Button").click()
    assert tab_urls(sim) == [PAGES[0]]
    assert held(label="Example Domain", className="StaticText").exists


def test_close_all_closes_every_tab_and_leaves_a_blank_one(sim: SimServer,
                                                           held: wda.Client) -> None:
    held(label="Close All 2 Tabs", className="Button").click()
    assert tab_urls(sim) == [""]
    held(name="TabOverviewButton").tap_hold(1.0)
    assert held(label="Close All 1 Tab", className="Button").exists
