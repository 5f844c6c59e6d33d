"""Calendar: the day view of today on launch, moving between day, week, month and year, Today."""

from __future__ import annotations

import re
from datetime import date

import pytest
import wda
from lxml import etree

from phoneshell.sim import DeviceFacts, SimServer
from phoneshell.sim.apps.calendar import add_months

CALENDAR = "com.apple.mobilecal"
WEEKDAY_PATTERN = re.compile(r"Mon|Tue|Wed|Thu|Fri|Sat|Sun")


@pytest.fixture
def cal(client: wda.Client) -> wda.Client:
    """A session on a freshly launched Calendar."""
    return client.session(CALENDAR)


def shown(client: wda.Client) -> list[str]:
    """Labels of the on-screen elements with one, in document order."""
    root = etree.fromstring(client.source().encode())
    return [e.get("label") for e in root.iter() if e.get("visible") == "true" and e.get("label")
            and e.get("type") not in ("XCUIElementTypeApplication",)]


def test_launch_shows_todays_day_view(cal, client):
    labels = shown(client)
    assert "Tuesday  January 9, 2024" in labels
    assert cal(name="BackButton").get(timeout=1).label == "January"
    today = cal(className="Button", name="9").get(timeout=1)
    assert today.selected() is True and today.label == "Today, Tuesday, January 9"
    assert cal(label="Team Stand-up").exists and cal(label="Today").exists
    # The weekday header and the date line already show weekday names, as on a real phone.
    assert any(WEEKDAY_PATTERN.search(t) for t in labels)


def test_weekday_headers_are_initials_in_pixels_and_names_in_the_source(cal):
    header = cal(className="StaticText", label="Sunday").get(timeout=1)
    assert header.bounds.width < 20


def test_back_goes_up_to_the_month_and_the_year(cal, client):
    cal(name="BackButton").click()
    labels = shown(client)
    assert "January" in labels and "Monday" in labels and "31" in labels
    assert not any(t.startswith("Tuesday  ") for t in labels)
    assert cal(name="BackButton").get(timeout=1).label == "2024"
    cal(name="BackButton").click()
    assert cal(className="Button", label="December").exists
    assert not cal(name="BackButton").exists
    cal(className="Button", label="March").click()
    assert "March" in shown(client) and cal(className="Button", label="31").exists
    cal(className="Button", label="15").click()
    assert "Friday  March 15, 2024" in shown(client)


def test_month_view_pages_up_and_down(cal, client):
    cal(name="BackButton").click()
    cal.swipe(201, 600, 201, 300)
    assert "February" in shown(client) and not cal(className="Button", label="30").exists
    cal.swipe(201, 300, 201, 600)
    cal.swipe(201, 300, 201, 600)
    assert "December" in shown(client)
    assert cal(name="BackButton").get(timeout=1).label == "2023"


def traits(client: wda.Client, name: str) -> str:
    """The traits of the button named `name` (WDA's XML source writes them)."""
    root = etree.fromstring(client.source().encode())
    return next(e.get("traits") for e in root.iter("XCUIElementTypeButton")
                if e.get("name") == name)


def test_only_the_day_shown_is_selected_and_only_today_says_today(cal, client):
    """What a screen needs to say it shows today, without knowing the date: the day shown is
    selected, and today's button is labelled "Today, ..." wherever it shows."""
    cal.swipe(300, 400, 80, 400)  # the next day: today's button still shows, not selected
    assert cal(className="Button", label="Today, Tuesday, January 9").exists
    assert "Selected" not in traits(client, "9") and "Selected" in traits(client, "10")
    assert cal(className="Button", name="10").get(timeout=1).label == "10"
    cal(name="View").click()
    cal(className="Button", label="Week").click()
    assert "Selected" in traits(client, "Wed 10")
    cal(name="Today").click()
    assert "Selected" in traits(client, "Tue 9") and "Selected" not in traits(client, "Wed 10")
    assert cal(className="Button", name="Tue 9").get(timeout=1).label.startswith("Today, ")
    cal(name="BackButton").click()  # the month: today says so, and is the one marked
    assert cal(className="Button", label="Today, Tuesday, January 9").exists
    assert "Selected" in traits(client, "9") and "Selected" not in traits(client, "10")
    cal.swipe(200, 600, 200, 300)  # the next month: no day of it is marked
    assert "Selected" not in traits(client, "9")


def test_today_returns_to_today(cal, client):
    cal.swipe(300, 400, 80, 400)  # the next day
    assert "Wednesday  January 10, 2024" in shown(client)
    cal(name="Today").click()
    assert "Tuesday  January 9, 2024" in shown(client)
    cal(name="BackButton").click()
    cal.swipe(201, 600, 201, 300)
    cal(name="Today").click()
    assert "January" in shown(client)


def test_the_view_sheet_switches_to_week_and_year(cal, client):
    cal(name="View").click()
    assert cal(className="Sheet").exists
    cal(className="Button", label="Week").click()
    assert not cal(className="Sheet").exists
    labels = shown(client)
    assert "Sun 7" in labels and "Sat 13" in labels
    assert "Tue 9: Team Stand-up" in labels
    cal(name="View").click()
    cal(className="Button", label="Year").click()
    assert cal(className="Button", label="January").exists
    cal(name="View").click()
    cal(className="Button", label="Cancel").click()
    assert not cal(className="Sheet").exists


def test_the_view_is_kept_and_the_date_forgotten_on_terminate(cal, client):
    """Calendar reopens on the view it stopped on (state restoration), showing today."""
    cal(name="BackButton").click()
    cal.swipe_up()
    assert not cal(label="January", className="StaticText").exists
    cal.app_terminate(CALENDAR)
    cal.app_launch(CALENDAR)
    assert cal(label="January", className="StaticText").exists


@pytest.mark.parametrize(("locale", "line", "first"), [
    ("en_US", "Monday  March 3, 2025", "Sunday"),
    ("en_GB", "Monday  3 March 2025", "Monday"),
])
def test_today_and_the_week_follow_the_device_date_and_locale(locale, line, first):
    with SimServer(facts=DeviceFacts(date="2025-03-03"), locale=locale) as sim:
        client = wda.Client(sim.url)
        client.session(CALENDAR)
        assert line in shown(client)
        root = etree.fromstring(client.source().encode())
        weekdays = [e.get("name") for e in root.iter("XCUIElementTypeStaticText")
                    if e.get("name", "").endswith("day") and len(e.get("name")) > 5]
        assert weekdays[0] == first


def test_add_months_clamps_the_day():
    assert add_months(date(2024, 1, 31), 1) == date(2024, 2, 29)
    assert add_months(date(2024, 1, 9), -1) == date(2023, 12, 9)
    assert add_months(date(2024, 1, 9), 12) == date(2025, 1, 9)
