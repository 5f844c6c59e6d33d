"""Runs graded by different phoneshells (version, git commit) are never put side by side without
a word: each run names its grader (text, JSON, HTML), and a comparison of two runs graded by
different phoneshells names both and says its difference may be the grader's."""

from __future__ import annotations

import json
from pathlib import Path

import lxml.html
import pytest
from other_version import one_task, run_as_version
from report.report_rig import phoneshell

OTHER = "9.9.9"


@pytest.mark.slow  # two whole runs and three reports: CI runs it
def test_runs_by_different_phoneshells_are_compared_marked(tmp_path: Path) -> None:
    tasks = one_task(tmp_path / "tasks")
    runs = tmp_path / "runs"
    done = phoneshell("run", str(tasks), "--runs", str(runs), "--run-id", "OLD")
    assert done.returncode == 0, done.stdout + done.stderr
    other = run_as_version(OTHER, "run", str(tasks), "--runs", str(runs), "--run-id", "NEW",
                           "--agent", "null")  # the same checkout, another version
    assert other.returncode == 1, other.stdout + other.stderr
    commit = json.loads((runs / "OLD" / "run.json").read_text())["git_commit"]
    short = commit.partition("+")[0][:12]

    report = json.loads(phoneshell("report", str(runs / "OLD"), str(runs / "NEW"),
                                   "--format", "json").stdout)
    assert [(a["run_id"], a["phoneshell_version"]) for a in report["agents"]] == [
        ("OLD", "0.1.0"), ("NEW", OTHER)]
    assert report["agents"][0]["git_commit"] == commit
    assert report["agents"][1]["grader"].startswith(f"phoneshell {OTHER} (")
    (c,) = report["comparisons"]
    assert not c["same_grader"] and (c["pairs"], c["only_a"]) == (1, 1), c
    assert c["graders"].startswith(f"A by phoneshell 0.1.0 ({'git ' + short if short else 'no'}")
    assert f"B by phoneshell {OTHER} (" in c["graders"]
    assert c["conclusion"].startswith("GRADED BY DIFFERENT PHONESHELLS, so a difference may be "
                                      "the grader's, not the agents': too few tasks where")
    assert any("solution @ OLD and null @ NEW were graded by different phoneshells" in w
               for w in report["warnings"]), report["warnings"]

    text = phoneshell("report", str(runs / "OLD"), str(runs / "NEW")).stdout
    assert "  graded by phoneshell 0.1.0 (" in text and f"  graded by phoneshell {OTHER} (" in text
    assert "  GRADED BY DIFFERENT PHONESHELLS: A by phoneshell 0.1.0" in text, text
    assert "warning: solution @ OLD and null @ NEW were graded by different phoneshells" in text

    page = tmp_path / "report.html"
    phoneshell("report", str(runs / "OLD"), str(runs / "NEW"), "--html", str(page))
    doc = lxml.html.fromstring(page.read_bytes())
    head = [th.text_content() for th in doc.xpath("//table[@class='summary']/thead//th")]
    rows = doc.xpath("//table[@class='summary']/tbody/tr")
    graded = [row.xpath("td")[head.index("graded by")].text_content() for row in rows]
    assert graded[0].startswith("phoneshell 0.1.0 (") and graded[1].startswith(
        f"phoneshell {OTHER} (")
    marked = doc.xpath("//section[@id='comparisons']/p[@class='bad']")
    assert marked and "Graded by different phoneshells: A by phoneshell 0.1.0" in \
        marked[0].text_content()

    same = phoneshell("run", str(tasks), "--runs", str(runs), "--run-id", "SAME", "--agent",
                      "null")
    assert same.returncode == 1, same.stdout + same.stderr
    alike = json.loads(phoneshell("report", str(runs / "OLD"), str(runs / "SAME"),
                                  "--format", "json").stdout)
    (c,) = alike["comparisons"]
    assert c["same_grader"] and c["graders"] == "" and c["conclusion"].startswith("too few")
    assert not any("graded by different" in w for w in alike["warnings"])
