"""The `bloat` agent of `hostile.py` (a red team's): it types a thousand characters into one note
again and again, and goes on after the bridge says no, for as long as it is let. Every line of
its log stays short, its turn ends when it has used up its share of the log (the program is
stopped then, not left to its time out), its attempt fails saying so, and the run stays
reportable, gradable and a source of judge items."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from phoneshell.audit import read_audit
from phoneshell.records import LOG_SHARE
from phoneshell.runner import RunOptions, run_suite
from phoneshell.runner.folder import read_results
from phoneshell.tasks.model import DEFAULT_TIMEOUT_S

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = Path(__file__).with_name("hostile.py")
SHARE = 150_000
"""The share of the log the test gives an agent's turn (a run's is 4 MiB): some 30 requests of
typing, so the test is quick."""
LONGEST_LINE = 6_000
"""A typing request's intent, with the longest text a request may type and a field already
full: its text (1,000 characters) and the target's label, name and value (1,000 each)."""


def phoneshell(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "phoneshell", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=300)


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_an_agent_that_fills_the_log_is_cut_off_and_its_run_stays_readable(
        tmp_path: Path) -> None:
    agent = f"command:{shlex.quote(sys.executable)} {HOSTILE} bloat 90"
    run_suite(RunOptions((str(ROOT / "environments"),), agent=agent,
                         task_globs=("notes.type_long",), runs_dir=tmp_path, run_id="B",
                         agent_log_bytes=SHARE), lambda line: None)
    run = tmp_path / "B"
    (row,) = read_results(run / "results.jsonl")
    assert row.outcome == "failed"
    assert "the agent's share of the audit log is used up" in row.error
    assert "its access to the phone ended early (the agent's share" in row.error
    assert row.seconds < DEFAULT_TIMEOUT_S / 4  # not left to run to its time out
    stderr = (run / "attempts" / "notes.type_long" / "1" / "agent.stderr").read_text()
    answers = re.findall(r"^hostile: typing answered (\d+)$", stderr, re.MULTILINE)

    lines = (run / "audit.jsonl").read_bytes().splitlines()
    assert max(map(len, lines)) < LONGEST_LINE, "a line holds a field's whole text"
    events = read_audit(run / "audit.jsonl").records
    agents = [line for line, e in zip(lines, events, strict=True) if e.phase == "agent"
              and e.params.get("via") != LOG_SHARE]
    assert sum(len(line) + 1 for line in agents) <= SHARE + LONGEST_LINE  # an outcome past it
    said = [e.params for e in events if e.params.get("via") == LOG_SHARE]
    typed = sum(e.phase == "agent" and e.kind == "type" and e.stage == "intent" for e in events)
    # It says each answer before it sends its next request, and its access ends only at a
    # request past its share: every typing that reached the phone was answered, and said, before
    # it could be stopped. How many it sent after is the machine's pace against the harness's
    # look at its access (every `bounds.WATCH_S`; on two busy cores it was stopped before its
    # 90th), so only this is certain of them: each was refused, and counted (the one that
    # passed the share is the first line's, not counted), and the count is said when not 0.
    assert 0 < typed < 90 and answers[:typed] == ["200"] * typed, stderr[-2000:]
    assert set(answers[typed:]) <= {"401"}, "the phone was reached after its access ended"
    dropped = int(said[1]["dropped"]) if len(said) > 1 else 0
    assert len(said) == 1 + (dropped > 0) and dropped >= len(answers) - typed - 1
    counted = f"({dropped:,} of its later lines refused, not logged)"
    assert (counted in row.error) == (dropped > 0), row.error
    # what it had used when a line of its passed the share: the share, or past it by the
    # outcome of its last action (an outcome is written whatever the share says: shares.count)
    assert int(said[0]["bytes"]) - LONGEST_LINE <= SHARE < int(said[0]["bytes"]) + LONGEST_LINE

    report = phoneshell("report", str(run), "--format", "json", "--html",
                        str(tmp_path / "report.html"))
    assert report.returncode == 1, report.stderr
    (numbers,) = json.loads(report.stdout)["agents"]
    assert (numbers["scored"], numbers["failed"]) == (1, 1)
    grade = phoneshell("grade", str(run / "attempts" / "notes.type_long" / "1" / "evidence"),
                       "--task", "notes.type_long")
    assert grade.returncode == 1, grade.stderr
    assert "the agent's share of the audit log is used up" in grade.stdout
    built = phoneshell("judgeset", "--out", str(tmp_path / "set"), "--run", str(run))
    assert built.returncode == 0, built.stderr
    assert "1 item(s)" in built.stdout
