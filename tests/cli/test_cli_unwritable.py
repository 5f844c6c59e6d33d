"""Storage that will not take a command's write (here: a file-size limit, EFBIG, as `ulimit -f`
or a CI's RLIMIT_FSIZE sets) is said by the CLI's top level for every command, as a full disk
is: the file, the system's word, what mends it, exit 2. Before, any but ENOSPC/EDQUOT escaping a
command other than `run` (`report --html` here) was "a bug in phoneshell", exit 3, with a
traceback."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from cli_process import ROOT, run_cli

TASK = str(ROOT / "environments" / "calculator.arithmetic.yaml")


def limited() -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (8 << 10, resource.getrlimit(
        resource.RLIMIT_FSIZE)[1]))


@pytest.mark.slow  # a whole run, then a report
def test_a_report_page_over_the_file_size_limit_is_said_not_a_bug(tmp_path: Path) -> None:
    ran = run_cli("run", TASK, "--runs", str(tmp_path / "runs"), "--run-id", "R")
    assert ran.returncode == 0, ran.stderr
    done = subprocess.run([sys.executable, "-m", "phoneshell", "report",
                           str(tmp_path / "runs" / "R"), "--html", str(tmp_path / "page.html")],
                          cwd=ROOT, text=True, capture_output=True, preexec_fn=limited,
                          env={**os.environ, "PYTHONWARNINGS": "error"}, timeout=120)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    error, hint = (next(x for x in done.stderr.splitlines() if x.startswith(p))
                   for p in ("error:", "hint:"))
    assert f"{tmp_path}" in error and "could not be written: File too large" in error, error
    assert "ulimit -f" in hint and "run the command again" in hint, hint
