"""A run on a real small disk with few files (a 64 MiB tmpfs of 3,000 inodes, `small_disk`),
through the CLI: an agent that makes the disk's last files (empty ones, 0 bytes, under its
folder's 100,000) fails its attempt, and the run goes on and is whole (red team 132: the run
could not write its seal, no row, exit 2, and every --resume met the same)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from cli_process import ROOT, run_cli
from small_disk import small_disk

from phoneshell.agents import bounds

pytestmark = pytest.mark.slow  # whole programs for seconds

TASK = str(ROOT / "environments" / "calculator.arithmetic.yaml")
MAKE = """import json, os
d = os.path.join(os.environ["PHONESHELL_ATTEMPT_DIR"], "many")
os.mkdir(d)
n = 0
try:
    while True:
        open(os.path.join(d, str(n)), "w").close(); n += 1
except OSError:
    pass
print(json.dumps({"status": "done", "answer": "x"}))
"""
"""A failing agent that makes empty files in its folder until the disk has none left."""


def test_an_agent_that_takes_the_disks_files_fails_and_the_run_goes_on(tmp_path: Path) -> None:
    script = tmp_path / "make.py"
    script.write_text(MAKE)
    with small_disk(tmp_path / "disk", files=3000) as disk:
        done = run_cli("run", TASK, "--agent", f"command:{sys.executable} {script}", "--runs",
                       str(disk), "--run-id", "R", "--repeat", "2")
        assert "Traceback" not in done.stderr and "error:" not in done.stderr, done.stderr
        rows = [json.loads(line) for line in
                (disk / "R" / "results.jsonl").read_text().splitlines()]
        assert [r["outcome"] for r in rows] == ["failed", "failed"], rows
        assert all("files in its folder" in str(r["error"]) for r in rows), rows
        assert done.returncode == 1, done.stdout + done.stderr
        free_files = bounds.disk_free_files(disk)
        assert free_files is not None and free_files > 2000, free_files
        report = run_cli("report", str(disk / "R"))  # sealed whole: it verifies
        assert "2 scored" in report.stdout, report.stdout + report.stderr
