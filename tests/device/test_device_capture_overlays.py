"""The capture scrolls only the front app's own screen (fixer AM, after red team 115's App
Switcher).

Left up by an agent, SpringBoard's screens are scroll views too: the capture's drag on the App
Switcher closed the newest card's app, went home and opened Spotlight. With anything shown over
the app (the App Switcher, the App Library, Notification Center, Control Center, Spotlight, a
menu over the app) nothing is dragged, what shows is graded unscrolled and the check names it;
with the keyboard up the app's list is dragged above the keyboard only. Driven through
facebook-wda over HTTP against the simulated iPhone.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
import wda

from phoneshell.checks import Check, needs_of
from phoneshell.device import Phone, capture_evidence
from phoneshell.grade import grade
from phoneshell.sim import SimServer
from phoneshell.tasks import Task

SETTINGS = "com.apple.Preferences"
DRAG = "POST /wda/dragfromtoforduration"
BELOW = Check.make("element_exists_anywhere", "Developer")  # below Settings' fold
ABSENT = Check.make("element_exists_anywhere", "Nowhere at all", negate=True)


def _settings(sim: SimServer) -> wda.Client:
    client = wda.Client(sim.url).session()
    client.app_activate(SETTINGS)
    return client


def _switcher(client: wda.Client) -> None:
    """Up from the home indicator, held (facebook-wda's swipe duration): the App Switcher."""
    size = client.window_size()
    client.swipe(size.width // 2, size.height - 4, size.width // 2, size.height // 2, 0.5)


def _notification_center(client: wda.Client) -> None:
    client.swipe(100, 1, 100, 500, 0.1)


def _control_center(client: wda.Client) -> None:
    client.swipe(380, 1, 380, 500, 0.1)


def _app_library(client: wda.Client) -> None:
    client.home()
    size = client.window_size()
    for _ in range(3):
        client.swipe(size.width - 20, size.height // 2, 20, size.height // 2)


def _spotlight(client: wda.Client) -> None:
    client.home()
    size = client.window_size()
    client.swipe(size.width // 2, 300, size.width // 2, 600, 0.1)


def _back_menu(client: wda.Client) -> None:
    """About's back button held: its history menu over About's list."""
    client(label="General").get(timeout=2).click()
    client(label="About").get(timeout=2).click()
    client(name="BackButton").get(timeout=2).tap_hold(1.2)


OVERLAYS: dict[str, tuple[Callable[[wda.Client], None], str]] = {
    "switcher": (_switcher, "the App Switcher"),
    "notification-center": (_notification_center, "Notification Center"),
    "control-center": (_control_center, "Control Center"),
    "app-library": (_app_library, "the App Library"),
    "spotlight": (_spotlight, "Spotlight"),
    "back-menu": (_back_menu, "a menu"),
    "home-screen": (wda.Client.home, "SpringBoard's own screen"),
}


@pytest.mark.parametrize("name", list(OVERLAYS))
def test_an_overlay_left_up_is_graded_unscrolled_and_named(sim: SimServer, phone: Phone,
                                                           name: str) -> None:
    leave, named = OVERLAYS[name]
    client = _settings(sim)
    leave(client)
    before = sim.state()
    counts = sim.request_counts()
    checks = (BELOW, ABSENT)
    evidence = capture_evidence(phone, "t", needs_of(checks))
    grew = {k: v - counts.get(k, 0) for k, v in sim.request_counts().items()}
    assert grew.get(DRAG, 0) == 0, grew  # nothing dragged: the phone is as the agent left it
    after = sim.state()
    assert (after["foreground"], after["running"]) == (before["foreground"], before["running"])
    assert SETTINGS in after["running"]  # type: ignore[operator]
    assert [c.role for c in evidence.captures] == ["final"]
    verdict = grade(Task("t", "T", "x", checks=checks), evidence)
    below, absent = verdict.results
    # a row below the fold fails as not found (not skipped), and absence is not proven
    assert not below.passed and "not found" in below.detail and named in below.detail, \
        below.detail
    assert not absent.passed and "absence unproven" in absent.detail and named in absent.detail, \
        absent.detail


def test_with_the_keyboard_up_the_list_is_dragged_above_it_only(sim: SimServer,
                                                                phone: Phone) -> None:
    client = _settings(sim)
    client(className="SearchField").click()
    keyboard_top = client(className="Keyboard").bounds.y
    evidence = capture_evidence(phone, "t", needs_of((BELOW,)))
    drags = [c for c in evidence.captures if c.role == "scroll"]
    assert drags, "the app's own list, above the keyboard, is still scrolled"
    assert grade(Task("t", "T", "x", checks=(BELOW,)), evidence).passed
    # nothing was typed by a drag over the keys, and the search field still has the focus
    assert client(className="SearchField").value in ("", "Search", None)
    assert client(className="Keyboard").exists and client(className="Keyboard").bounds.y == \
        keyboard_top
