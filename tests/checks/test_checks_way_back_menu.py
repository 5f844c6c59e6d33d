"""The back button's history menu on the way back out (red team 118, RT118-3): a touch and hold
on the back button opens the menu of the pages behind and goes nowhere, as on iOS 14 and later;
the item for the page two levels up goes back two pages at once, and `tapped`'s `back` counts it
so. Played on `settings.back.twice` against the simulated iPhone, through the bridge, with
facebook-wda."""

from __future__ import annotations

from pathlib import Path

import pytest
import wda
from into_about import into_about
from played_finish import Play, failed_checks, played

from phoneshell.sim import SimServer
from phoneshell.tasks import Task


def menu_item(s: wda.Session, title: str) -> wda.Element:
    """The history menu's item for the page `title` (the covered back button may share it)."""
    return s(xpath=f'//XCUIElementTypeMenu/XCUIElementTypeButton[@label="{title}"]').get(2)


def hold_then_settings(c: wda.Client) -> None:
    s = into_about(c)
    s(name="BackButton").tap_hold(1.2)
    menu_item(s, "Settings").click()


def hold_then_general_then_back(c: wda.Client) -> None:
    s = into_about(c)
    s(name="BackButton").tap_hold(1.2)
    menu_item(s, "General").click()
    s(name="BackButton").click()


def hold_only(c: wda.Client) -> None:
    into_about(c).tap_hold(30, 84, 1.2)  # the back button's middle, held


def hold_twice(c: wda.Client) -> None:
    s = into_about(c)
    s(name="BackButton").tap_hold(1.2)
    s.tap_hold(30, 84, 1.2)  # on the menu's backdrop: it closes, About stays


@pytest.mark.parametrize(("play", "went"), [
    (hold_then_settings, "went back 2 time(s) ('Settings' in the back button's menu (page 1 of "
                         "2), 'Settings' in the back button's menu (page 2 of 2))"),
    (hold_then_general_then_back, "went back 2 time(s) ('General' in the back button's menu "
                                  "(page 1 of 1), BackButton 'Settings')"),
], ids=lambda p: getattr(p, "__name__", ""))
def test_a_pick_in_the_back_menu_counts_the_pages_it_goes_back(
        play: Play, went: str, sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    row = played(sim, tmp_path, suite["settings.back.twice"], play)
    assert row.outcome == "passed", failed_checks(row)
    tapped = next(c for c in row.checks if c.kind == "tapped")
    assert went in tapped.detail, tapped.detail


@pytest.mark.parametrize("play", [hold_only, hold_twice], ids=lambda p: p.__name__)
def test_holding_the_back_button_goes_nowhere(play: Play, sim: SimServer, tmp_path: Path,
                                              suite: dict[str, Task]) -> None:
    row = played(sim, tmp_path, suite["settings.back.twice"], play)
    failed = failed_checks(row)
    assert "went back 0 time(s) (none)" in failed["tapped"], failed
    assert "NavigationBar" in failed.get("regex_on_screen", ""), failed


def short_holds(c: wda.Client) -> None:
    """Two presses shorter than a long press (0.2 s): taps of the back button, on iOS too."""
    s = into_about(c)
    s(name="BackButton").tap_hold(0.2)
    s(name="BackButton").tap_hold(0.2)


def test_a_hold_shorter_than_a_long_press_is_a_back_press(sim: SimServer, tmp_path: Path,
                                                          suite: dict[str, Task]) -> None:
    row = played(sim, tmp_path, suite["settings.back.twice"], short_holds)
    assert row.outcome == "passed", failed_checks(row)
    tapped = next(c for c in row.checks if c.kind == "tapped")
    assert "went back 2 time(s) (BackButton 'General', BackButton 'Settings')" in tapped.detail
