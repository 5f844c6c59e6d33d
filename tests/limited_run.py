"""A whole `phoneshell` command whose file-size limit (`ulimit -f`, RLIMIT_FSIZE) drops once its
run has begun: a run does not start under the least limit it needs
(`agents.size_limit.FILE_LIMIT_LEAST`), so a test of a write the limit refuses mid-run lowers it
on the running process, as an operator's `prlimit` would."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import IO

from cli_process import CLI_ENV, ROOT, ended, reap


def limited_once_begun(limit: int, runs: Path, *args: str,
                       stdout: int | IO[str] = subprocess.PIPE,
                       timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """`phoneshell ARGS`, no file it writes allowed past `limit` bytes once a run.json is in
    `runs` (written after the run's start checks, before any attempt)."""
    process = subprocess.Popen([sys.executable, "-m", "phoneshell", *args], cwd=ROOT, text=True,
                               stdout=stdout, stderr=subprocess.PIPE,
                               env={**os.environ, **CLI_ENV})
    try:
        deadline = time.monotonic() + timeout
        while not any(runs.glob("*/run.json")):
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, f"no run.json in {runs} in {timeout} s"
            time.sleep(0.002)
        resource.prlimit(process.pid, resource.RLIMIT_FSIZE, (limit, resource.RLIM_INFINITY))
        out, err = ended(process, timeout)
    finally:
        reap(process)
    return subprocess.CompletedProcess(process.args, process.returncode, out or "", err)
