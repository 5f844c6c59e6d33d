"""The CLI as a user runs it, in a subprocess (`python -m phoneshell`), from the checkout, with
Python's warnings made errors: one helper for every test that runs the whole program."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_cli(*args: str, cwd: Path | None = ROOT, env: dict[str, str] | None = None,
            timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """`phoneshell ARGS`, its output captured as text; `env` is added to this process's."""
    return subprocess.run([sys.executable, "-m", "phoneshell", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=timeout,
                          env={**os.environ, "PYTHONWARNINGS": "error", **(env or {})})


def run_one(runs: Path, run_id: str, *args: str) -> dict[str, object]:
    """`phoneshell run ARGS --runs RUNS --run-id RUN_ID` of one attempt, which must end as a run
    does (passed or failed, exit 0 or 1); its one results row."""
    done = run_cli("run", *args, "--runs", str(runs), "--run-id", run_id)
    assert done.returncode in (0, 1), done.stderr
    rows = (runs / run_id / "results.jsonl").read_text().splitlines()
    assert len(rows) == 1, done.stdout
    row: dict[str, object] = json.loads(rows[0])
    return row
