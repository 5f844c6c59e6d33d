"""Each attempt's folder is made new and empty (red team 143, RT143-3): what an unconfined agent
of an earlier attempt plants in a later attempt's folder is removed before that attempt runs,
and its row names what was found. Whole attempts through the runner, unconfined."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

from agents.command_attempt import attempt

from phoneshell.runner import Rig
from phoneshell.tasks import Task

PYTHON = shlex.quote(sys.executable)
PLANT = """import os, pathlib
run = pathlib.Path(os.environ["PHONESHELL_ATTEMPT_DIR"]).resolve().parents[3]
later = run / "attempts" / "calculator.chain" / "1"
(later / "agent" / "deep").mkdir(parents=True)
(later / "agent" / "planted.txt").write_text("not yours")
(later / "agent" / "deep" / "claim.json").write_text("{}")
(later / "verdict.json").write_text("{}")
"""
LOOK = ("import json, os; "
        "print(json.dumps(sorted(os.listdir(os.environ['PHONESHELL_ATTEMPT_DIR']))))")


def test_what_an_earlier_agent_planted_in_a_later_attempts_folder_is_removed_and_said(
        rig: Rig, tmp_path: Path, suite: dict[str, Task]) -> None:
    attempt(rig, tmp_path, suite["calculator.arithmetic"], f"{PYTHON} -c {shlex.quote(PLANT)}")
    later = tmp_path / "R" / "attempts" / "calculator.chain" / "1"
    assert (later / "agent" / "planted.txt").exists()  # planted, before the later attempt
    row = attempt(rig, tmp_path, suite["calculator.chain"], f"{PYTHON} -c {shlex.quote(LOOK)}")
    seen = json.loads((later / "agent.stdout").read_text().splitlines()[0])
    assert "planted.txt" not in seen and "deep" not in seen, seen
    assert not (later / "agent" / "planted.txt").exists()
    said = " ".join(row.notes)
    assert "its folder held 5 entries" in said and "planted.txt" in said, row.notes
    assert "verdict.json" in said and "unconfined" in said, row.notes


def test_a_fresh_attempt_folder_says_nothing(rig: Rig, tmp_path: Path,
                                             suite: dict[str, Task]) -> None:
    row = attempt(rig, tmp_path, suite["calculator.chain"], f"{PYTHON} -c {shlex.quote(LOOK)}")
    assert not any("its folder held" in n for n in row.notes), row.notes
