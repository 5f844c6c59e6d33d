"""An agent that does more than it was told (starts the timer it should only dial, saves the
alarm it should only open) fails, and leaves nothing on the phone: every later attempt finds the
phone as the first found it. A timer started where nothing counts timers fails the run's own
later timer attempts; one the phone's owner left makes them not scored, and stays. Played through
the runner on one simulated iPhone whose state persists across attempts."""

from __future__ import annotations

from pathlib import Path

import yaml

from phoneshell.device import Phone, run_probe, run_rows, run_steps
from phoneshell.runner.folder import read_results
from phoneshell.runner.run import RunOptions, run_suite
from phoneshell.sim import SimServer
from phoneshell.tasks import load_task

OVERDONE = {"clock.timer.set_minutes": "Start", "clock.timer.set_hours_minutes": "Start",
            "clock.alarm.reach_picker": "Save", "clock.alarm.set_time": "Save"}
"""Each task told not to start or save, and the tap that does it anyway."""


def test_an_agent_that_starts_or_saves_against_the_instruction_leaves_nothing_behind(
        tmp_path: Path, environments: Path) -> None:
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    for n, (task_id, tap) in enumerate(OVERDONE.items()):
        task = yaml.safe_load((environments / f"{task_id}.yaml").read_text())
        task["id"] = f"overdone.{n}"
        task["solution"].append({"tap": tap})
        task.pop("compatible_with", None)
        task.pop("compatible_attacks", None)
        (tasks / f"a{n}.yaml").write_text(yaml.safe_dump(task, sort_keys=False))
    for task_id in OVERDONE:  # then the tasks themselves, played as written
        (tasks / f"b-{task_id}.yaml").write_text((environments / f"{task_id}.yaml").read_text())
    with SimServer() as sim:
        phone = Phone(sim.url, effect_timeout_s=1.0)
        alarms = run_rows(phone, "alarms", "")
        summary = run_suite(RunOptions(paths=(str(tasks),), device=sim.url, runs_dir=tmp_path,
                                       run_id="R"), lambda line: None)
        rows = read_results(tmp_path / "R" / "results.jsonl")
        overdone = [r for r in rows if r.task_id.startswith("overdone.")]
        assert len(overdone) == 4 and not any(r.passed or r.skipped for r in overdone)
        for row in overdone:  # failed for doing it, whatever the screen shows
            failed = [c.label for c in row.checks if not c.passed]
            assert any(label.startswith("count_unchanged") for label in failed), failed
        assert all(r.teardown is None or r.teardown.ok for r in rows), \
            [r.teardown for r in rows if r.teardown is not None]
        assert sorted(r.task_id for r in rows if r.passed) == sorted(OVERDONE), summary
        assert run_probe(phone, "clock_timers", "") == 0
        assert run_rows(phone, "alarms", "") == alarms


TIMER_TASKS = ("clock.timer.set", "clock.timer.set_minutes", "clock.timer.set_hours_minutes")
LEFTOVER = "clock_timers counted 1 before the agent, where the task starts from none"


def timer_tasks(environments: Path, tasks: Path) -> None:
    for task_id in TIMER_TASKS:
        (tasks / f"b-{task_id}.yaml").write_text((environments / f"{task_id}.yaml").read_text())


def test_a_timer_the_runs_agent_left_running_fails_its_later_timer_attempts(
        tmp_path: Path, environments: Path) -> None:
    # Asked only to open the Timers tab, the agent starts a timer. Nothing in that task counts
    # timers, so it stays running; every later timer task then finds no wheels and no Start.
    # The run's agent spoiled them itself: they fail, saying why, and are not handed the phone
    # (not scored, they would turn its later failures into skips by its own doing).
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    wander = yaml.safe_load((environments / "clock.tab.timers.yaml").read_text())
    wander["solution"].append({"tap": "Start"})
    (tasks / "a.yaml").write_text(yaml.safe_dump(wander, sort_keys=False))
    timer_tasks(environments, tasks)
    with SimServer() as sim:
        run_suite(RunOptions(paths=(str(tasks),), device=sim.url, runs_dir=tmp_path,
                             run_id="R"), lambda line: None)
    rows = {r.task_id: r for r in read_results(tmp_path / "R" / "results.jsonl")}
    assert rows["clock.tab.timers"].passed, "the tab was opened; nothing there counts timers"
    for task_id in TIMER_TASKS:
        row = rows[task_id]
        assert row.outcome == "failed" and row.turns == 0, row
        assert LEFTOVER in row.error and "the agent's own doing" in row.error, row.error


def test_a_timer_running_before_the_run_makes_timer_attempts_not_scored(
        tmp_path: Path, environments: Path) -> None:
    # The phone's owner left a timer running: no agent of this run did, so nothing is its
    # failure, and nothing the harness did not make is cancelled.
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    timer_tasks(environments, tasks)
    with SimServer() as sim:
        owner = Phone(sim.url, effect_timeout_s=1.0)
        run_steps(owner, load_task(environments / "clock.timer.set.yaml").solution or ())
        assert run_probe(owner, "clock_timers", "") == 1
        summary = run_suite(RunOptions(paths=(str(tasks),), device=sim.url, runs_dir=tmp_path,
                                       run_id="R"), lambda line: None)
        assert run_probe(owner, "clock_timers", "") == 1, "the owner's timer is not cancelled"
    rows = read_results(tmp_path / "R" / "results.jsonl")
    assert [r.task_id for r in rows if r.skipped] == sorted(TIMER_TASKS), rows
    assert all(LEFTOVER in r.skip_reason and "own doing" not in r.skip_reason for r in rows)
    assert summary.planned == 3 and not summary.rows[0].passed
