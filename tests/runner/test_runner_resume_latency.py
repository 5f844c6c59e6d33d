"""A run's simulated iPhones answer at one pace: run.json records each one's latency profile, a
resume goes on at the run's (and refuses another `--latency`, as it refuses another agent), every
report prints it, and a comparison keeps attempts at a real phone's pace apart from those at
once. `timeout_seconds` is wall clock, so an agent that finishes in 0.3 s at once may run out of
time at a real iPhone's pace (red team 102 resumed a `--latency iphone` run at full speed, half
its rows at 13-17 s an attempt and half at 0.3 s, with no trace of either)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_process import ROOT, run_cli, stopped_cli

from phoneshell.runner.run import RunOptions, run_suite

TASK = str(ROOT / "environments" / "settings.about.reach.yaml")
REFUSED = "--latency {given} (the run's phones answered at --latency {recorded})"


def devices(run_dir: Path) -> list[dict[str, object]]:
    found: list[dict[str, object]] = json.loads((run_dir / "run.json").read_text())["devices"]
    return found


@pytest.mark.slow  # 8 s of whole programs: the README's command stays quick
def test_a_resume_goes_on_at_the_runs_latency_and_refuses_another(tmp_path: Path) -> None:
    runs, mark = tmp_path / "runs", tmp_path / "waited"
    # one attempt, stopped in its agent's turn; the agent waits the first time and ends at once
    # the next (it fails: no claim)
    stopped = stopped_cli("run", TASK, "--agent", f"command:test -e {mark} && exit 0; touch "
                          f"{mark}; sleep 60", "--sandbox", "none", "--runs", str(runs),
                          "--run-id", "R", mark=mark)
    assert stopped.returncode == 2, stopped.stdout + stopped.stderr
    assert [d["latency"] for d in devices(runs / "R")] == ["none"]
    resume = ("run", "--resume", "R", "--runs", str(runs), "--sandbox", "none")
    refused = run_cli(*resume, "--latency", "iphone", timeout=120)
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert REFUSED.format(given="iphone", recorded="none") in refused.stderr, refused.stderr
    assert "simulated iPhone" not in refused.stdout  # refused before any phone started
    went_on = run_cli(*resume, timeout=120)  # no --latency: the run's own
    assert went_on.returncode == 1, went_on.stdout + went_on.stderr  # done; the agent failed
    assert "as slowly as a real iPhone" not in went_on.stdout, went_on.stdout
    assert [d["latency"] for d in devices(runs / "R")] == ["none"]
    rows = (runs / "R" / "results.jsonl").read_text().splitlines()
    assert [json.loads(row)["outcome"] for row in rows] == ["skipped", "failed"]


@pytest.mark.slow  # a run at a real iPhone's pace: half a minute of its start and end
def test_a_run_at_iphone_latency_is_recorded_resumed_so_printed_and_compared_apart(
        tmp_path: Path) -> None:
    for run_id, latency in (("SLOW", "iphone"), ("FAST", "none")):
        run_suite(RunOptions(paths=(TASK,), agent="null", runs_dir=tmp_path, run_id=run_id,
                             latency=latency), lambda line: None)
    assert [d["latency"] for d in devices(tmp_path / "SLOW")] == ["iphone"]
    resume = ("run", "--resume", "SLOW", "--runs", str(tmp_path))
    refused = run_cli(*resume, "--latency", "none", timeout=120)
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert REFUSED.format(given="none", recorded="iphone") in refused.stderr, refused.stderr
    # a real phone: refused naming the run's latency as run.json has it, never as if typed
    real = run_cli(*resume, "--device", "http://127.0.0.1:9", timeout=120)
    assert real.returncode == 2 and real.stderr.splitlines()[-2:] == [
        "error: --resume SLOW: the run ran on 1 simulated iPhone at --latency iphone "
        "(run.json); --device http://127.0.0.1:9 is a real phone",
        "hint: resume with --device sim, as the run began, or start a new run"], real.stderr
    went_on = run_cli(*resume, timeout=120)  # nothing left to play, at the run's pace
    assert "each answering as slowly as a real iPhone (--latency iphone)" in went_on.stdout, \
        went_on.stdout + went_on.stderr
    report = run_cli("report", str(tmp_path / "SLOW"), str(tmp_path / "FAST"), "--format",
                     "json")
    document = json.loads(report.stdout)
    slow, fast = (next(a["phones"] for a in document["agents"] if a["run_id"] == run_id)
                  for run_id in ("SLOW", "FAST"))
    assert ", latency iphone, seed " in slow and ", latency none, seed " in fast, (slow, fast)
    # never paired as one kind of phone: left apart, named (no attempt is left to compare)
    assert any("left out of the comparison: settings.about.reach: 1 attempt(s), phone sim at "
               "latency iphone vs sim" in warning for warning in document["warnings"]), \
        document["warnings"]
    text = run_cli("report", str(tmp_path / "SLOW")).stdout
    assert "  on sim-1: sim, iphone, iOS 26.2, latency iphone, seed " in text, text
