"""What SpringBoard reports where the real iOS 26 dumps show it: the Calendar icon's date, and
Notification Center's status bar and big clock (red team 95: RT95-5, RT95-7)."""

from __future__ import annotations

import wda
from lxml import etree

from phoneshell.sim import SimServer

CALENDAR_DATE = "Tuesday, January 9"  # the simulator's default day, en_US


def _element(client: wda.Client, xpath: str) -> etree._Element:
    found = etree.fromstring(client.source().encode()).xpath(xpath)
    assert len(found) == 1, (xpath, len(found))
    return found[0]


def test_the_calendar_icon_carries_todays_date_on_and_off_its_page(app: wda.Client) -> None:
    # Page 1 shows Calendar; as in the iOS 26.5 dump, its value is the weekday and date.
    assert app(className="Icon", name="Calendar").get(timeout=2).value == CALENDAR_DATE
    assert app(predicate="type == 'XCUIElementTypeIcon' AND value CONTAINS 'January'").exists
    app.swipe_left()
    icon = _element(app, "//XCUIElementTypeIcon[@name='Calendar']")
    assert (icon.get("value"), icon.get("visible")) == (CALENDAR_DATE, "false")


def test_notification_center_reports_its_status_bar_shown_and_its_clock_hidden(
        app: wda.Client) -> None:
    app.swipe(60, 2, 60, 640)
    app(className="Window", name="SBCoverSheetWindow").get(timeout=2)
    for name in ("Cellular", "3 of 3 Wi-Fi bars", "87% battery power"):
        item = _element(app, f"//XCUIElementTypeStatusBar/*/*/*[@name='{name}']")
        assert item.get("visible") == "true", name
    assert _element(app, "//XCUIElementTypeStatusBar").get("visible") == "false"
    view = _element(app, "//*[@name='lockscreen-date-view']")
    assert (view.get("visible"), view.get("height")) == ("false", "874")
    date, clock = view
    # The time's name, label and value all read as VoiceOver does, as the dump's "7:46 PM".
    assert [clock.get(k) for k in ("name", "label", "value", "visible")] == [
        "9:41 AM", "9:41 AM", "9:41 AM", "false"]
    assert [date.get(k) for k in ("name", "visible", "accessible")] == [
        CALENDAR_DATE, "false", "true"]
    assert app(className="StaticText", label="9:41 AM").exists


def test_the_lock_screen_still_shows_its_date_and_clock() -> None:
    with SimServer() as sim:
        client = wda.Client(sim.url)
        client.lock()
        clock = _element(client, "//*[@name='lockscreen-date-view']/*[2]")
        assert [clock.get(k) for k in ("label", "visible")] == ["9:41 AM", "true"]
