"""A run folder that cannot be written (here: a file-size limit, EFBIG, as `ulimit -f` or a CI's
RLIMIT_FSIZE sets) is the rig's fault (red team 123, RT123-1): the attempt in flight is not
scored, saying the system's word, the run stops with the way on (exit 2), the folder is left
whole (no torn line: `report` takes it) and `--resume` plays the rest. Before, the bridge's
refusal of the agent's action failed its attempt, as did the harness's own capture write, and
the run went on skipping every later attempt."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_process import CLI_ENV, ROOT, ended, reap, run_cli
from limited_run import limited_once_begun

pytestmark = pytest.mark.slow  # whole programs for seconds

TASK = str(ROOT / "environments" / "calculator.arithmetic.yaml")
REASON = "the run folder could not be written: File too large"
WAITS = """import json, os, sys, time, wda
from pathlib import Path
here = Path(sys.argv[1])
if (here / "first").exists():  # the second turn waits while the test limits the harness
    (here / "waiting").touch()
    while not (here / "go").exists():
        time.sleep(0.05)
(here / "first").touch()
wda.Client(os.environ["PHONESHELL_WDA_URL"]).home()
print(json.dumps({"status": "done", "answer": "x"}))
"""
"""A command agent whose second turn waits for the test's word before its one action."""


def rows(run_dir: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in (run_dir / "results.jsonl").read_text().splitlines()]


def limited(limit: int) -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.getrlimit(
        resource.RLIMIT_FSIZE)[1]))


def phoneshell(*args: str, limit: int | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "phoneshell", *args], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, **CLI_ENV},
                            preexec_fn=(lambda: limited(limit)) if limit else None)


def stopped_whole(done: subprocess.CompletedProcess[str], run_dir: Path) -> None:
    """The run stopped as for a full disk, and left a folder a report and a resume take."""
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    error = next(x for x in done.stderr.splitlines() if x.startswith("error:"))
    assert "stopped early" in error and REASON in error, error
    assert f"phoneshell run --resume {run_dir.name}" in done.stderr, done.stderr
    assert not any(r["outcome"] == "failed" and REASON in str(r) for r in rows(run_dir))
    assert (run_dir / "audit.jsonl").read_bytes().endswith(b"\n")  # no torn line
    report = run_cli("report", str(run_dir))
    assert report.returncode in (0, 1) and "does not match its seal" not in report.stderr, \
        report.stdout + report.stderr


def test_an_action_the_bridge_cannot_log_is_not_charged_to_the_agent_and_stops_the_run(
        tmp_path: Path) -> None:
    """The limit comes in the second turn, before the agent's action: its intent line does
    not fit, so the bridge refuses the action; the attempt is not scored."""
    script = tmp_path / "waits.py"
    script.write_text(WAITS)
    runs = tmp_path / "runs"
    agent = f"command:{sys.executable} {script} {tmp_path}"
    process = phoneshell("run", TASK, "--agent", agent, "--sandbox", "none", "--runs",
                         str(runs), "--run-id", "R", "--repeat", "2")
    try:
        deadline = time.monotonic() + 120
        while not (tmp_path / "waiting").exists():
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "the second turn never came"
            time.sleep(0.05)
        audit = runs / "R" / "audit.jsonl"
        resource.prlimit(process.pid, resource.RLIMIT_FSIZE,
                         (audit.stat().st_size + 64, resource.RLIM_INFINITY))
        (tmp_path / "go").touch()
        out, err = ended(process, 120)
    finally:
        reap(process)
    stopped_whole(subprocess.CompletedProcess(process.args, process.returncode, out, err),
                  runs / "R")
    first, second = rows(runs / "R")
    assert first["outcome"] == "failed", first  # its own: it claimed done, did nothing useful
    assert second["outcome"] == "skipped" and REASON in str(second["skip_reason"]), second
    resumed = run_cli("run", "--resume", "R", "--runs", str(runs), "--sandbox", "none")
    assert resumed.returncode == 1, resumed.stderr  # played again, and scored
    assert [r["outcome"] for r in rows(runs / "R")] == ["failed", "skipped", "failed"]


def test_a_capture_the_harness_cannot_write_is_not_graded(tmp_path: Path) -> None:
    """The reference finish under a limit its screenshot does not fit: not "graded failed, as
    the agent's own input may have caused it", but not scored, and the run stops there."""
    runs = tmp_path / "runs"  # a run does not start under 1 MiB: the limit drops once it has
    done = limited_once_begun(36 << 10, runs, "run", TASK, "--agent", "solution", "--runs",
                              str(runs), "--run-id", "R", "--repeat", "2")
    stopped_whole(done, runs / "R")
    recorded = rows(runs / "R")
    assert [r["outcome"] for r in recorded] == ["skipped"], recorded
    assert REASON in str(recorded[0]["skip_reason"]), recorded
