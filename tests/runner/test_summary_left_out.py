"""A task file left out for errors is in the run's sealed record (run.json), so every reading of
the run says so and none passes it: the run's closing lines and exit code, `phoneshell report`
(text, JSON, HTML, JUnit, exit code) and `--resume`, which keeps it left out. The CLI is run as
a user runs it, on the simulated iPhone."""

from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from cli_process import run_cli

ROOT = Path(__file__).resolve().parents[2]


phoneshell = run_cli


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_a_file_left_out_is_recorded_and_no_reading_of_the_run_passes_it(
        tmp_path: Path) -> None:
    tasks, runs = tmp_path / "tasks", tmp_path / "runs"
    tasks.mkdir()
    shutil.copy(ROOT / "environments" / "settings.about.reach.yaml", tasks)
    good = (ROOT / "environments" / "measure.open.yaml").read_text()
    broken = tasks / "measure.open.yaml"
    broken.write_text(good.replace("difficulty: easy", "difficulty: impossible"))
    assert broken.read_text() != good
    done = phoneshell("run", str(tasks), "--runs", str(runs), "--run-id", "R")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "1 attempt(s): 1 passed, 0 failed, 0 skipped" in done.stdout
    assert f"left out 1 task file(s) with errors (listed above): {broken}" in done.stdout
    [out] = json.loads((runs / "R" / "run.json").read_text())["left_out"]
    assert out["file"] == str(broken) and "'impossible'" in out["errors"][0], out

    report = phoneshell("report", str(runs / "R"), "--junit", str(tmp_path / "r.xml"),
                        "--html", str(tmp_path / "r.html"))
    assert report.returncode == 1, report.stdout + report.stderr  # as the run's exit
    assert f"left out 1 task file(s) with errors, none of their tasks run nor counted, so the " \
        f"run cannot pass: {broken}" in report.stdout, report.stdout
    suite = ET.parse(tmp_path / "r.xml").getroot()
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("2", "0", "1")
    assert suite.find(".//testcase[@classname='left-out']/error") is not None
    assert "left out 1 task file(s) with errors when it began" in \
        (tmp_path / "r.html").read_text()
    as_json = phoneshell("report", str(runs / "R"), "--format", "json")
    assert as_json.returncode == 1
    [numbers] = json.loads(as_json.stdout)["agents"]
    assert [o["file"] for o in numbers["left_out"]] == [str(broken)]

    # A resume runs only what the run planned: the file stays left out, fixed or not.
    broken.write_text(good)
    again = phoneshell("run", "--resume", "R", "--runs", str(runs))
    assert again.returncode == 1, again.stdout + again.stderr
    assert f"run R left out 1 task file(s) with errors when it began ({broken}): a resume runs " \
        "only the tasks the run planned, so they stay left out" in again.stdout, again.stdout
    assert "not part of run R, left out: measure.open" in again.stdout
    assert f"left out 1 task file(s) with errors (listed above): {broken}" in again.stdout
