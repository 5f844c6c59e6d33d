"""A run on a real small disk (a 64 MiB tmpfs, `small_disk`), through the CLI: an agent that
fills it fails its attempt, and the run goes on and is whole (no traceback, every attempt
scored, the disk given back, the run verifies); a disk short of the harness's room before the
agent's turn skips the attempt naming the disk, charging nothing to the agent; and a run the
full disk stopped before its run.json was written is said to start again, never to resume."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_process import ROOT, run_cli
from small_disk import ballast, small_disk

from phoneshell.agents import bounds

pytestmark = pytest.mark.slow  # whole programs for seconds: CI runs them, the README's stays quick

TASK = str(ROOT / "environments" / "calculator.arithmetic.yaml")


@pytest.fixture
def disk(tmp_path: Path) -> Iterator[Path]:
    with small_disk(tmp_path / "disk") as mounted:
        yield mounted


@pytest.fixture
def filler(tmp_path: Path) -> str:
    """A command agent that writes 2,000 MiB into its folder, then claims done."""
    script = tmp_path / "fill.sh"
    script.write_text('#!/bin/sh\ndd if=/dev/zero of="$PHONESHELL_ATTEMPT_DIR/fill" bs=1M '
                      'count=2000 2>/dev/null\necho \'{"status": "done", "answer": "423"}\'\n')
    script.chmod(0o755)
    return f"command:{script}"


def rows(run_dir: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in (run_dir / "results.jsonl").read_text().splitlines()]


def test_an_agent_that_fills_the_disk_fails_each_attempt_and_the_run_goes_on(
        disk: Path, filler: str) -> None:
    done = run_cli("run", TASK, "--agent", filler, "--runs", str(disk), "--run-id", "R",
                   "--repeat", "2")
    assert done.returncode == 1, done.stderr  # done, not all passed: never 2 (could not run)
    assert "Traceback" not in done.stderr and "error:" not in done.stderr, done.stderr
    recorded = rows(disk / "R")
    assert [r["outcome"] for r in recorded] == ["failed", "failed"]
    assert all("it filled the disk holding the run" in str(r["error"]) for r in recorded)
    assert not any((disk / "R" / "attempts" / "calculator.arithmetic" / "1" / "agent").iterdir())
    assert bounds.disk_free(disk) > (40 << 20)
    report = run_cli("report", str(disk / "R"))  # sealed whole: it verifies
    assert "2 scored" in report.stdout, report.stdout + report.stderr


def test_a_disk_short_before_the_agents_turn_skips_the_attempt_naming_it(
        disk: Path, filler: str) -> None:
    ballast(disk, bounds.HARNESS_ROOM_BYTES - (8 << 20))
    done = run_cli("run", TASK, "--agent", filler, "--runs", str(disk), "--run-id", "R")
    assert "Traceback" not in done.stderr, done.stderr
    (row,) = rows(disk / "R")
    assert row["outcome"] == "skipped", row  # not scored: the disk's fault, not the agent's
    assert str(disk / "R") in str(row["skip_reason"]) and "not the agent's doing" in str(
        row["skip_reason"])
    assert not (disk / "R" / "attempts" / "calculator.arithmetic" / "1" / "agent" / "fill"
                ).exists()


def test_a_run_the_full_disk_stopped_before_run_json_is_started_again_not_resumed(
        disk: Path, filler: str) -> None:
    ballast(disk, 0)
    done = run_cli("run", TASK, "--agent", filler, "--runs", str(disk), "--run-id", "R")
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert f"the disk is full writing {disk / 'R' / 'run.lock'}" in done.stderr
    hint = next(line for line in done.stderr.splitlines() if line.startswith("hint:"))
    assert "--resume cannot go on" in hint and str(disk / "R") in hint, hint
    assert not (disk / "R" / "run.json").exists()
    os.unlink(disk / "ballast")  # what the hint says is true: a resume cannot go on from it
    resumed = run_cli("run", "--resume", "R", "--runs", str(disk))
    assert resumed.returncode == 2 and "run.json" in resumed.stderr, resumed.stderr


def test_a_swap_on_a_short_disk_says_to_play_it_again_not_to_resume(disk: Path) -> None:
    """Swap has no --resume: its not-scored pair says so, and a run's skip names the resume."""
    ballast(disk, bounds.HARNESS_ROOM_BYTES - (8 << 20))
    done = run_cli("swap", "calculator.arithmetic", "calculator.percentage", "--runs", str(disk))
    assert "Traceback" not in done.stderr, done.stderr
    said = done.stdout + done.stderr
    assert "free some space, then play it again" in said, said
    assert "--resume" not in said, said
