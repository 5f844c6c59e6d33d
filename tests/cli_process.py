"""The CLI as a user runs it, in a subprocess (`python -m phoneshell`), from the checkout, with
Python's warnings made errors: one helper for every test that runs the whole program."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run_cli(*args: str, cwd: Path | None = ROOT, env: dict[str, str] | None = None,
            timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """`phoneshell ARGS`, its output captured as text; `env` is added to this process's."""
    return subprocess.run([sys.executable, "-m", "phoneshell", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=timeout,
                          env={**os.environ, "PYTHONWARNINGS": "error", **(env or {})})


CLI_ENV = {"PYTHONWARNINGS": "error", "PYTHONFAULTHANDLER": "1"}
"""What a whole program started by a test runs with: warnings are errors, and SIGABRT dumps
where each of its threads is (`ended`)."""


def ended(process: subprocess.Popen[str], timeout: float) -> tuple[str, str]:
    """What `process` printed (stdout, stderr) once it ended by itself within `timeout` s. One
    that does not fails the test with where each of its threads was: it is sent SIGABRT, which
    a program started with `CLI_ENV` answers with faulthandler's dump of every thread."""
    try:
        return process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGABRT)
        _, err = process.communicate(timeout=30)
        pytest.fail(f"{process.args} did not end in {timeout} s; where it was "
                    f"(stderr's end):\n{(err or '')[-8000:]}")


def send_stop(process: subprocess.Popen[str], sig: signal.Signals, taken_by: str) -> None:
    """Send `process` `sig`, taken by its main thread (`taken_by` "main") or by another of its
    threads ("another": a kill(2) of a thread's id is the process's signal, taken by that
    thread, as any thread may take one sent to the process: Linux)."""
    pid = process.pid
    if taken_by != "main":
        pid = next(int(t.name) for t in Path(f"/proc/{pid}/task").iterdir()
                   if int(t.name) != process.pid)
    os.kill(pid, sig)


def reap(process: subprocess.Popen[str] | subprocess.Popen[bytes]) -> None:
    """Kill `process` if it still runs, and wait for it and close its pipes: a test that fails
    while one runs must not leave it (or its open pipes) to a later test in the same worker,
    where collecting it fails that test with a ResourceWarning."""
    process.kill()
    with contextlib.suppress(subprocess.TimeoutExpired, ValueError, OSError):
        process.communicate(timeout=30)


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
                               env={**os.environ, **CLI_ENV})
    try:
        deadline = time.monotonic() + timeout
        while not mark.exists():
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, f"no {mark} in {timeout} s"
            time.sleep(0.05)
        process.send_signal(sig)
        out, err = ended(process, timeout)
    finally:
        reap(process)
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)
