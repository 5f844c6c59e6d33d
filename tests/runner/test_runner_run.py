"""A whole run in process: a harness error outside any attempt stops the phone with its reason
and a traceback, and keeps every row already recorded."""

from __future__ import annotations

from pathlib import Path

import pytest

from phoneshell.runner.folder import read_results
from phoneshell.runner.run import RunOptions, run_suite

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow  # 3.8 s measured: the README's command stays quick
def test_a_worker_that_crashes_is_recorded_not_lost(tmp_path: Path) -> None:
    lines: list[str] = []

    def progress(line: str) -> None:  # a closed pipe, as `phoneshell run | head -2` leaves
        if line.startswith("[2/"):
            raise BrokenPipeError(32, "Broken pipe")
        lines.append(line)

    options = RunOptions(paths=(str(ROOT / "environments"),), runs_dir=tmp_path, run_id="R",
                         task_globs=("settings.about.*", "calculator.arithmetic"))
    summary = run_suite(options, progress)
    assert summary.stopped.startswith("sim-1: harness error (BrokenPipeError): ")
    assert summary.stopped.endswith("see worker-sim-1-traceback.txt")
    trace = (tmp_path / "R" / "worker-sim-1-traceback.txt").read_text()
    assert "Broken pipe" in trace and "progress" in trace
    rows = read_results(tmp_path / "R" / "results.jsonl")
    assert [r.task_id for r in rows] == ["calculator.arithmetic", "settings.about.reach"], \
        "the row whose progress line failed was written first"
    assert not summary.all_passed, "a run that stopped short has not passed"
