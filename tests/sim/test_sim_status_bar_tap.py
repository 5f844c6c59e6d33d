"""A tap on the status bar scrolls the list in front to its top, as UIScrollView's scrollsToTop
does on an iPhone (red team 95, RT95-2: an honest finish of resilience.scrolled_list, the
status bar and then General, failed), through facebook-wda over HTTP; and through a whole run."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest
import wda

from phoneshell.sim import SimServer
from phoneshell.sim.status_bar_tap import front_list
from tests.cli_process import ROOT, run_one

SETTINGS = "com.apple.Preferences"
CALENDAR = "com.apple.mobilecal"
GENERAL = "com.apple.settings.general"
STATUS_BAR = (201, 20)


def _scrolled(session: wda.Client, pages: int = 3) -> None:
    for _ in range(pages):
        session.swipe(201, 700, 201, 200, 0.3)


def _on_screen(session: wda.Client, name: str) -> bool:
    found = session(name=name)
    return bool(found.exists and found.get(timeout=1).visible)


def test_the_status_bar_brings_settings_back_to_general(client: wda.Client) -> None:
    settings = client.session(SETTINGS)
    _scrolled(settings)
    assert not _on_screen(settings, GENERAL)
    settings.tap(*STATUS_BAR)
    assert _on_screen(settings, GENERAL)
    settings(name=GENERAL).get(timeout=2).tap()
    assert settings(className="NavigationBar", name="General").get(timeout=2)


def test_a_pushed_page_scrolls_to_its_top_and_stays_on_its_page(client: wda.Client) -> None:
    settings = client.session(SETTINGS)
    settings(name=GENERAL).get(timeout=2).tap()
    first = settings(name="About").get(timeout=2).bounds.y
    _scrolled(settings, 1)
    assert not _on_screen(settings, "About")
    settings.tap(*STATUS_BAR)
    assert settings(name="About").get(timeout=2).bounds.y == first
    assert settings(className="NavigationBar", name="General").exists


def _offset(sim: SimServer) -> int | None:
    with sim.lock:
        found = front_list(sim.phone)
        return None if found is None or found.scroll is None else found.scroll.offset


def test_below_the_status_bar_and_in_landscape_the_list_stays() -> None:
    with SimServer() as sim:
        calendar = wda.Client(sim.url).session(CALENDAR)  # a list that rotates
        _scrolled(calendar, 1)
        scrolled = _offset(sim)
        assert scrolled
        calendar.tap(201, 60)  # below the strip: the app's, not the status bar's
        assert _offset(sim) == scrolled
        calendar.orientation = "LANDSCAPE"  # no status bar shows in landscape
        calendar.tap(200, 20)
        calendar.orientation = "PORTRAIT"
        assert _offset(sim) == scrolled
        calendar.tap(*STATUS_BAR)
        assert _offset(sim) == 0


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_an_honest_run_taps_the_status_bar_and_general_and_passes(tmp_path: Path) -> None:
    agent = tmp_path / "agent.py"  # outside the runs folder, which agents never see
    agent.write_text(
        "import json, os, wda\n"
        "c = wda.Client(os.environ['PHONESHELL_WDA_URL'])\n"
        f"c.tap{STATUS_BAR}\n"
        "c(name='com.apple.settings.general').get(timeout=3).tap()\n"
        "print(json.dumps({'status': 'done'}))\n")
    row = run_one(tmp_path / "runs", "top", str(ROOT / "environments"), "--task",
                  "resilience.scrolled_list", "--agent",
                  f"command:{shlex.quote(sys.executable)} {shlex.quote(str(agent))}")
    assert row["outcome"] == "passed", row["checks"]


def test_the_status_bar_leaves_a_reminder_being_written_editing(client: wda.Client) -> None:
    """A tap on the app's own blank space saves the reminder being written and ends editing
    (test_sim_tap_outside); the status bar is no part of the app, so its tap does not."""
    reminders = client.session("com.apple.reminders")
    reminders(className="Cell", name="Reminders").click()
    reminders(name="New Reminder").click()
    reminders.send_keys("collect parcel")
    reminders.tap(*STATUS_BAR)  # the list, scrolled to the row being written, goes to its top
    for _ in range(3):  # back down to that row, above the keyboard: still being written
        reminders.swipe(201, 500, 201, 200, 0.3)
    assert reminders(className="Keyboard").exists
    assert reminders(className="TextField", name="Title").get(timeout=1).value == "collect parcel"
