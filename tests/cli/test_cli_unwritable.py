"""Storage that will not take a command's write (here: a file-size limit, EFBIG, as `ulimit -f`
or a CI's RLIMIT_FSIZE sets) is said by the CLI's top level for every command, as a full disk
is: the file, the system's word, what mends it, exit 2. Before, any but ENOSPC/EDQUOT escaping a
command other than `run` (`report --html` here) was "a bug in phoneshell", exit 3, with a
traceback.

And every file a command writes is written whole (`records.write_text_atomic`): the page it
could not finish is the one that was there before, or none; a baseline's evidence is whole or
not there. Before, the limit left the first 8 KiB of a new page in place of the old one, and the
first 32 KiB of a page source in the baseline's attempt folder."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest
from cli_process import ROOT, run_cli
from limited_run import limited_once_begun

TASK = str(ROOT / "environments" / "calculator.arithmetic.yaml")


LIMIT = 8 << 10


def limited(limit: int = LIMIT) -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.getrlimit(
        resource.RLIMIT_FSIZE)[1]))


def cli_limited(*args: str, limit: int = LIMIT) -> subprocess.CompletedProcess[str]:
    """`phoneshell ARGS` with no file it writes allowed past `limit` bytes."""
    return subprocess.run([sys.executable, "-m", "phoneshell", *args], cwd=ROOT, text=True,
                          capture_output=True, preexec_fn=lambda: limited(limit),
                          env={**os.environ, "PYTHONWARNINGS": "error"}, timeout=120)


def whole(path: Path) -> bool:
    """Whether the file at `path` is whole as its kind says (a cut one is not)."""
    data = path.read_bytes()
    if path.suffix == ".png":
        return data.endswith(b"IEND\xaeB`\x82")
    if path.suffix == ".xml":
        ElementTree.fromstring(data)
    elif path.suffix == ".json":
        json.loads(data)
    elif path.suffix == ".jsonl":
        for line in data.splitlines():
            json.loads(line)
    return True


@pytest.mark.slow  # a whole run, then a report
def test_a_report_page_over_the_file_size_limit_is_said_not_a_bug(tmp_path: Path) -> None:
    ran = run_cli("run", TASK, "--runs", str(tmp_path / "runs"), "--run-id", "R")
    assert ran.returncode == 0, ran.stderr
    page = tmp_path / "page.html"
    page.write_text("<p>the page before</p>\n")
    done = cli_limited("report", str(tmp_path / "runs" / "R"), "--html", str(page))
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    error, hint = (next(x for x in done.stderr.splitlines() if x.startswith(p))
                   for p in ("error:", "hint:"))
    assert f"{tmp_path}" in error and "could not be written: File too large" in error, error
    assert "ulimit -f" in hint and "run the command again" in hint, hint
    assert page.read_text() == "<p>the page before</p>\n"  # never part of the new one
    written = [p for p in tmp_path.rglob("*") if p.is_file() and "runs" not in p.parts]
    assert all(whole(p) for p in written if p != page), written
    assert not [p for p in written if p.name.endswith(".tmp")], written


@pytest.mark.slow  # two runs of a task
def test_a_baseline_over_the_file_size_limit_leaves_only_whole_files(tmp_path: Path) -> None:
    limit = 32 << 10  # run.json fits; a page source or a screenshot does not
    done = limited_once_begun(limit, tmp_path / "runs", "baseline", TASK, "--runs",
                              str(tmp_path / "runs"))
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    error, hint = (next(x for x in done.stderr.splitlines() if x.startswith(p))
                   for p in ("error:", "hint:"))
    assert "the run folder could not be written: File too large" in error, error
    assert "doctor" not in hint, hint  # the folder stopped it, not the phone
    written = [p for p in (tmp_path / "runs").rglob("*") if p.is_file()]
    assert any(p.name == "run.json" for p in written), written
    assert all(whole(p) for p in written), written
    assert not [p for p in written if p.name.endswith(".tmp")], written
