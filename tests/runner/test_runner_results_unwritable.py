"""A run folder refusing a write outside any attempt (here: its results.jsonl, made immutable,
so even root's append is refused, EPERM) is said as an attempt's refusal is (`runner.unwritten`):
"the run folder could not be written", the system's word and the file, what was kept and the way
on, exit 2. Before, it read "harness error (PermissionError)", as if phoneshell's code had
failed. An unconfined agent takes the write away on its second turn."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cli_process import ROOT, run_cli

TASK = str(ROOT / "environments" / "calculator.arithmetic.yaml")
LOCKS = """import json, subprocess, sys
from pathlib import Path
here = Path(sys.argv[1])
if (here / "first").exists():  # the second turn takes the results file's write away
    subprocess.run(["chattr", "+i", str(here / "runs" / "R" / "results.jsonl")], check=True)
(here / "first").touch()
print(json.dumps({"status": "done", "answer": "x"}))
"""


def immutable_files(place: Path) -> bool:
    """Whether this machine lets this user make a file in `place` immutable (`chattr +i`)."""
    probe = place / "probe"
    probe.touch()
    made = shutil.which("chattr") is not None and subprocess.run(
        ["chattr", "+i", str(probe)], capture_output=True).returncode == 0
    subprocess.run(["chattr", "-i", str(probe)], capture_output=True)
    return made


@pytest.mark.slow  # a whole program for seconds
def test_a_results_row_the_folder_refuses_stops_the_run_as_the_folders_fault(
        tmp_path: Path) -> None:
    if not immutable_files(tmp_path):
        pytest.skip("chattr +i is not allowed here (CAP_LINUX_IMMUTABLE, or the file system)")
    agent = tmp_path / "locks.py"
    agent.write_text(LOCKS)
    results = tmp_path / "runs" / "R" / "results.jsonl"
    try:
        done = run_cli("run", TASK, "--agent", f"command:{sys.executable} {agent} {tmp_path}",
                       "--sandbox", "none", "--runs", str(tmp_path / "runs"), "--run-id", "R",
                       "--repeat", "3")
    finally:
        subprocess.run(["chattr", "-i", str(results)], capture_output=True)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    error = next(x for x in done.stderr.splitlines() if x.startswith("error:"))
    assert "stopped early" in error and "harness error" not in error, error
    assert f"the run folder could not be written: Operation not permitted ({results})" in error
    assert "every row written before it is kept" in error, error
    assert "phoneshell run --resume R" in done.stderr, done.stderr
    rows = [json.loads(line) for line in results.read_text().splitlines()]
    assert [r["attempt"] for r in rows] == [1], rows  # the first kept, whole
