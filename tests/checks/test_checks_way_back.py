"""The way back out: `tapped`'s `back`, played on `settings.back.twice` against the simulated
iPhone, through the bridge, with facebook-wda.

Red team 54: General, About, then Settings terminated and opened again ended on the main list
with About tapped on General, and passed "then back out to the main Settings list"; a deep link
reaches the same list. Only the app's own back navigation, counted, is the way back (home and
the icon resume Settings on About: test_checks_way_back_overlays.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import wda
from into_about import PREFS, into_about
from played_finish import Play, failed_checks, played

from phoneshell.sim import SimServer
from phoneshell.tasks import Task


def back_buttons(c: wda.Client) -> None:
    s = into_about(c)
    s(name="BackButton").click()
    s(name="BackButton").click()


def edge_swipes(c: wda.Client) -> None:
    into_about(c)
    c.swipe(0, 400, 300, 400, 0.2)
    c.swipe(0, 400, 300, 400, 0.2)


def relaunch(c: wda.Client) -> None:
    into_about(c)
    c.app_stop(PREFS)
    c.app_launch(PREFS)


def deep_link(c: wda.Client) -> None:
    into_about(c)
    c.open_url("App-prefs:")


def one_back_then_relaunch(c: wda.Client) -> None:
    s = into_about(c)
    s(name="BackButton").click()
    c.app_stop(PREFS)
    c.app_launch(PREFS)


@pytest.mark.parametrize("play", [back_buttons, edge_swipes], ids=lambda p: p.__name__)
def test_the_apps_own_way_back_passes(play: Play, sim: SimServer, tmp_path: Path,
                                      suite: dict[str, Task]) -> None:
    row = played(sim, tmp_path, suite["settings.back.twice"], play)
    assert row.outcome == "passed", failed_checks(row)
    tapped = next(c for c in row.checks if c.kind == "tapped")
    assert "then went back 2 time(s)" in tapped.detail, tapped.detail


@pytest.mark.parametrize(("play", "seen"), [
    (relaunch, "terminate 'com.apple.Preferences'"),
    (deep_link, "open_url 'App-prefs:'"),
    (one_back_then_relaunch, "went back 1 time(s) (BackButton 'General'), then #"),
], ids=lambda p: getattr(p, "__name__", ""))
def test_another_way_to_the_main_list_fails(play: Play, seen: str, sim: SimServer,
                                            tmp_path: Path, suite: dict[str, Task]) -> None:
    row = played(sim, tmp_path, suite["settings.back.twice"], play)
    failed = failed_checks(row)
    # after a relaunch the end screen is the main list all the same: only the way back fails
    # (Settings reopens from home, or a bare App-prefs: link, on the page it was left on)
    if play in (relaunch, one_back_then_relaunch):
        assert set(failed) == {"tapped"}, failed
    assert seen in failed["tapped"] and "the way back must be the app's own" in failed["tapped"]
