"""JUnit XML for CI: one test case per attempt, failures with check details, attempts not scored
or never run errors with the reason, so the file fails exactly when the report exits non-zero;
read back with an XML parser."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from report.report_rig import phoneshell

from phoneshell.report.junit import junit_xml
from phoneshell.report.tally import Unreadable


@pytest.fixture(scope="module")
def junit(runs: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> ET.Element:
    path = tmp_path_factory.mktemp("junit") / "report.xml"
    done = phoneshell("report", str(runs["SOL"]), str(runs["LIAR"]), str(runs["FLT"]),
                      "--junit", str(path))
    assert done.returncode == 1 and f"junit: {path}" in done.stdout, done.stderr
    return ET.parse(path).getroot()


def test_one_suite_per_run_and_one_case_per_attempt(junit: ET.Element) -> None:
    assert junit.tag == "testsuites"
    # FLT planned 4: its attempt not scored and the one never run are errors, not skips
    assert (junit.get("tests"), junit.get("failures"), junit.get("errors"),
            junit.get("skipped")) == ("16", "4", "2", "0")
    suites = junit.findall("testsuite")
    assert [(s.get("name"), s.get("tests"), s.get("failures"), s.get("errors"), s.get("skipped"))
            for s in suites] == [("solution @ SOL", "8", "0", "0", "0"),
                                 ("liar @ LIAR", "4", "4", "0", "0"),
                                 ("solution @ FLT", "4", "0", "2", "0")]
    names = [c.get("name") for c in suites[0].findall("testcase")]
    assert names[:2] == ["calculator.chain #1", "calculator.chain #2"]
    assert all(c.get("classname") == c.get("name", "").split(" #")[0]
               for s in suites for c in s.findall("testcase"))


def test_failures_carry_check_details_and_errors_their_reason(junit: ET.Element) -> None:
    liar, flt = junit.findall("testsuite")[1:]
    failure = liar.find("testcase/failure")
    assert failure is not None and failure.text is not None
    assert "FAILED" in failure.text and "on the final screen" in failure.text
    out = liar.find("testcase/system-out")
    assert out is not None and out.text is not None
    assert "claim: done" in out.text and '<script>alert("pwned")</script>' in out.text
    assert "\\x1b[31m" in out.text  # a control character XML cannot carry, shown escaped
    errors = [c.find("error") for c in flt.findall("testcase")]
    reason, never = [e for e in errors if e is not None]
    assert reason.get("type") == "not scored"
    assert reason.get("message", "").startswith("not scored: rig down")
    assert (never.get("type"), never.get("message")) == (
        "not run", "not run: the run stopped or was cut short before this attempt")
    assert flt.findall("testcase")[-1].get("name") == "settings.about.reach #1"
    assert flt.find("testcase/failure") is None  # not scored is never the agent's failure
    assert flt.find("testcase/skipped") is None


def _red(path: Path) -> bool:
    """Whether CI fails on the JUnit file: any failure or error (a skip is green)."""
    root = ET.parse(path).getroot()
    return int(root.get("failures", "0")) + int(root.get("errors", "0")) > 0


@pytest.mark.parametrize("names", [("FLT",), ("RESUMED",), ("NUL",),
                                   ("RESUMED", "SOL")])
def test_the_junit_verdict_is_the_report_s_exit_code(runs: dict[str, Path], tmp_path: Path,
                                                      names: tuple[str, ...]) -> None:
    """Red team 102 (RT102-5): a run cut short, its attempts skipped "not scored" and never
    run, exits 1, but its JUnit file held only <skipped>, which CI reads as green: a CI that
    reads the file passed a run the harness fails. Red exactly when the exit code is not 0."""
    path = tmp_path / "report.xml"
    done = phoneshell("report", *(str(runs[name]) for name in names), "--junit", str(path))
    assert done.returncode in (0, 1), done.stderr
    assert _red(path) == (done.returncode == 1), (names, path.read_text())


def test_a_run_the_report_cannot_read_is_an_error_too() -> None:
    """A report exits 1 when a run given cannot be read; its JUnit file says so too."""
    root = junit_xml([], [Unreadable("runs/B", "runs/B/results.jsonl: 70,000,000 bytes is "
                                               "over the limit")]).getroot()
    assert (root.get("tests"), root.get("errors")) == ("1", "1")
    error = root.find("testsuite/testcase/error")
    assert error is not None and error.get("type") == "unreadable"
    assert error.get("message", "").startswith("not counted: runs/B/results.jsonl")
