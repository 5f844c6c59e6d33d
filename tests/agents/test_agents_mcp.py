"""`phoneshell mcp` through the SDK's own client over stdio: the same tools as the registry, and
suite tasks completed on the simulated iPhone with every action in the bridge's audit log.

The test plays the model's part: it reads each observation the server returns and calls the
tool its script says next (screen_script.py), exactly as an MCP client's model would.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import anyio
import pytest
from agents.screen_script import SCRIPTS, Move, find_row, parse_table
from mcp import ClientSession, StdioServerParameters, stdio_client

from phoneshell.agents import AgentContext, AgentResult
from phoneshell.agents.environment import (
    ATTEMPT_DIR,
    CLAIM_FILE,
    MAX_STEPS,
    read_claim_file,
    read_turns,
)
from phoneshell.agents.tools import TOOLS
from phoneshell.audit import agent_steps, read_audit
from phoneshell.runner import AttemptPlan, Rig, open_rig, run_attempt
from phoneshell.sim import SimServer
from phoneshell.tasks import Task

ROOT = Path(__file__).resolve().parents[2]
THREE = ("settings.about.serial", "calculator.arithmetic", "notes.create_titled")


def server(url: str, env: dict[str, str] | None = None) -> StdioServerParameters:
    """`phoneshell mcp --bridge URL`, as an MCP client configuration would start it."""
    return StdioServerParameters(command=sys.executable,
                                 args=["-m", "phoneshell", "mcp", "--bridge", url],
                                 env={**os.environ, **(env or {})}, cwd=str(ROOT))


def text_of(result: object) -> str:
    return "\n".join(c.text for c in result.content if c.type == "text")  # type: ignore[attr-defined]


@dataclass
class McpScriptAgent:
    """An agent whose model is the test: it drives `phoneshell mcp` through the SDK client."""

    name: str = "mcp-script"
    taps: list[tuple[int, int]] = field(default_factory=list)
    """Where each tap was aimed (the centre of the row the observation showed)."""
    slips: tuple[Move, ...] = ()
    """Mistaken calls made before the script, each answered with an error."""

    def run(self, context: AgentContext) -> AgentResult:
        claim_file = context.workdir / "claim.json"
        env = {CLAIM_FILE: str(claim_file), ATTEMPT_DIR: str(context.workdir),
               MAX_STEPS: str(context.max_steps)}
        anyio.run(self.play, server(context.wda_url, env), context.task.id)
        use = read_turns(context.workdir)
        assert use is not None
        return AgentResult(ran=True, claim=read_claim_file(claim_file), turns=use.turns,
                           out_of_turns=use.out_of_turns)

    async def play(self, params: StdioServerParameters, task_id: str) -> None:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            latest = text_of(await session.call_tool("observe", {}))
            for slip in self.slips:
                assert (await session.call_tool(slip.tool, slip.args)).is_error
            for move in SCRIPTS[task_id]:
                arguments = move.arguments(latest)
                if move.tap:
                    self.taps.append(find_row(latest, move.tap).centre)
                result = await session.call_tool(move.tool, arguments)
                assert not result.is_error, text_of(result)
                if parse_table(text_of(result)):
                    latest = text_of(result)


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[tuple[SimServer, Rig]]:
    with SimServer() as sim, open_rig(sim.url, tmp_path, effect_timeout_s=0.5) as found:
        yield sim, found


@pytest.mark.slow  # 2.1 s measured: the README's command stays quick
def test_the_server_lists_the_registry_tools(rig: tuple[SimServer, Rig]) -> None:
    async def listed() -> tuple[list[object], list[str]]:
        async with stdio_client(server(rig[1].bridge.url, {"PHONESHELL_VISION": "1"})) as (
                read, write), \
                ClientSession(read, write) as session:
            await session.initialize()
            seen = await session.call_tool("observe", {})
            return list((await session.list_tools()).tools), [c.type for c in seen.content]

    tools, observed = anyio.run(listed)
    assert observed == ["text", "image"], "PHONESHELL_VISION adds the screen to each read"
    assert [t.name for t in tools] == TOOLS.names()  # type: ignore[attr-defined]
    for tool in tools:
        entry = TOOLS.lookup(tool.name)  # type: ignore[attr-defined]
        assert tool.description == entry.description  # type: ignore[attr-defined]
        assert tool.input_schema == entry.parameters  # type: ignore[attr-defined]


@pytest.mark.slow  # a whole program of about ten seconds: CI runs it
def test_three_suite_tasks_through_mcp_with_every_action_audited(
        rig: tuple[SimServer, Rig], tmp_path: Path, suite: dict[str, Task]) -> None:
    agent = McpScriptAgent()
    rows = []
    for task_id in THREE:
        plan = AttemptPlan("R", tmp_path / "R", suite[task_id], 1)
        rows.append(run_attempt(plan, rig[1], agent).row)
    for row in rows:
        assert row.outcome == "passed", (row.task_id, row.error, [c.detail for c in row.checks])
        assert row.claim is not None and row.claim.status == "done"
    assert rows[0].claim.answer == "MQ163LL/A"  # type: ignore[union-attr]
    # the script's moves and done: the first observe is no turn, as the `openai:` loop's first
    # observation is not (its calculator.arithmetic is 7 turns too: open, five taps, done)
    assert [r.turns for r in rows] == [4, 7, 5]
    events = [e for e in read_audit(tmp_path / "R" / "audit.jsonl").records
              if e.phase == "agent" and e.stage == "intent"]
    kinds = {t: [e.kind for e in events if e.task_id == t] for t in THREE}
    assert kinds == {"settings.about.serial": ["launch", "tap", "tap"],
                     "calculator.arithmetic": ["launch"] + ["tap"] * 5,
                     "notes.create_titled": ["launch", "tap", "type", "tap"]}
    aimed = [(e.params["x"], e.params["y"]) for e in events if e.kind == "tap"]
    assert aimed == agent.taps, "each tap landed where the observation put the element"


@pytest.mark.slow  # 2.8 s measured: the README's command stays quick
def test_a_model_held_to_its_calls_is_within_the_logs_count(
        rig: tuple[SimServer, Rig], tmp_path: Path, suite: dict[str, Task]) -> None:
    """Red team 73: five open_app calls with a name that is not an app's, then the task, 13
    calls of a budget of 25, failed "the log shows 26 actions": each slip had searched the
    home-screen pages, a drag a page. The server runs in the agent's sandbox, so the runner
    holds it to the log; the log must then count what the model was told it spends."""
    names = ("Calculator app", "Apple Calculator", "Calc", "Calculator App", "Calculator (Apple)")
    agent = McpScriptAgent(slips=tuple(Move("open_app", {"name": n}) for n in names))
    task = suite["calculator.arithmetic"]
    row = run_attempt(AttemptPlan("R", tmp_path / "R", task, 1), rig[1], agent).row
    assert row.outcome == "passed", (row.error, [c.detail for c in row.checks])
    assert (row.turns, task.max_steps) == (12, 25)
    events = read_audit(tmp_path / "R" / "audit.jsonl").records
    assert agent_steps(events) == 6, "open_app Calculator and five taps: no slip acted"


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_the_budget_is_enforced_and_recorded(rig: tuple[SimServer, Rig],
                                            tmp_path: Path) -> None:
    env = {MAX_STEPS: "1", ATTEMPT_DIR: str(tmp_path), CLAIM_FILE: str(tmp_path / "claim.json")}

    async def spend() -> tuple[str, str]:
        async with stdio_client(server(rig[1].bridge.url, env)) as (read, write), \
                ClientSession(read, write) as session:
            await session.initialize()
            await session.call_tool("observe", {})  # the first look: no turn
            assert not (await session.call_tool("swipe", {"direction": "down"})).is_error
            refused = await session.call_tool("swipe", {"direction": "down"})
            assert refused.is_error
            closing = await session.call_tool("done", {"status": "gave_up", "summary": "budget"})
            return text_of(refused), text_of(closing)

    refused, closing = anyio.run(spend)
    assert refused.startswith("out of turns: the 1 tool call is used")
    assert closing.startswith("claim recorded: gave_up")
    use = read_turns(tmp_path)
    assert use is not None and (use.turns, use.out_of_turns) == (2, True)
    claim = read_claim_file(tmp_path / "claim.json")
    assert claim is not None and (claim.status, claim.summary) == ("gave_up", "budget")


@pytest.mark.slow  # 1.8 s measured: the README's command stays quick
def test_past_the_budget_a_malformed_done_is_refused_and_not_counted(
        rig: tuple[SimServer, Rig], tmp_path: Path) -> None:
    env = {MAX_STEPS: "1", ATTEMPT_DIR: str(tmp_path), CLAIM_FILE: str(tmp_path / "claim.json")}

    async def spend() -> list[tuple[bool, str]]:
        async with stdio_client(server(rig[1].bridge.url, env)) as (read, write), \
                ClientSession(read, write) as session:
            await session.initialize()
            await session.call_tool("observe", {})  # the first look: no turn
            told = [await session.call_tool("done", {"summary": "no status"})
                    for _ in range(30)]
            return [(r.is_error, text_of(r)) for r in told]

    told = anyio.run(spend)
    assert told[0] == (True, "done: missing argument 'status'"), "a mistake, the one turn"
    assert set(told[1:]) == {(True, "out of turns: the 1 tool call is used; call done; this "
                                    "done was refused: done: missing argument 'status'")}
    use = read_turns(tmp_path)
    assert use is not None and (use.turns, use.out_of_turns) == (1, True)
    assert read_claim_file(tmp_path / "claim.json") is None


@pytest.mark.slow  # a whole program of about four seconds
def test_a_done_with_nulls_is_a_claim_as_the_claim_file_reads_it(rig: tuple[SimServer, Rig],
                                                                   tmp_path: Path) -> None:
    # 'answer': null was refused ("must be a string, not NoneType"): a turn lost and, for a
    # client that does not retry, no claim; the claim file itself reads null as no answer.
    env = {MAX_STEPS: "5", ATTEMPT_DIR: str(tmp_path), CLAIM_FILE: str(tmp_path / "claim.json")}

    async def finish() -> tuple[bool, str]:
        async with stdio_client(server(rig[1].bridge.url, env)) as (read, write), \
                ClientSession(read, write) as session:
            await session.initialize()
            done = await session.call_tool("done", {"status": "done", "answer": None,
                                                    "summary": None})
            return done.is_error, text_of(done)

    assert anyio.run(finish) == (False, "claim recorded: done; the attempt is over")
    claim = read_claim_file(tmp_path / "claim.json")
    assert claim is not None and (claim.status, claim.answer, claim.summary) == ("done", "", "")
    use = read_turns(tmp_path)
    assert use is not None and (use.turns, use.out_of_turns) == (1, False)


@pytest.mark.slow  # 2.0 s measured: the README's command stays quick
def test_what_a_model_sends_on_purpose_is_an_error_it_is_told(rig: tuple[SimServer, Rig],
                                                               tmp_path: Path) -> None:
    env = {ATTEMPT_DIR: str(tmp_path), CLAIM_FILE: str(tmp_path / "claim.json")}

    async def send() -> list[tuple[bool, str]]:
        async with stdio_client(server(rig[1].bridge.url, env)) as (read, write), \
                ClientSession(read, write) as session:
            await session.initialize()
            await session.call_tool("observe", {})
            told = [await session.call_tool("tap", {"id": "9" * 5000 + ".1"}),
                    await session.call_tool("swipe", {"direction": [[["down"]]]}),
                    await session.call_tool("no such tool\n\x1b[2J", {"x": 1}),
                    await session.call_tool("tap", {"x": float("inf"), "y": 20})]
            return [(r.is_error, text_of(r)) for r in told]

    digits, nested, unknown, infinite = anyio.run(send)
    # the SDK's JSON sends Infinity as null: it was told "'x' is missing" (red team 112)
    assert infinite == (True, "tap: x and y go together, each a finite number: 'x' is missing "
                              "or null (a client may send an infinite number as null)")
    assert digits[0] and digits[1].startswith("'9999") and "is not an id" in digits[1]
    assert nested == (True, "swipe: 'direction' must be a string, not list")
    assert unknown[0] and unknown[1].startswith("there is no tool 'no such tool\\n\\x1b[2J'")


def test_phoneshell_itself_never_imports_the_sdk() -> None:
    code = ("import sys, phoneshell, phoneshell.cli, phoneshell.agents, phoneshell.runner; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('mcp', 'mcp_types')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "[]", done.stderr
