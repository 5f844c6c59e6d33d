"""The screens `fidelity.py` compares: each real dump's file, and how a fresh simulator is driven
to the same screen with the unmodified facebook-wda client over HTTP."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Callable

import wda

SETTINGS, SAFARI = "com.apple.Preferences", "com.apple.mobilesafari"
CLOCK = "com.apple.mobiletimer"


def _wait(check: Callable[[], bool], what: str, timeout_s: float = 5.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not check():
        if time.monotonic() > deadline:
            raise RuntimeError(f"the simulator never showed {what}")
        time.sleep(0.02)


def _notify(sim_url: str) -> None:
    """Post a notification through the simulator's control route (no app here posts one)."""
    request = urllib.request.Request(
        f"{sim_url}/phoneshell/sim/notify", method="POST",
        data=json.dumps({"app": CLOCK, "title": "Timer", "body": "Your timer is done"}).encode())
    with urllib.request.urlopen(request, timeout=10):
        pass


def _settings(*path: str) -> Reach:
    def reach(client: wda.Client, sim_url: str) -> None:
        session = client.session(SETTINGS)
        for label in path:
            session(label=label).get(timeout=5).tap()
        if path:
            _wait(lambda: session(className="NavigationBar", name=path[-1]).exists, path[-1])
    return reach


def _safari_start(client: wda.Client, sim_url: str) -> None:
    client.session(SAFARI)


def _safari_share(client: wda.Client, sim_url: str) -> None:
    session = client.session()
    session.open_url("https://squoosh.app/")
    session(name="MoreMenuButton").get(timeout=5).tap()
    session(label="Share\u2026").get(timeout=5).tap()
    _wait(lambda: session(className="Popover").exists, "the share sheet")


def _home_page_two(client: wda.Client, sim_url: str) -> None:
    session = client.session()
    session.swipe_left()
    _wait(lambda: session(className="PageIndicator", value="Page 2 of 2").exists, "page 2")


def _notification_center(client: wda.Client, sim_url: str) -> None:
    session = client.session()
    _notify(sim_url)
    session.swipe(60, 2, 60, 640)
    _wait(lambda: session(name="ListCell").exists, "Notification Center's list")


def _banner(client: wda.Client, sim_url: str) -> None:
    # The dump's SpringBoard has an app's card in its switcher: use one, then come home.
    session = client.session(SETTINGS)
    session.home()
    _notify(sim_url)
    _wait(lambda: session(name="NotificationShortLookView").exists, "the banner")


Reach = Callable[[wda.Client, str], None]
"""Drive a fresh simulator (facebook-wda client, its URL) to a screen."""

SCREENS: dict[str, tuple[str, Reach]] = {
    "Settings": ("settings-root-ios26.2-sim.xml", _settings()),
    "Settings > General > About": ("settings-general-about-ios26.2-sim.xml",
                                   _settings("General", "About")),
    "Settings > Accessibility > Motion": ("settings-accessibility-motion-ios26.xml",
                                          _settings("Accessibility", "Motion")),
    "Safari start page": ("safari-start-page-ios26.2-sim.xml", _safari_start),
    "Safari share sheet": ("safari-squoosh-share-sheet-ios26.xml", _safari_share),
    "Home screen, page 2": ("springboard-home-page2-ios26.5-sim.xml", _home_page_two),
    "Notification Center": ("springboard-notification-center-ios26-sim.xml",
                            _notification_center),
    "Notification banner": ("springboard-notification-banner-ios26-sim.xml", _banner),
}
"""Screen -> (the real dump's file name, how to reach the screen on a fresh simulator)."""
