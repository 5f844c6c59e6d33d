"""One tag spelled otherwise in another task file ("Notes" in one, "notes" in two) is one tag,
as the loader's own repeat refusal compares them (`tag_key`): one row in `phoneshell report`'s
per-tag table, in its JSON and HTML alike, shown as most of its tasks spell it (a tie: the
first seen), and one group in a judge's scores by tag, where an item counts once under it
however many times its judgeset lists it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from report.report_rig import ROOT, phoneshell

from phoneshell.judges.score import score
from phoneshell.records import JudgeAnswer, LabelRow, ResultRow, RunManifest, TaskRef
from phoneshell.report.runs import Attempt, RunRecord
from phoneshell.report.tally import tag_numbers

TAGS = {"calculator.chain": ["calculator", "navigation", "capability:precise-taps"],
        "clock.tab.alarms": ["tabs", "Navigation", "capability:tabbar", "Everyday"],
        "settings.about.reach": ["settings", "navigation", "everyday", "Capability:TabBar"]}
"""Three task files: `navigation` in two of them and `Navigation` in one; `Everyday` and
`everyday` once each; a capability written in other letters."""


@pytest.mark.slow  # a run of three tasks and three reports: about ten seconds
def test_one_tag_spelled_two_ways_across_task_files_is_one_row(tmp_path: Path) -> None:
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    for task_id, tags in TAGS.items():
        data = yaml.safe_load((ROOT / "environments" / f"{task_id}.yaml").read_text())
        data["tags"] = tags
        (tasks / f"{task_id}.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    done = phoneshell("run", str(tasks), "--agent", "null", "--runs", str(tmp_path / "runs"),
                      "--run-id", "R")
    assert done.returncode == 1, done.stdout + done.stderr
    report = phoneshell("report", str(tmp_path / "runs" / "R"), "--format", "json")
    rows = {t["tag"]: t["agents"][0] for t in json.loads(report.stdout)["tags"]}
    assert set(rows) == {"calculator", "tabs", "settings", "navigation", "Everyday",
                         "capability:precise-taps", "capability:tabbar"}, sorted(rows)
    assert (rows["navigation"]["attempts"], rows["navigation"]["planned"]) == (3, 3)
    assert rows["Everyday"]["attempts"] == 2 and rows["capability:tabbar"]["attempts"] == 2
    text = phoneshell("report", str(tmp_path / "runs" / "R")).stdout
    assert sum(line.lstrip().lower().startswith("navigation ") for line in
               text.splitlines()) == 1, text
    html = tmp_path / "report.html"
    phoneshell("report", str(tmp_path / "runs" / "R"), "--html", str(html))
    assert html.read_text().lower().count("<td>navigation</td>") == 1


def _row(task_id: str, passed: bool) -> ResultRow:
    return ResultRow(run_id="R", task_id=task_id, attempt=1, agent="a",
                     outcome="passed" if passed else "failed", passed=passed, skipped=False,
                     skip_reason="", checks=(), claim=None, started_at=0.0, seconds=1.0)


def _run(run_id: str, tags: dict[str, tuple[str, ...]]) -> RunRecord:
    manifest = RunManifest(
        run_id=run_id, started_at=0.0, phoneshell_version="", git_commit="", agent="a",
        paths=(), task_globs=(), repeat=1, devices=(), tasks=tuple(
            TaskRef(id=task_id, file=f"{task_id}.yaml", sha256=str(n) * 64, tags=spelled)
            for n, (task_id, spelled) in enumerate(tags.items())))
    rows = [_row(task_id, n % 2 == 0) for n, task_id in enumerate(tags)]
    return RunRecord(Path("runs") / run_id, manifest,
                     tuple(Attempt(r.task_id, 1, r) for r in rows), ())


def test_every_run_counts_a_tag_under_one_name_whichever_spelling_its_files_use() -> None:
    first = _run("A", {"a": ("Notes",), "b": ("notes",), "c": ("Quick",)})
    second = _run("B", {"a": ("Notes",), "d": ("notes",), "e": ("quick",), "f": ("notes",)})
    tags = {t.tag: t for t in tag_numbers([first, second])}
    assert set(tags) == {"notes", "Quick"}, "most tasks write notes; Quick ties, seen first"
    assert [(c.run_id, c.attempts) for c in tags["notes"].agents] == [("A", 2), ("B", 3)]
    assert [(c.run_id, c.attempts) for c in tags["Quick"].agents] == [("A", 1), ("B", 1)]


def _label(item: str, task_id: str, positive: bool, tags: tuple[str, ...]) -> LabelRow:
    return LabelRow(id=item, label="positive" if positive else "negative",
                    label_type="positive" if positive else "failed", origin="run",
                    source="runs/R", task_id=task_id, trajectory_task=task_id, tags=tags)


def test_a_judges_scores_by_tag_fold_spellings_and_count_an_item_once() -> None:
    # a judgeset recorded before the loader refused a repeated tag lists it twice in one item
    labels = {"1": _label("1", "a", True, ("Notes", "notes", "notes ")),
              "2": _label("2", "b", False, ("notes",)),
              "3": _label("3", "c", True, ("notes", "Settings"))}
    answers = {i: JudgeAnswer(success=i != "2", trajectory_id=i, judge="j", status="ok")
               for i in labels}
    scored = score("j", "S", labels, answers)
    assert [(g.name, g.items) for g in scored.by_tag] == [("Settings", 1), ("notes", 3)]
    notes = scored.by_tag[1]
    assert (notes.positive.correct, notes.positive.n) == (2, 2)
    assert (notes.negative.correct, notes.negative.n) == (1, 1)
