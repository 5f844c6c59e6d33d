"""Bytecode Python would run instead of its source is the grader too (red team 45: a pyc
stamped with values.py's mtime and size, holding other code, ran as a clean checkout): one that
is not its source's makes phoneshell refuse to say which grader it is, and a module imported
after the grader is known reads no pyc at all.

The phoneshell here is a real copy of the package, run by a Python of its own.
"""

from __future__ import annotations

import importlib.util
import marshal
import os
import subprocess
import sys
from pathlib import Path

import pytest
from other_version import package_repo


def _foreign_pyc(source: Path, code: str) -> Path:
    """Plant a pyc for `source` holding `code`, stamped with the source's mtime and size."""
    info = source.stat()
    data = bytearray(importlib.util.MAGIC_NUMBER) + (0).to_bytes(4, "little")
    data += (int(info.st_mtime) & 0xFFFFFFFF).to_bytes(4, "little")
    data += (info.st_size & 0xFFFFFFFF).to_bytes(4, "little")
    data += marshal.dumps(compile(code, str(source), "exec"))
    cached = Path(importlib.util.cache_from_source(str(source)))
    cached.parent.mkdir(exist_ok=True)
    cached.write_bytes(bytes(data))
    return cached


def _python(repo: Path, code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=repo, timeout=120, env={**os.environ, "PYTHONPATH": str(repo)})


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    package_repo(tmp_path / "repo")
    return tmp_path / "repo"


GRADER = ("import sys, phoneshell.checks.values as v\n"
          "from phoneshell.errors import PhoneshellError\n"
          "from phoneshell.grader import this_grader\n"
          "try:\n    print(this_grader().code)\n"
          "except PhoneshellError as e:\n    print('REFUSED', e)\n")


def test_a_foreign_pyc_that_ran_is_refused_naming_it(repo: Path) -> None:
    values = repo / "phoneshell" / "checks" / "values.py"
    clean = _python(repo, GRADER)  # Python writes the honest pycs
    assert clean.returncode == 0 and len(clean.stdout.strip()) == 64, clean.stderr
    assert _python(repo, GRADER).stdout == clean.stdout, "honest pycs change nothing"
    cached = _foreign_pyc(values, values.read_text() + "\nPATCHED = 'PATCHED GRADER'\n")
    shadowed = _python(repo, GRADER + "print(getattr(v, 'PATCHED', 'source'))\n")
    assert shadowed.returncode == 0, shadowed.stderr
    assert "PATCHED GRADER" in shadowed.stdout, "the pyc ran"
    assert shadowed.stdout.startswith("REFUSED phoneshell cannot tell which grader it is: "
                                      "Python would run cached bytecode that is not compiled "
                                      f"from its source: {values} ({cached})"), shadowed.stdout


def test_a_module_imported_after_the_grader_is_known_reads_no_pyc(repo: Path) -> None:
    later = repo / "phoneshell" / "later.py"
    later.write_text("X = 'source'\n")
    _foreign_pyc(later, "X = 'pyc'\n")
    ran = _python(repo, "from phoneshell.grader import this_grader\nthis_grader()\n"
                        "import phoneshell.later\nprint(phoneshell.later.X)\n")
    assert ran.stdout.strip() == "source", ran.stdout + ran.stderr


def test_a_stale_pyc_python_would_not_run_is_left_alone(repo: Path) -> None:
    values = repo / "phoneshell" / "checks" / "values.py"
    clean = _python(repo, GRADER).stdout
    cached = _foreign_pyc(values, "PATCHED = 1\n")
    data = bytearray(cached.read_bytes())
    data[12:16] = (values.stat().st_size + 1).to_bytes(4, "little")  # another size: stale
    cached.write_bytes(bytes(data))
    assert _python(repo, GRADER).stdout == clean
