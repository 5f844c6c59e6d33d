"""The CLI as a user runs it, in a subprocess (`python -m phoneshell`), from the checkout, with
Python's warnings made errors: one helper for every test that runs the whole program."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_cli(*args: str, cwd: Path | None = ROOT, env: dict[str, str] | None = None,
            timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """`phoneshell ARGS`, its output captured as text; `env` is added to this process's."""
    return subprocess.run([sys.executable, "-m", "phoneshell", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=timeout,
                          env={**os.environ, "PYTHONWARNINGS": "error", **(env or {})})
