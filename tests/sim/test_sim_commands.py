"""WDA's other commands on the simulator: element pixels, pasteboard, keyboard, gesture edges."""

from __future__ import annotations

import base64
import io

import pytest
from PIL import Image

SETTINGS, SAFARI = "com.apple.Preferences", "com.apple.mobilesafari"


@pytest.fixture
def settings(client):
    return client.session(SETTINGS)


def test_element_screenshots_cut_the_element_out_of_the_screen(settings, raw):
    sid = settings.session_id
    general = settings(label="General").get()
    for path in (f"/session/{sid}/element/{general.id}/screenshot",
                 f"/session/{sid}/screenshot/{general.id}"):
        png = Image.open(io.BytesIO(base64.b64decode(raw("GET", path).value)))
        assert png.size == (general.bounds.width * 3, general.bounds.height * 3)
    settings.home()  # an icon on a home-screen page not showing has a zero frame
    hidden = settings(label="Calculator", className="Icon").get()
    assert hidden.bounds.width == 0
    reply = raw("GET", f"/session/{sid}/element/{hidden.id}/screenshot")
    assert (reply.status, reply.value["error"]) == (500, "unable to capture screen")


def test_pasteboard_round_trip_and_errors(settings, raw):
    sid = settings.session_id
    url = base64.b64encode(b"https://example.com/").decode()
    assert raw("POST", "/wda/setPasteboard", {"content": url, "contentType": "url"}).status == 200
    got = raw("POST", f"/session/{sid}/wda/getPasteboard", {"contentType": "url"}).value
    assert base64.b64decode(got) == b"https://example.com/"
    odd = raw("POST", "/wda/setPasteboard", {"content": url, "contentType": "rtf"})
    assert (odd.status, odd.value["error"]) == (500, "unknown error")


def test_keyboard_dismiss_presses_a_named_key(client, raw):
    s = client.session(SAFARI)
    sid = s.session_id
    assert raw("POST", f"/session/{sid}/wda/keyboard/dismiss", {}).value is None  # no keyboard
    s(name="TabBarItemTitle").click()
    assert s(className="Keyboard").exists
    refused = raw("POST", f"/session/{sid}/wda/keyboard/dismiss", {})
    assert (refused.status, refused.value["error"]) == (400, "invalid element state")
    # WDA looks among the keyboard's own keys and buttons: Safari's Cancel beside the address
    # field is none of them (FBKeyboard's findMatchingKeys, under app.keyboard)
    beside = raw("POST", f"/session/{sid}/wda/keyboard/dismiss", {"keyNames": ["Cancel"]})
    assert (beside.status, beside.value["error"]) == (400, "invalid element state")
    assert s(className="Keyboard").exists
    done = raw("POST", f"/session/{sid}/wda/keyboard/dismiss", {"keyNames": ["Done", "Go"]})
    assert done.status == 200 and not s(className="Keyboard").exists


def test_gesture_arguments_are_checked_as_wda_checks_them(settings, raw):
    sid = settings.session_id
    half = raw("POST", f"/session/{sid}/wda/tap", {"x": 10})
    assert (half.status, half.value["message"]) == (400, "Both x and y coordinates must be "
                                                         "provided")
    swipe = raw("POST", f"/session/{sid}/wda/swipe", {"direction": "sideways"})
    assert swipe.value["error"] == "invalid argument"
    scroll = raw("POST", f"/session/{sid}/wda/scroll", {})
    assert scroll.value["message"] == "Unsupported scroll type"
    taps = raw("POST", f"/session/{sid}/wda/tapWithNumberOfTaps", {"numberOfTaps": 2})
    assert taps.value["error"] == "invalid argument"
    for gesture, body in (("pinch", {"scale": 2, "velocity": 1}),
                          ("rotate", {"rotation": 1, "velocity": 1}), ("twoFingerTap", {})):
        assert raw("POST", f"/session/{sid}/wda/{gesture}", body).status == 200
    assert settings(label="General").exists and not settings(name="About").exists


def test_element_gestures_taps_and_visible_cells(settings, raw):
    sid = settings.session_id
    general = settings(label="General").get()
    table = settings(className="CollectionView").get()  # iOS 26's Settings root
    cells = raw("GET", f"/session/{sid}/wda/element/{table.id}/getVisibleCells").value
    assert cells and all(c["ELEMENT"] for c in cells)
    camera = settings(name="com.apple.settings.camera").get()  # the next row below the fold
    assert raw("POST", f"/session/{sid}/wda/element/{camera.id}/scrollTo").status == 200
    assert settings(name="com.apple.settings.camera").get().displayed
    raw("POST", f"/session/{sid}/wda/element/{table.id}/scroll", {"name": general.name})
    assert raw("POST", f"/session/{sid}/wda/element/{general.id}/tapWithNumberOfTaps",
               {"numberOfTaps": 1, "numberOfTouches": 1}).status == 200
    assert settings(name="About").exists


def test_a_simulated_location_is_kept_reported_and_cleared(settings, raw):
    nowhere = {"latitude": None, "longitude": None, "uniquenessThreshold": None}
    assert raw("GET", "/wda/simulatedLocation").value == nowhere
    sid = settings.session_id
    assert raw("POST", f"/session/{sid}/wda/simulatedLocation",
               {"latitude": 48.85, "longitude": 2.35}).status == 200
    assert raw("GET", "/wda/simulatedLocation").value["latitude"] == 48.85
    refused = raw("POST", "/wda/simulatedLocation", {"latitude": "north"})
    assert (refused.status, refused.value["error"]) == (400, "invalid argument")
    assert raw("DELETE", "/wda/simulatedLocation").status == 200
    assert raw("GET", "/wda/simulatedLocation").value == nowhere


def test_deactivate_appearance_and_alert_typing(settings, raw, client):
    sid = settings.session_id
    assert raw("POST", f"/session/{sid}/wda/deactivateApp", {"duration": 1}).status == 200
    assert client.app_current()["bundleId"] == SETTINGS
    assert raw("POST", "/wda/device/appearance", {"name": "dark"}).status == 200
    assert raw("GET", "/wda/device/info").value["userInterfaceStyle"] == "dark"
    no_alert = raw("POST", f"/session/{sid}/alert/text", {"value": "x"})
    assert (no_alert.status, no_alert.value["error"]) == (404, "no such alert")
