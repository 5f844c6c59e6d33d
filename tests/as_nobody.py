"""The harness played as a user that is not root (`nobody`), for the rules that differ there.

CI's venv links to an interpreter under /root, which `nobody` cannot run; the system's Python
(the same minor version) with the checkout and the running venv's packages on its path can, wherever
the checkout itself is readable (CI's clone in /tmp is). `nobody_cannot_run` says why not when
it cannot, for the test's skip."""

from __future__ import annotations

import os
import shutil
import subprocess
import sysconfig
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SYSTEM_PYTHON = Path("/usr/bin/python3")


@contextmanager
def nobodys_place(prefix: str) -> Iterator[Path]:
    """A folder `nobody` may write, outside pytest's own (which only root may enter)."""
    made = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        made.chmod(0o777)
        yield made
    finally:
        subprocess.run(["chmod", "-R", "u+rwx", str(made)], check=False)
        shutil.rmtree(made, ignore_errors=True)


def as_nobody(place: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`python -m ARGS` run by `nobody` in `place` with the system's Python and the venv's
    packages."""
    packages = sorted({sysconfig.get_path("purelib"), sysconfig.get_path("platlib")})
    return subprocess.run(
        ["runuser", "-u", "nobody", "--", "env", f"HOME={place}",
         f"PYTHONPATH={os.pathsep.join([str(ROOT), *packages])}",
         f"PHONESHELL_KEY_FILE={place / 'run-signing.key'}", str(SYSTEM_PYTHON), "-m", *args],
        capture_output=True, text=True, cwd=place, timeout=300)


def nobody_cannot_run(place: Path) -> str:
    """Why the harness cannot be played as `nobody` here ("" when it can)."""
    if os.geteuid() != 0 or shutil.which("runuser") is None:
        return "needs root to run the harness as another user (CI runs as root)"
    if not SYSTEM_PYTHON.exists():
        return f"no {SYSTEM_PYTHON} for nobody to run"
    looked = as_nobody(place, "phoneshell", "--version")
    if looked.returncode != 0:  # another Python, or a checkout nobody cannot read
        return f"nobody cannot run phoneshell with {SYSTEM_PYTHON}: {looked.stderr[-300:]}"
    return ""
