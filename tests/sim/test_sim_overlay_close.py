"""Closing Control Center and Notification Center back to the app, through facebook-wda.

On a Face ID iPhone a swipe up from the bottom edge over Control Center (or Notification
Center pulled over an app) closes it, back to the app underneath on the page it was on; it does
not go home (red team 56: the simulator went home, so an agent that peeked at Control Center
lost its place). A swipe up mid-screen in Control Center pages through its pages on iOS 18+:
it closes nothing.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
import wda

from phoneshell.sim import SimServer

PREFS, SPRINGBOARD = "com.apple.Preferences", "com.apple.springboard"


def on_about(sim: SimServer) -> wda.Client:
    """Settings open on General > About."""
    c = wda.Client(sim.url)
    c.app_launch(PREFS)
    s = c.session()
    s(label="General", className="XCUIElementTypeButton").click()
    s(label="About").click()
    assert s(label="Model Number").exists
    return c


def front(c: wda.Client) -> str:
    return str(c.app_current()["bundleId"])


def pull_control_center(c: wda.Client) -> None:
    c.swipe(380, 2, 380, 450, 0.2)
    assert front(c) == SPRINGBOARD and c(name="ControlCenterView").exists


def pull_notification_center(c: wda.Client) -> None:
    c.swipe(100, 2, 100, 450, 0.2)
    assert front(c) == SPRINGBOARD and c(name="SBCoverSheetWindow").exists


@pytest.mark.parametrize("pull", [pull_control_center, pull_notification_center],
                         ids=["control-center", "notification-center"])
def test_a_swipe_up_from_the_bottom_edge_closes_it_back_to_the_app_on_its_page(
        sim: SimServer, pull: Callable[[wda.Client], None]) -> None:
    c = on_about(sim)
    pull(c)
    height = c.window_size().height
    c.swipe(200, height - 5, 200, 300, 0.2)
    assert front(c) == PREFS
    assert c(label="Model Number").exists  # still on About, not on the main list


def test_a_swipe_up_mid_screen_leaves_control_center_open(sim: SimServer) -> None:
    c = on_about(sim)
    pull_control_center(c)
    c.swipe(200, 700, 200, 150, 0.2)
    assert front(c) == SPRINGBOARD and c(name="ControlCenterView").exists


def test_a_swipe_up_from_the_bottom_edge_over_an_app_still_goes_home(sim: SimServer) -> None:
    c = on_about(sim)
    c.swipe(200, c.window_size().height - 5, 200, 300, 0.2)
    assert front(c) == SPRINGBOARD and not c(name="ControlCenterView").exists
    assert c(label="Settings", className="XCUIElementTypeIcon").exists  # the home screen


def test_over_the_home_screen_it_closes_to_the_home_screen(sim: SimServer) -> None:
    c = wda.Client(sim.url)
    c.home()
    pull_control_center(c)
    c.swipe(200, c.window_size().height - 5, 200, 300, 0.2)
    assert front(c) == SPRINGBOARD and not c(name="ControlCenterView").exists
    assert c(label="Settings", className="XCUIElementTypeIcon").exists
