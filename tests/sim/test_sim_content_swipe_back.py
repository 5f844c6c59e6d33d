"""iOS 26's full-screen swipe back: a rightward drag starting anywhere on a pushed page's
content goes back, not only one from the left edge; one starting on what takes sideways drags
itself (a slider, a switch, a row's swipe actions, a web page) does what that does instead."""

from __future__ import annotations

import re

import pytest
import wda

SETTINGS, NOTES, SAFARI = "com.apple.Preferences", "com.apple.mobilenotes", "com.apple.mobilesafari"


def _title(client: wda.Client) -> str:
    titles = re.findall(r'NavigationBar[^>]*name="([^"]*)"', client.source())
    return titles[0] if titles else ""


@pytest.fixture
def about(client: wda.Client) -> wda.Client:
    """Settings > General > About."""
    session = client.session(SETTINGS)
    session(name="com.apple.settings.general").click()
    session(name="About").click()
    assert _title(client) == "About"
    return session


@pytest.mark.parametrize("from_x", [60, 120, 201])
def test_a_rightward_drag_mid_page_goes_back(about: wda.Client, client: wda.Client,
                                             from_x: int) -> None:
    about.swipe(from_x, 450, 395, 450, 0.1)
    assert _title(client) == "General"
    about.swipe(from_x, 450, 395, 450, 0.1)
    assert _title(client) == "Settings"
    about.swipe(from_x, 450, 395, 450, 0.1)  # the root page has nothing to go back to
    assert _title(client) == "Settings"


def test_a_leftward_vertical_or_short_drag_does_not(about: wda.Client, client: wda.Client) -> None:
    about.swipe(395, 450, 60, 450, 0.1)
    about.swipe(200, 300, 220, 600, 0.1)
    about.swipe(200, 450, 240, 450, 0.1)  # 40 points: a finger that barely moved
    assert _title(client) == "About"


def test_a_slider_takes_the_drag_instead(client: wda.Client) -> None:
    session = client.session(SETTINGS)
    session.swipe_up()
    session(label="Display & Brightness", className="Button").click()
    session(label="Text Size", className="Cell").click()
    slider = session(className="Slider", label="Text Size").get(timeout=3)
    x, y = slider.bounds.center
    session.swipe(x, y, x + 100, y, 0.1)
    assert _title(client) == "Text Size"
    assert session(className="Slider", label="Text Size").get(timeout=3).value != "50%"


def test_a_note_row_takes_a_rightward_drag_for_its_leading_action(client: wda.Client) -> None:
    session = client.session(NOTES)
    assert _title(client) == "Notes"  # pushed from Folders
    row = session(className="Cell", index=1).get(timeout=3)  # a note (the first holds search)
    x, y = row.bounds.center
    session.swipe(60, y, 395, y, 0.1)
    assert _title(client) == "Notes"
    # the toolbar under the list, above the home indicator (lower, the drag switches apps)
    session.swipe(60, 815, 395, 815, 0.1)
    assert _title(client) == "Folders"


def test_a_web_page_goes_back_only_from_the_edge(client: wda.Client) -> None:
    session = client.session(SAFARI)
    session.open_url("https://example.com/")
    session(label="More information...", className="Link").get(timeout=3).click()
    assert session(label="Example Domains", className="StaticText").exists
    session.swipe(120, 400, 395, 400, 0.1)
    assert session(label="Example Domains", className="StaticText").exists
