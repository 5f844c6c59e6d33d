"""An agent's turns are the actions the log shows it took, never what it reports: a program that
acts past the task's `max_steps` and writes nothing of it runs out of turns, and cannot pass."""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

import pytest
from attempt_rig import run_one
from audit_logs import PREFS, act

from phoneshell.agents import make_agent
from phoneshell.agents.base import AgentResult
from phoneshell.grade import Verdict
from phoneshell.runner.turn import beyond_grade, measured, overrule
from phoneshell.sim import SimServer
from phoneshell.tasks import Task, load_task

TASK = "settings.about.reach"

# the task's finish (3 actions), then taps on the status bar that change nothing it checks;
# it says nothing of its turns (no turns.json), as the red team's program did not
PROGRAM = """
import os, subprocess, sys
from phoneshell.device import Phone, run_step
from phoneshell.tasks.steps import Step
phone = Phone(os.environ["PHONESHELL_WDA_URL"])
for kind, arg in (("open_app", "Settings"), ("tap", "General"), ("tap", "About")):
    run_step(phone, Step(kind, arg=arg))
for _ in range(int(sys.argv[1])):
    phone.tap(200, 5)
subprocess.call([sys.executable, "-m", "phoneshell", "finish", "--status", "done"])
"""


def _budgeted(environments: Path, folder: Path, max_steps: int) -> Task:
    text = (environments / f"{TASK}.yaml").read_text()
    path = folder / f"{TASK}.yaml"
    path.write_text(text.replace("instruction:", f"max_steps: {max_steps}\ninstruction:", 1))
    return load_task(path)


def _program(folder: Path, extra: int) -> str:
    (folder / "agent.py").write_text(PROGRAM)
    return f"command:{shlex.quote(sys.executable)} {shlex.quote(str(folder / 'agent.py'))} {extra}"


@pytest.mark.slow  # 2.6 s measured: the README's command stays quick
def test_a_program_past_its_budget_by_the_log_runs_out_of_turns(
        sim: SimServer, tmp_path: Path, environments: Path) -> None:
    task = _budgeted(environments, tmp_path, max_steps=5)
    done = run_one(sim, tmp_path, task, make_agent(_program(tmp_path, 8)))
    row = done.row
    assert all(c.passed for c in row.checks), "its checks pass: only the budget fails it"
    assert row.outcome == "failed" and row.out_of_turns, (row.error, row.skip_reason)
    found = re.search(r"the log shows (\d+) actions, over the budget of 5", row.error)
    assert found and int(found.group(1)) == row.turns >= 11, (row.error, row.turns)
    verdict = (tmp_path / "r1" / "attempts" / TASK / "1" / "verdict.json").read_text()
    assert f"the agent ran out of turns (the log shows {row.turns} actions" in verdict


@pytest.mark.slow  # 2.6 s measured: the README's command stays quick
def test_a_program_within_its_budget_passes_with_the_logs_count(
        sim: SimServer, tmp_path: Path, environments: Path) -> None:
    task = _budgeted(environments, tmp_path, max_steps=12)
    row = run_one(sim, tmp_path, task, make_agent(_program(tmp_path, 8))).row
    assert row.outcome == "passed" and not row.out_of_turns, (row.error, row.skip_reason)
    assert 11 <= row.turns <= 12, "counted from the log, not the 0 it reported"


def test_a_loop_that_counts_its_reads_keeps_its_higher_count() -> None:
    """The `openai:` loop and `phoneshell mcp` count tool calls, reads too: the log's count
    only raises theirs, and the budget is held to the log's."""
    events = (*act(1, "tap", PREFS, PREFS), *act(2, "tap", PREFS, None),
              *act(3, "tap", PREFS, PREFS, phase="setup"))
    assert measured(AgentResult(ran=True, turns=9), events, 5) == (
        AgentResult(ran=True, turns=9), "")
    counted, over = measured(AgentResult(ran=True, turns=1), events, 3)
    assert counted.turns == 2 and not counted.out_of_turns and over == ""
    more = (*events, *act(4, "swipe", PREFS, PREFS), *act(5, "home", PREFS, PREFS))
    counted, over = measured(AgentResult(ran=True, turns=9), more, 3)
    assert counted.out_of_turns and over == "the log shows 4 actions, over the budget of 3"
    assert counted.turns == 9 and counted.error == over


def test_a_loop_that_counted_its_own_calls_is_held_to_the_logs_count_too() -> None:
    """One rule for every path: a tool call logs one action at most (tools.py), so the log's
    count never exceeds the calls of a loop held to its budget, the harness's own loop too."""
    events = tuple(e for n in range(1, 6) for e in act(n, "tap", PREFS, PREFS))
    counted, over = measured(AgentResult(ran=True, turns=3), events, 3)
    assert counted.out_of_turns and over == "the log shows 5 actions, over the budget of 3"


def test_a_clients_setting_up_is_no_step() -> None:
    """facebook-wda opens a session before its first step (some clients one a step): a honest
    program at its budget read as one over it. A session that launches an app is a step."""
    setup = (*act(1, "other", PREFS, PREFS, route="/session"),
             *act(2, "other", PREFS, PREFS, settings="snapshotMaxDepth"))
    steps = tuple(e for n in range(3, 6) for e in act(n, "tap", PREFS, PREFS))
    counted, over = measured(AgentResult(ran=True, turns=3), (*setup, *steps), 3)
    assert not counted.out_of_turns and over == "" and counted.turns == 3
    launch = act(6, "launch", PREFS, PREFS, bundle_id=PREFS, via="session")
    counted, over = measured(AgentResult(ran=True), (*setup, *steps, *launch), 3)
    assert counted.out_of_turns and over == "the log shows 4 actions, over the budget of 3"


def test_what_the_run_failed_it_for_beyond_its_grade_is_kept_apart() -> None:
    graded = Verdict(task_id=TASK, evidence_task_id=TASK, passed=False, results=(),
                     overruled="the phone was changed outside the bridge")
    harmed = graded.model_copy(update={
        "overruled": f"{graded.overruled}; the agent deleted the owner's note 'Groceries'"})
    assert beyond_grade(graded, harmed).run_overruled == (
        "the agent deleted the owner's note 'Groceries'")
    assert beyond_grade(graded, graded).run_overruled == ""
    passed = graded.model_copy(update={"passed": True, "overruled": ""})
    timed = overrule(passed, AgentResult(ran=True, timed_out=True))
    assert beyond_grade(passed, timed).run_overruled == "the agent ran out of time"
    assert beyond_grade(None, harmed).run_overruled == harmed.overruled
