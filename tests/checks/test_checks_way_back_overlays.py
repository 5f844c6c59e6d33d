"""The way back with the app covered on the way: `tapped`'s `back` on `settings.back.twice`,
against the simulated iPhone, through the bridge, with facebook-wda.

Red team 56: General, About, the back button, Control Center opened and closed with nothing
tapped in it, the back button again, failed "the way back must be the app's own", since
SpringBoard in front at all counted as leaving. On iOS Control Center, Notification Center and
home only cover the app: it comes back on the page it left, its navigation kept, and the backs
after count. What resets or bypasses the navigation still fails: a relaunch, a deep link,
another app, a Spotlight result that opens Settings on another page than it left.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import wda
from checks.test_checks_way_back import into_about
from checks.test_checks_way_back import (
    test_the_apps_own_way_back_passes as the_apps_own_way_back_passes,
)
from played_finish import Play, failed_checks, played

from phoneshell.sim import SimServer
from phoneshell.tasks import Task


def back(c: wda.Client) -> None:
    c.session()(name="BackButton").click()


def control_center(c: wda.Client) -> None:
    c.swipe(380, 2, 380, 450, 0.2)


def notification_center(c: wda.Client) -> None:
    c.swipe(100, 2, 100, 450, 0.2)


def from_the_bottom(c: wda.Client) -> None:
    """A swipe up from the bottom edge: over an overlay it closes it, back to the app."""
    c.swipe(200, c.window_size().height - 5, 200, 300, 0.2)


def control_center_peek(c: wda.Client) -> None:
    """The red team's: Control Center opened and closed by a tap on its empty space."""
    into_about(c)
    back(c)
    control_center(c)
    c.click(200, 800)
    back(c)


def control_center_swiped_away(c: wda.Client) -> None:
    into_about(c)
    control_center(c)
    from_the_bottom(c)
    back(c)
    back(c)


def notification_center_peek(c: wda.Client) -> None:
    into_about(c)
    back(c)
    notification_center(c)
    c.swipe(200, 600, 200, 150, 0.2)  # an upward drag dismisses it back to the app
    back(c)


def notification_center_swiped_away(c: wda.Client) -> None:
    into_about(c)
    notification_center(c)
    from_the_bottom(c)
    back(c)
    back(c)


def home_and_icon(c: wda.Client) -> None:
    """Home, then the icon: Settings resumes on About, and the agent backs out from there."""
    into_about(c)
    c.home()
    c.session()(label="Settings", className="XCUIElementTypeIcon").click()
    back(c)
    back(c)


def deactivated(c: wda.Client) -> None:
    """XCTest's deactivate: home and back in one request, Settings resumed on About."""
    into_about(c)
    c.session().deactivate(0.5)
    back(c)
    back(c)


def spotlight(c: wda.Client, query: str, result: str) -> None:
    """Home, Spotlight, `query` typed, the result `result` tapped."""
    c.home()
    s = c.session()
    s.swipe(200, 300, 200, 600, 0.2)
    s.send_keys(query)
    s(label=result, className="XCUIElementTypeCell").click()


def spotlight_app_result(c: wda.Client) -> None:
    """Spotlight's Settings (the app, not a page): it resumes on About, as its icon does."""
    into_about(c)
    spotlight(c, "Settings", "Settings")
    back(c)
    back(c)


def spotlight_to_another_page(c: wda.Client) -> None:
    """A Spotlight result opens General > Fonts, General under it: two backs reach the main
    list without backing out of About at all."""
    into_about(c)
    spotlight(c, "Fonts", "Fonts")
    back(c)
    back(c)


def another_app_between(c: wda.Client) -> None:
    into_about(c)
    back(c)
    c.home()
    c.session()(label="Clock", className="XCUIElementTypeIcon").click()
    c.home()
    c.session()(label="Settings", className="XCUIElementTypeIcon").click()
    back(c)


@pytest.mark.parametrize("play", [control_center_peek, control_center_swiped_away,
                                  notification_center_peek, notification_center_swiped_away,
                                  home_and_icon, deactivated,
                                  spotlight_app_result], ids=lambda p: p.__name__)
@pytest.mark.slow  # 1.7 s measured: the README's command stays quick
def test_an_overlay_or_home_between_backs_passes(play: Play, sim: SimServer, tmp_path: Path,
                                                 suite: dict[str, Task]) -> None:
    the_apps_own_way_back_passes(play, sim, tmp_path, suite)


@pytest.mark.parametrize(("play", "seen"), [
    (spotlight_to_another_page, "came back on another screen than it left"),
    (another_app_between, "com.apple.mobiletimer was in front"),
], ids=lambda p: getattr(p, "__name__", ""))
def test_a_page_opened_another_way_or_another_app_fails(play: Play, seen: str, sim: SimServer,
                                                        tmp_path: Path,
                                                        suite: dict[str, Task]) -> None:
    row = played(sim, tmp_path, suite["settings.back.twice"], play)
    failed = failed_checks(row)
    # the end screen is the main list all the same: only the way back fails
    assert set(failed) == {"tapped"}, failed
    assert seen in failed["tapped"] and "the way back must be the app's own" in failed["tapped"]
