"""A run on a real small disk (a 64 MiB tmpfs, `small_disk`), through the CLI: an agent that
fills it fails its attempt, and the run goes on and is whole (no traceback, every attempt
scored, the disk given back, the run verifies); what the run keeps of earlier agents (their
scratch folders, their output) is given back before a later turn rather than counted against
the rig or the later agent; a disk short of the harness's room before the agent's turn, after
that, skips the attempt naming the disk, charging nothing to the agent; and a run the full disk
stopped before its run.json was written is said to start again, never to resume."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_process import ROOT, run_cli
from small_disk import ballast, small_disk

from phoneshell.agents import bounds
from phoneshell.runner.disk_room import NOTE, OUTPUT_TAIL_BYTES

pytestmark = pytest.mark.slow  # whole programs for seconds: CI runs them, the README's stays quick

TASK = str(ROOT / "environments" / "calculator.arithmetic.yaml")
PLAY = ROOT / "examples" / "agents" / "play_solution.py"
TO_THE_ROOM = """import json, os
d = os.environ["PHONESHELL_ATTEMPT_DIR"]
st = os.statvfs(d)
want = st.f_bavail * st.f_frsize - ((32 << 20) + (64 << 10))
with open(os.path.join(d, "cache.bin"), "wb") as f:
    while want > 0:
        n = min(want, 1 << 20); f.write(b"\\0" * n); want -= n
print(json.dumps({"status": "done", "answer": "x"}))
"""
"""A failing agent (red team 61) that fills its folder, legally, until the disk has just over
the harness's room free: the harness's own writes after its turn then took the disk under it."""


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


def test_a_disk_short_before_the_agents_turn_stops_the_run_naming_it(
        disk: Path, filler: str) -> None:
    """Not scored, and the run stops there with the way on: every later attempt would be
    skipped the same way (a run of 80 printed 80 skips)."""
    ballast(disk, bounds.HARNESS_ROOM_BYTES - (8 << 20))
    done = run_cli("run", TASK, "--agent", filler, "--runs", str(disk), "--run-id", "R",
                   "--repeat", "3")
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    (row,) = rows(disk / "R")
    assert row["outcome"] == "skipped", row  # not scored: the disk's fault, not the agent's
    assert str(disk / "R") in str(row["skip_reason"]) and "not the agent's doing" in str(
        row["skip_reason"])
    error, hint = (next(x for x in done.stderr.splitlines() if x.startswith(p))
                   for p in ("error:", "hint:"))
    assert "stopped early" in error and "free some space" in error, error
    assert f"phoneshell run --resume R --runs {disk}" in hint, hint
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


def attempt(run_dir: Path, n: int) -> Path:
    return run_dir / "attempts" / "calculator.arithmetic" / str(n)


def test_an_agent_that_takes_the_disk_to_the_room_leaves_later_attempts_scored(
        disk: Path, tmp_path: Path) -> None:
    """Its kept files are given back before the next turn: every later attempt was skipped as
    "not the agent's doing", and so again on every --resume."""
    script = tmp_path / "to_the_room.py"
    script.write_text(TO_THE_ROOM)
    done = run_cli("run", TASK, "--agent", f"command:{sys.executable} {script}", "--runs",
                   str(disk), "--run-id", "R", "--repeat", "3")
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    recorded = rows(disk / "R")
    assert [r["outcome"] for r in recorded] == ["failed"] * 3, recorded
    assert not any("disk" in str(r["error"]) for r in recorded), recorded  # within its limits
    for n in (1, 2):  # what it kept is said where it was kept
        note = (attempt(disk / "R", n) / NOTE).read_text()
        assert "scratch folder (agent/) was emptied" in note and \
            f"calculator.arithmetic attempt {n + 1}" in note, note
        assert not any((attempt(disk / "R", n) / "agent").iterdir())
    assert (attempt(disk / "R", 3) / "agent" / "cache.bin").exists()  # the last is kept
    report = run_cli("report", str(disk / "R"))  # nothing sealed was touched: it verifies
    said = report.stdout + report.stderr
    assert "3 scored" in report.stdout and "warning" not in report.stderr, said


def test_an_honest_agent_writing_a_little_each_attempt_is_never_failed_for_earlier_ones(
        disk: Path) -> None:
    """10 MiB of logs each attempt on a disk with room for three: the fourth turn was failed
    as "it filled the disk" for the space its three predecessors' folders held."""
    agent = (f'command:dd if=/dev/zero of="$PHONESHELL_ATTEMPT_DIR/log" bs=1M count=10 '
             f'2>/dev/null; {sys.executable} {PLAY}')
    done = run_cli("run", TASK, "--agent", agent, "--runs", str(disk), "--run-id", "R",
                   "--repeat", "4", env={"PHONESHELL_EXPOSE_TASK_FILE": "1"})
    assert "Traceback" not in done.stderr, done.stderr
    recorded = rows(disk / "R")
    assert [r["outcome"] for r in recorded] == ["passed"] * 4, recorded
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_kept_output_of_earlier_agents_is_cut_before_a_later_turn_not_charged(
        disk: Path, tmp_path: Path) -> None:
    """Each agent prints 9 MB to each of stdout and stderr (8 MiB of each kept): two attempts'
    kept output took the disk under the harness's room, and the third was skipped. It is cut
    to its end, the claim line kept."""
    script = tmp_path / "loud.sh"
    script.write_text('#!/bin/sh\nyes out | head -c 9000000\nyes err | head -c 9000000 >&2\n'
                      'echo \'{"status": "done", "answer": "1"}\'\n')
    script.chmod(0o755)
    done = run_cli("run", TASK, "--agent", f"command:{script}", "--runs", str(disk),
                   "--run-id", "R", "--repeat", "3")
    assert "Traceback" not in done.stderr, done.stderr
    recorded = rows(disk / "R")
    assert [r["outcome"] for r in recorded] == ["failed"] * 3, recorded
    first = attempt(disk / "R", 1)
    out = (first / "agent.stdout").read_bytes()
    assert len(out) < OUTPUT_TAIL_BYTES + 200 and out.endswith(b'"answer": "1"}\n'), out[:200]
    assert out.startswith(b"[phoneshell: the first ") and (first / "agent.stderr").stat(
        ).st_size < OUTPUT_TAIL_BYTES + 200
    assert "outputs (agent.stdout, agent.stderr) were cut" in (first / NOTE).read_text()


def test_what_an_earlier_run_kept_of_its_agents_is_given_back_before_a_later_runs_turn(
        disk: Path, tmp_path: Path) -> None:
    """Red team 70: run R1's failing agent took the disk to just over the harness's room,
    legally, and its scratch was kept; run R2 in the same runs folder gave back only its own
    agents' files, so its first honest agent had nothing left to write into. R1's agent files
    are given back (said in R1), and R1 still verifies: nothing sealed was touched."""
    script = tmp_path / "to_the_room.py"
    script.write_text(TO_THE_ROOM)
    first = run_cli("run", TASK, "--agent", f"command:{sys.executable} {script}", "--runs",
                    str(disk), "--run-id", "R1")
    assert first.returncode == 1 and "Traceback" not in first.stderr, first.stderr
    agent = (f'command:dd if=/dev/zero of="$PHONESHELL_ATTEMPT_DIR/log" bs=1M count=10 '
             f'2>/dev/null; {sys.executable} {PLAY}')
    done = run_cli("run", TASK, "--agent", agent, "--runs", str(disk), "--run-id", "R2",
                   env={"PHONESHELL_EXPOSE_TASK_FILE": "1"})
    assert [r["outcome"] for r in rows(disk / "R2")] == ["passed"], rows(disk / "R2")
    note = (attempt(disk / "R1", 1) / NOTE).read_text()
    assert "scratch folder (agent/) was emptied" in note and "of run R2" in note, note
    report = run_cli("report", str(disk / "R1"))
    said = report.stdout + report.stderr
    assert "1 scored" in report.stdout and "warning" not in report.stderr, said
    assert done.returncode == 0, done.stdout + done.stderr
