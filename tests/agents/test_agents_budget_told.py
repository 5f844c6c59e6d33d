"""Every agent path is told its task's action budget, with the number, and what one action is
(red team 108: probe.text.one typed key by key, a request a key, took 33 actions of 25 and was
failed out of turns, though nothing it was handed said each request is one): a command agent in
`PHONESHELL_CONTRACT`, the `openai:` loop in its system prompt, an MCP client in the server's
instructions."""

from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path

import anyio
import pytest
from agents.command_attempt import attempt
from agents.openai_standin import API_KEY, StandIn
from mcp import ClientSession, StdioServerParameters, stdio_client

from phoneshell.agents import make_agent
from phoneshell.agents.environment import ACTIONS, GRADED, MAX_STEPS
from phoneshell.agents.mcp_server import ToolServer
from phoneshell.agents.tools import GUIDE, PhoneTools, budget_told
from phoneshell.runner import AttemptPlan, Rig, run_attempt
from phoneshell.tasks import Task

ROOT = Path(__file__).resolve().parents[2]
PYTHON = shlex.quote(sys.executable)


def contract_seen(rig: Rig, tmp_path: Path, task: Task) -> str:
    """The `PHONESHELL_CONTRACT` a command agent of `task` was handed."""
    dump = "import json, os; print(json.dumps(os.environ['PHONESHELL_CONTRACT']))"
    attempt(rig, tmp_path, task, f"{PYTHON} -c {shlex.quote(dump)}")
    out = tmp_path / "R" / "attempts" / task.id / "1" / "agent.stdout"
    return str(json.loads(out.read_text().splitlines()[0]))


def test_a_command_agent_is_told_its_tasks_budget(rig: Rig, tmp_path: Path,
                                                   suite: dict[str, Task]) -> None:
    for task_id in ("probe.text.one", "notes.type_long"):
        task = suite[task_id]
        told = contract_seen(rig, tmp_path / task_id, task)
        assert told.startswith(GRADED), told
        assert f"This task allows {task.max_steps} actions on the phone" in told, told
        assert "typed a key at a time, each key is an action" in told
        assert "its page source, a screenshot) is none" in told
    assert suite["notes.type_long"].max_steps != suite["probe.text.one"].max_steps


def test_the_openai_loop_is_told_its_tasks_budget(rig: Rig, tmp_path: Path,
                                                  suite: dict[str, Task],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    task = suite["settings.about.reach"]
    with StandIn() as stand_in:
        monkeypatch.setenv("PHONESHELL_OPENAI_BASE_URL", stand_in.url)
        monkeypatch.setenv("PHONESHELL_OPENAI_API_KEY", API_KEY)
        run_attempt(AttemptPlan("R", tmp_path / "R", task, 1), rig, make_agent("openai:stand-in"))
        system = stand_in.requests[0]["messages"][0]["content"]
    assert f"Budget: at most {task.max_steps} tool calls (then only done) and " in system
    assert "each call is one, a read or a mistaken one too" in system
    assert "a whole text in one call (tapping the keyboard's keys\nspends a call a key)" in system


def instructions(url: str, env: dict[str, str]) -> str:
    """What `phoneshell mcp` answers an MCP client's initialize with, as its instructions."""
    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "phoneshell", "mcp", "--bridge", url],
                                   env={**os.environ, **env}, cwd=str(ROOT))

    async def initialize() -> str:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            return (await session.initialize()).instructions or ""

    return anyio.run(initialize)


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_an_mcp_client_is_told_its_tasks_budget(rig: Rig) -> None:
    told = instructions(rig.bridge.url, {MAX_STEPS: "37"})
    assert told.startswith(GUIDE), told
    assert told.endswith("\n\nBudget: at most 37 tool calls (then only done); each call is "
                         "one, a read or a mistaken one too."), told
    outside = ToolServer(PhoneTools(rig.bridge.url)).server().instructions
    assert outside == GUIDE, "outside an attempt: no budget to tell"


def test_docs_quote_what_agents_are_told() -> None:
    docs = " ".join((ROOT / "docs" / "agents.md").read_text().split())
    assert ACTIONS.format(steps=25) in docs
    assert budget_told(25, 240) in docs
