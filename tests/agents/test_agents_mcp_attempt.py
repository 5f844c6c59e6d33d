"""One attempt of an MCP client through `phoneshell mcp` (red team 145), as a `command:` agent
on the simulated iPhone: out of turns, the row says the budget was used up when the agent did
what it was told; a second server of the attempt carries on its count, its free first look and
its one claim; a claim larger than the harness reads is refused so a shorter one can follow."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from agents.command_attempt import attempt

from phoneshell.agents.environment import (
    ATTEMPT_DIR,
    CLAIM_FILE,
    MAX_CLAIM_BYTES,
    MAX_STEPS,
    read_turns,
)
from phoneshell.records import ResultRow
from phoneshell.runner import Rig, open_rig
from phoneshell.sim import SimServer
from phoneshell.tasks import Task

TASK = "settings.about.reach"
AGENT = Path(__file__).with_name("mcp_calls_agent.py")


def played(rig: Rig, tmp_path: Path, task: Task, *scripts: list[object]
           ) -> tuple[ResultRow, list[dict[str, object]], dict[str, object]]:
    """The row of one attempt whose command line starts one MCP client per script, one after
    the other, the replies they got and the turns file."""
    lines = []
    for number, script in enumerate(scripts):
        path = tmp_path / f"calls{number}.json"
        path.write_text(json.dumps(script))
        lines.append(f"{shlex.quote(sys.executable)} {shlex.quote(str(AGENT))} "
                     f"{shlex.quote(str(path))}")
    row = attempt(rig, tmp_path, task, " && ".join(lines))
    agent = tmp_path / "R" / "attempts" / task.id / "1" / "agent"
    replies = [json.loads(line) for line in (agent / "replies.jsonl").read_text().splitlines()]
    return row, replies, json.loads((agent / "turns.json").read_text())


OBSERVE = ["observe", {}]


@pytest.mark.slow  # an MCP server started by the agent: about four seconds
def test_the_done_asked_for_past_the_budget_is_no_call_over_it(
        rig: Rig, tmp_path: Path, suite: dict[str, Task]) -> None:
    task = replace(suite[TASK], max_steps=2)
    row, replies, turns = played(rig, tmp_path, task, [
        OBSERVE, OBSERVE, OBSERVE, ["swipe", {"direction": "down"}],
        ["done", {"status": "gave_up", "summary": "out of turns"}]])
    assert replies[3] == {"tool": "swipe", "error": True,
                          "text": "out of turns: all 2 tool calls are used; call done"}
    assert not replies[4]["error"]
    assert (turns["turns"], turns["out_of_turns"]) == (3, True), "two and the done"
    assert row.error.startswith("used all 2 tool calls (turns.json), then called 'swipe' "
                                "instead of done"), row.error


@pytest.mark.slow  # two MCP servers started by the agent: about six seconds
def test_a_second_server_of_the_attempt_carries_on_its_count_and_claim(
        rig: Rig, tmp_path: Path, suite: dict[str, Task]) -> None:
    task = replace(suite[TASK], max_steps=2)
    first = [OBSERVE, OBSERVE, OBSERVE, ["swipe", {"direction": "down"}],
             ["done", {"status": "done", "answer": "A"}]]
    second = [OBSERVE, ["done", {"status": "done", "answer": "B"}]]
    row, replies, turns = played(rig, tmp_path, task, first, second)
    assert [r["error"] for r in replies] == [False, False, False, True, False, True, True]
    assert replies[5]["text"] == replies[6]["text"] == ("done was already called: the attempt "
                                                        "is over")
    assert row.claim is not None and row.claim.answer == "A", row.claim
    assert (turns["turns"], turns["out_of_turns"]) == (3, True), turns
    assert row.out_of_turns and row.error.startswith("used all 2 tool calls"), row.error


@pytest.mark.slow  # two MCP servers started by the agent: about six seconds
def test_a_second_server_counts_on_and_gives_no_second_free_look(
        rig: Rig, tmp_path: Path, suite: dict[str, Task]) -> None:
    task = replace(suite[TASK], max_steps=3)
    row, replies, turns = played(rig, tmp_path, task, [OBSERVE, OBSERVE],
                                 [OBSERVE, OBSERVE, ["swipe", {"direction": "down"}],
                                  ["done", {"status": "gave_up"}]])
    # the first look is free once; then three calls, and the fourth (a swipe) is refused
    assert [r["error"] for r in replies] == [False, False, False, False, True, False]
    assert replies[4]["text"].startswith("out of turns: all 3 tool calls are used")
    assert (turns["turns"], turns["out_of_turns"], turns["looked"]) == (4, True, True)
    assert row.claim is not None and row.claim.status == "gave_up"


@pytest.mark.slow  # an MCP server started by the agent: about four seconds
def test_a_claim_larger_than_the_harness_reads_is_refused_and_a_shorter_one_taken(
        rig: Rig, tmp_path: Path, suite: dict[str, Task]) -> None:
    big = {"status": "done", "answer": "423", "summary": "x" * MAX_CLAIM_BYTES}
    row, replies, turns = played(rig, tmp_path, suite[TASK], [
        OBSERVE, ["done", big], ["done", {"status": "done", "answer": "423"}]])
    assert replies[1]["error"]
    assert replies[1]["text"].startswith("done was refused: the claim is 1,048,6"), replies[1]
    assert "over the limit of 1,048,576" in replies[1]["text"]
    assert "shorter summary" in replies[1]["text"]
    assert replies[2] == {"tool": "done", "error": False,
                          "text": "claim recorded: done; the attempt is over"}
    assert row.claim is not None and row.claim.answer == "423", (row.claim, row.error)
    assert "unreadable claim file" not in row.error
    assert turns["turns"] == 2, "the refused done was a turn, as any mistaken call"


@pytest.fixture
def phone(tmp_path: Path) -> Iterator[tuple[SimServer, Rig]]:
    """The simulated iPhone and the rig on it (its bridge a URL outside any attempt)."""
    with SimServer() as sim, open_rig(sim.url, tmp_path, effect_timeout_s=0.5) as found:
        yield sim, found


def raw_calls(url: str, folder: Path, steps: int, params: list[str]) -> list[dict[str, object]]:
    """The replies of `phoneshell mcp` to `tools/call` requests written as raw JSON-RPC lines
    (`params` as sent: an SDK client sends arguments only as an object)."""
    folder.mkdir(exist_ok=True)
    env = {**os.environ, CLAIM_FILE: str(folder / "claim.json"), ATTEMPT_DIR: str(folder),
           MAX_STEPS: str(steps)}
    hello = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
             "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                        "clientInfo": {"name": "raw", "version": "1"}}}
    lines = [json.dumps(hello), '{"jsonrpc": "2.0", "method": "notifications/initialized"}']
    lines += [f'{{"jsonrpc": "2.0", "id": {n}, "method": "tools/call", "params": {p}}}'
              for n, p in enumerate(params, 1)]
    with subprocess.Popen([sys.executable, "-m", "phoneshell", "mcp", "--bridge", url],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env) as server:
        assert server.stdin is not None and server.stdout is not None
        replies = []
        for line in lines:  # one at a time: each answered before the next is sent
            server.stdin.write(line.encode() + b"\n")
            server.stdin.flush()
            if line is not lines[1]:  # the notification has no answer
                replies.append(json.loads(server.stdout.readline()))
        server.stdin.close()
        server.wait(timeout=60)
    return replies[1:]


def said(reply: dict[str, object]) -> tuple[bool, str]:
    result = reply.get("result")
    assert isinstance(result, dict), reply
    return bool(result["isError"]), "\n".join(c["text"] for c in result["content"]
                                              if c["type"] == "text")


@pytest.mark.slow  # a server and a dozen reads of the phone: about five seconds
def test_arguments_that_are_no_object_are_a_turn_and_past_the_budget_are_refused(
        phone: tuple[SimServer, Rig], tmp_path: Path) -> None:
    url = phone[1].bridge.url
    within = raw_calls(url, tmp_path / "within", 5, [
        '{"name": "tap", "arguments": "x"}', '{"name": "swipe", "arguments": [1, 2]}'])
    assert [said(r) for r in within] == [
        (True, "tap: the arguments are not a JSON object: '\"x\"'"),
        (True, "swipe: the arguments are not a JSON object: '[1, 2]'")]
    use = read_turns(tmp_path / "within")
    assert use is not None and (use.turns, use.out_of_turns) == (2, False), "each one a turn"
    past = raw_calls(url, tmp_path / "past", 1, [
        '{"name": "observe", "arguments": {}}', '{"name": "observe", "arguments": {}}',
        '{"name": "tap", "arguments": "x"}', '{"name": "done", "arguments": ["done"]}',
        '{"name": "done", "arguments": {"status": "done"}}'])
    told = [said(r) for r in past]
    assert told[2] == (True, "out of turns: the 1 tool call is used; call done")
    assert told[3] == (True, "out of turns: the 1 tool call is used; call done; this done was "
                             "refused: done: the arguments are not a JSON object: "
                             "'[\"done\"]'")
    assert told[4] == (False, "claim recorded: done; the attempt is over")
    use = read_turns(tmp_path / "past")
    assert use is not None
    assert (use.turns, use.out_of_turns, use.refused) == (2, True, "called 'tap' instead of done")


@pytest.mark.slow  # a server started: about five seconds
def test_an_id_is_ascii_digits_only(phone: tuple[SimServer, Rig], tmp_path: Path) -> None:
    replies = raw_calls(phone[1].bridge.url, tmp_path, 9, [
        '{"name": "observe", "arguments": {}}', '{"name": "tap", "arguments": {"id": "１.２"}}',
        '{"name": "tap", "arguments": {"id": "1.\u0662"}}'])
    for reply in replies[1:]:
        error, text = said(reply)
        assert error and "is not an id; ids look like \"1.3\"" in text, text


@pytest.mark.slow  # a server started: about five seconds
def test_a_dead_phone_is_told_with_its_hint_once(phone: tuple[SimServer, Rig],
                                                 tmp_path: Path) -> None:
    phone[0].fault_on("gone")
    (reply,) = raw_calls(phone[1].bridge.url, tmp_path, 9,
                         ['{"name": "observe", "arguments": {}}'])
    error, text = said(reply)
    assert error and text.startswith("the phone cannot be driven: "), text
    assert text.count("phoneshell doctor") == 1, text
