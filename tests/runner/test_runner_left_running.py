"""Apps an agent leaves running: the runner stops those the task's teardown does not, so the next
attempt finds no app where this agent left it; and a setup that stops its own apps holds against
what the phone's owner left running, which no audit log shows."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from attempt_rig import run_one

from phoneshell.agents import make_agent
from phoneshell.device import Phone, run_steps
from phoneshell.sim import SimServer
from phoneshell.tasks import Step, Task

SETTINGS = "com.apple.Preferences"


def opened_only(task: Task) -> Task:
    """The task with a finish that only opens its app: what an earlier attempt left decides."""
    return replace(task, solution=(Step("launch", task.app),))


def old_setup(task: Task) -> Task:
    """resilience.wrong_app as the public suite sets it up: Settings never stopped."""
    assert [s.kind for s in task.setup[:2]] == ["terminate", "terminate"]
    return replace(task, id=f"{task.id}.old", setup=task.setup[2:])


@pytest.mark.slow  # 2.6 s measured: the README's command stays quick
def test_an_app_the_agent_left_running_is_stopped_after_the_teardown(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    # a Books attempt whose agent went to Display & Brightness in Settings instead; Books'
    # teardown stops only Books
    wrong_app = suite["resilience.wrong_app"]
    strayed = replace(suite["books.search"], solution=wrong_app.solution)
    row = run_one(sim, tmp_path, strayed, make_agent("solution")).row
    assert row.teardown.ok and row.teardown.stopped == (SETTINGS,), row.teardown
    assert SETTINGS not in sim.state()["running"]  # type: ignore[operator]
    # so even the public setup, which never stops Settings, finds it at its top level
    after = run_one(sim, tmp_path, opened_only(old_setup(wrong_app)), make_agent("solution"),
                    2).row
    assert after.outcome == "failed" and "Display" in after.checks[-1].detail, after.checks


def test_an_agent_that_stays_in_the_task_s_app_leaves_nothing_more_to_stop(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    row = run_one(sim, tmp_path, suite["multi.app_switch"], make_agent("solution")).row
    assert row.passed and row.teardown.ok and row.teardown.stopped == ()


@pytest.mark.slow  # 5.0 s measured: the README's command stays quick
def test_a_setup_that_stops_settings_holds_against_what_the_owner_left_open(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    # before the run, the phone's owner left Settings on Display & Brightness: no audit line
    # shows it, so only the setup can stop it
    phone = Phone(sim.url)
    wrong_app = suite["resilience.wrong_app"]
    to_display = [*(wrong_app.solution or ()), Step("home")]
    run_steps(phone, to_display)
    assert SETTINGS in sim.state()["running"]  # type: ignore[operator]
    trusting = run_one(sim, tmp_path, opened_only(old_setup(wrong_app)), make_agent("solution"))
    assert trusting.row.passed, "the public setup: only opening Settings passes"
    run_steps(phone, to_display)
    fixed = run_one(sim, tmp_path, opened_only(wrong_app), make_agent("solution"), 2).row
    assert fixed.outcome == "failed", fixed.checks
