"""Settings' Wi-Fi and Bluetooth pages as a phone names and words them (red team 124, RT124-4).

iOS names the Wi-Fi page's switch "Wi\u2011Fi" (U+2011 NON-BREAKING HYPHEN), as public Appium
tests against iOS 17-26.3 iPhones find it, while the root's row and the page's title are "Wi-Fi";
an agent that finds the switch by its exact name must find it here as on a phone. A radio's page
words its footer by the switch: nothing under Wi-Fi on (the networks follow), what still needs
it while off; Bluetooth's "discoverable" line only while on.
"""

from __future__ import annotations

import wda
from settings_screen import SETTINGS, title

OFF_WIFI = ("AirDrop, AirPlay, Notify When Left Behind, and improved location accuracy require "
            "Wi-Fi.")
OFF_BLUETOOTH = "AirDrop, AirPlay, Find My, and Location Services use Bluetooth."


def _knob(session: wda.Client, name: str) -> wda.Selector:
    return session(xpath=f"//XCUIElementTypeSwitch[@name='{name}']/XCUIElementTypeSwitch")


def test_the_wifi_switch_is_named_with_a_non_breaking_hyphen(client):
    settings = client.session(SETTINGS)
    settings(label="Wi-Fi", className="Button").get(timeout=1).tap()  # the root's row: ASCII
    assert title(client) == "Wi-Fi"
    switch = settings(className="Switch", name="Wi\u2011Fi").get(timeout=1)
    assert (switch.label, switch.value) == ("Wi-Fi", "1")
    assert not settings(className="Switch", name="Wi-Fi").exists
    assert not settings(name="Wi-Fi networks appear here when Wi-Fi is on.").exists
    assert not settings(name=OFF_WIFI).exists  # on: the networks follow the switch
    _knob(settings, "Wi\u2011Fi").get(timeout=1).tap()
    assert settings(className="Switch", name="Wi\u2011Fi").get(timeout=1).value == "0"
    assert settings(name=OFF_WIFI).get(timeout=1).visible
    assert not settings(label="Other Networks").exists
    _knob(settings, "Wi\u2011Fi").get(timeout=1).tap()
    assert settings(className="Switch", name="Wi\u2011Fi").get(timeout=1).value == "1"
    assert not settings(name=OFF_WIFI).exists


def test_bluetooths_footer_follows_its_switch(client):
    settings = client.session(SETTINGS)
    settings(label="Bluetooth", className="Button").get(timeout=1).tap()
    discoverable = settings(nameContains="is discoverable as")
    assert discoverable.exists and not settings(name=OFF_BLUETOOTH).exists
    _knob(settings, "Bluetooth").get(timeout=1).tap()
    assert settings(name=OFF_BLUETOOTH).get(timeout=1).visible
    assert not discoverable.exists
