"""Page sources look like real WDA's: XML attribute order and rules, JSON shape, visibility."""

from __future__ import annotations

import pytest
import wda
from lxml import etree

from phoneshell.sim import elements, source

SETTINGS = "com.apple.Preferences"
# WDA's FBElementAttribute order, with the optional attributes it writes by default.
WDA_ORDER = ["type", "value", "name", "label", "enabled", "visible", "accessible", "x", "y",
             "width", "height", "index", "placeholderValue", "traits", "processId", "bundleId"]


def parse(client: wda.Client) -> etree._Element:
    return etree.fromstring(client.source().encode())


def test_application_node_matches_the_real_dump(client, reference):
    client.app_launch(SETTINGS)
    real = etree.parse(str(reference / "ios-sources" / "settings-root-ios26.2-sim.xml"))
    ours = parse(client)
    assert list(ours.attrib) == list(real.getroot().attrib)
    assert ours.tag == "XCUIElementTypeApplication"
    assert ours.get("name") == ours.get("label") == "Settings"
    assert ours.get("bundleId") == SETTINGS
    assert int(ours.get("processId")) > 0
    assert (ours.get("width"), ours.get("height")) == ("402", "874")
    assert client.source().startswith('<?xml version="1.0" encoding="UTF-8"?>\n<XCUIElementType')


def test_springboard_root_is_named_with_a_space(client, reference):
    real = etree.parse(str(reference / "ios-sources" / "springboard-home-page2-ios26.5-sim.xml"))
    ours = parse(client)
    assert ours.get("name") == real.getroot().get("name") == " "
    assert ours.get("bundleId") == "com.apple.springboard"


def test_every_element_follows_wdas_attribute_rules(client):
    client.app_launch(SETTINGS)
    for element in parse(client).iter():
        keys = list(element.attrib)
        assert keys == sorted(keys, key=WDA_ORDER.index), element.attrib
        assert element.get("type") == element.tag
        assert element.get("enabled") in ("true", "false")
        assert element.get("visible") in ("true", "false")
        assert element.getparent() is None or "processId" not in element.attrib
        parent = element.getparent()
        if parent is not None:
            assert int(element.get("index")) == list(parent).index(element)
        if "placeholderValue" in element.attrib:
            assert element.tag in ("XCUIElementTypeSearchField", "XCUIElementTypeTextField")


def test_nil_texts_are_omitted(client):
    window = parse(client).find("XCUIElementTypeWindow")
    assert window is not None
    assert not {"name", "label", "value"} & set(window.attrib)


def test_two_space_indent(client):
    lines = client.source().splitlines()
    assert lines[2].startswith("  <XCUIElementTypeWindow ")
    assert lines[3].startswith("    <")


def test_rows_below_the_fold_keep_frames_but_are_invisible(client):
    client.app_launch(SETTINGS)
    [cell] = parse(client).xpath("//XCUIElementTypeCell[.//*[@label='Camera']]")
    assert cell.get("visible") == "false" and int(cell.get("y")) > 788  # under the toolbar
    assert all(d.get("visible") == "false" for d in cell.iter())
    # Rows further down have no cell at all yet, as UIKit makes cells near the view only.
    assert not parse(client).xpath("//*[@label='Developer']")


def test_json_source_shape(client):
    client.app_launch(SETTINGS)
    tree = client.source(format="json")
    assert tree["type"] == "Application" and tree["name"] == "Settings"
    assert tree["rect"] == {"x": 0, "y": 0, "width": 402, "height": 874}
    assert tree["frame"] == "{{0, 0}, {402, 874}}"
    assert {tree["isEnabled"], tree["isVisible"], tree["isFocused"]} <= {"0", "1"}

    def walk(node):
        yield node
        for child in node.get("children", []):
            yield from walk(child)

    nodes = list(walk(tree))
    assert all(n.get("children") != [] for n in nodes)  # present only when non-empty
    assert all(not n["type"].startswith("XCUIElementType") for n in nodes)
    cell = next(n for n in nodes if n["name"] == "com.apple.settings.general")
    assert cell["rawIdentifier"] == "com.apple.settings.general" and cell["label"] == "General"
    text = next(n for n in nodes if n["type"] == "StaticText" and n["label"] == "General")
    assert text["rawIdentifier"] is None


def test_focused_field_is_marked_in_json(client):
    session = client.session(SETTINGS)
    focused = [n for n in _flat(client.source(format="json")) if n["isFocused"] == "1"]
    assert focused == []
    session(className="SearchField").click()
    focused = [n for n in _flat(client.source(format="json")) if n["isFocused"] == "1"]
    assert [n["type"] for n in focused] == ["SearchField"]
    assert any(n["type"] == "Keyboard" for n in _flat(client.source(format="json")))


def _flat(node):
    yield node
    for child in node.get("children", []):
        yield from _flat(child)


def test_accessible_source(client):
    client.app_launch(SETTINGS)
    tree = client.source(accessible=True)
    assert tree["type"] == "Application" and "children" in tree
    leaves = [n for n in _flat(tree) if "children" not in n]
    assert any(n.get("label") == "General" for n in leaves)
    assert all("name" in n and "type" in n for n in leaves)


def test_description_and_excluded_attributes(raw):
    text = raw("GET", "/source?format=description").value
    assert text.startswith("Attributes: Window (Main), 0x")
    xml = raw("GET", "/source?excluded_attributes=visible,accessible").value
    assert ' visible="' not in xml and ' accessible="' not in xml and ' enabled="' in xml


@pytest.mark.parametrize("fmt", ["xml", "json"])
def test_source_follows_every_change(client, fmt):
    first = client.source(format=fmt)
    assert client.source(format=fmt) == first
    client.app_launch(SETTINGS)
    assert client.source(format=fmt) != first


def test_sources_are_built_once_per_screen(sim, app):
    app.app_launch(SETTINGS)
    app.source()
    with sim.lock:
        screen = sim.phone.screen()
        xml = source.xml(screen)
    assert app(xpath="//XCUIElementTypeButton[@label='General']").exists  # polled, like a wait
    app.source()
    app.source(format="json")
    with sim.lock:  # reads changed nothing: the same screen, with the same XML and parse
        assert sim.phone.screen() is screen
        assert source.xml(screen) is xml
        tree = elements.xml_tree(screen)
    assert app(xpath="//XCUIElementTypeButton[@label='Battery']").exists
    with sim.lock:
        assert elements.xml_tree(sim.phone.screen()) is tree
    app(name="General").click()
    with sim.lock:
        assert sim.phone.screen() is not screen


def test_collection_views_are_reported_as_real_ios_26_reports_them(client, reference):
    """Settings' root list and Safari's start page are visible="false" in the real dumps while
    they fill the screen; a harness that asks `visible` of a list finds none to scroll there."""
    real = etree.parse(str(reference / "ios-sources" / "settings-root-ios26.2-sim.xml"))
    client.app_launch(SETTINGS)
    ours = parse(client)
    for tree in (real.getroot(), ours):
        (lists,) = tree.iter("XCUIElementTypeCollectionView")
        assert lists.get("visible") == "false"
        assert int(lists.get("height")) > 500
    # and it still scrolls, however far, as UIKit's does: dragged on the blank space after the
    # last row too, it goes on to the end its scroll indicator shows
    for _ in range(8):
        client.swipe(200, 600, 200, 200, 0)
    bar = next(e for e in parse(client).iter() if e.get("name", "").startswith("Vertical scroll"))
    assert bar.get("value") == "100%"


def test_characters_xml_forbids_are_dropped_as_wda_drops_them(client):
    """Typed into a field, a control character or a lone surrogate reads as if it were not
    there (WDA's fb_xmlSafeStringWithReplacement:@""): the source stays well-formed."""
    session = client.session()
    session.swipe(200, 300, 200, 600)  # Spotlight, its field focused
    session.send_keys("Gym\x01\x1f\ufffe<&>")
    xml = client.source()
    root = etree.fromstring(xml.encode())  # would raise on a raw control character
    values = [e.get("value") for e in root.iter() if e.get("type") ==
              "XCUIElementTypeSearchField"]
    assert values == ["Gym<&>"]


def test_a_search_field_holding_text_has_a_clear_text_button(client):
    """As UIKit's: searchField.buttons["Clear text"], which empties the field."""
    session = client.session("com.apple.Preferences")
    field = session(className="SearchField")
    assert not field.child(label="Clear text").exists
    field.get(timeout=1).tap()
    session.send_keys("Wi-Fi")
    field.child(label="Clear text", className="Button").get(timeout=1).tap()
    assert field.get(timeout=1).value in ("Search", None, "")
    assert not field.child(label="Clear text").exists
