"""JUnit XML for CI: one test case per attempt, failures with check details, skips with the
reason, read back with an XML parser."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from report.report_rig import phoneshell


@pytest.fixture(scope="module")
def junit(runs: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> ET.Element:
    path = tmp_path_factory.mktemp("junit") / "report.xml"
    done = phoneshell("report", str(runs["SOL"]), str(runs["LIAR"]), str(runs["FLT"]),
                      "--junit", str(path))
    assert done.returncode == 1 and f"junit: {path}" in done.stdout, done.stderr
    return ET.parse(path).getroot()


def test_one_suite_per_run_and_one_case_per_attempt(junit: ET.Element) -> None:
    assert junit.tag == "testsuites"
    # FLT planned 4: its attempt never run is a case too, skipped "not run"
    assert (junit.get("tests"), junit.get("failures"), junit.get("skipped")) == ("16", "4", "2")
    suites = junit.findall("testsuite")
    assert [(s.get("name"), s.get("tests"), s.get("failures"), s.get("skipped")) for s in
            suites] == [("solution @ SOL", "8", "0", "0"), ("liar @ LIAR", "4", "4", "0"),
                        ("solution @ FLT", "4", "0", "2")]
    names = [c.get("name") for c in suites[0].findall("testcase")]
    assert names[:2] == ["calculator.chain #1", "calculator.chain #2"]
    assert all(c.get("classname") == c.get("name", "").split(" #")[0]
               for s in suites for c in s.findall("testcase"))


def test_failures_carry_check_details_and_skips_their_reason(junit: ET.Element) -> None:
    liar, flt = junit.findall("testsuite")[1:]
    failure = liar.find("testcase/failure")
    assert failure is not None and failure.text is not None
    assert "FAILED" in failure.text and "on the final screen" in failure.text
    out = liar.find("testcase/system-out")
    assert out is not None and out.text is not None
    assert "claim: done" in out.text and '<script>alert("pwned")</script>' in out.text
    assert "\\x1b[31m" in out.text  # a control character XML cannot carry, shown escaped
    skipped = [c.find("skipped") for c in flt.findall("testcase")]
    reason, never = [s for s in skipped if s is not None]
    assert reason.get("message", "").startswith("not scored: rig down")
    assert never.get("message") == "not run"
    assert flt.findall("testcase")[-1].get("name") == "settings.about.reach #1"
    assert flt.find("testcase/failure") is None  # a skip is never a failure
