"""bench_run's phase table adds up: the wall time it prints for the run is the sum of its
phases' (the run's own start and end included), and the agent's shares are of that whole."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_the_phases_wall_times_add_up_to_the_run_s() -> None:
    # a Safari task: the run's start counts its tabs and its end closes the one it opened
    done = subprocess.run([sys.executable, "scripts/bench_run.py", "--latency", "none", "--task",
                           "safari.navigate.example"], capture_output=True, text=True, cwd=ROOT,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    header = re.search(r"wall ([\d.]+) s \(([\d.]+) s an attempt\)", done.stdout)
    assert header, done.stdout
    rows = dict(re.findall(r"^(run start|setup|probe|agent|check|rig check|teardown|run end|"
                           r"total) +(?:[\d.]+ +){4}([\d.]+) +[\d.]+$", done.stdout, re.M))
    assert len(rows) == 9, done.stdout
    wall = {phase: float(s) for phase, s in rows.items()}
    assert wall["run start"] > 0 and wall["run end"] > 0, done.stdout
    assert wall["total"] == float(header[2]), done.stdout
    # each row rounded to 0.01: the eight may differ from the total by their rounding, no more
    assert abs(sum(s for p, s in wall.items() if p != "total") - wall["total"]) <= 0.04, \
        done.stdout
