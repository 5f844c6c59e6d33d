"""Which button WDA's unnamed `alert/accept` and `alert/dismiss` press (FBAlert's
acceptWithError/dismissWithError): an Alert's last and first, an action Sheet's first and last,
whatever the buttons say; named, the button so labelled. Driven through facebook-wda."""

from __future__ import annotations

import wda

from phoneshell.xcui import CONTACTS

REMOVE = ["Delete App", "Remove from Home Screen", "Cancel"]


def remove_alert(app: wda.Client) -> None:
    """SpringBoard's Remove alert for Weather, from its icon's menu."""
    app(className="Icon", name="Weather").get(timeout=5).tap_hold(1.0)
    app(label="Remove App", className="Button").tap()


def test_an_alerts_dismiss_presses_its_first_button_and_accept_its_last(app, client):
    remove_alert(app)
    assert client.alert.buttons() == REMOVE
    client.alert.dismiss()  # Delete App: iOS asks again
    assert client.alert.text.startswith("Delete \u201cWeather\u201d?")
    assert client.alert.buttons() == ["Cancel", "Delete"]
    client.alert.dismiss()  # its first: Cancel
    assert not client.alert.exists
    remove_alert(app)
    client.alert.accept()  # the last: Cancel, not Delete App
    assert not client.alert.exists
    assert app(className="Icon", name="Weather").exists


def test_an_action_sheets_dismiss_presses_its_last_button_and_accept_its_first(client):
    session = client.session(CONTACTS)
    field = session(name="Company", className="TextField")

    def ask() -> None:
        session(label="Cancel").click()  # an edited card asks: Discard Changes, Keep Editing
        assert session.alert.buttons() == ["Discard Changes", "Keep Editing"]

    session(label="Kate Bell").click()
    session(label="Edit").click()
    field.set_text(" XYZ")
    ask()
    session.alert.dismiss()  # Keep Editing, the sheet's last
    assert field.exists and not session.alert.exists
    ask()
    session.alert.accept()  # Discard Changes, the sheet's first
    assert not field.exists


def test_a_named_press_takes_the_button_so_labelled_on_either_route(app, client):
    remove_alert(app)
    client.http.post("/alert/dismiss", data={"name": "Cancel"})
    assert not client.alert.exists and app(className="Icon", name="Weather").exists


def test_an_alert_is_nested_as_ios_26_nests_it(app, client):
    """The public iOS 26 app-alert dump: a 320-point Alert that is not accessible, its texts in
    a first ScrollView's content view, its buttons 48-point capsules in a second ScrollView's
    row: the buttons are not the Alert's children, and the title is a plain StaticText."""
    remove_alert(app)
    source = client.source()
    assert not app(xpath="//XCUIElementTypeAlert/XCUIElementTypeButton").exists
    box = app(xpath="//XCUIElementTypeAlert").get(timeout=1)
    assert box.bounds.width == 320 and box.info["accessible"] is False
    assert app(xpath="//XCUIElementTypeAlert//XCUIElementTypeScrollView[1]/XCUIElementTypeOther"
                     "/XCUIElementTypeStaticText").exists
    buttons = app.xpath("//XCUIElementTypeAlert//XCUIElementTypeScrollView[2]"
                        "/XCUIElementTypeOther/XCUIElementTypeOther/XCUIElementTypeButton")
    assert [b.label for b in buttons.find_elements()] == REMOVE
    assert all(b.bounds.height == 48 for b in buttons.find_elements())
    assert 'traits="Header"' not in source[source.find("<XCUIElementTypeAlert"):]
    assert client.alert.text.startswith("Remove \u201cWeather\u201d?")  # texts read inside
