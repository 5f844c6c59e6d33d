"""calendar.month_view passes on the month grid only: not on an event's details page, whose
title (an event titled "March") reads as a month's (red team 141), nor on a day view whose
events are named as the grid's days. Each finish is played with facebook-wda on the simulated
iPhone through the bridge, as an agent."""

from __future__ import annotations

from pathlib import Path

import pytest
import wda
from played_finish import Play, played

from phoneshell.sim import SimServer
from phoneshell.tasks import Task

CALENDAR = "com.apple.mobilecal"
DAYS = ("^(Today, .*\\D)?10$", "^(Today, .*\\D)?20$")


def events(*titles: str, then: str = "") -> Play:
    """Calendar opened on its day view, an event added for each of `titles`, then a tap on the
    button named `then` (an event's, to open its details)."""
    def play(c: wda.Client) -> None:
        c.app_activate(CALENDAR)
        s = c.session()
        for title in titles:
            s(className="XCUIElementTypeButton", name="Add").click()
            s.send_keys(title)
            s(className="XCUIElementTypeButton", name="Add").click()
        if then:
            s(className="XCUIElementTypeButton", name=then).click()
    return play


def month(c: wda.Client) -> None:
    c.app_activate(CALENDAR)
    c(className="XCUIElementTypeButton", name="BackButton").click()  # "January": up a level


def test_the_month_view_passes(sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    row = played(sim, tmp_path, suite["calendar.month_view"], month)
    assert row.outcome == "passed", [c.detail for c in row.checks]


@pytest.mark.parametrize(("play", "days"), [
    (events("March", then="March"), DAYS),
    (events("March", "10", "20"), ()),
], ids=["event-details", "day-view-events-named-as-days"])
def test_another_calendar_screen_with_a_month_title_or_days_fails(
        play: Play, days: tuple[str, ...], sim: SimServer, tmp_path: Path,
        suite: dict[str, Task]) -> None:
    task = suite["calendar.month_view"]
    row = played(sim, tmp_path, task, play)
    assert row.outcome == "failed"
    failed = {r.detail.split("/")[1] for r in row.checks
              if not r.passed and r.kind == "regex_on_screen"}
    if days:  # the details page: the title reads as a month's, but no day of a grid shows
        assert set(days) <= failed, failed
    else:  # a day view: its events are days' buttons, but no month's name is a title
        assert any(pattern.startswith("^(January") for pattern in failed), failed
