"""The CLI as a user runs it, in a subprocess (`python -m phoneshell`), from the checkout, with
Python's warnings made errors: one helper for every test that runs the whole program."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
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


def stopped_cli(*args: str, mark: Path, sig: signal.Signals = signal.SIGTERM,
                timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """`phoneshell ARGS`, sent `sig` once `mark` exists (its agent made it, and waits), as a CI
    timeout stops a run; what it printed and its exit code once it has stopped."""
    process = subprocess.Popen([sys.executable, "-m", "phoneshell", *args], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONWARNINGS": "error"})
    try:
        deadline = time.monotonic() + timeout
        while not mark.exists():
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, f"no {mark} in {timeout} s"
            time.sleep(0.05)
        process.send_signal(sig)
        out, err = process.communicate(timeout=timeout)
    finally:
        process.kill()
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)
