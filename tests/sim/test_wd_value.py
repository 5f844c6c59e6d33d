"""Every element's `value` is WDA's wdValue (XCUIElement+FBWebDriverAttributes), derived in one
place for every screen: a StaticText's value falls back to its label, a selected Button's to
"1", a text field's to its placeholder; a Switch reads 0 or 1; an empty value is none."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import replace

import pytest
import wda

from phoneshell.sim.ui import Node, Rect
from phoneshell.tree import PageSource

CALCULATOR, CALENDAR = "com.apple.calculator", "com.apple.mobilecal"
AT = Rect(0, 0, 10, 10)


def _selected_buttons(session: wda.Client) -> list[tuple[str | None, str | None]]:
    root = ET.fromstring(session.source())
    return [(e.get("name"), e.get("value")) for e in root.iter("XCUIElementTypeButton")
            if "Selected" in e.get("traits", "")]


def test_calendars_selected_day_reads_1(client):
    session = client.session(CALENDAR)
    assert _selected_buttons(session) == [("9", "1")]
    assert session(className="Button", name="9").get(timeout=1).value == "1"


def test_calculators_pending_operator_reads_1_until_the_next_entry(client):
    session = client.session(CALCULATOR)
    for key in ("2", "add"):
        session(className="Button", name=key).click()
    assert _selected_buttons(session) == [("add", "1")]
    assert session(className="Button", name="add").get(timeout=1).value == "1"
    session(className="Button", name="3").click()
    assert _selected_buttons(session) == []
    assert session(className="Button", name="add").get(timeout=1).value is None


@pytest.mark.parametrize(("node", "value"), [
    (Node("StaticText", AT, label="Wi-Fi"), "Wi-Fi"),
    (Node("StaticText", AT, label="Wi-Fi", value="On"), "On"),
    (Node("Button", AT, label="add", selected=True), "1"),
    (Node("Button", AT, label="add", selected=True, value="3 items"), "3 items"),
    (Node("Button", AT, label="add"), None),
    (Node("TextField", AT, placeholder="Name"), "Name"),
    (Node("SecureTextField", AT, placeholder="Password", value=""), "Password"),
    (Node("SearchField", AT, placeholder="Search"), None),
    (Node("Switch", AT, label="Wi-Fi"), "0"),
    (Node("Switch", AT, label="Wi-Fi", value="true"), "1"),
    (Node("Switch", AT, label="Wi-Fi", value="007"), "1"),
    (Node("Other", AT, value=""), None),
])
def test_wd_value_by_type(node, value):
    assert node.value == value


def test_a_copy_derives_its_value_again():
    on = Node("Button", AT, label="add", selected=True)
    assert replace(on, selected=False).value is None
    assert replace(Node("StaticText", AT, label="Old"), label="New").value == "New"
    assert replace(Node("Button", AT, label="x", value="own"), selected=True).value == "own"


def test_the_selection_flag_is_no_text_on_screen(client):
    """A real phone's tree has value "1" on the selected operator; a check for the text "1"
    is met by the display showing 1, not by the flag."""
    session = client.session(CALCULATOR)
    for key in ("2", "add"):
        session(className="Button", name=key).click()
    page = PageSource.parse(session.source())
    assert [e.name for e in page.find("1") if e.short_type != "Button" or e.name != "1"] == []
