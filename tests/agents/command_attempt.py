"""One whole attempt of a `command:` agent on the simulated iPhone, unconfined (no sandbox):
the rig the `rig` fixture gives (tests/agents/conftest.py) and the attempt on it."""

from __future__ import annotations

from pathlib import Path

from phoneshell.agents import make_agent
from phoneshell.records import ResultRow
from phoneshell.runner import AttemptPlan, Rig, run_attempt
from phoneshell.tasks import Task


def attempt(rig: Rig, tmp_path: Path, task: Task, command: str) -> ResultRow:
    """Attempt 1 of `task` by the shell command line `command`, in run R under `tmp_path`."""
    return run_attempt(AttemptPlan("R", tmp_path / "R", task, 1), rig,
                       make_agent(f"command:{command}")).row
