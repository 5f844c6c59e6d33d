"""What a phone's user does beyond a tap on an element's centre, through the model tools: a hold
on a word, a swipe in from the top edge, one picker wheel of several turned. An honest model
(gesture_scripts.py) passes the tasks that need them on both model paths: the `openai:` loop
against the stand-in endpoint, and `phoneshell mcp` over stdio through the SDK's client, each
on the simulated iPhone behind the bridge, graded by the runner."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from agents.gesture_scripts import POLICIES
from agents.openai_standin import API_KEY, StandIn
from agents.test_agents_mcp import McpScriptAgent, text_of
from mcp import ClientSession, StdioServerParameters, stdio_client

from phoneshell.audit import read_audit
from phoneshell.records import ResultRow
from phoneshell.runner import AttemptPlan, RunOptions, open_rig, run_attempt, run_suite
from phoneshell.sim import SimServer
from phoneshell.tasks import Task

ROOT = Path(__file__).resolve().parents[2]
TASKS = tuple(POLICIES)
MOVES = 25
"""The most moves the MCP test plays (the tasks' budget)."""


def actions(run_dir: Path, task_id: str) -> list[dict[str, object]]:
    return [{"kind": e.kind, **e.params} for e in read_audit(run_dir / "audit.jsonl").records
            if e.task_id == task_id and e.phase == "agent" and e.stage == "intent"]


def assert_passed_by_gestures(rows: dict[str, ResultRow], run_dir: Path) -> None:
    for task_id, row in rows.items():
        assert row.outcome == "passed", (task_id, row.error, [c.detail for c in row.checks])
        assert not row.out_of_turns and row.claim is not None and row.claim.status == "done"
    held = actions(run_dir, "notes.text_select")
    assert [e for e in held if e["kind"] == "tap" and e.get("gesture") == "touch_and_hold"], held
    edge = [e for e in actions(run_dir, "system.notifications.open") if e["kind"] == "swipe"]
    assert len(edge) == 1 and edge[0]["from_y"] == 0, edge
    wheels = actions(run_dir, "clock.timer.set_hours_minutes")
    assert {e["kind"] for e in wheels} >= {"launch", "tap", "swipe"}


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_an_honest_model_passes_the_gesture_tasks_through_the_openai_loop(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with StandIn() as stand_in:
        monkeypatch.setenv("PHONESHELL_OPENAI_BASE_URL", stand_in.url)
        monkeypatch.setenv("PHONESHELL_OPENAI_API_KEY", API_KEY)
        monkeypatch.delenv("PHONESHELL_VISION", raising=False)
        options = RunOptions((str(ROOT / "environments"),), agent="openai:stand-in-gestures",
                             device="sim", task_globs=TASKS, runs_dir=tmp_path, run_id="R")
        summary = run_suite(options, lambda line: None)
    rows = {r.task_id: r for r in summary.rows}
    assert sorted(rows) == sorted(TASKS)
    assert_passed_by_gestures(rows, tmp_path / "R")


@dataclass
class McpPolicyAgent(McpScriptAgent):
    """An agent whose model is the test: it plays the gesture policies through `phoneshell
    mcp`, reading each observation the server returns."""

    name: str = "mcp-gestures"

    async def play(self, params: StdioServerParameters, task_id: str) -> None:
        policy = POLICIES[task_id][1]
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            latest = text_of(await session.call_tool("observe", {}))
            for _ in range(MOVES):
                tool, arguments = policy(latest)
                result = await session.call_tool(tool, arguments)
                assert not result.is_error, text_of(result)
                if tool == "done":
                    return
                if "\nid\t" in text_of(result):
                    latest = text_of(result)


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[object]:
    with SimServer() as sim, open_rig(sim.url, tmp_path, effect_timeout_s=0.5) as found:
        yield found


@pytest.mark.slow
def test_an_honest_model_passes_the_gesture_tasks_through_mcp(
        rig: object, tmp_path: Path, suite: dict[str, Task],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PHONESHELL_VISION", raising=False)
    rows = {}
    for task_id in TASKS:
        plan = AttemptPlan("R", tmp_path / "R", suite[task_id], 1)
        rows[task_id] = run_attempt(plan, rig, McpPolicyAgent()).row  # type: ignore[arg-type]
    assert_passed_by_gestures(rows, tmp_path / "R")
