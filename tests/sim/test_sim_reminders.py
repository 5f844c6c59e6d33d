"""Reminders: lists, adding a reminder with New Reminder, completing one, and the store."""

from __future__ import annotations

import pytest
import wda
from lxml import etree

from phoneshell.sim import SimServer

REMINDERS = "com.apple.reminders"


@pytest.fixture
def reminders(client: wda.Client) -> wda.Client:
    """A session on a freshly launched Reminders."""
    return client.session(REMINDERS)


def titles(client: wda.Client, visible_only: bool = False) -> list[str]:
    """The reminder titles in the open list, in order (each cell's first text)."""
    root = etree.fromstring(client.source().encode())
    firsts = [cell.find(".//XCUIElementTypeStaticText")
              for cell in root.iter("XCUIElementTypeCell")]
    return [t.get("label") for t in firsts
            if t is not None and (not visible_only or t.get("visible") == "true")]


def add(session: wda.Client, text: str) -> None:
    session(name="New Reminder").click()
    session.send_keys(text)


def test_overview_shows_smart_lists_and_my_lists(reminders):
    for name, count in [("Today", "2"), ("Scheduled", "5"), ("All", "23"), ("Flagged", "2"),
                        ("Completed", "1")]:
        assert reminders(className="Button", name=name).get(timeout=1).value == count
    assert reminders(className="Cell", name="Reminders").get(timeout=1).label == "Reminders, 19"
    assert reminders(className="Cell", name="Groceries").get(timeout=1).label == "Groceries, 4"


def test_the_list_is_longer_than_the_screen(reminders, client):
    reminders(className="Cell", name="Reminders").click()
    shown = titles(client)
    # Rows far below the fold have no cell yet (UIKit makes cells near the view only).
    assert len(shown) < 19 and "Sort the recycling" not in shown
    for _ in range(3):
        reminders.swipe_up()
    assert "Sort the recycling" in titles(client, visible_only=True)


def test_new_reminder_is_focused_typed_and_saved_with_return(reminders, client):
    reminders(className="Cell", name="Reminders").click()
    reminders(name="New Reminder").click()
    field = reminders(className="TextField", name="Title").get(timeout=1)
    assert field.displayed and reminders(className="Keyboard").exists
    assert reminders(name="Done").exists
    reminders.send_keys("collect parcel\n")
    # iOS: Return saves it and opens the next empty reminder below, the keyboard still up.
    assert reminders(className="Keyboard").exists
    assert reminders(className="TextField", name="Title").get(timeout=1).value in ("", None)
    assert titles(client)[-1] == "collect parcel"
    assert "collect parcel" in titles(client, visible_only=True)  # the list scrolled to it
    reminders.send_keys("buy stamps\nwrap gift\n\n")  # Return on the empty one ends editing
    assert not reminders(className="Keyboard").exists
    assert not reminders(className="TextField").exists
    assert titles(client)[-3:] == ["collect parcel", "buy stamps", "wrap gift"]


def test_a_saved_reminder_survives_terminate(reminders, client):
    reminders(className="Cell", name="Reminders").click()
    add(reminders, "collect parcel\n")
    reminders.app_terminate(REMINDERS)
    reminders.app_launch(REMINDERS)
    back = reminders(className="Button", name="BackButton")
    assert back.exists, "like a phone, Reminders reopens in the list it stopped in"
    back.click()
    assert reminders(className="Cell", name="Reminders").get(timeout=1).label == "Reminders, 20"
    reminders(className="Cell", name="Reminders").click()
    assert "collect parcel" not in titles(client)  # far below the fold again: no cell yet


def test_done_saves_and_an_empty_title_saves_nothing(reminders, client):
    reminders(className="Cell", name="Groceries").click()
    add(reminders, "Butter")
    reminders(name="Done").click()
    assert titles(client) == ["Milk", "Eggs", "Coffee beans", "Bananas", "Butter"]
    add(reminders, "\n")
    assert titles(client) == ["Milk", "Eggs", "Coffee beans", "Bananas", "Butter"]


def test_new_reminder_from_the_overview_opens_the_new_reminder_sheet(reminders):
    # iOS presents a sheet there (tests/sim/test_reminders_sheet.py), not the default list.
    add(reminders, "Call the plumber")
    assert reminders(xpath="//XCUIElementTypeNavigationBar[@name='New Reminder']").exists
    assert not reminders(xpath="//XCUIElementTypeNavigationBar[@name='Reminders']").exists
    reminders(name="Add").click()
    assert reminders(className="Cell", name="Reminders").get(timeout=1).label == "Reminders, 20"


def test_completing_moves_a_reminder_to_completed(reminders, client):
    reminders(className="Cell", name="Groceries").click()
    reminders(xpath="//XCUIElementTypeCell[@name='Eggs']//XCUIElementTypeButton").click()
    assert "Eggs" not in titles(client)
    reminders(name="BackButton").click()
    reminders(className="Button", name="Completed").click()
    assert titles(client) == ["Eggs", "Renew car insurance"]
    reminders(xpath="//XCUIElementTypeCell[@name='Eggs']//XCUIElementTypeButton").click()
    assert titles(client) == ["Renew car insurance"]


def test_search_finds_reminders_in_every_list(reminders):
    reminders(className="SearchField").click()
    reminders.send_keys("milk")
    assert reminders(className="StaticText", label="Milk").exists
    assert reminders(className="StaticText", label="Groceries").exists
    reminders.send_keys("\bshake")
    assert reminders(label="No Results").exists


def test_reminders_are_kept_in_the_store_and_reset_clears_them(tmp_path):
    with SimServer() as sim:
        session = wda.Client(sim.url).session(REMINDERS)
        session(className="Cell", name="Groceries").click()
        add(session, "Butter\n")
        stored = sim.state()["stores"][REMINDERS]["reminders"]
        assert stored[-1] == {"title": "Butter", "list": "Groceries", "done": False,
                              "flagged": False, "due": ""}
        sim.reset()
        session = wda.Client(sim.url).session(REMINDERS)
        assert session(className="Cell", name="Groceries").get(timeout=1).label == "Groceries, 4"


def _swipe_row(session: wda.Client, title: str, leftwards: bool = True) -> None:
    x, y = session(className="Cell", name=title).get(timeout=1).bounds.center
    fro, to = (x + 100, x - 100) if leftwards else (x - 100, x + 100)
    session.swipe(fro, y, to, y, 0.1)


def test_a_swipe_left_on_a_row_shows_delete_which_removes_that_reminder(reminders, sim):
    reminders(className="Cell", name="Reminders").click()
    assert not reminders(className="Button", name="Delete").exists
    _swipe_row(reminders, "Renew passport")
    reminders(className="Button", name="Delete").click()
    saved = [r["title"] for r in sim.state()["stores"][REMINDERS]["reminders"]]
    assert "Renew passport" not in saved and "Book car service" in saved and len(saved) == 23


def test_a_swipe_right_hides_delete_and_search_results_swipe_too(reminders, client, sim):
    reminders(className="Cell", name="Reminders").click()
    _swipe_row(reminders, "Water the plants")
    assert reminders(className="Button", name="Delete").exists
    _swipe_row(reminders, "Water the plants", leftwards=False)
    assert not reminders(className="Button", name="Delete").exists
    reminders(className="Button", label="Lists").click()
    reminders(className="SearchField").click()
    reminders.send_keys("dentist")
    _swipe_row(reminders, "Call the dentist")
    reminders(className="Button", name="Delete").click()
    assert "Call the dentist" not in [r["title"] for r in
                                      sim.state()["stores"][REMINDERS]["reminders"]]
