"""A `command:` agent out of turns is told why, as the model loop says it: the turns its tool
server counted, the task's budget, and what it did past it ("used all 2 tool calls
(turns.json), then called 'swipe' instead of done"), where the row said only "used its whole
turn budget"."""

from __future__ import annotations

import json
import shlex
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from agents.command_attempt import attempt

from phoneshell.runner import Rig
from phoneshell.tasks import Task

TASK = "settings.about.reach"


@pytest.mark.slow  # an MCP server started by the agent: about four seconds
def test_an_mcp_agent_out_of_turns_says_what_it_used_and_did(
        rig: Rig, tmp_path: Path, suite: dict[str, Task]) -> None:
    task = replace(suite[TASK], max_steps=2)
    row = attempt(rig, tmp_path, task,
                  f"{shlex.quote(sys.executable)} tests/agents/mcp_spender_agent.py")
    assert row.out_of_turns and row.outcome == "failed", (row.outcome, row.error)
    assert row.error.startswith("used all 2 tool calls (turns.json), then called 'swipe' "
                                "instead of done"), row.error
    turns = json.loads((tmp_path / "R" / "attempts" / TASK / "1" / "agent" / "turns.json")
                       .read_text())
    assert turns["refused"] == "called 'swipe' instead of done", turns


def test_a_turns_file_the_program_wrote_is_said_as_its_word(
        rig: Rig, tmp_path: Path, suite: dict[str, Task]) -> None:
    # a program may write turns.json itself: its counts and words are said as the file's, on
    # one line and short; a file that names nothing it did says so
    said = json.dumps({"v": 1, "turns": 30, "out_of_turns": True,
                       "refused": "tapped\n" + "x" * 500})
    row = attempt(rig, tmp_path, suite[TASK],
                  f"printf %s {shlex.quote(said)} > $PHONESHELL_ATTEMPT_DIR/turns.json")
    assert row.out_of_turns and row.outcome == "failed"
    assert row.error.startswith("used 30 tool calls of a budget of 25 (turns.json), then "
                                "'tapped\\nxxx"), row.error
    assert "x" * 200 not in row.error
    bare = json.dumps({"v": 1, "turns": 25, "out_of_turns": True})
    row = attempt(rig, tmp_path / "again", suite[TASK],
                  f"printf %s {shlex.quote(bare)} > $PHONESHELL_ATTEMPT_DIR/turns.json")
    assert row.error.startswith("used all 25 tool calls (turns.json), then turns.json says "
                                "it ran out of turns, not what it did"), row.error
