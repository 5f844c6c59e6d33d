"""A touch and hold on a navigation bar's back button shows its history menu, as iOS 14 and
later do, and goes nowhere (red team 118, RT118-3: the hold fell back to a tap and went back a
page here, so an agent learned "hold = back" that a phone does not honour); choosing an item goes
back to its page at once, and a tap outside closes the menu."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import wda
from fidelity import tree_rule_breaks
from lxml import etree

SETTINGS = "com.apple.Preferences"
Go = Callable[[wda.Client], None]


def visible_bars(client: wda.Client) -> list[str]:
    """The names of the navigation bars reported visible."""
    tree = etree.fromstring(client.source().encode())
    return [e.get("name") or "" for e in tree.iter("XCUIElementTypeNavigationBar")
            if e.get("visible") == "true"]


def on_about(client: wda.Client) -> wda.Client:
    """Settings > General > About."""
    session = client.session(SETTINGS)
    session(label="General").get(timeout=2).click()
    session(label="About").get(timeout=2).click()
    assert visible_bars(client) == ["About"]
    return session


def menu_labels(client: wda.Client) -> list[str]:
    tree = etree.fromstring(client.source().encode())
    menu = tree.find(".//XCUIElementTypeMenu")
    return [] if menu is None else [e.get("label") or "" for e in menu]


def test_a_hold_on_back_shows_the_pages_behind_nearest_first_and_stays(
        client: wda.Client) -> None:
    session = on_about(client)
    session(name="BackButton").get(timeout=2).tap_hold(1.2)
    assert menu_labels(client) == ["General", "Settings"]
    # the page stays, covered by the menu (its bar reported not visible)
    assert visible_bars(client) == []
    assert session(className="NavigationBar", name="About").exists
    assert tree_rule_breaks(client.source()) == []
    session.tap(300, 700)  # outside the menu: it closes, About stays
    assert menu_labels(client) == []
    assert visible_bars(client) == ["About"]


def test_choosing_an_item_goes_back_to_its_page_at_once(client: wda.Client) -> None:
    session = on_about(client)
    session(name="BackButton").get(timeout=2).tap_hold(1.2)
    session(className="Button", label="Settings").get(timeout=2).click()
    assert menu_labels(client) == []
    assert session(className="SearchField").exists  # the main list's search field
    session(label="General").get(timeout=2).click()
    session(label="About").get(timeout=2).click()
    session(name="BackButton").get(timeout=2).tap_hold(1.0)
    # the back button, covered, is labelled "General" too: the menu's item is the one inside it
    session(xpath='//XCUIElementTypeMenu/*[@label="General"]').get(timeout=2).click()
    assert visible_bars(client) == ["General"]


def test_a_hold_on_a_one_deep_page_lists_its_one_page(client: wda.Client) -> None:
    session = client.session(SETTINGS)
    session(label="General").get(timeout=2).click()
    session(name="BackButton").get(timeout=2).tap_hold(1.0)
    assert menu_labels(client) == ["Settings"]
    assert session(className="NavigationBar", name="General").exists


def _files_deep(s: wda.Client) -> None:
    s(className="Button", label="Browse").click()
    s(className="Cell", label="iCloud Drive").get(timeout=2).click()
    s(className="Cell", label="Documents").get(timeout=2).click()


def _reminders_list(s: wda.Client) -> None:
    s(className="Cell", name="Reminders").get(timeout=2).click()


def _books_page(s: wda.Client) -> None:
    s(className="Button", label="Search").click()
    s(className="SearchField").click()
    s.send_keys("moby")
    s(className="Cell", label="Moby Dick").get(timeout=2).click()


def _notes_list(s: wda.Client) -> None:
    """Notes opens on its notes list, pushed over Folders."""


@pytest.mark.parametrize(("bundle", "go", "page", "items", "after"), [
    ("com.apple.DocumentsApp", _files_deep, "Documents", ["iCloud Drive", "Browse"], "Browse"),
    ("com.apple.reminders", _reminders_list, "Reminders", ["Lists"], "Lists"),
    ("com.apple.iBooks", _books_page, "Moby Dick", ["Search"], "Search"),
    ("com.apple.mobilenotes", _notes_list, "Notes", ["Folders"], "Folders"),
], ids=lambda v: v if isinstance(v, str) and v.startswith("com.") else "")
def test_every_apps_back_button_holds_its_menu(client: wda.Client, bundle: str, go: Go,
                                               page: str, items: list[str],
                                               after: str) -> None:
    session = client.session(bundle)
    go(session)
    session(name="BackButton").get(timeout=2).tap_hold(1.0)
    assert menu_labels(client) == items
    assert session(className="NavigationBar", name=page).exists  # still there, covered
    assert tree_rule_breaks(client.source()) == []
    session(xpath=f'//XCUIElementTypeMenu/*[@label="{items[-1]}"]').get(timeout=2).click()
    assert menu_labels(client) == []
    assert visible_bars(client) == [after]


def _contact_card(s: wda.Client) -> None:
    s(className="Cell").get(timeout=2).click()


def _calendar_day(s: wda.Client) -> None:
    """Calendar opens on a day, under its month."""


def _a_note(s: wda.Client) -> None:
    s(className="Cell").get(timeout=2).click()


@pytest.mark.parametrize(("bundle", "go", "item"), [
    ("com.apple.MobileAddressBook", _contact_card, "Contacts"),
    ("com.apple.mobilecal", _calendar_day, None),
    ("com.apple.mobilenotes", _a_note, "Notes"),
], ids=lambda v: v if isinstance(v, str) and v.startswith("com.") else "")
def test_a_bar_an_app_draws_itself_holds_its_menu_too(client: wda.Client, bundle: str,
                                                      go: Go, item: str | None) -> None:
    session = client.session(bundle)
    go(session)
    back = session(name="BackButton").get(timeout=2)
    label = item or str(back.label)
    before = [e.get("name") for e in etree.fromstring(client.source().encode()).iter(
        "XCUIElementTypeNavigationBar")]
    back.tap_hold(1.0)
    assert menu_labels(client) == [label]
    session.tap(300, 700)  # outside: closed, nothing went back
    assert menu_labels(client) == []
    assert session(name="BackButton").get(timeout=2).label == label
    assert [e.get("name") for e in etree.fromstring(client.source().encode()).iter(
        "XCUIElementTypeNavigationBar")] == before
    session(name="BackButton").tap_hold(1.0)
    session(xpath=f'//XCUIElementTypeMenu/*[@label="{label}"]').get(timeout=2).click()
    assert not session(name="BackButton").exists or \
        session(name="BackButton").get(timeout=2).label != label


def test_a_page_in_a_sheet_holds_its_menu_over_the_sheet(client: wda.Client) -> None:
    session = client.session("com.apple.reminders")
    session(label="New Reminder", className="Button").get(timeout=2).tap()
    session(label="List, Reminders").get(timeout=2).tap()
    session(name="BackButton").get(timeout=2).tap_hold(1.0)
    assert menu_labels(client) == ["New Reminder"]
    assert tree_rule_breaks(client.source()) == []
    session(xpath='//XCUIElementTypeMenu/*[@label="New Reminder"]').get(timeout=2).click()
    assert menu_labels(client) == []
    assert session(label="List, Reminders").exists  # the sheet's own page again
