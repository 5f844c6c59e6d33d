"""Another phoneshell for the tests of graders: the checkout's own CLI with another
`__version__` (as a release would be), and a folder holding one task to run it on."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from cli_process import ROOT

TASK = "settings.about.reach"


def one_task(folder: Path) -> Path:
    """`folder`, made, with a copy of the suite's settings.about.reach in it."""
    folder.mkdir(parents=True)
    shutil.copy(ROOT / "environments" / f"{TASK}.yaml", folder)
    return folder


def run_as_version(version: str, *args: str) -> subprocess.CompletedProcess[str]:
    """`phoneshell ARGS` from the checkout, as phoneshell `version`."""
    code = (f"import sys, phoneshell; phoneshell.__version__ = {version!r}; "
            "from phoneshell.cli import main; sys.exit(main())")
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=300, env={**os.environ, "PYTHONWARNINGS": "error"})
