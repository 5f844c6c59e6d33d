"""SpringBoard's icon menu, its share sheet and alerts, and edit mode, driven as XCUITest suites
drive a phone's: hold an icon, "Remove App", "Delete App", "Delete"; or "Edit Home Screen" and
an icon's "DeleteButton"."""

from __future__ import annotations

from typing import Any

import wda
from lxml import etree

SPRINGBOARD = "com.apple.springboard"
WEATHER = "com.apple.weather"
CLOCK = "com.apple.mobiletimer"
MENU = ["Edit Home Screen", "Share App", "Remove App"]
REMOVE = ["Delete App", "Remove from Home Screen", "Cancel"]


def hold(session: wda.Client, name: str) -> Any:
    """Touch and hold an app's icon for 1.3 s, as XCUITest suites do; return the icon."""
    icon = session(className="Icon", label=name).get(timeout=1)
    session.tap_hold(*icon.bounds.center, 1.3)
    return icon


def menu(client: wda.Client) -> list[str]:
    root = etree.fromstring(client.source().encode())
    return [b.get("label") for b in root.xpath("//XCUIElementTypeMenu/XCUIElementTypeButton")]


def icons(client: wda.Client) -> set[str]:
    root = etree.fromstring(client.source().encode())
    return {e.get("label") for e in root.iter("XCUIElementTypeIcon") if e.get("label")}


def front(client: wda.Client) -> str:
    return client.app_current()["bundleId"]


def test_a_hold_opens_the_icons_menu_and_a_tap_outside_closes_it(app, client):
    icon = hold(app, "Weather")
    assert menu(client) == MENU
    box = app(className="Menu").get(timeout=1).bounds
    assert box.y >= icon.bounds.y + icon.bounds.height  # below the icon, on a top row
    assert front(client) == SPRINGBOARD
    app.tap(60, 640)  # the blurred home screen around the menu
    assert menu(client) == []
    assert "Weather" in icons(client) and front(client) == SPRINGBOARD
    icon.tap()  # with the menu gone, the icon opens its app again
    assert front(client) == WEATHER


def test_a_short_press_opens_the_app_and_an_element_hold_opens_the_menu(app, client):
    app(className="Icon", label="Weather").get(timeout=1).tap_hold(1.3)  # the element route
    assert menu(client) == MENU
    client.home()  # the home button closes it
    assert menu(client) == []
    icon = app(className="Icon", label="Weather").get(timeout=1)
    app.tap_hold(*icon.bounds.center, 0.2)  # shorter than a long press: a tap
    assert front(client) == WEATHER


def test_a_w3c_long_press_opens_the_menu(app, client, raw):
    x, y = app(className="Icon", label="Weather").get(timeout=1).bounds.center
    finger = {"type": "pointer", "id": "f1", "parameters": {"pointerType": "touch"},
              "actions": [{"type": "pointerMove", "x": x, "y": y, "duration": 0},
                          {"type": "pointerDown"}, {"type": "pause", "duration": 1300},
                          {"type": "pointerUp"}]}
    assert raw("POST", f"/session/{app.session_id}/actions", {"actions": [finger]}).status == 200
    assert menu(client) == MENU


def test_a_dock_icon_opens_its_menu_above_it_nearest_item_last(app, client):
    icon = hold(app, "Phone")
    # Phone is not on the App Store (iOS will not delete it): no Share App.
    assert menu(client) == ["Remove App", "Edit Home Screen"]
    box = app(className="Menu").get(timeout=1).bounds
    assert box.y + box.height <= icon.bounds.y


def test_share_app_opens_the_share_sheet_and_a_tap_outside_closes_it(app, client):
    hold(app, "Weather")
    app(label="Share App").tap()
    assert app(className="Popover").exists
    assert app(name="LP.CaptionBar.TopCaption").get(timeout=1).label == "Weather"
    assert app(name="LP.CaptionBar.BottomCaption").get(timeout=1).label == "App Store"
    app(name="PopoverDismissRegion").tap()
    assert not app(className="Popover").exists and "Weather" in icons(client)


def test_remove_app_then_delete_app_then_delete_uninstalls(client, sim, raw):
    app = client.session(CLOCK)
    app(label="Alarms", className="Button").click()  # Clock keeps its tab: data of its own
    raw("POST", "/phoneshell/sim/notify", {"app": CLOCK, "title": "Timer", "body": "Done"})
    assert CLOCK in sim.state()["stores"]
    client.home()
    assert app(name="NotificationShortLookView").exists  # its banner is up (the clock stands)
    hold(app, "Clock")
    app(label="Remove App").tap()
    assert client.alert.text == ("Remove \u201cClock\u201d?\nRemoving from Home Screen will keep "
                                 "the app in your App Library.")
    assert client.alert.buttons() == REMOVE
    app(label="Delete App").tap()
    assert client.alert.text == ("Delete \u201cClock\u201d?\nDeleting this app will also delete "
                                 "its data.")
    assert client.alert.buttons() == ["Cancel", "Delete"]
    client.alert.accept()  # WDA's accept presses an Alert's last button
    assert not client.alert.exists
    assert "Clock" not in icons(client)
    state = sim.state()
    assert CLOCK not in state["installed"] and CLOCK not in state["stores"]
    assert CLOCK not in state["running"]
    assert state["stores"][SPRINGBOARD]["notifications"] == []  # its notification went too
    assert not app(name="NotificationShortLookView").exists  # and the banner showing it
    reply = raw("POST", f"/session/{app.session_id}/wda/apps/launch", {"bundleId": CLOCK})
    assert reply.status == 400 and reply.value["error"] == "invalid argument"
    assert reply.value["message"] == (f"The application '{CLOCK}' is not installed on the "
                                      "device under test")
    raw("POST", "/phoneshell/sim/reset")  # a fresh phone: every app back, without its data
    assert "Clock" in icons(client) and CLOCK in sim.state()["installed"]
    app.app_launch(CLOCK)
    assert front(client) == CLOCK
    assert app(label="World Clock", className="Button").get(timeout=1).value == "1"


def test_remove_from_home_screen_keeps_the_app_launchable_and_in_spotlight(app, client, sim):
    hold(app, "Weather")
    app(label="Remove App").tap()
    client.alert.click("Remove from Home Screen")  # WDA's accept with a button name
    assert "Weather" not in icons(client)
    assert WEATHER in sim.state()["installed"]
    assert sim.state()["stores"][SPRINGBOARD]["off_home"] == [WEATHER]
    app.swipe_down()  # Spotlight
    app.send_keys("Weat")
    app(className="Cell", label="Weather").click()
    assert front(client) == WEATHER
    client.home()
    app.app_terminate(WEATHER)
    app.app_launch(WEATHER)
    assert front(client) == WEATHER


def test_cancel_changes_nothing(app, client, sim):
    before = client.source()
    hold(app, "Weather")
    app(label="Remove App").tap()
    client.alert.accept()  # WDA's accept presses an Alert's last button: Cancel
    assert not client.alert.exists
    hold(app, "Weather")
    app(label="Remove App").tap()
    app(label="Delete App").tap()
    app(label="Cancel").tap()
    assert client.source() == before
    assert WEATHER in sim.state()["installed"] and SPRINGBOARD not in sim.state()["stores"]


def test_edit_mode_delete_buttons_reach_the_same_alert_and_done_leaves(app, client):
    hold(app, "Weather")
    app(label="Edit Home Screen").tap()
    root = etree.fromstring(client.source().encode())
    shown = root.xpath("//XCUIElementTypeIcon[@label and @visible='true']")
    badges = root.xpath("//XCUIElementTypeIcon[@label]/XCUIElementTypeButton"
                        "[@name='DeleteButton']")
    assert len(badges) == len(root.xpath("//XCUIElementTypeIcon[@label]"))
    assert {b.getparent().get("label") for b in badges if b.get("visible") == "true"} == \
        {i.get("label") for i in shown}
    assert {b.get("label") for b in badges} == {"Remove App"}
    assert app(label="Done", className="Button").exists and app(label="Edit").exists
    app(className="Icon", label="Maps").get(timeout=1).tap()
    assert front(client) == SPRINGBOARD  # an icon in edit mode opens nothing
    app(xpath="//XCUIElementTypeIcon[@label='Weather']/XCUIElementTypeButton"
              "[@name='DeleteButton']").tap()
    assert client.alert.buttons() == REMOVE
    client.alert.accept()  # Cancel, the Alert's last button (dismiss presses its first)
    assert app(name="DeleteButton").exists  # still editing
    app(label="Done").tap()
    assert not app(name="DeleteButton").exists and not app(label="Done").exists
    hold(app, "Weather")
    app(label="Edit Home Screen").tap()
    client.home()  # home ends edit mode too
    assert not app(name="DeleteButton").exists


def test_an_app_ios_will_not_delete_offers_no_delete_app(app, client):
    hold(app, "Settings")
    assert menu(client) == ["Edit Home Screen", "Remove App"]
    app(label="Remove App").tap()
    assert client.alert.buttons() == ["Remove from Home Screen", "Cancel"]
    client.alert.accept()  # Cancel, the Alert's last button
    hold(app, "Settings")
    app(label="Edit Home Screen").tap()
    # iOS shows the minus badge on every app: it removes one from the Home Screen.
    app(xpath="//XCUIElementTypeIcon[@label='Settings']/XCUIElementTypeButton"
              "[@name='DeleteButton']").tap()
    assert client.alert.buttons() == ["Remove from Home Screen", "Cancel"]


def test_the_sources_look_like_wdas(app, client, raw):
    hold(app, "Weather")
    root = etree.fromstring(client.source().encode())
    items = root.xpath("//XCUIElementTypeMenu/*")
    assert [i.tag for i in items] == ["XCUIElementTypeButton"] * 3
    assert all(i.get("accessible") == "true" and i.get("traits") == "Button" for i in items)
    app(label="Remove App").tap()
    root = etree.fromstring(client.source().encode())
    (alert,) = root.iter("XCUIElementTypeAlert")
    assert alert.get("name") == alert.get("label") == "Remove \u201cWeather\u201d?"
    assert [b.get("label") for b in alert.iter("XCUIElementTypeButton")] == REMOVE
    reply = raw("GET", f"/session/{app.session_id}/wda/alert/buttons")
    assert reply.value == REMOVE
    # Three buttons stack, as UIAlertController stacks them: one above the other.
    frames = [app(label=label, className="Button").get(timeout=1).bounds for label in REMOVE]
    assert frames[0].y < frames[1].y < frames[2].y and frames[0].x == frames[2].x
    client.alert.accept()  # Cancel, the Alert's last button
    hold(app, "Weather")
    app(label="Edit Home Screen").tap()
    root = etree.fromstring(client.source().encode())
    (badge,) = root.xpath("//XCUIElementTypeIcon[@name='Weather']/*[@name='DeleteButton']")
    # Inside its accessible icon, as WDA's isWDAccessible reports every such element.
    assert badge.tag == "XCUIElementTypeButton" and badge.get("accessible") == "false"


def test_screenshots_draw_the_menu_on_its_panel_and_the_badges(app, client):
    hold(app, "Weather")
    box = app(className="Menu").get(timeout=1).bounds
    shot = client.screenshot().convert("RGB")
    panel = shot.crop((box.x * 3, box.y * 3, (box.x + box.width) * 3, (box.y + box.height) * 3))
    assert (0, 122, 255) in {c for _, c in panel.getcolors(1 << 20)}  # blue items, not white
    app(label="Edit Home Screen").tap()
    x, y = app(xpath="//XCUIElementTypeIcon[@label='Weather']/XCUIElementTypeButton"
                     "[@name='DeleteButton']").get(timeout=1).bounds.center
    assert client.screenshot().convert("RGB").getpixel((x * 3, (y + 7) * 3)) == (118, 118, 128)
