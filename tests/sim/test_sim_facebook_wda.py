"""facebook-wda's public API, used as its README and its own test suite use it, against the
simulator over HTTP: every call must work as it does against WDA on a phone."""

from __future__ import annotations

import base64
import xml.etree.ElementTree as ET

import pytest
import wda

SETTINGS, SAFARI, SPRINGBOARD = "com.apple.Preferences", "com.apple.mobilesafari", \
    "com.apple.springboard"
GENERAL = "com.apple.settings.general"


def test_session_app_lifecycle_and_bundle_id(client):
    with client.session(SETTINGS) as s:
        assert s.bundle_id == SETTINGS and s.session_id == client.status()["sessionId"]
        assert client.app_current()["bundleId"] == SETTINGS
        assert s.app_state(SETTINGS).value == 4
        s.app_launch(SAFARI)
        assert [a["bundleId"] for a in s.app_list()] == [SAFARI, SPRINGBOARD]
        assert s.app_state(SETTINGS).value == 3
        assert s.app_terminate(SAFARI).value is True
        assert s.app_state(SAFARI).value == 1
        s.app_activate(SETTINGS)
    # Leaving the with block closes the session, which terminates its app under test.
    assert client.app_current()["bundleId"] == SPRINGBOARD


def test_find_by_every_selector_and_click(client):
    s = client.session(SETTINGS)
    assert s(label="General").exists and s(name=GENERAL).exists
    assert s(label="General", className="Button").exists and s(text=GENERAL).exists
    assert s(labelContains="Genera").exists and s(nameMatches=".*settings.gen.*").exists
    # iOS 26's Settings root: the row's id and label are on a Button inside an unnamed Cell
    assert s(xpath='//Cell//Button[@label="General"]').exists
    assert s(classChain='**/XCUIElementTypeCell/**/XCUIElementTypeButton[`label == "General"`]'
             ).exists
    assert s(predicate='label == "General" AND type == "XCUIElementTypeButton"').exists
    assert s(id=GENERAL).exists and not s(label="No Such Row").exists
    cell = s(label="General", className="Button").get(timeout=2)
    assert cell.className == "XCUIElementTypeButton" and cell.visible and cell.enabled
    assert cell.bounds.width > 0 and cell.text == "General"
    cell.click()
    assert s(name="About").wait(2)
    s(name="About").tap()  # Element.tap: the element's click route
    assert s(label="Name").wait(2)


def test_send_keys_set_text_and_clear(client):
    s = client.session(SETTINGS)
    search = s(className="SearchField").get(timeout=2)
    search.click()
    s.send_keys("Wi")
    s.send_keys("-Fi")
    assert s(className="SearchField").get().value == "Wi-Fi"
    search = s(className="SearchField").get()
    search.clear_text()
    search.set_text("Bluetooth")
    assert s(className="SearchField").get().value == "Bluetooth"


def test_swipe_scroll_tap_hold_and_double_tap(client):
    s = client.session(SETTINGS)
    general = s(name=GENERAL).get(timeout=2)
    top = general.bounds.y
    s.swipe_up()
    assert s(name=GENERAL).get().bounds.y < top
    s.swipe_down()
    assert s(name=GENERAL).get().bounds.y == top
    camera = s(name="com.apple.settings.camera").get()  # the next row below the fold
    assert not camera.displayed
    camera.scroll()  # scroll to visible
    assert s(name="com.apple.settings.camera").get().displayed
    s.swipe(200, 300, 200, 700, 0.1)
    s(label="General").get().tap_hold(0.2)  # a short hold is a tap
    assert s(name="About").wait(2)
    client.home()
    s.app_activate(SETTINGS)
    x, y = s(name="About").get().bounds.center
    s.double_tap(x, y)
    assert s(label="Name").wait(2)


def test_screenshot_source_and_geometry(client):
    s = client.session(SETTINGS)
    assert s.screenshot().size == (1206, 2622)
    assert client.screenshot(format="raw").startswith(b"\x89PNG")
    root = ET.fromstring(s.source().encode())
    assert root.tag == "XCUIElementTypeApplication" and root.get("bundleId") == SETTINGS
    assert s.source(format="json")["type"] == "Application"
    assert "children" in s.source(accessible=True)
    assert s.window_size() == (402, 874) and s.scale == 3
    assert s.info["model"] == "iPhone" and client.locked() is False


def test_orientation_turns_an_app_that_rotates(client):
    s = client.session(SAFARI)
    assert s.orientation == wda.PORTRAIT
    s.orientation = wda.LANDSCAPE
    assert s.orientation == wda.LANDSCAPE
    assert s.window_size() == (874, 402)
    assert s.screenshot().size == (2622, 1206)
    root = ET.fromstring(s.source().encode())
    assert (root.get("width"), root.get("height")) == ("874", "402")
    s.orientation = wda.PORTRAIT
    assert s.window_size() == (402, 874)


def test_orientation_is_refused_where_ios_refuses_it(client):
    s = client.session(SETTINGS)
    with pytest.raises(wda.WDAError):
        s.orientation = wda.LANDSCAPE  # Settings on an iPhone stays portrait
    assert s.orientation == wda.PORTRAIT and s.window_size() == (402, 874)
    s.app_launch(SAFARI)  # the phone is still held sideways: Safari comes up turned
    assert s.orientation == wda.LANDSCAPE
    client.home()
    assert s.orientation == wda.PORTRAIT  # the home screen never turns on an iPhone


def test_deactivate_comes_back_to_the_app_with_its_state(client):
    s = client.session(SETTINGS)
    s(label="General").click()
    s.deactivate(0.5)
    assert client.app_current()["bundleId"] == SETTINGS
    assert s(name="About").exists


def test_pasteboard(client, raw):
    s = client.session(SETTINGS)
    s.set_clipboard("copied text")
    got = raw("POST", f"/session/{s.session_id}/wda/getPasteboard", {"contentType": "plaintext"})
    assert base64.b64decode(got.value) == b"copied text"
    free = raw("POST", "/wda/getPasteboard", {})  # WDA serves it without a session too
    assert base64.b64decode(free.value) == b"copied text"


def test_alerts(probe_sim):
    client = wda.Client(probe_sim.url)
    s = client.session("com.example.probe")
    assert s.alert.exists is False
    s(name="Show Alert").click()
    assert s.alert.wait(1)
    assert s.alert.text == "Allow Access?\nThe probe wants to know."
    assert s.alert.buttons() == ["Cancel", "Allow"]
    assert client.alert.text == s.alert.text  # the session-free form
    s.alert.click("Cancel")
    s(name="Show Alert").click()
    assert s.alert.click_exists(["Allow"]) == "Allow"
    s(name="Show Alert").click()
    client.alert.dismiss()
    state = probe_sim.phone.running_state("com.example.probe")
    assert state.answers == ["Cancel", "Allow", "Cancel"]


def test_appium_settings(client):
    s = client.session()
    settings = s.appium_settings()
    assert len(settings) == 33
    assert settings["snapshotMaxDepth"] == 50 and settings["keyboardAutocorrection"] == 0
    assert settings["shouldUseCompactResponses"] is True
    assert settings["screenshotOrientation"] == "auto"
    changed = s.appium_settings({"snapshotMaxDepth": 30, "noSuchSetting": 1,
                                 "screenshotOrientation": "LandscapeLeft"})
    assert changed["snapshotMaxDepth"] == 30 and "noSuchSetting" not in changed
    assert changed["screenshotOrientation"] == "landscapeLeft"
    assert client.session().appium_settings()["snapshotMaxDepth"] == 50  # a new session resets


def test_a_double_tap_that_opens_a_page_opens_only_that_page(client):
    """The second tap lands while the page slides in, and a phone drops it: a double tap on
    General opens General, not whatever row of General lies under the finger."""
    s = client.session(SETTINGS)
    x, y = s(label="General", className="Button").get(timeout=2).bounds.center
    s.double_tap(x, y)
    assert s(className="NavigationBar", name="General").wait(2)
    assert s(label="About").exists, "still on General, not on the row below the finger"


def test_a_double_tap_on_a_switch_flips_it_twice(client, sim):
    s = client.session(SETTINGS)
    s(label="General", className="Button").get(timeout=2).tap()
    s(label="Date & Time").get(timeout=2).tap()
    knob = s(xpath='//XCUIElementTypeSwitch[@label="24-Hour Time"]/XCUIElementTypeSwitch').get(
        timeout=2)
    x, y = knob.bounds.center
    s.double_tap(x, y)
    assert sim.state()["stores"]["com.apple.Preferences"].get("time_24h") is False
