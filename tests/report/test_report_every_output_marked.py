"""Red team 140 (RT140-1, -2, -5): every output of `phoneshell report` says what the text says.

A folder that fails its seal, read with `--unverified`, exited 0 with an all-green JUnit file; a
row of an attempt run.json never planned was counted passed (17 of 16 planned); the JUnit file
dropped every warning (unverified, not tamper-proof, still being written), and called the
attempts of a run still being written "cut short". Each case is made from a real run, edited as
the red team did, and reported by the CLI in a subprocess.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest
from report.report_rig import phoneshell

from phoneshell.phones.lock import DeviceLock


def _forge_unplanned(run: Path) -> None:
    """Append a copy of the first row as attempt 3 of a run of --repeat 2."""
    results = run / "results.jsonl"
    row = json.loads(results.read_text().splitlines()[0])
    row["attempt"] = 3
    with results.open("a") as out:
        out.write(json.dumps(row) + "\n")


def _edit_seconds(run: Path) -> None:
    results = run / "results.jsonl"
    lines = results.read_text().splitlines()
    row = json.loads(lines[0])
    row["seconds"] = 0.001
    results.write_text("\n".join([json.dumps(row), *lines[1:]]) + "\n")


def _truncate_audit(run: Path) -> None:
    audit = run / "audit.jsonl"
    audit.write_bytes(audit.read_bytes()[:-100])


def _duplicate_attempt(run: Path) -> None:
    shutil.copytree(run / "attempts" / "calculator.chain" / "1",
                    run / "attempts" / "calculator.chain" / "3")


def _remove_attempt(run: Path) -> None:
    shutil.rmtree(run / "attempts" / "settings.about.reach" / "2")


EDITS: dict[str, Callable[[Path], None]] = {
    "forged unplanned row": _forge_unplanned, "edited seconds": _edit_seconds,
    "truncated audit log": _truncate_audit, "duplicated attempt folder": _duplicate_attempt,
    "removed attempt folder": _remove_attempt}


def _report(run: Path, out: Path, *extra: str) -> tuple[subprocess.CompletedProcess[str],
                                                         ET.Element, dict[str, object], str]:
    """Report `run` as text (with --junit and --html) and as JSON; return the text run, the
    JUnit root, the JSON document and the HTML page."""
    junit, html = out / "r.xml", out / "r.html"
    text = phoneshell("report", str(run), *extra, "--junit", str(junit), "--html", str(html))
    as_json = phoneshell("report", str(run), *extra, "--format", "json")
    assert as_json.returncode == text.returncode, as_json.stderr
    return text, ET.parse(junit).getroot(), json.loads(as_json.stdout), html.read_text()


def _warnings(text: str) -> list[str]:
    return [line.removeprefix("warning: ") for line in text.splitlines()
            if line.startswith("warning: ")]


def _junit_warnings(root: ET.Element) -> list[str]:
    return [p.get("value", "") for p in root.iter("property") if p.get("name") == "warning"]


@pytest.mark.slow
@pytest.mark.parametrize("edit", sorted(EDITS))
def test_an_unverified_report_never_exits_0_nor_writes_a_green_junit(
        runs: dict[str, Path], tmp_path: Path, edit: str) -> None:
    run = tmp_path / "SOL"
    shutil.copytree(runs["SOL"], run)
    clean = phoneshell("report", str(run))
    assert clean.returncode == 0, clean.stdout + clean.stderr  # the untouched copy passes
    EDITS[edit](run)
    text, junit, document, html = _report(run, tmp_path, "--unverified")
    assert text.returncode == 1, text.stdout + text.stderr
    assert int(junit.get("errors", "0")) + int(junit.get("failures", "0")) > 0
    kinds = [e.get("type") for e in junit.iter("error")]
    assert "unverified" in kinds, kinds
    warned = _warnings(text.stdout)
    assert any(w.startswith("UNVERIFIED") for w in warned)
    assert _junit_warnings(junit) == warned  # the same words, each once, in the same order
    assert "UNVERIFIED" in (junit.find("testsuite/system-err").text or "")  # type: ignore[union-attr]
    agents = document["agents"]
    assert isinstance(agents, list) and agents[0]["unverified"] >= 1
    assert document["warnings"] == warned
    assert "UNVERIFIED:" in html and "UNVERIFIED:" in text.stdout


@pytest.mark.slow
def test_an_attempt_run_json_never_planned_is_never_counted(runs: dict[str, Path],
                                                            tmp_path: Path) -> None:
    run = tmp_path / "SOL"
    shutil.copytree(runs["SOL"], run)
    _forge_unplanned(run)
    text, junit, document, _html = _report(run, tmp_path, "--unverified")
    assert text.returncode == 1
    assert "attempts 8 of 8 planned: 8 scored" in text.stdout
    assert "passed 8/8" in text.stdout and "passed 9/9" not in text.stdout
    agents = document["agents"]
    assert isinstance(agents, list)
    assert (agents[0]["attempts"], agents[0]["passed"], agents[0]["unplanned"]) == (8, 8, 1)
    suite = junit.find("testsuite")
    assert suite is not None
    names = [c.get("name") for c in suite.iter("testcase") if c.find("error") is None]
    assert "calculator.chain #3" not in names and len(names) == 8
    unplanned = [e for e in suite.iter("error") if e.get("type") == "not planned"]
    assert len(unplanned) == 1 and "calculator.chain #3" in (unplanned[0].text or "")


@pytest.mark.slow
def test_a_run_still_being_written_is_not_called_cut_short(runs: dict[str, Path],
                                                          tmp_path: Path) -> None:
    run = tmp_path / "FLT"
    shutil.copytree(runs["FLT"], run)
    lock = DeviceLock("run", "FLT", directory=run, lock_directory=True).acquire()
    try:
        text, junit, document, html = _report(run, tmp_path)
    finally:
        lock.release()
    assert text.returncode == 1, text.stderr
    assert any("still being written" in w for w in _warnings(text.stdout))
    assert _junit_warnings(junit) == _warnings(text.stdout)
    never = [e for e in junit.iter("error") if e.get("type") == "not run"]
    assert never and all(e.get("message", "").startswith("not yet run: the run was still "
                                                         "being written") for e in never)
    assert "cut short" not in ET.tostring(junit, encoding="unicode")
    assert "1 not yet run (still being written)" in text.stdout
    agents = document["agents"]
    assert isinstance(agents, list) and agents[0]["still_written"]
    assert "still being written" in html


def test_every_warning_of_the_text_is_in_the_junit_file(runs: dict[str, Path],
                                                       tmp_path: Path) -> None:
    """Runs of another task file, compared: warnings of each run and of the pair, all in."""
    path = tmp_path / "r.xml"
    done = phoneshell("report", str(runs["SOL"]), str(runs["TIGHT"]), "--junit", str(path))
    warned = _warnings(done.stdout)
    assert warned, done.stdout
    root = ET.parse(path).getroot()
    for suite in root.findall("testsuite"):
        values = [p.get("value") for p in suite.iter("property")]
        assert all(w in values for w in warned if ("@ " in w and " and " in w)), values
    assert set(_junit_warnings(root)) == set(warned)


@pytest.mark.parametrize("log", ["results.jsonl", "audit.jsonl"])
@pytest.mark.parametrize("kind", ["folder", "fifo"])
def test_a_sealed_log_that_is_no_file_is_named_never_a_descriptor(
        runs: dict[str, Path], tmp_path: Path, log: str, kind: str) -> None:
    """RT140-6: "cannot read it ([Errno 21] Is a directory: 3)" named a descriptor."""
    run = tmp_path / "NUL"
    shutil.copytree(runs["NUL"], run)
    (run / log).unlink()
    if kind == "folder":
        (run / log).mkdir()
    else:
        os.mkfifo(run / log)
    done = phoneshell("report", str(run))
    assert done.returncode == 2, done.stdout + done.stderr
    error = done.stderr.splitlines()[0]
    assert f"{run / log}: " in error, error
    assert "Errno" not in error and not re.search(r": \d+\)", error), error
    assert "Is a directory" in error or "not a regular file" in error, error
