"""A tap outside the focused text field, field by field (docs/simulator.md, "Tap outside").

Reminders saves the reminder being written and ends editing; Safari's address editing cancels;
a tap on Calendar's Starts wheel ends the title's editing; elsewhere the keyboard stays, as
UIKit leaves it, and a tap on a control or another field does what it does.
"""

from __future__ import annotations

from typing import Any

import pytest
import wda
from lxml import etree

REMINDERS = "com.apple.reminders"


def titles(client: wda.Client) -> list[str]:
    """The reminder titles in the open list, in order (each cell's first text)."""
    root = etree.fromstring(client.source().encode())
    firsts = [cell.find(".//XCUIElementTypeStaticText")
              for cell in root.iter("XCUIElementTypeCell")]
    return [t.get("label") for t in firsts if t is not None]


def stored(sim: Any) -> list[dict[str, Any]]:
    return sim.state()["stores"].get(REMINDERS, {}).get("reminders", [])


def w3c_tap(session: wda.Client, x: int, y: int) -> None:
    """One finger down and up, as a W3C actions client (Appium, the red team's agent) taps."""
    finger = {"type": "pointer", "id": "finger1", "parameters": {"pointerType": "touch"},
              "actions": [{"type": "pointerMove", "duration": 0, "x": x, "y": y},
                          {"type": "pointerDown", "button": 0},
                          {"type": "pause", "duration": 80},
                          {"type": "pointerUp", "button": 0}]}
    session.http.post("/actions", data={"actions": [finger]})


@pytest.fixture
def writing(client: wda.Client) -> wda.Client:
    """Reminders' own list with a new reminder being written: "collect parcel", not saved."""
    session = client.session(REMINDERS)
    session(className="Cell", name="Reminders").click()
    session(name="New Reminder").click()
    session.send_keys("collect parcel")
    assert session(className="Keyboard").exists
    return session


def _blank_below_rows(session: wda.Client) -> tuple[int, int]:
    """A point in the list, below its last row (the one being written) and above the keyboard."""
    row = session(className="TextField", name="Title").get(timeout=1).bounds
    keyboard = session(className="Keyboard").get(timeout=1).bounds
    y = (row.y + row.height + 8 + keyboard.y) // 2
    assert row.y + row.height + 8 < y < keyboard.y
    return 200, y


@pytest.mark.parametrize("how", ["wda", "w3c"])
def test_a_tap_on_the_blank_list_saves_the_reminder_and_ends_editing(writing, client, sim,
                                                                     how):
    x, y = _blank_below_rows(writing)
    if how == "wda":
        writing.tap(x, y)
    else:
        w3c_tap(writing, x, y)
    assert not writing(className="Keyboard").exists
    assert not writing(className="TextField").exists
    assert not writing(name="Done").exists
    assert titles(client)[-1] == "collect parcel"
    assert stored(sim)[-1]["title"] == "collect parcel"


def test_the_tap_lands_on_the_screen_as_it_was_when_the_finger_went_down(writing, sim):
    # Ending editing drops the keyboard and the rows move down; a tap aimed at blank space at
    # a circle's x must not complete the row that moved under the finger.
    circle = writing(className="Button", name="Not completed").get(timeout=1).bounds.center
    _blank_below_rows(writing)
    keyboard = writing(className="Keyboard").get(timeout=1).bounds
    writing.tap(circle[0], keyboard.y - 6)  # blank now; a circle once the keyboard is gone
    reminders = stored(sim)
    assert reminders[-1]["title"] == "collect parcel"
    assert not any(r["done"] for r in reminders if r["title"] != "Renew car insurance")


def test_a_tap_on_another_row_saves_the_reminder_and_that_row_does_what_it_does(writing, sim):
    text = writing(className="StaticText", label="Check tire pressure").get(timeout=1)
    text.click()  # a title: nothing more happens to that row
    assert not writing(className="Keyboard").exists
    assert stored(sim)[-1]["title"] == "collect parcel"
    assert not any(r["done"] for r in stored(sim) if r["title"] == "Check tire pressure")


def test_a_tap_on_another_rows_circle_saves_and_completes_that_row(writing, sim):
    writing(xpath="//XCUIElementTypeCell[@name='Sort the recycling']"
                  "//XCUIElementTypeButton").click()
    by_title = {r["title"]: r for r in stored(sim)}
    assert by_title["collect parcel"]["done"] is False
    assert by_title["Sort the recycling"]["done"] is True


def test_a_tap_in_the_title_keeps_editing(writing, sim):
    writing(className="TextField", name="Title").click()
    assert writing(className="Keyboard").exists
    assert stored(sim) == []  # nothing saved yet: the store still holds the seed unwritten
    writing.send_keys(" today\n")
    assert stored(sim)[-1]["title"] == "collect parcel today"


def test_a_tap_outside_an_empty_title_saves_nothing(client, sim):
    session = client.session(REMINDERS)
    session(className="Cell", name="Groceries").click()
    session(name="New Reminder").click()
    x, y = _blank_below_rows(session)
    session.tap(x, y)
    assert not session(className="Keyboard").exists
    assert titles(client) == ["Milk", "Eggs", "Coffee beans", "Bananas"]


def test_safari_a_tap_on_the_page_while_editing_the_address_cancels(client):
    safari = client.session("com.apple.mobilesafari")
    safari.open_url("https://example.com/")
    link = safari(label="More information...", className="Link").get(timeout=1).bounds.center
    safari(name="TabBarItemTitle").click()
    safari.send_keys("apple")
    safari.tap(200, 400)  # the page behind the suggestions, no suggestion there
    assert not safari(className="Keyboard").exists
    assert safari(name="TabBarItemTitle").get(timeout=1).value.endswith("example.com")
    safari(name="TabBarItemTitle").click()
    safari.tap(*link)  # where the link shows: the tap cancels editing, no link is followed
    assert not safari(className="Keyboard").exists
    assert safari(label="Example Domain", className="StaticText").exists


def test_calendar_a_tap_on_the_starts_wheel_ends_editing_the_title(client):
    cal = client.session("com.apple.mobilecal")
    cal(name="Add").click()
    cal(className="TextField", name="Title").click()
    cal.send_keys("Dentist")
    wheel = cal(className="PickerWheel").get(timeout=1)
    before = wheel.value
    x, y = wheel.bounds.center
    cal.tap(x, y + 40)  # a row below the middle: the wheel turns
    assert not cal(className="Keyboard").exists
    assert cal(className="PickerWheel").get(timeout=1).value != before
    assert cal(className="TextField", name="Title").get(timeout=1).value == "Dentist"


def test_contacts_a_tap_on_blank_space_keeps_the_keyboard_and_another_field_takes_it(client):
    contacts = client.session("com.apple.MobileAddressBook")
    contacts(name="Add").click()
    contacts(className="TextField", name="First name").click()
    contacts.send_keys("Ada")
    size = contacts.window_size()
    keyboard = contacts(className="Keyboard").get(timeout=1).bounds
    contacts.tap(size.width // 2, keyboard.y - 12)  # blank form above the keyboard
    assert contacts(className="Keyboard").exists
    contacts(className="TextField", name="Last name").click()
    contacts.send_keys("Lovelace")
    assert contacts(className="TextField", name="First name").get(timeout=1).value == "Ada"
    assert contacts(className="TextField", name="Last name").get(timeout=1).value == "Lovelace"


def test_notes_a_tap_in_the_note_keeps_editing(client):
    notes = client.session("com.apple.mobilenotes")
    notes(name="New Note").click()
    notes.send_keys("shopping")
    view = notes(className="TextView", name="Note").get(timeout=1).bounds
    notes.tap(view.x + 40, view.y + view.height // 3)  # below the text, in the note
    assert notes(className="Keyboard").exists
    notes.send_keys(" list")
    assert notes(className="TextView", name="Note").get(timeout=1).value == "shopping list"
