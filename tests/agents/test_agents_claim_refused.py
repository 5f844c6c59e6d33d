"""A claim the reader refuses is said, never dropped without a word (after red team 134): a
stdout line shaped like a claim (a JSON object with a `status` key) refused for an answer that
is a list, a key the claim has not, a status not in the list, a Python dict printed as it is, or
a line over the 1 MiB limit left the row saying only "the command exited without a claim", and
a false `done` left the claims' figures. Now the row says why ("its claim line on stdout was
refused: ..."), and a refused claim whose status reads is a claim of that status, no answer."""

from __future__ import annotations

import json
import random
import shlex
import sys
from pathlib import Path

import pytest
from agents.command_attempt import attempt
from agents.test_agents_claim_lines import read_in_pieces

from phoneshell.agents import capped_output
from phoneshell.agents.environment import (
    MAX_CLAIM_BYTES,
    OVERSIZED,
    ClaimLine,
    read_claim_line,
)
from phoneshell.runner import Rig
from phoneshell.tasks import Task

PYTHON = shlex.quote(sys.executable)
LONG = json.dumps({"status": "done", "answer": "x" * (MAX_CLAIM_BYTES + 10)})
REFUSED = {  # the line printed: its claim's status (None: no claim), what the row says
    "list answer": ('{"status": "done", "answer": [1]}', "done", "field 'answer'"),
    "extra key": ('{"status": "DONE", "answer": "42", "confidence": 0.9}', "done",
                  "unknown field 'confidence'"),
    "unknown status": ('{"status": "finished", "answer": "42"}', None, "'finished'"),
    "python dict": ("{'status': 'done', 'answer': '42'}", None, "JSON"),
    "too long": (LONG, None, "is not read"),
}


@pytest.mark.parametrize("kind", sorted(REFUSED))
def test_a_refused_claim_line_is_said_in_the_row(
        rig: Rig, tmp_path: Path, suite: dict[str, Task], kind: str) -> None:
    line, status, words = REFUSED[kind]
    printer = tmp_path / "say.py"
    printer.write_text(f"print({line!r})\n")
    row = attempt(rig, tmp_path, suite["weather.open"], f"{PYTHON} {shlex.quote(str(printer))}")
    assert "its claim line on stdout was refused: stdout: " in row.error, row.error
    assert words in row.error, row.error
    assert (row.claim.status if row.claim else None) == status, row.claim
    if row.claim is not None:  # a claim of done that the phone does not bear out: a false one
        assert row.claim.answer == "" and row.outcome == "failed", row
        assert "without a claim" not in row.error, row.error
    else:
        assert "the command exited without a claim" in row.error, row.error


def test_a_refused_claim_file_still_claims_its_status(
        rig: Rig, tmp_path: Path, suite: dict[str, Task]) -> None:
    writer = ("import json, os; json.dump({'v': 1, 'status': 'done', 'confidence': 1}, "
              "open(os.environ['PHONESHELL_CLAIM_FILE'], 'w'))")
    row = attempt(rig, tmp_path, suite["weather.open"], f"{PYTHON} -c {shlex.quote(writer)}")
    assert row.claim is not None and row.claim.status == "done", (row.claim, row.error)
    assert "unreadable claim file" in row.error and "confidence" in row.error, row.error


def test_a_claim_read_after_a_refused_one_stands_alone(
        rig: Rig, tmp_path: Path, suite: dict[str, Task]) -> None:
    lines = '{"status": "done", "extra": 1}\n{"status": "gave_up", "answer": "a"}'
    row = attempt(rig, tmp_path, suite["weather.open"], f"echo {shlex.quote(lines)}")
    assert row.claim is not None and (row.claim.status, row.claim.answer) == ("gave_up", "a")
    assert row.error == "", row.error


def last_line(out: bytes) -> tuple[object, str]:
    """The rule, read plainly off the whole output: the last claim-shaped line decides (its
    claim, or an earlier one when its status does not read), and its refusal is kept."""
    claim, refused = None, ""
    for line in out.split(b"\n"):
        said: ClaimLine | None
        if len(line) <= MAX_CLAIM_BYTES:
            said = read_claim_line(line.decode("utf-8", "replace"))
        else:
            said = ClaimLine(None, OVERSIZED) if line.startswith(b'{"status"') else None
        if said is not None:
            claim, refused = said.claim or claim, said.refused
    return claim, refused


def test_claim_lines_keep_the_last_refusal_however_the_output_is_cut_into_reads() -> None:
    draw = random.Random(134)
    pieces = [json.dumps({"status": "done", "answer": "1"}).encode(), b'{"status": "gave_up"}',
              b'{"status": "done", "answer": [1]}', b'{"status": "failed", "x": 1}',
              b'{"status": "maybe"}', b"{'status': 'done'}", b'{"step": 1}', b"x" * 300,
              b'{"status": "done", "answer": "' + b"y" * MAX_CLAIM_BYTES + b'"}']
    for _ in range(60):
        lines = [draw.choice(pieces) for _ in range(draw.randint(0, 10))]
        out = b"\n".join(lines) + draw.choice((b"", b"\n"))
        said = read_in_pieces(out, draw, (1, 7, 4096, capped_output.READ_CHUNK))
        assert (said.end(), said.refused) == last_line(out), out[:200]
