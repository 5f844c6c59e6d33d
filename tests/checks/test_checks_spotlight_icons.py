"""An icon tapped in SpringBoard is described by the screen the log shows it was on, never by a
guess (red team 108): Calculator tapped among Spotlight's suggestions, before anything was typed,
fails system.spotlight.find_app as no search, but was called "a home-screen icon". Each finish
is played with facebook-wda through the bridge on the simulated iPhone.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import wda
from key_typists import open_spotlight
from played_finish import Play, failed_checks, played

from phoneshell.sim import SimServer
from phoneshell.tasks import Task, load_task

ICON = {"className": "XCUIElementTypeIcon"}


def icon(c: wda.Client, name: str) -> None:
    c(name=name, **ICON).click()


def from_the_pill(c: wda.Client) -> str:
    """The home screen's Search pill opens Spotlight; a suggestion's icon is tapped."""
    c.home()
    c(name="spotlight-pill").click()
    icon(c, "Calculator")
    return ""


def pulled_down(c: wda.Client) -> str:
    open_spotlight(c)
    icon(c, "Calculator")
    return ""


def typed_and_deleted(c: wda.Client) -> str:
    """A letter typed and deleted: the suggestions show again, and one is tapped."""
    open_spotlight(c)
    c.send_keys("z")
    c.send_keys("\b")
    icon(c, "Calculator")
    return ""


def paged(c: wda.Client) -> str:
    c.home()
    c.swipe(350, 500, 50, 500, 0.2)
    icon(c, "Calculator")
    return ""


@pytest.mark.parametrize("play", [from_the_pill, pulled_down, typed_and_deleted],
                         ids=["pill", "pulled-down", "typed-and-deleted"])
def test_a_suggestions_icon_is_named_so(sim: SimServer, tmp_path: Path,
                                        suite: dict[str, Task], play: Play) -> None:
    row = played(sim, tmp_path, suite["system.spotlight.find_app"], play)
    detail = failed_checks(row)["opened_via_spotlight"]
    assert "an icon among Spotlight's suggestions, with nothing typed in its search (on the " \
           "screen #" in detail and "home-screen" not in detail, detail
    assert (" tap 'Search' showed" in detail) == (play is from_the_pill), detail


def test_an_icon_on_a_page_swiped_to_is_named_so(sim: SimServer, tmp_path: Path,
                                                 suite: dict[str, Task]) -> None:
    row = played(sim, tmp_path, suite["system.spotlight.find_app"], paged)
    detail = failed_checks(row)["opened_via_spotlight"]
    assert " swipe showed, sideways from the home screen: another home-screen page, or the " \
           "App Library" in detail, detail


def home_icon(c: wda.Client) -> str:
    c.home()
    icon(c, "Weather")
    return ""


def test_a_home_screen_icon_is_named_so(sim: SimServer, tmp_path: Path,
                                        environments: Path) -> None:
    """Weather's icon, on the first home page, tapped after Home (the task's copy asks for
    Weather through Spotlight)."""
    text = (environments / "system.spotlight.find_app.yaml").read_text()
    copy = tmp_path / "system.spotlight.find_app.yaml"
    copy.write_text(text.replace("com.apple.calculator", "com.apple.weather"))
    row = played(sim, tmp_path / "runs", load_task(copy), home_icon)
    detail = failed_checks(row)["opened_via_spotlight"]
    assert "a home-screen icon (on the screen #" in detail and " home showed)" in detail, detail
