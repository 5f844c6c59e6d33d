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


def git(repo: Path, *args: str, env: dict[str, str] | None = None) -> str:
    """`git ARGS` in `repo` (committing as a test user), its output stripped."""
    return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
                          cwd=repo, check=True, capture_output=True, text=True,
                          env={**os.environ, **(env or {})}).stdout.strip()


def package_repo(repo: Path) -> Path:
    """A git repository holding a copy of phoneshell and its bridge (no bytecode), committed;
    returns the copy's package folder."""
    for name in ("phoneshell", "bridge"):
        shutil.copytree(ROOT / name, repo / name, symlinks=True,
                        ignore=shutil.ignore_patterns("__pycache__"))
    (repo / ".gitignore").write_text("__pycache__/\n")
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "phoneshell")
    return repo / "phoneshell"
