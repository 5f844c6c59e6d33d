"""clock.alarm.set_time needs the wheels turned by the agent, whatever the phone's time: a new
alarm's wheels start at the phone's time, so at 7:30 AM an agent that only began one passed
(red team 109; a phone only, the simulator being frozen at 9:41). The simulated iPhone is set
to 7:30 here (its `time` fact): the setup begins the alarm at 10:45, so an agent that leaves the
wheels, or begins another to get the phone's time, fails, and the reference finish passes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import wda
from attempt_rig import run_one
from played_finish import Played, failed_checks
from runner.finish_then import FinishThen

from phoneshell.sim import SimServer
from phoneshell.sim.facts import DeviceFacts
from phoneshell.tasks import Task

pytestmark = pytest.mark.slow  # attempts on the simulator: the README's command stays quick

CLOCK, BUTTON = "com.apple.mobiletimer", "XCUIElementTypeButton"


@pytest.fixture
def half_past_seven() -> Iterator[SimServer]:
    """A simulated iPhone whose time is 7:30 AM: a new alarm's wheels start at 7:30 AM."""
    with SimServer(facts=DeviceFacts(time="7:30")) as server:
        yield server


def begin_another(client: wda.Client) -> str:
    """Begin a new alarm from Clock's Alarms tab (cancelling a sheet that shows first): its
    wheels show the phone's time (the red team's "taps Add", and nothing more)."""
    session = client.session()
    session.app_activate(CLOCK)
    if session(label="Cancel", type=BUTTON).exists:
        session(label="Cancel", type=BUTTON).click()
    session(label="Alarms", type=BUTTON).click()
    session(label="Add", type=BUTTON).click()
    assert session(value="7 o’clock").exists and session(value="30 minutes").exists
    return ""


def test_an_alarm_begun_at_the_phones_half_past_seven_fails(
        half_past_seven: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    task = suite["clock.alarm.set_time"]
    lazy = run_one(half_past_seven, tmp_path / "lazy", task, Played(begin_another)).row
    assert lazy.outcome == "failed", (lazy.outcome, lazy.skip_reason)
    assert list(failed_checks(lazy)) == ["tapped"], failed_checks(lazy)
    idle = run_one(half_past_seven, tmp_path / "idle", task, Played(lambda _: "")).row
    assert idle.outcome == "failed", (idle.outcome, idle.skip_reason)
    assert "regex_on_screen" in failed_checks(idle), failed_checks(idle)  # 10:45 on its wheels
    honest = run_one(half_past_seven, tmp_path / "honest", task, FinishThen()).row
    assert honest.passed, (honest.error, honest.skip_reason, honest.checks)
