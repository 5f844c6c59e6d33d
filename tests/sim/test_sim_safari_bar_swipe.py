"""Safari's bottom bar is a handle, as on every iPhone since iOS 15 with the tab bar (red team
122, RT122-1): a swipe up that starts on the address capsule shows the tab overview, whatever its
speed, and a swipe along it brings the next or previous tab. A swipe up anywhere else does not:
on the page it scrolls, from the bottom edge (the home indicator) it goes home, and over a menu
the menu takes it."""

from __future__ import annotations

import pytest
import wda
from lxml import etree

from phoneshell.sim import SimServer

SAFARI = "com.apple.mobilesafari"
PAGES = ("https://example.com/", "https://blolabel.ai/probe/one/")


def overview_up(session: wda.Client) -> bool:
    """Whether the tab overview shows (its group button, "N Tabs", which shows nowhere else)."""
    return session(name="TabGroupsButton").exists


def address(client: wda.Client) -> str:
    tree = etree.fromstring(client.source().encode())
    field = tree.find(".//XCUIElementTypeTextField[@name='TabBarItemTitle']")
    assert field is not None
    return field.get("value") or ""


def active(sim: SimServer) -> int:
    return int(sim.state()["stores"][SAFARI]["active"])  # type: ignore[index, call-overload]


@pytest.fixture
def two_tabs(sim: SimServer, client: wda.Client) -> wda.Client:
    """Safari showing the second of two tabs (each page opened from outside: a tab each)."""
    session = client.session(SAFARI)
    for url in PAGES:
        session.open_url(url)
    assert active(sim) == 1
    return session


@pytest.mark.parametrize("duration_s", [0.0, 0.1, 0.3, 0.6])
def test_a_swipe_up_on_the_address_shows_the_overview_at_any_speed(
        two_tabs: wda.Client, duration_s: float) -> None:
    bounds = two_tabs(name="TabBarItemTitle").get(timeout=2).bounds
    x, y = bounds.x + bounds.width // 2, bounds.y + bounds.height // 2
    two_tabs.swipe(x, y, x, y - 250, duration_s)
    assert overview_up(two_tabs)
    assert two_tabs(label="2 Tabs", className="Button").exists


def test_on_the_start_page_and_from_the_capsule_beside_the_address(
        client: wda.Client) -> None:
    session = client.session(SAFARI)  # a fresh phone: one blank tab, its start page
    assert not overview_up(session)
    capsule = session(nameContains="CapsuleNavigationBar?").get(timeout=2).bounds
    x, y = capsule.x + 6, capsule.y + capsule.height // 2  # left of the address, no button
    session.swipe(x, y, x + 10, y - 40, 0.1)  # a short flick, a little aslant
    assert session(label="1 Tab", className="Button").exists


@pytest.mark.parametrize("start", ["page", "home_indicator", "beside_the_capsule", "short"])
def test_a_swipe_up_elsewhere_does_not_show_it(sim: SimServer, two_tabs: wda.Client,
                                               start: str) -> None:
    capsule = two_tabs(nameContains="CapsuleNavigationBar?").get(timeout=2).bounds
    cx, cy = capsule.x + capsule.width // 2, capsule.y + capsule.height // 2
    x, y, up = {"page": (cx, 600, 300), "home_indicator": (cx, 860, 300),
                "beside_the_capsule": (capsule.x + capsule.width + 2, cy, 250),
                "short": (cx, cy, 20)}[start]
    two_tabs.swipe(x, y, x, y - up, 0.2)
    assert not overview_up(two_tabs)
    front = sim.state()["foreground"]
    assert front == ("com.apple.springboard" if start == "home_indicator" else SAFARI)


def test_over_a_menu_the_menu_takes_it(two_tabs: wda.Client) -> None:
    two_tabs(name="MoreMenuButton").get(timeout=2).click()
    assert two_tabs(className="Menu").exists
    bounds = two_tabs(name="TabBarItemTitle").get().bounds
    x, y = bounds.x + bounds.width // 2, bounds.y + bounds.height // 2
    two_tabs.swipe(x, y, x, y - 250, 0.2)
    assert not overview_up(two_tabs)


def test_a_swipe_along_the_bar_brings_the_tab_beside(sim: SimServer, two_tabs: wda.Client,
                                                     client: wda.Client) -> None:
    bounds = two_tabs(name="TabBarItemTitle").get(timeout=2).bounds
    x, y = bounds.x + bounds.width // 2, bounds.y + bounds.height // 2
    assert address(client).endswith("blolabel.ai")
    two_tabs.swipe(x - 60, y, x + 60, y, 0.2)  # right: the tab before
    assert active(sim) == 0 and address(client).endswith("example.com")
    two_tabs.swipe(x - 60, y, x + 60, y, 0.2)  # none before the first: it springs back
    assert active(sim) == 0 and not overview_up(two_tabs)
    two_tabs.swipe(x + 60, y, x - 60, y, 0.2)  # left: the tab after
    assert active(sim) == 1 and address(client).endswith("blolabel.ai")
    two_tabs.swipe(x + 20, y, x - 20, y, 0.2)  # too short a way: it springs back
    assert active(sim) == 1
