"""WDA's `name` is the accessibility identifier, else the label (FBElement wdName): an element
with a label always has a name, and every way of reading the tree agrees on it.

Clock's World Clock rows are the case the red team found: a labelled Cell with no identifier
that a predicate on `name` found while `name=` and the XML found nothing.
"""

from __future__ import annotations

import pytest
import wda
from lxml import etree

from phoneshell.sim.ui import Node, Rect

CLOCK = "com.apple.mobiletimer"
CITY = "Cupertino, 9:41 AM"
LOCATORS = [("accessibility id", CITY), ("id", CITY), ("name", CITY),
            ("predicate string", f"name == '{CITY}'"),
            ("class chain", f'**/XCUIElementTypeCell[`name == "{CITY}"`]'),
            ("xpath", f'//XCUIElementTypeCell[@name="{CITY}"]')]


@pytest.fixture
def clock(client: wda.Client) -> wda.Client:
    """Clock on its World Clock tab."""
    session = client.session(CLOCK)
    session(name="World Clock", className="XCUIElementTypeButton").get(timeout=5).tap()
    return session


@pytest.mark.parametrize(("using", "value"), LOCATORS)
def test_every_locator_finds_a_row_by_its_label_as_name(clock, raw, using, value):
    found = raw("POST", f"/session/{clock.session_id}/elements",
                {"using": using, "value": value})
    assert found.status == 200, found.text
    assert len(found.value) == 1, (using, found.value)
    element = next(iter(found.value[0].values()))
    name = raw("GET", f"/session/{clock.session_id}/element/{element}/attribute/name")
    assert name.value == CITY


def test_the_sources_name_the_row_by_its_label(client, clock, raw):
    root = etree.fromstring(client.source().encode())
    labelled_unnamed = [(e.get("type"), e.get("label")) for e in root.iter()
                        if e.get("label") and not e.get("name")]
    assert labelled_unnamed == []
    assert root.xpath(f'//XCUIElementTypeCell[@label="{CITY}"]/@name') == [CITY]

    def nodes(node):
        yield node
        for child in node.get("children", []):
            yield from nodes(child)

    tree = raw("GET", "/source?format=json").value
    cells = [n for n in nodes(tree) if n["label"] == CITY]
    assert [(n["name"], n["rawIdentifier"]) for n in cells] == [(CITY, None)]
    assert clock(name=CITY).exists


def test_an_identifier_set_on_purpose_is_kept():
    frame = Rect(0, 0, 10, 10)
    assert Node("Button", frame, label="Edit", name="customizationsSheetButton").name == (
        "customizationsSheetButton")
    assert Node("Button", frame, label="Edit").name == "Edit"
    assert Node("Button", frame, label="Edit", name="").name == "Edit"
    assert Node("Other", frame).name is None
