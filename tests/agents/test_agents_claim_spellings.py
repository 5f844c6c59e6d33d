"""The one claim reader takes what a model's JSON says plainly: a number answer (`{"answer":
87}`) is its text as written ("87", "87.50"), and a status is read in any case, with space
around it ("DONE", " done "), on every path (the claim file, a stdout line, the `done` tool,
`phoneshell finish`). Anything else stays refused with its own error (a bool or NaN answer,
"gave up", a status in other letters), and a status never grades: the phone does."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest
from agents.command_attempt import attempt
from cli_process import run_cli

from phoneshell.agents.environment import CLAIM_FILE, parse_claim_line, read_claim_file
from phoneshell.agents.tools import PhoneTools
from phoneshell.records import ClaimFile, RecordError
from phoneshell.runner import Rig
from phoneshell.tasks import Task

AGENT = f"{shlex.quote(sys.executable)} tests/agents/number_claim_agent.py"
BATTERY = "settings.battery.percentage"


@pytest.mark.parametrize(("where", "status", "number"), [
    ("stdout", " DONE ", ""), ("file", "Done", ""), ("stdout", "done", "fraction")])
@pytest.mark.slow  # 1.7 s measured: the README's command stays quick
def test_a_number_answer_and_a_status_spelled_its_own_way_are_the_claim_graded(
        rig: Rig, tmp_path: Path, suite: dict[str, Task], where: str, status: str,
        number: str) -> None:
    # A model's JSON says {"answer": 87}: it was refused (no claim, or "unreadable claim
    # file"), and the battery task failed an agent that had read the level right.
    row = attempt(rig, tmp_path, suite[BATTERY], f"{AGENT} {where} {shlex.quote(status)} "
                                                 f"{number}")
    assert row.claim is not None and row.claim.status == "done", (row.claim, row.error)
    level = row.claim.answer.removesuffix(".50")
    assert level.isdigit() and row.claim.answer == level + (".50" if number else "")
    if not number:  # the level itself: the task passes
        assert row.error == "" and row.outcome == "passed", [c.detail for c in row.checks]
    else:  # graded as written, the checks' business (87.50 is not how the phone writes 87%)
        assert f"answer '{level}.50'" in row.checks[-1].detail, row.checks[-1].detail


def test_a_status_never_grades_a_finish_that_did_nothing(rig: Rig, tmp_path: Path,
                                                         suite: dict[str, Task]) -> None:
    line = json.dumps({"status": "DONE", "answer": 100})
    row = attempt(rig, tmp_path, suite[BATTERY], f"echo {shlex.quote(line)}")
    assert row.claim is not None and (row.claim.status, row.claim.answer) == ("done", "100")
    assert row.outcome == "failed"


READ = [('"DONE"', "87", ("done", "87")), ('" gave_up\\n"', "87.50", ("gave_up", "87.50")),
        ('"Failed"', "1e2", ("failed", "1e2")), ('"done"', "-3", ("done", "-3")),
        ('"done"', '"87%"', ("done", "87%"))]
"""(status, answer) as JSON text, and the claim read: a number keeps the text it was sent as."""
REFUSED = [('"gave up"', '""', "'status'"), ('"finished"', '""', "'status'"),
           ('"\\uff24\\uff2f\\uff2e\\uff25"', '""', "'status'"),  # DONE in full-width letters
           ('"done\\u200b"', '""', "'status'"), ('1', '""', "'status'"),
           ('"done"', "true", "'answer'"), ('"done"', "NaN", "'answer'"),
           ('"done"', "1e400", "'answer'"), ('"done"', "[87]", "'answer'"),
           ('"done"', '{"value": 87}', "'answer'")]
"""(status, answer) as JSON text no path reads as a claim, and the field its error names."""


@pytest.mark.parametrize(("status", "answer", "claim"), READ)
def test_every_path_reads_a_claim_alike(tmp_path: Path, status: str, answer: str,
                                        claim: tuple[str, str]) -> None:
    text = f'{{"v": 1, "status": {status}, "answer": {answer}}}'
    (tmp_path / "claim.json").write_text(text)
    from_file = read_claim_file(tmp_path / "claim.json")
    from_line = parse_claim_line(text)
    assert from_file is not None and from_line is not None
    assert (from_file.status, from_file.answer) == (from_line.status, from_line.answer) == claim


@pytest.mark.parametrize(("status", "answer", "field"), REFUSED)
def test_what_is_no_claim_stays_refused_on_every_path(tmp_path: Path, tools: PhoneTools,
                                                      status: str, answer: str,
                                                      field: str) -> None:
    text = f'{{"v": 1, "status": {status}, "answer": {answer}}}'
    (tmp_path / "claim.json").write_text(text)
    with pytest.raises(RecordError, match=f"field {field}"):
        read_claim_file(tmp_path / "claim.json")
    assert parse_claim_line(text) is None
    reply = tools.call("done", text.replace('"v": 1, ', ""))
    assert reply.error and f"{field}" in reply.text and tools.claim is None, reply.text


def test_done_reads_a_claim_as_the_claim_file_does(tools: PhoneTools) -> None:
    # as OpenAI sends arguments (JSON text): the number as written
    reply = tools.call("done", '{"status": " DONE ", "answer": 87.50, "summary": null}')
    assert reply.text == "claim recorded: done; the attempt is over", reply.text
    assert tools.claim is not None and (tools.claim.status, tools.claim.answer) == (
        "done", "87.50")


def test_done_reads_a_decoded_number_as_its_shortest_text(tools: PhoneTools) -> None:
    # an MCP client's arguments arrive decoded (`phoneshell mcp` hands them on as they are)
    reply = tools.call("done", {"status": "Gave_Up", "answer": 87.5})
    assert not reply.error, reply.text
    assert tools.claim is not None and (tools.claim.status, tools.claim.answer) == (
        "gave_up", "87.5")


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_finish_takes_a_status_in_capitals(tmp_path: Path) -> None:
    path = tmp_path / "claim.json"
    done = run_cli("finish", "--status", " DONE", "--answer", "87", env={CLAIM_FILE: str(path)})
    assert done.returncode == 0, done.stderr
    claim = read_claim_file(path)
    assert claim is not None and (claim.status, claim.answer) == ("done", "87")
    bad = run_cli("finish", "--status", "gave up", env={CLAIM_FILE: str(path)})
    assert bad.returncode == 2 and "invalid choice: 'gave up'" in bad.stderr, bad.stderr


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
@pytest.mark.parametrize(("answer", "summary"), [
    ("-3°", "--read off the Weather app"), ("-3", "-"), ("--x", "-h")])
def test_finish_takes_a_free_text_that_starts_with_a_dash(tmp_path: Path, answer: str,
                                                           summary: str) -> None:
    """A negative reading is written as the guide asks (`--answer -3°`); argparse took "-3°"
    for an option and wrote no claim (red team 112). Abbreviated options keep working."""
    path = tmp_path / "claim.json"
    done = run_cli("finish", "--status", "done", "--answer", answer, "--summ", summary,
                   env={CLAIM_FILE: str(path)})
    assert done.returncode == 0, done.stderr
    claim = read_claim_file(path)
    assert claim is not None and (claim.answer, claim.summary) == (answer, summary)


def test_a_record_of_a_claim_is_written_in_the_words_it_was_read_as() -> None:
    claim = ClaimFile.of({"v": 1, "status": "DONE", "answer": 87}, "test").claim
    assert json.loads(ClaimFile(status=claim.status, answer=claim.answer).to_json()) == {
        "v": 1, "status": "done", "answer": "87", "summary": ""}
