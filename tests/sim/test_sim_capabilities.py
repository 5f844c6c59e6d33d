"""Sessions, capabilities and Appium settings as WDA 16.x parses and reports them."""

from __future__ import annotations

from typing import Any

import pytest

from phoneshell.sim.settings import DEFAULTS
from phoneshell.xcui import HARMLESS_SETTINGS, WDA_SETTINGS

SETTINGS, SAFARI = "com.apple.Preferences", "com.apple.mobilesafari"


def create(raw, caps: Any, **extra: Any):
    return raw("POST", "/session", {"capabilities": caps, **extra})


def test_appium_prefixes_and_first_match_are_read_as_wda_reads_them(raw, sim):
    reply = create(raw, {"alwaysMatch": {"platformName": "iOS",
                                         "appium:automationName": "XCUITest"},
                         "firstMatch": [{"appium:bundleId": SETTINGS}]})
    assert reply.status == 200 and sim.state()["foreground"] == SETTINGS
    caps = reply.value["capabilities"]
    assert (caps["CFBundleIdentifier"], caps["browserName"]) == (SETTINGS, "Settings")
    assert reply.value["sessionId"] == reply.json["sessionId"]


def test_the_first_match_that_does_not_clash_wins(raw, sim):
    reply = create(raw, {"alwaysMatch": {"bundleId": SETTINGS},
                         "firstMatch": [{"appium:bundleId": SAFARI}, {"forceAppLaunch": False}]})
    assert reply.status == 200 and sim.state()["foreground"] == SETTINGS


def test_desired_capabilities_alone_are_ignored_as_wda_ignores_them(raw, sim):
    reply = create(raw, {}, desiredCapabilities={"bundleId": SETTINGS})
    assert reply.status == 200 and sim.state()["foreground"] == "com.apple.springboard"


@pytest.mark.parametrize(("body", "words"), [
    ({"desiredCapabilities": {"bundleId": SETTINGS}}, "'capabilities' is mandatory"),
    ({"capabilities": {"alwaysMatch": {"appium:platformName": "iOS"}}},
     "are standard and should not have the 'appium:' prefix"),
    ({"capabilities": {"alwaysMatch": {"bundleId": SETTINGS},
                       "firstMatch": [{"bundleId": SAFARI}]}},
     "Could not find matching capabilities"),
    ({"capabilities": {"alwaysMatch": {"bundleId": "com.example.none"}}},
     "'com.example.none' is not installed"),
])
def test_what_wda_refuses_is_session_not_created(raw, body, words):
    reply = raw("POST", "/session", body)
    assert (reply.status, reply.value["error"]) == (500, "session not created")
    assert words in reply.value["message"]


def test_a_refused_session_has_still_ended_the_old_one(raw, sim):
    # FBSessionCommands kills the active session before it reads the request.
    create(raw, {"alwaysMatch": {"bundleId": SETTINGS}})
    raw("POST", "/session", {})
    assert sim.state()["session"] is None and SETTINGS not in sim.state()["running"]


def test_force_app_launch_false_leaves_the_front_app_as_it_is(client, raw):
    client.app_launch(SETTINGS)
    client(label="General").click()
    create(raw, {"alwaysMatch": {"bundleId": SETTINGS, "forceAppLaunch": False}})
    assert client(name="About").exists


def test_initial_url_opens_in_its_app(raw, sim):
    reply = create(raw, {"alwaysMatch": {"bundleId": SAFARI,
                                         "appium:initialUrl": "https://example.com/"}})
    assert reply.status == 200 and sim.state()["foreground"] == SAFARI


def test_settings_have_wdas_keys_types_and_rules(client, raw):
    sid = client.session().session_id
    path = f"/session/{sid}/appium/settings"
    got = raw("GET", path).value
    assert got == DEFAULTS and len(got) == 33
    assert set(got) == WDA_SETTINGS  # the names the bridge refuses or lets through
    assert HARMLESS_SETTINGS < WDA_SETTINGS
    assert {k: type(v).__name__ for k, v in got.items()
            if k in ("keyboardPrediction", "waitForIdleTimeout", "elementResponseAttributes",
                     "limitXpathContextScope")} == {
        "keyboardPrediction": "int", "waitForIdleTimeout": "int",
        "elementResponseAttributes": "str", "limitXpathContextScope": "bool"}
    changed = raw("POST", path, {"settings": {
        "keyboardPrediction": True, "useFirstMatch": "YES", "snapshotMaxDepth": "12",
        "activeAppDetectionPoint": "10,20.5", "defaultAlertAction": "ACCEPT",
        "acceptAlertButtonSelector": None, "boundElementsByIndex": None}}).value
    assert (changed["keyboardPrediction"], changed["useFirstMatch"], changed["snapshotMaxDepth"]) \
        == (1, True, 12)
    assert changed["activeAppDetectionPoint"] == "10.00,20.50"
    assert changed["defaultAlertAction"] == "accept"
    assert changed["boundElementsByIndex"] is False  # null skips all but the selectors
    for bad in ({"screenshotOrientation": "sideways"}, {"activeAppDetectionPoint": "here"}):
        reply = raw("POST", path, {"settings": bad})
        assert (reply.status, reply.value["error"]) == (400, "invalid argument")
    assert raw("GET", "/appium/settings").value["error"] == "unknown command"  # session only


def test_timeouts_are_accepted_and_ignored(client, raw):
    sid = client.session().session_id
    assert raw("POST", f"/session/{sid}/timeouts", {"implicit": 5000}).value is None
    assert raw("GET", f"/session/{sid}/timeouts").value["error"] == "unknown command"
