"""A run folder put back to an earlier seal, without the key, is refused by `report` and by
`run --resume` (red team 40): resuming never gives a recorded failure a second chance. And a
name read from a run folder never draws lines of its own in what the CLI prints. The CLI runs
as a subprocess on the simulated iPhone."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
REACH = ROOT / "environments" / "settings.about.reach.yaml"
SIGNAL_AT = Path(__file__).with_name("signal_at.py")


def phoneshell(*args: str, at: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The CLI; with `at`, stopped by SIGTERM as the first attempt's teardown starts."""
    head = [str(SIGNAL_AT), "teardown", str(at), "1", "--"] if at else ["-m", "phoneshell"]
    return subprocess.run([sys.executable, *head, *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_a_run_rolled_back_to_an_earlier_seal_is_neither_reported_nor_resumed(
        tmp_path: Path) -> None:
    runs, run = tmp_path / "runs", tmp_path / "runs" / "R"
    stopped = phoneshell("run", str(REACH), "--agent", "null", "--repeat", "2", "--runs",
                         str(runs), "--run-id", "R", at=tmp_path / "mark")
    assert stopped.returncode == 2 and "stopped after 1 of 2" in stopped.stderr, stopped.stderr
    snapshot = tmp_path / "snapshot"
    shutil.copytree(run, snapshot)  # a copy of the folder while it held attempt 1's seal
    again = phoneshell("run", "--resume", "R", "--runs", str(runs))
    assert again.returncode == 1, again.stdout + again.stderr  # attempt 2 ran, and failed
    assert [json.loads(x)["attempt"] for x in (run / "results.jsonl").read_text().splitlines()] \
        == [1, 2]
    shutil.rmtree(run)
    shutil.copytree(snapshot, run)  # put back: attempt 2 "never ran"
    report = phoneshell("report", str(run))
    assert report.returncode == 2, report.stdout + report.stderr
    assert re.search(r"does not match its seal: run.json holds seal (\d+) of run R, but this "
                     r"machine sealed the run up to seal (\d+): ", report.stderr), report.stderr
    assert "rolled back to an earlier state" in report.stderr
    resume = phoneshell("run", "--resume", "R", "--runs", str(runs))
    assert resume.returncode == 2, resume.stdout + resume.stderr
    assert "error: run R cannot be continued from" in resume.stderr
    assert "a scored attempt is never run again" in resume.stderr
    assert len((run / "results.jsonl").read_text().splitlines()) == 1  # nothing played again


@pytest.mark.slow  # 5 s of whole programs: the README's command stays quick
def test_a_file_name_with_newlines_is_shown_quoted_on_one_line(tmp_path: Path) -> None:
    runs, run = tmp_path / "runs", tmp_path / "runs" / "R"
    done = phoneshell("run", str(REACH), "--agent", "null", "--runs", str(runs), "--run-id", "R")
    assert done.returncode == 1, done.stdout + done.stderr
    name = "x: ok\n\nsolution @ base1\n  passed 2/2 = 100.0% of scored\nhint: nothing to see"
    evidence = run / "attempts" / REACH.stem / "1" / "evidence"
    (evidence / name).parent.mkdir(parents=True)  # "2/2": a folder, then a file
    (evidence / name).write_text("planted")
    report = phoneshell("report", str(run))
    assert report.returncode == 2
    shown_name = repr(str(evidence.relative_to(run) / name))
    assert "passed 2/2" not in report.stderr.replace(shown_name, "")  # only inside the quotes
    assert report.stderr.splitlines()[0].endswith(
        f"{shown_name}: not sealed (it was added or rewritten outside the run)")
    shown = phoneshell("report", str(run), "--unverified")
    text = shown.stdout + shown.stderr
    warned = [line for line in text.splitlines() if shown_name in line]
    assert len(warned) == 1 and "UNVERIFIED" in warned[0] and warned[0].endswith(
        f"{shown_name}: not sealed (it was added or rewritten outside the run)"), text
    assert any(line.strip().startswith("UNVERIFIED: 1 file(s) do not match")
               for line in text.splitlines()), text  # and the run's own figures say so
    assert "hint: nothing to see" not in text.replace(shown_name, "")
