"""Reminders on a turned phone (fixer Y's note to red team 116): a new reminder's title field is
scrolled into view above the keyboard, as a phone scrolls the row being edited, so a person
holding the phone sideways sees what they type and can add several in a row; the phone turned
while typing keeps the row in view. The bar's title is the inline one there (no large title on
a screen compact in height). Over facebook-wda."""

from __future__ import annotations

import pytest
import wda
from lxml import etree

REMINDERS = "com.apple.reminders"
LANDSCAPE_KEYBOARD = 200
"""Points the keyboard covers at the bottom of a turned screen (`sim.keyboard`)."""


@pytest.fixture
def in_list(client: wda.Client) -> wda.Client:
    """A Reminders session with its "Reminders" list open (19 reminders: more than fit)."""
    session = client.session(REMINDERS)
    session(className="Cell", name="Reminders").click()
    return session


def typed_into(client: wda.Client, session: wda.Client) -> tuple[wda.Rect, str | None]:
    """The title field being typed into: its frame, and its value; asserts it is in view."""
    width, height = client.window_size()
    field = session(className="TextField", name="Title").get(timeout=1)
    bounds = field.bounds
    # the list spans the screen under its bars and the keyboard, which inset its content (fixer
    # AY): the part it shows is its vertical scroll bar's
    shown = session(predicate="name BEGINSWITH 'Vertical scroll bar'").get(timeout=1).bounds
    keyboard_top = height - (LANDSCAPE_KEYBOARD if width > height else 291)
    assert field.visible, bounds
    assert shown.y <= bounds.y and bounds.y + bounds.height <= shown.y + shown.height, (
        bounds, shown)
    assert shown.y + shown.height <= keyboard_top, (shown, keyboard_top)
    assert session(predicate="type == 'XCUIElementTypeTextField' AND name == 'Title' "
                             "AND hittable == true").exists
    return bounds, field.value


def titles(client: wda.Client) -> list[str]:
    """The titles of the saved reminders in the open list, in order."""
    root = etree.fromstring(client.source().encode())
    firsts = [cell.find(".//XCUIElementTypeStaticText")
              for cell in root.iter("XCUIElementTypeCell")]
    return [t.get("label") for t in firsts if t is not None]


def test_a_new_reminder_on_a_turned_phone_shows_above_the_keyboard(client, in_list):
    in_list.orientation = "LANDSCAPE"
    bar = in_list(className="NavigationBar", name="Reminders").get(timeout=1).bounds
    assert bar.height == 54  # the inline title: no large title on a turned phone
    in_list(name="New Reminder").click()
    typed_into(client, in_list)
    in_list.send_keys("collect parcel")
    _, value = typed_into(client, in_list)
    assert value == "collect parcel"
    in_list.send_keys("\n")  # saved, and the next empty reminder opens below it, in view
    _, value = typed_into(client, in_list)
    assert value in (None, "", "Title")
    in_list.send_keys("buy stamps")
    in_list(name="Done").click()
    assert titles(client)[-2:] == ["collect parcel", "buy stamps"]


@pytest.mark.parametrize("turns", [("LANDSCAPE",), ("LANDSCAPE", "PORTRAIT")])
def test_turning_the_phone_while_typing_keeps_the_row_in_view(client, in_list, turns):
    in_list(name="New Reminder").click()
    in_list.send_keys("water the plants")
    typed_into(client, in_list)
    for orientation in turns:
        in_list.orientation = orientation
        _, value = typed_into(client, in_list)
        assert value == "water the plants"
