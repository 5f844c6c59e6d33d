"""Settings: the root list, scrolling, navigation and back, search, switches, About's facts."""

from __future__ import annotations

import pytest
import wda
from lxml import etree

from phoneshell.sim import DeviceFacts, SimServer

SETTINGS = "com.apple.Preferences"
ROOT_ROWS = ["Wi-Fi", "Bluetooth", "Cellular", "Battery", "General", "Accessibility", "Camera",
             "Display & Brightness", "Home Screen & App Library", "Search", "Siri", "StandBy",
             "Wallpaper", "Notifications", "Sounds & Haptics", "Focus", "Screen Time",
             "Privacy & Security", "App Store", "Wallet", "Apps", "Developer"]


@pytest.fixture
def settings(client: wda.Client) -> wda.Client:
    """A session on a freshly launched Settings."""
    return client.session(SETTINGS)


def cells(client: wda.Client, visible_only: bool = False) -> list[str]:
    root = etree.fromstring(client.source().encode())
    return [c.get("label") for c in root.iter("XCUIElementTypeCell")
            if not visible_only or c.get("visible") == "true"]


def title(client: wda.Client) -> str:
    root = etree.fromstring(client.source().encode())
    return root.find(".//XCUIElementTypeNavigationBar").get("name")


def test_root_list_has_a_real_phones_rows_in_order(settings, client):
    labels = cells(client)
    assert [r for r in labels if r in ROOT_ROWS] == ROOT_ROWS
    assert labels[-1] == "Developer"
    assert "Developer" not in cells(client, visible_only=True)  # needs scrolling


def test_scrolling_to_the_bottom_and_back(settings, client):
    for _ in range(6):
        settings.swipe_up()
    visible = cells(client, visible_only=True)
    assert "Developer" in visible and "General" not in visible
    before = client.source()
    settings.swipe_up()
    assert client.source() == before  # already at the end: the list does not move
    for _ in range(6):
        settings.swipe_down()
    assert "General" in cells(client, visible_only=True)


def test_general_about_model_number(settings, client):
    settings(name="General").click()
    assert title(client) == "General"
    settings(name="About").click()
    cell = settings(name="ProductModel").get(timeout=1)
    assert cell.label == "Model Number, MQ163LL/A"
    assert settings(className="StaticText", name="MQ163LL/A").exists
    assert settings(name="SerialNumber").get(timeout=1).label.startswith("Serial Number, ")
    assert settings(name="SW_VERSION_SPECIFIER").get(timeout=1).label == "iOS Version, 26.2"


def test_back_button_is_labelled_with_the_previous_page(settings, client):
    settings(name="General").click()
    settings(name="About").click()
    back = settings(name="BackButton").get(timeout=1)
    assert back.label == "General"
    back.click()
    assert title(client) == "General"
    settings(name="BackButton").click()
    assert title(client) == "Settings"
    assert not settings(name="BackButton").exists


def test_edge_swipe_goes_back(settings, client):
    settings(name="General").click()
    settings(name="About").click()
    settings.swipe_right()  # from x=1: the left edge
    assert title(client) == "General"
    settings.swipe(10, 400, 300, 420)
    assert title(client) == "Settings"


def test_search_lists_and_opens_a_page(settings, client):
    settings(className="SearchField").click()
    settings.send_keys("Wi-Fi")
    assert cells(client) == ["Wi-Fi"]
    assert settings(name="Cancel").exists
    settings(label="Wi-Fi", className="Cell").click()
    assert title(client) == "Wi-Fi"
    assert not settings(className="Keyboard").exists


def test_search_result_opens_with_its_parents_underneath(settings, client):
    settings(className="SearchField").click()
    settings.send_keys("Storage\n")  # Return dismisses the keyboard and keeps the results
    assert not settings(className="Keyboard").exists
    assert "iPhone Storage" in cells(client)
    settings(label="iPhone Storage", className="Cell").click()
    assert title(client) == "iPhone Storage"
    assert settings(name="BackButton").get(timeout=1).label == "General"


def test_search_cancel_restores_the_list(settings, client):
    settings(className="SearchField").click()
    settings.send_keys("zzz")
    assert cells(client) == ["No Results"]
    settings(name="Cancel").click()
    assert "General" in cells(client)


def test_wifi_switch_toggles(settings, client):
    settings(label="Wi-Fi", className="Cell").click()
    switch = settings(className="Switch", label="Wi-Fi").get(timeout=1)
    assert switch.value == "1"
    assert settings(label="HomeNet, Connected").exists
    switch.click()
    assert settings(className="Switch", label="Wi-Fi").get(timeout=1).value == "0"
    assert not settings(label="HomeNet, Connected").exists
    settings(name="BackButton").click()
    assert settings(label="Wi-Fi", className="Cell").get(timeout=1).value == "Off"


def test_bluetooth_and_battery_pages(settings, client):
    settings(label="Bluetooth", className="Cell").click()
    assert settings(className="Switch", label="Bluetooth").get(timeout=1).value == "1"
    settings(name="BackButton").click()
    settings(label="Battery", className="Cell").click()
    assert settings(label="Battery Level, 87%").exists
    assert settings(className="Switch", label="Battery Percentage").exists
    assert settings(label="Battery Health", className="Cell").exists


def test_text_size_has_a_slider_and_larger_text(settings, client):
    settings(label="Display & Brightness", className="Cell").click()
    settings(label="Text Size", className="Cell").click()
    slider = settings(className="Slider", label="Text Size").get(timeout=1)
    assert slider.value == "50%"
    assert settings(label="Larger Text", className="Cell").exists
    slider.set_text("80%")
    assert settings(className="Slider", label="Text Size").get(timeout=1).value == "80%"
    x, y = slider.bounds.center
    settings.swipe(x, y, x - 100, y)
    assert settings(className="Slider", label="Text Size").get(timeout=1).value != "80%"


@pytest.mark.parametrize(("path", "expect"), [
    (["Accessibility"], "Display & Text Size"),
    (["General", "Software Update"], "iOS is up to date"),
    (["General", "iPhone Storage"], "Photos, 21.3 GB"),
    (["General", "Date & Time"], "24-Hour Time"),
    (["General", "Fonts"], "No fonts installed"),
    (["General", "Keyboard"], "Predictive Text"),
    (["Accessibility", "Motion"], "Reduce Motion"),
])
def test_pages_reachable_by_taps(settings, path, expect):
    for label in path:
        settings(label=label, className="Cell").click()
    assert settings(label=expect).exists


def test_rows_scrolled_past_are_recovered(settings, client):
    for _ in range(3):
        settings.swipe_up()
    assert "General" not in cells(client, visible_only=True)
    settings.swipe_down()
    settings.swipe_down()
    settings(label="General", className="Cell").click()
    assert title(client) == "General"


def test_device_facts_are_configurable():
    facts = DeviceFacts(model_number="A3256LL/A", name="Ada's iPhone")
    with SimServer(facts=facts) as sim:
        session = wda.Client(sim.url).session(SETTINGS)
        session(name="General").click()
        session(name="About").click()
        assert session(name="ProductModel").get(timeout=1).label == "Model Number, A3256LL/A"
        assert session(name="NAME_CELL_ID").get(timeout=1).label == "Name, Ada's iPhone"
