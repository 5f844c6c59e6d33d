"""The same trajectory graded both ways (red team 74): two attempts with the same instruction,
actions and claim, one passed and one out of time, are two items, one per label, and the
judgeset's counts say so; before, the failed one was a "duplicate" of the passed item and the
run's only failure was no negative at all. Played on the simulated iPhone."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from phoneshell.cli.judge_cmd import manifest_lines
from phoneshell.judges import Sources, build_judgeset, open_judgeset, read_labels
from phoneshell.runner import RunOptions, run_suite

ROOT = Path(__file__).resolve().parents[2]
AGENT = """
import os, subprocess, sys, time, wda
wda.Client(os.environ["PHONESHELL_WDA_URL"]).app_start("com.apple.weather")
subprocess.call([sys.executable, "-m", "phoneshell", "finish", "--status", "done"])
if os.path.basename(os.path.dirname(os.environ["PHONESHELL_ATTEMPT_DIR"].rstrip("/"))) == "2":
    time.sleep(60)  # the same actions and claim, then past the task's time: failed
"""


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_a_trajectory_graded_both_ways_is_two_items(tmp_path: Path) -> None:
    tasks, agent = tmp_path / "tasks", tmp_path / "agent" / "agent.py"
    tasks.mkdir()
    agent.parent.mkdir()
    agent.write_text(AGENT)
    text = (ROOT / "environments" / "weather.open.yaml").read_text()
    (tasks / "weather.open.yaml").write_text(f"{text.rstrip()}\ntimeout_seconds: 5\n")
    summary = run_suite(RunOptions((str(tasks),), agent=f"command:{shlex.quote(sys.executable)} "
                                                        f"{agent}",
                                   device="sim", runs_dir=tmp_path / "runs", run_id="R",
                                   repeat=2, trajectory=True), progress=lambda line: None)
    assert [r.outcome for r in summary.rows] == ["passed", "failed"]
    built = build_judgeset(tmp_path / "set", Sources(runs=(tmp_path / "runs" / "R",),
                                                     tasks=(str(tasks),)))
    assert (built.counts, built.duplicates, built.both_ways, built.scored_attempts) == (
        {"positive": 1, "failed": 1}, 0, 1, 2)
    labels = read_labels(open_judgeset(tmp_path / "set"))
    attempts = [json.loads(line) for line in
                (tmp_path / "set" / "attempts.jsonl").read_text().splitlines()]
    assert [(a["passed"], labels[a["item"]].label, a["duplicate"]) for a in attempts] == [
        (True, "positive", False), (False, "negative", False)]
    assert "  1 trajectory(ies) the phone graded both ways, each two items (one positive, one " \
           "negative): a judge answering both alike is right on one" in manifest_lines(
               built, tmp_path / "set")
