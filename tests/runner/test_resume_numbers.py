"""A resumed run's closing lines, its JSON and its exit code count the run's whole record
(results.jsonl over run.json's plan), as `phoneshell report` does: an attempt failed before the
resume stays in the rate. The CLI is run as a user runs it, on the simulated iPhone."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from cli_process import run_cli

from phoneshell.runner import RunOptions, run_suite
from phoneshell.runner.run import RunInterrupted

ROOT = Path(__file__).resolve().parents[2]

AGENT = '''import json, os, subprocess, urllib.request
url = os.environ["PHONESHELL_WDA_URL"].rstrip("/")
if os.environ["PHONESHELL_TASK_ID"] == "measure.open":  # open Measure: passes
    body = json.dumps({"capabilities": {"alwaysMatch": {"bundleId": "com.apple.measure"}}})
    urllib.request.urlopen(urllib.request.Request(
        url + "/session", data=body.encode(), headers={"Content-Type": "application/json"},
        method="POST"), timeout=30).read()
subprocess.run(["phoneshell", "finish", "--status", "done"], check=False)  # else: fails
'''


phoneshell = run_cli


@pytest.fixture
def half_run(tmp_path: Path) -> Path:
    """Run R: calculator.arithmetic failed, then Ctrl-C before measure.open ran."""
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    for name in ("calculator.arithmetic", "measure.open"):
        shutil.copy(ROOT / "environments" / f"{name}.yaml", tasks)
    agent = tmp_path / "agent.py"
    agent.write_text(AGENT)

    def progress(line: str) -> None:  # Ctrl-C once the first attempt is recorded
        if line.startswith("[1/"):
            raise KeyboardInterrupt

    with pytest.raises(RunInterrupted):
        run_suite(RunOptions((str(tasks),), agent=f"command:{sys.executable} {agent}",
                             runs_dir=tmp_path / "runs", run_id="R"), progress)
    return tmp_path / "runs"


@pytest.mark.slow  # a whole program of about ten seconds: CI runs it
def test_a_resumed_run_rates_its_whole_record_not_this_session(half_run: Path) -> None:
    again = phoneshell("run", "--resume", "R", "--runs", str(half_run))
    assert again.returncode == 1, again.stdout + again.stderr  # one attempt of the run failed
    out = again.stdout
    assert "[2/2] measure.open" in out and "passed" in out, out  # the run's count, not 1/1
    assert "2 attempt(s): 1 passed, 1 failed, 0 skipped (50% of scored)" in out, out
    assert "1 attempt(s) were already scored and not run again; this session ran 1" in out
    report = phoneshell("report", str(half_run / "R"))
    assert "passed 1/2 = 50.0% of scored" in report.stdout, report.stdout
    assert report.returncode == again.returncode == 1
    nothing = phoneshell("run", "--resume", "R", "--runs", str(half_run), "--format", "json")
    assert nothing.returncode == 1, nothing.stderr  # nothing left to run: still the run's fail
    document = json.loads(nothing.stdout)
    assert (document["planned"], document["passed"], document["failed"],
            document["this_session"], document["already_scored"]) == (2, 1, 1, 0, 2)
    assert [r["outcome"] for r in document["rows"]] == ["failed", "passed"]
