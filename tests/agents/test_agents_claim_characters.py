"""A claim is kept whatever characters it holds, on every path (red team 134): a lone surrogate
(`"\\ud800"`, valid JSON that UTF-8 cannot encode, as a model's broken emoji pair sends it) or
a byte of the command line that is not UTF-8 is kept as its escape (`untrusted.storable`).
Before, a stdout claim line holding one was dropped without a word ("the command exited
without a claim", so a false claim of success counted as no claim), a claim file was refused,
and `phoneshell finish` crashed as "a bug in phoneshell"."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest
from agents.command_attempt import attempt
from cli_process import run_cli

from phoneshell.agents.environment import CLAIM_FILE, read_claim_file
from phoneshell.agents.tools import PhoneTools
from phoneshell.runner import Rig
from phoneshell.tasks import Task

LINE = json.dumps({"status": "done", "answer": "\ud800x", "summary": "s"})
"""A claim whose answer is a lone surrogate then x, as JSON text writes it."""
WRITER = ("import json, os; json.dump({'v': 1, 'status': 'done', 'answer': '\\ud800x'}, "
          "open(os.environ['PHONESHELL_CLAIM_FILE'], 'w'))")
ROUTES = {
    "stdout": f"echo {shlex.quote(LINE)}",
    "file": f"{shlex.quote(sys.executable)} -c {shlex.quote(WRITER)}",
    # the byte 0xff on finish's command line: Python reads it as the lone surrogate U+DCFF
    "finish": f"{shlex.quote(sys.executable)} -m phoneshell finish --status done "
              "--answer \"$(printf '\\377')x\"",
}
KEPT = {"stdout": "\\ud800x", "file": "\\ud800x", "finish": "\\udcffx"}


@pytest.mark.parametrize("route", sorted(ROUTES))
def test_a_claim_with_a_lone_surrogate_is_kept_as_its_escape(
        rig: Rig, tmp_path: Path, suite: dict[str, Task], route: str) -> None:
    row = attempt(rig, tmp_path, suite["weather.open"], ROUTES[route])
    assert row.claim is not None, row.error
    assert (row.claim.status, row.claim.answer) == ("done", KEPT[route]), row.claim
    assert row.outcome == "failed" and "without a claim" not in row.error, row.error


def test_done_keeps_a_lone_surrogate_as_its_escape(tools: PhoneTools) -> None:
    reply = tools.call("done", LINE)
    assert not reply.error and tools.claim is not None, reply.text
    assert tools.claim.answer == "\\ud800x"


def test_finish_says_it_escaped_bytes_that_are_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "claim.json"
    done = run_cli("finish", "--status", "done", "--answer", "a\udcffb", "--summary", "ok",
                   env={CLAIM_FILE: str(path)})
    assert done.returncode == 0, done.stderr
    assert "note: --answer held bytes that are not UTF-8" in done.stderr, done.stderr
    claim = read_claim_file(path)
    assert claim is not None and (claim.answer, claim.summary) == ("a\\udcffb", "ok")
