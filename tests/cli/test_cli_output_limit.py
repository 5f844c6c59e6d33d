"""The rig's file-size limit (`ulimit -f`, a CI's RLIMIT_FSIZE) is never an agent's lever,
through the CLI. An agent's output copy that met the limit made its attempt "not scored" (the
rig's EFBIG, red team 132) and stopped the run, so a failing agent that printed 6 MB under a
4 MiB limit chose "not scored", on every `--resume` (red team 137, RT137-4). Now the harness
reads the limit once at the run's start, keeps every copy an agent drives under a quarter of it
(said in the row: the output is graded as cut), and refuses to start under the least its own
files need (`agents.size_limit.FILE_LIMIT_LEAST`)."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from cli_process import ROOT

TASK = str(ROOT / "environments" / "calculator.arithmetic.yaml")
PLAY = ROOT / "examples" / "agents" / "play_solution.py"


def limited(limit: int) -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.getrlimit(
        resource.RLIMIT_FSIZE)[1]))


def run_limited(limit: int, *args: str) -> subprocess.CompletedProcess[str]:
    """`phoneshell ARGS` under a file-size limit of `limit` bytes, as `ulimit -f` sets it."""
    return subprocess.run([sys.executable, "-m", "phoneshell", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=300, preexec_fn=lambda: limited(limit),
                          env={**os.environ, "PYTHONWARNINGS": "error",
                               "PHONESHELL_EXPOSE_TASK_FILE": "1"})


@pytest.mark.slow  # a whole run, for seconds
@pytest.mark.parametrize("plays", [True, False])
def test_output_past_the_rigs_file_size_limit_is_cut_and_graded(tmp_path: Path,
                                                                 plays: bool) -> None:
    """6 MB printed under a 4 MiB limit, then the reference finish (passes) or a wrong claim
    (fails): graded either way, never "not scored"; its copy cut to a quarter of the limit."""
    loud = tmp_path / "loud.sh"
    then = f'exec {sys.executable} "$1"' if plays else \
        """echo '{"status": "done", "answer": "7"}'"""
    loud.write_text(f'#!/bin/sh\nyes "log line" | head -c 6000000\necho\n{then}\n')
    loud.chmod(0o755)
    done = run_limited(4 << 20, "run", TASK, "--agent", f"command:{loud} {PLAY}", "--runs",
                       str(tmp_path / "runs"), "--run-id", "R")
    assert "Traceback" not in done.stderr, done.stderr
    (row,) = [json.loads(line) for line in
              (tmp_path / "runs" / "R" / "results.jsonl").read_text().splitlines()]
    assert row["outcome"] == ("passed" if plays else "failed"), row
    assert done.returncode == (0 if plays else 1), done.stdout + done.stderr
    assert "its agent.stdout was cut to 1 MiB" in str(row["error"]), row
    assert "file-size limit of 4 MiB" in str(row["error"]), row
    kept = tmp_path / "runs" / "R" / "attempts" / "calculator.arithmetic" / "1" / "agent.stdout"
    assert (1 << 20) <= kept.stat().st_size < (1 << 20) + 200
    assert b"of output are kept]" in kept.read_bytes()


def test_a_run_under_the_least_limit_its_files_need_does_not_start(tmp_path: Path) -> None:
    done = run_limited(512 << 10, "run", TASK, "--agent", "solution", "--runs",
                       str(tmp_path / "runs"), "--run-id", "R")
    assert done.returncode == 2, done.stdout + done.stderr
    assert ("error: the file-size limit (`ulimit -f`, RLIMIT_FSIZE) is 512 KiB; a run needs "
            "at least 1 MiB for its own files") in done.stderr, done.stderr
    assert "hint: raise it (`ulimit -f 1024`" in done.stderr, done.stderr
    assert not (tmp_path / "runs" / "R").exists()  # refused before any phone or folder
