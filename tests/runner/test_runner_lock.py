"""One process writes a run folder: a second `phoneshell run` of it (a resume, or a new run
with its id) is refused up front, naming the holder, before it moves or appends anything; a
holder that died (SIGKILL) blocks nothing."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

import pytest
from cli_process import run_cli

from phoneshell.errors import RunError
from phoneshell.records.layout import LOCK
from phoneshell.runner.folder import writing

ROOT = Path(__file__).resolve().parents[2]


phoneshell = partial(run_cli, timeout=120)


def test_the_lock_names_its_holder_and_is_free_once_released(tmp_path: Path) -> None:
    held = writing(tmp_path / "R", "R")
    with pytest.raises(RunError) as refused:
        writing(tmp_path / "R", "R")
    assert refused.value.message.startswith(
        f"run R ({tmp_path / 'R'}) is being written by another phoneshell: pid {os.getpid()} "
        "(run R, since ")
    held.release()
    writing(tmp_path / "R", "R").release()
    assert (tmp_path / "R" / LOCK).exists()  # kept: removing it would race a new taker


@pytest.mark.slow  # a whole program of ten seconds or more: CI runs it
def test_a_second_writer_of_a_live_run_is_refused_and_a_dead_one_blocks_nothing(
        tmp_path: Path) -> None:
    mark = tmp_path / "started"
    # the first try of the attempt hangs (the run is live); a later one gives up at once
    agent = (f"command:if [ ! -e {mark} ]; then touch {mark}; sleep 60; fi; "
             "echo '{\"status\": \"gave_up\"}'")
    env = {**os.environ, "PYTHONWARNINGS": "error"}
    live = subprocess.Popen(
        [sys.executable, "-m", "phoneshell", "run", "environments", "--task",
         "settings.about.reach", "--agent", agent, "--sandbox", "none", "--runs",
         str(tmp_path), "--run-id", "R"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    run_dir = tmp_path / "R"
    try:
        deadline = time.monotonic() + 60
        while not mark.exists():
            assert live.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        audit = (run_dir / "audit.jsonl").read_bytes()
        for second in (("run", "--resume", "R", "--runs", str(tmp_path), "--sandbox", "none"),
                       ("run", "environments", "--task", "settings.about.reach", "--runs",
                        str(tmp_path), "--run-id", "R")):
            refused = phoneshell(*second)
            assert refused.returncode == 2, refused.stdout + refused.stderr
            assert (f"error: run R ({run_dir}) is being written by another phoneshell: "
                    f"pid {live.pid} (run R, since ") in refused.stderr
            assert "hint: one process writes a run folder at a time" in refused.stderr
        # a report of the live run names its writer, whether or not it holds what is sealed
        report = phoneshell("report", str(run_dir))
        assert f"is still being written, by pid {live.pid} (run R, since " in report.stderr, (
            report.stdout + report.stderr)
        # nothing of the live run was moved aside or added to
        assert not (run_dir / "incomplete").exists()
        assert (run_dir / "audit.jsonl").read_bytes().startswith(audit)
        assert not (run_dir / "results.jsonl").exists()
        assert live.poll() is None
    finally:
        live.send_signal(signal.SIGKILL)  # a power cut: the kernel drops its lock
        live.wait(timeout=30)
    again = phoneshell("run", "--resume", "R", "--runs", str(tmp_path), "--sandbox", "none")
    assert again.returncode == 1, again.stdout + again.stderr  # it ran: gave up, not passed
    rows = [json.loads(x) for x in (run_dir / "results.jsonl").read_text().splitlines()]
    assert [(r["task_id"], r["outcome"]) for r in rows] == [("settings.about.reach", "failed")]
    report = phoneshell("report", str(run_dir))
    assert report.returncode == 1, report.stderr  # the lock file does not break the seal
