"""Storage that will not take a write is said as the file that refused it (red team 133), through
the CLI:

* no temporary folder takes writes (a full /tmp, a file-size limit): `tempfile` says it as a
  missing folder (ENOENT, "No usable temporary directory found"), which the CLI called a bug,
  exit 3 with a traceback (RT133-6). Now the folders, what mends them (space, TMPDIR), exit 2.
* the command's own output refused (`>> log` under `ulimit -f`): said as the runs folder's, with
  a resume hint for a run that was whole, or as "a file" (RT133-3). Now the output is named, the
  run goes on recording, and its end says what was lost (lines, not records), exit 2.
* the audit log refused a line of a phone's housekeeping before the run: said as the phone's
  ("Safari's tabs could not be counted ... will be left open") (RT133-4). Now the run folder's,
  naming audit.jsonl, as an attempt's refusal is (`runner.unwritten.said`).
* a run the run folder stopped ended with `phoneshell doctor` for its hint, as if the phone had
  failed (fixer BM): now what mends the storage (`errors.mend`).
* `run`, `baseline` and `attack` check their temporary folder before any phone (fixer BM): one
  that takes no write is said as `no_temp_folder` says it, whatever the phone (before: the
  phone's error, or the first write that met the limit).
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from cli_process import ROOT
from limited_run import limited_once_begun

TASK = str(ROOT / "environments" / "calculator.arithmetic.yaml")


def _limited(limit: int) -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.getrlimit(
        resource.RLIMIT_FSIZE)[1]))


def cli_limited(limit: int, *args: str, stdout: int | object = subprocess.PIPE
                ) -> subprocess.CompletedProcess[str]:
    """`phoneshell ARGS` with no file it writes allowed past `limit` bytes."""
    return subprocess.run([sys.executable, "-m", "phoneshell", *args], cwd=ROOT, text=True,
                          stdout=stdout, stderr=subprocess.PIPE,  # type: ignore[arg-type]
                          preexec_fn=lambda: _limited(limit),
                          env={**os.environ, "PYTHONWARNINGS": "error"}, timeout=300)


def test_no_temporary_folder_that_takes_writes_is_said_as_storage_not_a_bug(
        tmp_path: Path) -> None:
    done = cli_limited(0, "run", TASK, "--agent", "solution", "--runs", str(tmp_path / "runs"))
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and "a bug" not in done.stderr
    assert "no temporary folder takes writes (" in done.stderr
    assert "/tmp" in done.stderr and "TMPDIR" in done.stderr


def test_the_commands_own_output_refused_is_named_as_its_output(tmp_path: Path) -> None:
    log = tmp_path / "schema.log"
    log.write_text("x" * 4000)  # a log near the limit, appended to
    with log.open("a") as out:
        done = cli_limited(4096, "schema", stdout=out)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert (f"error: the command's output (stdout, sent to {log}) could not be written: File "
            "too large; what the command recorded is whole") in done.stderr
    assert "a file could not be written" not in done.stderr
    assert "raise it" in done.stderr


@pytest.mark.slow  # a run, for seconds
def test_a_run_whose_log_stops_taking_lines_records_every_attempt(tmp_path: Path) -> None:
    runs, log = tmp_path / "runs", tmp_path / "run.log"
    log.write_text("x" * (60 << 10))
    with log.open("a") as out:  # room for the first line or two only
        done = limited_once_begun((60 << 10) + 90, runs, "run", TASK, "--agent", "solution",
                                  "--runs", str(runs), "--run-id", "R", stdout=out)
    assert done.returncode == 2, done.stderr
    assert "the command's output (stdout" in done.stderr, done.stderr
    assert "--resume" not in done.stderr and str(runs) + " could not" not in done.stderr
    rows = (runs / "R" / "results.jsonl").read_text().splitlines()
    assert len(rows) == 1 and '"passed":true' in rows[0].replace(" ", "")


@pytest.mark.slow  # a run, for seconds
def test_housekeeping_the_audit_log_refused_is_the_run_folders(tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    done = limited_once_begun(20 << 10, runs, "run", TASK, "--agent", "solution", "--runs",
                              str(runs), "--run-id", "R")
    said = done.stdout + done.stderr
    assert done.returncode == 2, said
    assert "could not be counted" not in said and "could not be read before" not in said, said
    assert (f"sim-1: the run folder could not be written: File too large "
            f"({runs / 'R' / 'audit.jsonl'})") in said, said


NOTHING = "http://127.0.0.1:9"
"""A --device nothing listens at: the temporary folder is said before it is ever reached."""


@pytest.mark.slow  # a run, for seconds
def test_a_run_the_folder_stopped_is_told_to_mend_the_storage_not_the_phone(
        tmp_path: Path) -> None:
    done = limited_once_begun(20 << 10, tmp_path / "runs", "run", TASK, "--agent", "solution",
                              "--runs", str(tmp_path / "runs"), "--run-id", "R")
    hint = next(x for x in done.stderr.splitlines() if x.startswith("hint:"))
    assert done.returncode == 2, done.stderr
    assert "doctor" not in hint and "raise it" in hint and "no phone was at fault" in hint, hint
    assert "phoneshell run --resume R" in hint, hint


@pytest.mark.slow  # three CLI processes
@pytest.mark.parametrize("command", ["run", "baseline", "attack"])
def test_a_temporary_folder_that_takes_no_write_is_said_before_any_phone(
        tmp_path: Path, command: str) -> None:
    done = cli_limited(0, command, TASK, "--device", NOTHING, "--runs", str(tmp_path / "runs"))
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    assert "error: no temporary folder takes writes (" in done.stderr, done.stderr
    assert "127.0.0.1:9" not in done.stderr, done.stderr  # no phone was reached for
