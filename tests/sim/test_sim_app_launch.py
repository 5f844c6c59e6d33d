"""The ten everyday apps install with their real bundle ids and names, launch, and restart fresh."""

from __future__ import annotations

import pytest
from lxml import etree

APPS = [
    ("com.apple.weather", "Weather"), ("com.apple.reminders", "Reminders"),
    ("com.apple.mobilecal", "Calendar"), ("com.apple.MobileAddressBook", "Contacts"),
    ("com.apple.DocumentsApp", "Files"), ("com.apple.Maps", "Maps"),
    ("com.apple.iBooks", "Books"), ("com.apple.measure", "Measure"),
    ("com.apple.compass", "Compass"), ("com.apple.AppStore", "App Store"),
]


@pytest.mark.parametrize(("bundle_id", "name"), APPS)
def test_launch_brings_the_app_to_the_front_under_its_name(client, bundle_id, name):
    session = client.session(bundle_id)
    assert client.app_current()["bundleId"] == bundle_id
    root = etree.fromstring(client.source().encode())
    assert root.get("bundleId") == bundle_id
    assert root.get("name") == root.get("label") == name
    assert session.app_state(bundle_id).value == 4


def test_every_app_has_a_home_screen_icon_that_opens_it(app, client):
    root = etree.fromstring(client.source().encode())
    labels = {e.get("label") for e in root.iter("XCUIElementTypeIcon")}
    assert {name for _, name in APPS} <= labels
    app(className="Icon", label="Weather").click()  # on the first page
    assert client.app_current()["bundleId"] == "com.apple.weather"


def test_spotlight_finds_them(app, client):
    app.swipe(201, 300, 201, 620)
    app.send_keys("App St")
    app(className="Cell", label="App Store").click()
    assert client.app_current()["bundleId"] == "com.apple.AppStore"


def test_ui_state_survives_the_background_and_not_a_terminate(client):
    session = client.session("com.apple.DocumentsApp")
    session(className="Button", label="Browse").click()
    client.home()
    session.app_activate("com.apple.DocumentsApp")
    assert session(className="Button", label="Browse").get(timeout=1).value == "1"
    # Files keeps its last tab over a terminate, as iOS's does (tests/sim/test_restore_screens);
    # Settings reopens on its first page.
    session.app_launch("com.apple.Preferences")
    session(className="Button", label="General").click()
    assert session(className="NavigationBar", name="General").exists
    session.app_terminate("com.apple.Preferences")
    session.app_launch("com.apple.Preferences")
    assert session(className="Button", label="General").get(timeout=1)
    assert not session(className="NavigationBar", name="General").exists
