"""Element routes: every find strategy, ids and staleness, attributes, and element actions."""

from __future__ import annotations

import pytest
import wda

SETTINGS = "com.apple.Preferences"


@pytest.fixture
def settings(client: wda.Client) -> wda.Client:
    """A session on the Settings root list."""
    return client.session(SETTINGS)


def ids(raw, sid, using, value):
    reply = raw("POST", f"/session/{sid}/elements", {"using": using, "value": value})
    assert reply.status == 200, reply.json
    return [e["ELEMENT"] for e in reply.value]


@pytest.mark.parametrize(("using", "value", "count"), [
    ("accessibility id", "com.apple.settings.general", 1),
    ("id", "com.apple.settings.general", 1),
    ("name", "General", 1),
    ("class name", "XCUIElementTypeNavigationBar", 1),
    ("class name", "XCUIElementTypeSearchField", 1),
    ("class chain", "**/XCUIElementTypeButton[`label == 'General'`]", 1),
    ("class chain", "**/XCUIElementTypeAny[`name == 'General'`]", 1),
    ("class chain", "**/XCUIElementTypeButton[`label BEGINSWITH 'Wi'`]", 1),
    ("class chain", "**/XCUIElementTypeButton[`label CONTAINS 'Access' AND visible == 1`]", 1),
    ("class chain", "**/XCUIElementTypeStaticText[`name MATCHES 'Gen.*'`]", 1),
    ("class chain", "**/XCUIElementTypeCell[2]", 1),
    ("class chain", "**/XCUIElementTypeCell[-1]", 1),
    ("class chain", "**/XCUIElementTypeNavigationBar/XCUIElementTypeStaticText", 1),
    ("class chain", "**/XCUIElementTypeCell[$name == 'General'$]", 1),
    ("class chain", "**/XCUIElementTypeButton[`label == 'Apple Intelligence & Siri'`]", 1),
    ("predicate string", "type == 'XCUIElementTypeButton' AND label == 'Battery'", 1),
    ("predicate string", "label ==[c] 'bluetooth' AND type == 'XCUIElementTypeButton'", 1),
    ("predicate string", "name ENDSWITH '.wifi' OR name ENDSWITH '.bluetooth'", 2),
    ("predicate string", "NOT (visible == true) AND label == 'Camera'", 2),
    ("predicate string", "label LIKE 'Gen*' AND type == 'XCUIElementTypeButton'", 1),
    ("xpath", "//XCUIElementTypeButton[@label='General']", 1),
    ("xpath", "//*[@label='Battery']", 2),
    ("link text", "label=Camera", 2),
    ("partial link text", "label=Came", 2),
    ("name", "No Such Thing", 0),
])
def test_find_strategies(settings, raw, using, value, count):
    assert len(ids(raw, settings.session_id, using, value)) == count


def test_an_unknown_locator_strategy_is_an_invalid_argument(settings, raw):
    # WDA raises FBElementAttributeUnknownException, which it answers as invalid argument.
    reply = raw("POST", f"/session/{settings.session_id}/elements",
                {"using": "css selector", "value": "button"})
    assert (reply.status, reply.value["error"]) == (400, "invalid argument")
    assert reply.value["message"] == "Invalid locator requested: css selector"


@pytest.mark.parametrize(("using", "value"), [
    ("class chain", "**/Cell"),
    ("xpath", "//*[@label="),
])
def test_unsupported_queries_are_invalid_selectors(settings, raw, using, value):
    reply = raw("POST", f"/session/{settings.session_id}/elements",
                {"using": using, "value": value})
    assert reply.status == 400
    assert reply.value["error"] == "invalid selector"


def test_escaped_quote_in_class_chain(client):
    session = client.session()
    session.swipe(201, 300, 201, 600)  # Spotlight
    session.send_keys("it's")
    assert session(classChain="**/XCUIElementTypeSearchField[`value == 'it\\'s'`]").exists


def test_facebook_wda_selectors(settings):
    assert settings(name="General").exists
    assert settings(label="General", className="Button").exists
    assert settings(nameContains="Access").exists
    assert settings(labelContains="Intelligence").exists
    assert settings(predicate="label == 'Battery'").exists
    assert settings(xpath="//Button[@label='Battery']").exists
    assert settings(id="com.apple.settings.wifi").exists
    assert settings(className="Switch").count() == 2  # Airplane Mode: the row and its knob
    with pytest.raises(wda.WDARequestError):
        settings(classChain="**/Nope[").exists  # noqa: B018 - the property makes the request


def test_single_find_and_no_such_element(settings, raw):
    sid = settings.session_id
    found = raw("POST", f"/session/{sid}/element", {"using": "name", "value": "General"})
    assert found.status == 200 and found.value["ELEMENT"]
    assert found.value["element-6066-11e4-a52e-4f735466cecf"] == found.value["ELEMENT"]
    missing = raw("POST", f"/session/{sid}/element", {"using": "name", "value": "Nope"})
    assert missing.status == 404 and missing.value["error"] == "no such element"


def test_ids_are_stable_and_go_stale(settings, raw):
    sid = settings.session_id
    first = ids(raw, sid, "name", "General")
    assert ids(raw, sid, "name", "General") == first
    settings(name="General").click()
    stale = raw("GET", f"/session/{sid}/element/{first[0]}/rect")
    assert stale.status == 404 and stale.value["error"] == "stale element reference"
    element = wda.Element(settings, first[0])
    with pytest.raises(wda.WDAStaleElementReferenceError):
        element.bounds  # noqa: B018 - the property makes the request
    unknown = raw("GET", f"/session/{sid}/element/NOT-AN-ID/text")
    assert unknown.status == 404 and unknown.value["error"] == "stale element reference"


def test_element_reads(settings):
    cell = settings(label="General", className="Button").get(timeout=1)
    assert cell.name == "XCUIElementTypeButton"  # WDA's name route answers the type
    assert cell.className == "XCUIElementTypeButton"
    assert cell.label == "General"
    assert cell.text == "General"
    assert cell.value is None
    assert cell.enabled is True and cell.displayed is True and cell.visible is True
    assert cell.accessible is True
    assert cell.accessibility_container is False
    assert cell.bounds.width == 370
    wifi = settings(label="Wi-Fi", className="Button").get(timeout=1)
    assert wifi.value == "HomeNet" and wifi.text == "HomeNet"


def test_element_attribute_route(settings, raw):
    sid = settings.session_id
    [field] = ids(raw, sid, "class name", "XCUIElementTypeSearchField")
    base = f"/session/{sid}/element/{field}"
    assert raw("GET", f"{base}/attribute/placeholderValue").value == "Search"
    assert raw("GET", f"{base}/attribute/rect").value["height"] == 38
    assert raw("GET", f"{base}/attribute/traits").value == "SearchField"
    assert raw("GET", f"{base}/selected").value is False
    unknown = raw("GET", f"{base}/attribute/frobnicate")  # WDA: FBUnknownAttributeException
    assert unknown.status == 500 and "'frobnicate' is unknown" in unknown.value["message"]


def test_tap_type_clear_and_active_element(settings, raw):
    sid = settings.session_id
    assert raw("GET", f"/session/{sid}/element/active").value["error"] == "no such element"
    field = settings(className="SearchField").get(timeout=1)
    field.set_text("Batt")
    assert field.value == "Batt"
    active = raw("GET", f"/session/{sid}/element/active").value["ELEMENT"]
    assert active == field.id
    assert settings(label="Battery", className="Button").exists
    field.clear_text()
    assert field.value == "Search"  # an empty field reports its placeholder


def test_value_on_a_non_field_is_refused(settings, raw):
    [cell] = ids(raw, settings.session_id, "name", "com.apple.settings.general")
    reply = raw("POST", f"/session/{settings.session_id}/element/{cell}/value",
                {"value": "x"})
    assert reply.status == 400 and reply.value["error"] == "invalid element state"


def test_element_tap_routes(settings):
    settings(name="General").get(timeout=1).tap()  # POST element/:id/click
    assert settings(name="About").exists
    settings(name="BackButton").get(timeout=1).click()  # rect, then tap at the centre
    assert settings(name="com.apple.settings.general").exists


def test_click_scrolls_a_row_into_view_first(settings, raw):
    camera = settings(label="Camera", className="Button").get(timeout=1)
    assert camera.visible is False  # just below the fold, with a real frame
    camera.tap()  # POST element/:id/click scrolls the list, as XCUITest does, then taps
    assert settings(className="NavigationBar", name="Camera").exists


def test_element_scroll_swipe_and_hold(settings):
    camera = settings(label="Camera", className="Button").get(timeout=1)
    assert camera.visible is False
    camera.scroll()  # toVisible
    assert camera.visible is True
    table = settings(className="CollectionView").get(timeout=1)
    table.scroll("up", 10.0)
    assert settings(label="General", className="Button").get(timeout=1).visible is True
    settings(label="General", className="Button").get(timeout=1).tap_hold(0.5)
    assert settings(name="About").exists  # a hold without a hold action taps


def test_element_swipe_route(settings, raw):
    sid = settings.session_id
    [table] = ids(raw, sid, "class name", "XCUIElementTypeCollectionView")
    assert raw("POST", f"/session/{sid}/wda/element/{table}/swipe",
               {"direction": "up"}).status == 200
    # Far below the fold a list has made no cell yet, as UIKit makes cells near the view.
    assert not settings(label="Developer", className="Button").exists
    for _ in range(6):
        raw("POST", f"/session/{sid}/wda/element/{table}/swipe", {"direction": "up"})
    assert settings(label="Developer", className="Button").get(timeout=1).visible is True
    bad = raw("POST", f"/session/{sid}/wda/element/{table}/swipe", {"direction": "sideways"})
    assert bad.status == 400 and bad.value["error"] == "invalid argument"


def test_child_element_search(settings, raw):
    sid = settings.session_id
    [cell] = ids(raw, sid, "name", "com.apple.settings.general")
    reply = raw("POST", f"/session/{sid}/element/{cell}/elements",
                {"using": "class name", "value": "XCUIElementTypeStaticText"})
    assert len(reply.value) == 1
    one = raw("POST", f"/session/{sid}/element/{cell}/element",
              {"using": "xpath", "value": ".//XCUIElementTypeStaticText"})
    assert one.value["ELEMENT"] == reply.value[0]["ELEMENT"]
