"""A broken rig never turns into a score: with each simulator fault, attempts are skipped with
the reason, or the run refuses to start; never passed, and failed only where the run read the
same screen or count whole before on this phone, so only its agents can have left it so."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from phoneshell.agents import make_agent
from phoneshell.runner import AttemptPlan, AttemptResult, open_rig, run_attempt
from phoneshell.sim import SimServer
from phoneshell.tasks import Task

ROOT = Path(__file__).resolve().parents[2]
TASKS = ("settings.about.reach", "calculator.arithmetic", "safari.read.heading",
         "notes.create_titled")


def attempts(sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> list[AttemptResult]:
    rows = []
    with open_rig(sim.url, tmp_path, timeout_s=10, effect_timeout_s=0.3) as rig:
        for n, task_id in enumerate(TASKS, start=1):
            plan = AttemptPlan("r1", tmp_path / "r1", suite[task_id], n)
            rows.append(run_attempt(plan, rig, make_agent("solution")))
    return rows


@pytest.mark.slow
@pytest.mark.parametrize("fault, reason", [
    ("locked", "is locked"),
    ("drop-writes", "input does not reach the screen"),
    ("stale-session", "rejected every session"),
    ("truncated-source", "cut-off"),
    ("gone", "the connection was refused"),
])
def test_each_fault_skips_every_attempt_with_its_reason(sim: SimServer, tmp_path: Path,
                                                       suite: dict[str, Task], fault: str,
                                                       reason: str) -> None:
    sim.set_faults([fault])
    try:
        done = attempts(sim, tmp_path, suite)
    finally:
        sim.set_faults([])
    rows = [result.row for result in done]
    for row in rows:
        assert row.outcome == "skipped", (fault, row.task_id, row.outcome, row.checks)
        assert row.skip_reason, (fault, row.task_id)
    # the first attempt names the fault (a run would stop there; later ones may fail setup)
    assert reason in rows[0].skip_reason, (fault, rows[0].skip_reason)


@pytest.mark.slow  # 4.1 s measured: the README's command stays quick
def test_a_slow_phone_is_only_slow(sim: SimServer, tmp_path: Path,
                                   suite: dict[str, Task]) -> None:
    sim.set_faults(["slow=0.01"])
    done = attempts(sim, tmp_path, suite)
    assert [r.row.outcome for r in done] == ["passed"] * len(TASKS)


@pytest.mark.parametrize("fault, said", [
    ("locked", "is locked"),
    # every attempt would be skipped for it, after a confusing word on the owner's notes
    ("truncated-source", "WDA sends the home screen's page source cut off"),
])
@pytest.mark.slow  # 2.5 s measured: the README's command stays quick
def test_a_run_on_a_phone_that_cannot_be_graded_does_not_start(tmp_path: Path, fault: str,
                                                                said: str) -> None:
    env = {**os.environ, "PYTHONWARNINGS": "error",
           "PHONESHELL_LOCK_DIR": str(tmp_path / "locks")}
    with SimServer(faults=[fault]) as sim:
        done = subprocess.run(
            [sys.executable, "-m", "phoneshell", "run", "environments", "--task",
             "settings.about.reach", "--device", sim.url, "--runs", str(tmp_path), "--run-id",
             "R"], capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    assert done.returncode == 2
    assert "error: run R did not start: phone-1:" in done.stderr and said in done.stderr, \
        done.stderr
    assert not (tmp_path / "R" / "results.jsonl").exists()


def test_an_end_state_cut_off_where_the_phone_reads_whole_elsewhere_is_the_agents_failure(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    """A screen only it cannot write out whole (a huge web page; text an old WDA wrote raw) is
    the screen the agent left: were it a skip, an agent could leave one to have any attempt it
    would fail not scored."""
    try:
        with open_rig(sim.url, tmp_path, timeout_s=10, effect_timeout_s=0.3) as rig:
            # the run reads Settings whole first: unreadable later, it is the agent's screen
            # (`test_runner_around`: an app unreadable from the start is not scored)
            task = suite["settings.about.reach"]
            first = AttemptPlan("r1", tmp_path / "r1", task, 1)
            assert run_attempt(first, rig, make_agent("solution")).row.outcome == "passed"
            sim.set_faults(["truncated-source=com.apple.Preferences"])
            plan = AttemptPlan("r1", tmp_path / "r1", task, 2)
            row = run_attempt(plan, rig, make_agent("solution")).row
    finally:
        sim.set_faults([])
    assert row.outcome == "failed", (row.outcome, row.skip_reason)
    assert "could not be read whole at capture" in row.error
    assert "reads its home screen whole" in row.error


@pytest.mark.slow  # a whole program of seconds: CI runs it, the README's command stays quick
def test_an_end_state_the_phone_cannot_read_where_it_reads_elsewhere_is_the_agents_failure(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    """A screen WDA chokes on (its reading outlasts the harness's wait, or WDA gives up on it):
    capture waits for the phone to answer, tries again, then reads the home screen; whole there,
    the end state was the agent's to leave readable. As a skip, or the rig reported down (which
    stops the run), an agent could leave such a screen to have any attempt not scored."""
    try:
        with open_rig(sim.url, tmp_path, timeout_s=10, effect_timeout_s=0.3) as rig:
            # the run reads Settings whole first: unreadable later, it is the agent's screen
            # (`test_runner_around`: an app unreadable from the start is not scored)
            task = suite["settings.about.reach"]
            first = AttemptPlan("r1", tmp_path / "r1", task, 1)
            assert run_attempt(first, rig, make_agent("solution")).row.outcome == "passed"
            sim.set_faults(["unreadable=com.apple.Preferences"])
            plan = AttemptPlan("r1", tmp_path / "r1", task, 2)
            result = run_attempt(plan, rig, make_agent("solution"))
    finally:
        sim.set_faults([])
    row = result.row
    assert row.outcome == "failed" and not result.rig_down, (row.outcome, row.skip_reason)
    assert "could not be read at capture" in row.error
    assert "answers again and reads its home screen whole" in row.error


NOTES = "com.apple.mobilenotes"
UNCOUNTABLE = ("could not be counted before the agent (probe notes(''): WDA at ", "refused GET "
               "/source", "where this run counted it on this phone earlier, and only its agents "
               "have acted on it since: an earlier attempt's agent made it uncountable")


@pytest.mark.slow  # a whole program of seconds: CI runs it, the README's command stays quick
def test_a_count_this_run_read_before_and_cannot_read_now_fails_the_attempt(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    """Between two attempts only the run's agents act on the phone, so an app whose count the
    run read and now cannot read (here WDA refuses Notes' screen, as an agent could leave an
    app across the terminate every probe starts with) is their doing: failed, whatever stopped
    the probe, not only "too many to read" (red team 88: a skip, and a policy that plays every
    attempt could drop its hard ones). A run that never read it skips, as the owner's phone
    may have come so."""
    task = suite["notes.text_select"]
    agent = make_agent("solution")
    try:
        with open_rig(sim.url, tmp_path, timeout_s=10, effect_timeout_s=0.3) as rig:
            plans = [AttemptPlan("r1", tmp_path / "r1", task, n) for n in (1, 2, 3)]
            assert run_attempt(plans[0], rig, agent).row.passed
            sim.set_faults([f"unreadable={NOTES}"])
            spoiled = run_attempt(plans[1], rig, agent)
            sim.set_faults([])
            after = run_attempt(plans[2], rig, agent).row
        sim.set_faults([f"unreadable={NOTES}"])
        with open_rig(sim.url, tmp_path, timeout_s=10, effect_timeout_s=0.3) as fresh:
            never = run_attempt(AttemptPlan("r2", tmp_path / "r2", task, 1), fresh, agent).row
    finally:
        sim.set_faults([])
    row = spoiled.row
    assert row.outcome == "failed" and row.turns == 0 and not spoiled.rig_down, row
    assert all(part in row.error for part in UNCOUNTABLE), row.error
    assert after.passed, after  # the phone goes on
    assert never.outcome == "skipped" and never.skip_reason.startswith(
        "a probe could not count before the agent acted: probe notes(''): "), never


def test_a_count_that_meets_a_locked_phone_is_the_rig_down_not_an_earlier_agents_doing(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    # The lock is not asked before setup when an app was seen in front since the last turn; a
    # probe that then meets the lock screen must not take it for an app an agent left
    # unreadable: the phone says it is locked (`RIG_DOWN`), and the run stops.
    task = suite["notes.text_select"]
    try:
        with open_rig(sim.url, tmp_path, timeout_s=10, effect_timeout_s=0.3) as rig:
            assert run_attempt(AttemptPlan("r1", tmp_path / "r1", task, 1), rig,
                               make_agent("solution")).row.passed
            sim.set_faults(["locked"])
            done = run_attempt(AttemptPlan("r1", tmp_path / "r1", task, 2), rig,
                               make_agent("solution"))
    finally:
        sim.set_faults([])
    assert done.row.outcome == "skipped" and done.rig_down, done.row
    assert done.row.skip_reason.startswith("rig down: "), done.row.skip_reason
