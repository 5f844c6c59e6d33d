"""A broken rig never turns into a score: with each simulator fault, attempts are skipped with
the reason, or the run refuses to start; never passed, never failed."""

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
