"""The `openai:` loop end to end: a local OpenAI-compatible stand-in plays the model, the
simulated iPhone plays the phone, the bridge logs every action, and the runner grades."""

from __future__ import annotations

import base64
import json
import socket
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from agents.openai_standin import API_KEY, StandIn

from phoneshell.agents import chat_api, make_agent, openai_loop
from phoneshell.audit import read_audit
from phoneshell.errors import RunError
from phoneshell.records import ResultRow
from phoneshell.runner import AttemptPlan, RunOptions, open_rig, run_attempt, run_suite
from phoneshell.sim import SimServer
from phoneshell.tasks import Task

ROOT = Path(__file__).resolve().parents[2]
FOUR = ("settings.about.reach", "settings.about.serial", "calculator.arithmetic",
        "notes.create_titled")


@pytest.fixture(scope="module")
def stand_in() -> Iterator[StandIn]:
    with StandIn() as server:
        yield server


@pytest.fixture(autouse=True)
def endpoint(stand_in: StandIn, monkeypatch: pytest.MonkeyPatch) -> StandIn:
    """Point the loop at the stand-in (the PHONESHELL_ overrides win over OPENAI_*)."""
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/never-used")
    monkeypatch.setenv("PHONESHELL_OPENAI_BASE_URL", stand_in.url)
    monkeypatch.setenv("PHONESHELL_OPENAI_API_KEY", API_KEY)
    monkeypatch.delenv("PHONESHELL_VISION", raising=False)
    stand_in.requests.clear()
    return stand_in


def attempt(tmp_path: Path, task: Task, agent_spec: str) -> ResultRow:
    """One attempt on a fresh simulated iPhone behind a bridge, as a run makes it."""
    with SimServer() as sim, open_rig(sim.url, tmp_path, effect_timeout_s=0.5) as rig:
        plan = AttemptPlan("R", tmp_path / "R", task, 1)
        return run_attempt(plan, rig, make_agent(agent_spec)).row


def agent_events(run_dir: Path, task_id: str) -> list[dict[str, object]]:
    return [{"kind": e.kind, **e.params} for e in read_audit(run_dir / "audit.jsonl").records
            if e.task_id == task_id and e.phase == "agent" and e.stage == "intent"]


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_the_loop_completes_four_suite_tasks_in_a_run(tmp_path: Path) -> None:
    options = RunOptions((str(ROOT / "environments"),), agent="openai:stand-in", device="sim",
                         task_globs=FOUR, runs_dir=tmp_path, run_id="R")
    summary = run_suite(options, lambda line: None)
    rows = {r.task_id: r for r in summary.rows}
    assert sorted(rows) == sorted(FOUR)
    for task_id, row in rows.items():
        assert row.outcome == "passed", (task_id, row.error, [c.detail for c in row.checks])
        assert row.claim is not None and row.claim.status == "done"
        assert row.agent == "openai:stand-in" and not row.out_of_turns
    assert rows["settings.about.serial"].claim.answer == "MQ163LL/A"  # type: ignore[union-attr]
    assert rows["calculator.arithmetic"].turns == 7  # open, five taps, done
    # Every action went through the bridge, under the agent phase.
    taps = agent_events(tmp_path / "R", "calculator.arithmetic")
    assert [e["kind"] for e in taps] == ["launch"] + ["tap"] * 5
    typed = agent_events(tmp_path / "R", "notes.create_titled")
    assert [e["kind"] for e in typed] == ["launch", "tap", "type", "tap"]
    # The transcript keeps the conversation, screenshots aside.
    lines = [json.loads(x) for x in (tmp_path / "R" / "attempts" / "settings.about.serial" / "1"
                                     / "transcript.jsonl").read_text().splitlines()]
    roles = [x["message"]["role"] for x in lines if "message" in x]
    assert roles[:3] == ["system", "user", "assistant"] and roles.count("tool") == 4
    assert lines[-1]["end"]["claim"]["answer"] == "MQ163LL/A"


def test_every_request_carries_the_registry_tools(endpoint: StandIn, tmp_path: Path,
                                                  suite: dict[str, Task]) -> None:
    from phoneshell.agents.tools import TOOLS

    attempt(tmp_path, suite["settings.about.reach"], "openai:stand-in")
    body = endpoint.requests[0]
    sent = {t["function"]["name"]: t["function"] for t in body["tools"]}
    assert list(sent) == TOOLS.names()
    for name, entry in TOOLS.items():
        assert sent[name]["description"] == entry.description
        assert sent[name]["parameters"] == entry.parameters
    first_user = body["messages"][1]["content"]
    assert first_user.startswith("In Settings, go to the About page")
    assert "observation 1 · app: SpringBoard" in first_user


@pytest.mark.slow
def test_a_model_that_fills_its_share_of_the_log_is_stopped_there(
        endpoint: StandIn, tmp_path: Path, suite: dict[str, Task]) -> None:
    task = replace(suite["notes.type_long"], max_steps=200)
    with SimServer() as sim, open_rig(sim.url, tmp_path, effect_timeout_s=0.5,
                                      agent_log_bytes=20_000) as rig:
        plan = AttemptPlan("R", tmp_path / "R", task, 1)
        row = run_attempt(plan, rig, make_agent("openai:stand-in-bloat")).row
    assert row.outcome == "failed" and not row.out_of_turns
    assert "its access to the phone ended early (the agent's share" in row.error
    asked = sum(r.get("model") == "stand-in-bloat" for r in endpoint.requests)
    assert asked < 20, "the model was asked on after nothing it sent could reach the phone"


def test_malformed_dones_past_the_budget_are_refused_not_counted(
        tmp_path: Path, suite: dict[str, Task]) -> None:
    # Three actions reach About and spend the budget; then a reply of 20 dones without a
    # status. Each used to count a turn, and the valid done after them passed a row of 24 turns.
    task = replace(suite["settings.about.reach"], max_steps=3)
    row = attempt(tmp_path, task, "openai:stand-in-overdone")
    assert all(c.passed for c in row.checks), "the end state is right..."
    assert row.out_of_turns and row.outcome == "failed"  # ...and only a valid done was taken
    assert row.turns == 3 and row.claim is None
    assert row.error == ("used all 3 tool calls, then called done, which was refused: done: "
                         "missing argument 'status'"), "it called done: the error says so"


def test_nulls_for_arguments_left_out_are_taken_past_the_budget_too(
        tmp_path: Path, suite: dict[str, Task]) -> None:
    # A model in OpenAI's strict mode sends every argument, those it has none for as null: its
    # taps were refused, and its done after the last turn ('answer': null) failed the attempt as
    # "used all 3 tool calls without calling done", though the claim file reads null as none.
    task = replace(suite["settings.about.reach"], max_steps=3)
    row = attempt(tmp_path, task, "openai:stand-in-nulls")
    assert row.outcome == "passed", (row.error, [c.detail for c in row.checks])
    assert not row.out_of_turns and row.turns == 4, "the budget and the one done"
    assert row.claim is not None and (row.claim.status, row.claim.answer) == ("done", "")


def test_a_reply_in_prose_past_the_budget_ends_as_a_refused_call_does(
        tmp_path: Path, suite: dict[str, Task]) -> None:
    # It passed with 4 turns of a budget of 3, where a slightly malformed done failed: both
    # are "I stopped" with no action, and past the budget neither is a valid done.
    task = replace(suite["settings.about.reach"], max_steps=3)
    row = attempt(tmp_path, task, "openai:stand-in-talk-last")
    assert all(c.passed for c in row.checks), "the end state is right..."
    assert row.out_of_turns and row.outcome == "failed" and row.turns == 3
    assert row.claim is None and row.error == (
        "used all 3 tool calls, then replied without a tool call instead of calling done")


def test_running_out_of_turns_never_passes(tmp_path: Path, suite: dict[str, Task]) -> None:
    # Three actions reach About; the dawdling model then observes once more instead of done.
    task = replace(suite["settings.about.reach"], max_steps=3)
    row = attempt(tmp_path, task, "openai:stand-in-dawdle")
    assert all(c.passed for c in row.checks), "the end state is right..."
    assert row.out_of_turns and row.outcome == "failed"  # ...and still it cannot pass
    assert row.turns == 3 and row.error == (
        "used all 3 tool calls, then called 'observe' instead of done")


def closed_port() -> int:
    """A loopback port nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize("base, key, why", [
    (None, "wrong-key", "HTTP 401: Incorrect API key provided"),
    ("{url}/../v9", API_KEY, "HTTP 404: unknown path"),
    ("http://127.0.0.1:{closed}/v1", API_KEY, "cannot reach http://127.0.0.1:{closed}/v1/chat"),
])
def test_an_endpoint_no_model_could_answer_means_the_agent_never_ran(
        endpoint: StandIn, tmp_path: Path, suite: dict[str, Task],
        monkeypatch: pytest.MonkeyPatch, base: str | None, key: str, why: str) -> None:
    # Refused, unauthorized or unknown before any reply: nothing the model can cause.
    closed = closed_port()
    url = (base or endpoint.url).format(url=endpoint.url, closed=closed)
    monkeypatch.setenv("PHONESHELL_OPENAI_BASE_URL", url)
    monkeypatch.setenv("PHONESHELL_OPENAI_API_KEY", key)
    row = attempt(tmp_path, suite["settings.about.reach"], "openai:stand-in")
    assert row.outcome == "skipped" and row.checks == ()
    assert row.skip_reason.startswith(
        f"the agent never ran: the model API at {url} was never reached: "
        f"{why.format(closed=closed)}"), row.skip_reason


def test_a_rate_limit_before_the_first_reply_is_scored(
        endpoint: StandIn, tmp_path: Path, suite: dict[str, Task],
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Rate limits count the tokens a model writes: one that spent them could otherwise have
    # the next attempt not scored.
    monkeypatch.setenv("PHONESHELL_OPENAI_RETRIES", "1")
    row = attempt(tmp_path, suite["settings.about.reach"], "openai:stand-in-429")
    assert row.outcome == "failed" and not row.skipped
    assert row.error.startswith("model API error: HTTP 429: Rate limit reached"), row.error
    assert len(endpoint.requests) == 2, "one retry, as configured"


def test_a_first_reply_slower_than_the_clock_is_out_of_time(
        tmp_path: Path, suite: dict[str, Task]) -> None:
    # Skipped, a long think would dodge a hard task; an honest slow model is out of time.
    task = replace(suite["settings.about.reach"], timeout_seconds=1.0)
    row = attempt(tmp_path, task, "openai:stand-in-think")
    assert row.outcome == "failed" and not row.skipped, row.skip_reason
    assert row.timed_out and row.error == "ran out of time (1s)" and row.turns == 0


def test_arguments_nested_thousands_deep_are_an_error_the_model_is_told(
        endpoint: StandIn, tmp_path: Path, suite: dict[str, Task]) -> None:
    row = attempt(tmp_path, suite["settings.about.reach"], "openai:stand-in-nested")
    assert row.outcome == "failed" and not row.skipped, row.skip_reason
    told = endpoint.requests[-1]["messages"][-1]
    assert told["role"] == "tool"
    assert told["content"].startswith("tap: the arguments are not a JSON object: '[[[")


def test_an_id_of_thousands_of_digits_is_an_error_the_model_is_told(
        tmp_path: Path, suite: dict[str, Task]) -> None:
    row = attempt(tmp_path, suite["settings.about.reach"], "openai:stand-in-digits")
    assert row.outcome == "failed" and not row.skipped, row.skip_reason
    assert row.claim is not None and row.claim.status == "failed"
    assert row.claim.summary.startswith("'9999") and "is not an id" in row.claim.summary


def test_a_claim_with_a_lone_surrogate_is_kept_escaped(tmp_path: Path,
                                                       suite: dict[str, Task]) -> None:
    row = attempt(tmp_path, suite["settings.about.reach"], "openai:stand-in-surrogate")
    assert row.outcome == "failed" and not row.skipped, row.skip_reason
    assert row.claim is not None and (row.claim.status, row.claim.summary) == (
        "done", "ok \\ud800")
    folder = tmp_path / "R" / "attempts" / "settings.about.reach" / "1"
    ended = json.loads((folder / "transcript.jsonl").read_text().splitlines()[-1])
    assert ended["end"]["claim"]["summary"] == "ok \\ud800"


@pytest.mark.parametrize("status", [400, 500])
def test_an_error_message_with_a_lone_surrogate_is_scored_not_skipped(
        status: int, tmp_path: Path, suite: dict[str, Task]) -> None:
    """Red team 73: servers echo a model's malformed output in their errors ("invalid tool
    call: ..."); a lone surrogate there broke the transcript's writing, which read as "the agent
    never ran", and a hard task went unscored at the endpoint's will."""
    row = attempt(tmp_path, suite["settings.about.reach"], f"openai:stand-in-{status}-surrogate")
    assert row.outcome == "failed" and not row.skipped, row.skip_reason
    assert row.error == (f"model API error: HTTP {status}: invalid tool call: \\ud800 in the "
                         "arguments"), row.error
    folder = tmp_path / "R" / "attempts" / "settings.about.reach" / "1"
    said = [json.loads(line) for line in (folder / "transcript.jsonl").read_text().splitlines()]
    assert said[-2]["error"].endswith("\\ud800 in the arguments") and "end" in said[-1]


def test_a_transcript_that_cannot_be_kept_after_an_answer_is_a_failure(
        endpoint: StandIn, tmp_path: Path, suite: dict[str, Task]) -> None:
    """The harness's own record-keeping failing once the endpoint answered is never "never ran":
    a fault a reply could set off would be a skip at the endpoint's will. It fails, saying so."""
    def spoil() -> None:  # the transcript's file gone, a folder in its place
        for path in tmp_path.rglob("transcript.jsonl"):
            path.unlink()
            path.mkdir()

    endpoint.before_answer = spoil
    try:
        row = attempt(tmp_path, suite["settings.about.reach"], "openai:stand-in")
    finally:
        endpoint.before_answer = None
    assert row.outcome == "failed" and not row.skipped, row.skip_reason
    assert row.error.startswith("harness error (IsADirectoryError) keeping the model's turn: "
                                ), row.error
    assert row.error_type == "IsADirectoryError"
    folder = tmp_path / "R" / "attempts" / "settings.about.reach" / "1"
    assert "IsADirectoryError" in (folder / "traceback.txt").read_text()


def test_an_api_error_mid_run_is_a_failed_claim(tmp_path: Path, suite: dict[str, Task]) -> None:
    row = attempt(tmp_path, suite["settings.about.reach"], "openai:stand-in-500-later")
    assert row.outcome == "failed" and not row.skipped
    assert row.claim is not None and row.claim.status == "failed"
    assert "HTTP 500" in row.claim.summary and "HTTP 500" in row.error
    assert row.turns == 1


@pytest.mark.parametrize(("model", "said"), [("stand-in-cut", "cut off, 4972 bytes short"),
                                           ("stand-in-garbled", "BadStatusLine")])
def test_a_reply_cut_off_or_garbled_after_acting_is_a_failure(
        tmp_path: Path, suite: dict[str, Task], model: str, said: str) -> None:
    row = attempt(tmp_path, suite["settings.about.reach"], f"openai:{model}")
    assert row.outcome == "failed" and not row.skipped, row.skip_reason
    assert "bad reply from" in row.error and said in row.error
    assert row.claim is not None and row.claim.status == "failed"


@pytest.mark.parametrize("model", ["stand-in-trickle", "stand-in-error-trickle",
                                   "stand-in-head-trickle"])
@pytest.mark.slow  # 3.3 s measured: the README's command stays quick
def test_a_reply_sent_a_byte_at_a_time_ends_on_the_turns_clock(
        model: str, endpoint: StandIn, tmp_path: Path, suite: dict[str, Task]) -> None:
    """The socket's timeout holds for each read: a reply trickled in outlasted any budget, an
    error's body held the attempt as long as the endpoint liked (it is read as a reply is),
    and so did a header line (red team 112: a 20 s attempt took 150 s)."""
    task = replace(suite["settings.about.reach"], timeout_seconds=3.0)
    started = time.monotonic()
    try:
        row = attempt(tmp_path, task, f"openai:{model}")
    finally:
        endpoint.slow.set()  # the trickle stops
        endpoint.slow.clear()
    assert row.outcome == "failed" and row.timed_out, row.error
    assert time.monotonic() - started < 9


def test_a_reply_too_big_to_hold_is_a_bad_reply(endpoint: StandIn, tmp_path: Path,
                                                suite: dict[str, Task],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(chat_api, "MAX_REPLY_BYTES", 1 << 20)
    row = attempt(tmp_path, suite["settings.about.reach"], "openai:stand-in-huge")
    assert row.outcome == "failed" and not row.skipped, row.skip_reason
    assert "over 1 MiB" in row.error


def test_calls_of_a_tool_no_one_has_each_cost_a_turn(endpoint: StandIn, tmp_path: Path,
                                                     suite: dict[str, Task]) -> None:
    task = replace(suite["settings.about.reach"], max_steps=30)
    row = attempt(tmp_path, task, "openai:stand-in-flood")
    assert row.outcome == "failed" and row.out_of_turns, row.error
    assert row.turns == 30 and "used all 30 tool calls" in row.error
    assert sum(r.get("model") == "stand-in-flood" for r in endpoint.requests) == 1


def test_a_conversation_that_outgrows_its_cap_fails_and_its_transcript_stays_that_size(
        endpoint: StandIn, tmp_path: Path, suite: dict[str, Task],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(openai_loop, "MAX_CONVERSATION_CHARS", 1 << 20)
    task = replace(suite["settings.about.reach"], max_steps=10_000)
    row = attempt(tmp_path, task, "openai:stand-in-flood")
    assert row.outcome == "failed" and not row.skipped and not row.out_of_turns, row.error
    assert "the conversation outgrew 1 MiB" in row.error
    asked = sum(r.get("model") == "stand-in-flood" for r in endpoint.requests)
    assert asked == 5, "five replies of 200,000 characters, with their tool answers, pass 1 MiB"
    transcript = next(tmp_path.glob("R/**/transcript.jsonl"))
    assert transcript.stat().st_size < (1 << 20) + 2 * 200_000


def test_running_out_of_time_never_passes(tmp_path: Path, suite: dict[str, Task]) -> None:
    task = replace(suite["settings.about.reach"], timeout_seconds=1.0)
    row = attempt(tmp_path, task, "openai:stand-in-slow")
    assert row.timed_out and row.outcome == "failed" and not row.skipped
    assert row.error == "ran out of time (1s)" and row.turns == 1


def test_a_stale_id_is_an_error_message_to_the_model(endpoint: StandIn, tmp_path: Path,
                                                     suite: dict[str, Task]) -> None:
    row = attempt(tmp_path, suite["settings.about.reach"], "openai:stand-in-stale")
    told = endpoint.requests[-1]["messages"][-1]
    assert told["role"] == "tool"
    assert "is from observation 1, but observation 2 is the latest" in told["content"]
    assert row.claim is not None and row.claim.status == "gave_up"
    assert "valid only for the observation that issued it" in row.claim.summary
    assert agent_events(tmp_path / "R", task_id="settings.about.reach") == [], "no tap was sent"


def test_a_reply_without_a_tool_call_ends_with_a_failed_claim(
        endpoint: StandIn, tmp_path: Path, suite: dict[str, Task]) -> None:
    row = attempt(tmp_path, suite["settings.about.reach"], "openai:stand-in-talk")
    assert row.claim is not None
    assert (row.claim.status, row.claim.summary) == ("failed", "I believe the task is complete.")
    assert row.turns == 1 and row.outcome == "failed"
    # and the model was told so before it replied (red team 112: its system prompt never said)
    system = endpoint.requests[0]["messages"][0]
    assert system["role"] == "system"
    assert ("Every reply must call a tool: a reply without one (thinking aloud, a plan, a report "
            "in prose) ends the task at once as failed, its text taken as your summary."
            ) in system["content"]


def test_screenshots_are_attached_and_only_the_last_few_kept(
        endpoint: StandIn, tmp_path: Path, suite: dict[str, Task],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PHONESHELL_VISION", "1")
    monkeypatch.setenv("PHONESHELL_VISION_KEEP", "2")
    row = attempt(tmp_path, suite["calculator.arithmetic"], "openai:stand-in")
    assert row.outcome == "passed"

    def images(body: dict[str, object]) -> list[str]:
        return [p["image_url"]["url"] for m in body["messages"]  # type: ignore[attr-defined]
                if isinstance(m["content"], list) for p in m["content"]
                if p["type"] == "image_url"]

    counts = [len(images(b)) for b in endpoint.requests]
    assert max(counts) == 2 and counts[0] == 1
    last = endpoint.requests[-1]
    assert "[earlier screenshot omitted]" in json.dumps(last)
    png = base64.b64decode(images(last)[-1].split(",", 1)[1])
    assert png.startswith(b"\x89PNG")


def test_the_default_endpoint_without_a_key_fails_before_any_phone(
        monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("PHONESHELL_OPENAI_BASE_URL", "OPENAI_BASE_URL", "PHONESHELL_OPENAI_API_KEY",
                 "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(RunError, match="no API key"):
        make_agent("openai:gpt-4.1")
    with pytest.raises(RunError, match="needs a model"):
        make_agent("openai")


def test_a_budget_of_one_call_is_said_in_the_singular(tmp_path: Path,
                                                      suite: dict[str, Task]) -> None:
    task = replace(suite["settings.about.reach"], max_steps=1)
    row = attempt(tmp_path, task, "openai:stand-in-dawdle")
    assert row.out_of_turns and row.outcome == "failed" and row.turns == 1
    assert row.error.startswith("used the 1 tool call, then called "), row.error
