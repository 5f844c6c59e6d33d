"""The rig's file-size limit (`ulimit -f`, a CI's RLIMIT_FSIZE) met as the harness copies an
agent's output is the rig's (red team 132), through the CLI: an honest agent that prints more
than the limit, within what the harness keeps of its output, was failed and its claim deleted
("its agent.stdout could not be kept (File too large)") though every check passed. Now the
attempt is not scored, naming the file, and the run stops with the way on, as for any write the
run folder refused (`runner.unwritten`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_process import ROOT

pytestmark = pytest.mark.slow  # a whole run, for seconds

TASK = str(ROOT / "environments" / "calculator.arithmetic.yaml")
PLAY = ROOT / "examples" / "agents" / "play_solution.py"
LIMITED = """import os, resource, sys
limit = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
os.execv(sys.executable, [sys.executable, "-m", "phoneshell", *sys.argv[2:]])
"""
"""`phoneshell ARGS` under a file-size limit of LIMIT bytes, as `ulimit -f` sets it."""


def test_an_output_copy_over_the_rigs_file_size_limit_is_not_the_agents_failure(
        tmp_path: Path) -> None:
    loud = tmp_path / "loud.sh"  # 3.6 MB of log lines, under the 8 MiB kept; then it plays
    loud.write_text(f'#!/bin/sh\nyes "log line" | head -c 3600000\nexec {sys.executable} {PLAY}\n')
    loud.chmod(0o755)
    agent = f"command:{loud}"
    done = subprocess.run(
        [sys.executable, "-c", LIMITED, str(2 << 20), "run", TASK, "--agent", agent, "--runs",
         str(tmp_path / "runs"), "--run-id", "R"], capture_output=True, text=True, cwd=ROOT,
        timeout=300, env={**os.environ, "PYTHONWARNINGS": "error",
                          "PHONESHELL_EXPOSE_TASK_FILE": "1"})
    assert "Traceback" not in done.stderr, done.stderr
    (row,) = [json.loads(line) for line in
              (tmp_path / "runs" / "R" / "results.jsonl").read_text().splitlines()]
    assert row["outcome"] == "skipped", row  # the rig's limit: never the agent's failure
    assert "File too large" in str(row["skip_reason"]) and "agent.stdout" in str(
        row["skip_reason"]), row
    assert done.returncode == 2, done.stdout + done.stderr  # stopped: every attempt meets it
