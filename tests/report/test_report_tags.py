"""Per-tag numbers count each attempt once under each distinct tag of its task, the tags the run
ran it with: run.json records them, so a task file changed or gone since costs no row an
attempt; an older run, which did not record them, marks every row that may miss some."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml
from report.report_rig import phoneshell

from phoneshell.records import ResultRow, RunManifest, TaskRef, read_record, write_record
from phoneshell.report.runs import Attempt, RunRecord
from phoneshell.report.tally import tag_numbers


def _row(task_id: str, n: int, passed: bool) -> ResultRow:
    return ResultRow(run_id="R", task_id=task_id, attempt=n, agent="a",
                     outcome="passed" if passed else "failed", passed=passed, skipped=False,
                     skip_reason="", checks=(), claim=None, started_at=0.0, seconds=1.0)


def test_a_tag_given_twice_counts_each_attempt_once() -> None:
    """Red team 102 (RT102-3): a task whose tags repeat `notes` (as `notes`, `Notes`) counted
    its attempts once per spelling: "4/4" of 2 attempts, and a rate over two tasks weighted
    twice for it. Whatever a task is given (the loader refuses it now; an older run may hold
    it), each attempt counts once under each distinct tag."""
    manifest = RunManifest(
        run_id="R", started_at=0.0, phoneshell_version="", git_commit="", agent="a", paths=(),
        task_globs=(), repeat=2, devices=(), tasks=(
            TaskRef(id="twice", file="t.yaml", sha256="0" * 64,
                    tags=("notes", "notes", "Notes", "capability:typing", "capability:typing ")),
            TaskRef(id="once", file="u.yaml", sha256="1" * 64, tags=("notes",))))
    rows = [_row("twice", 1, True), _row("twice", 2, True), _row("once", 1, False),
            _row("once", 2, False)]
    run = RunRecord(Path("runs/R"), manifest, tuple(Attempt(r.task_id, r.attempt, r)
                                                    for r in rows), ())
    tags = {t.tag: t.agents[0] for t in tag_numbers([run])}
    assert set(tags) == {"notes", "capability:typing"}
    notes = tags["notes"]
    assert (notes.attempts, notes.scored, notes.passed, notes.planned) == (4, 4, 2, 4)
    assert notes.pass_rate == 0.5, "a doubled task would weigh twice: 4/6"
    typing = tags["capability:typing"]
    assert (typing.attempts, typing.passed, typing.planned) == (2, 2, 2)


def _changed_tasks(tasks_dir: Path, to: Path) -> Path:
    """The test tasks, clock.tab.alarms' tags changed and settings.about.reach gone."""
    shutil.copytree(tasks_dir, to)
    data = yaml.safe_load((to / "clock.tab.alarms.yaml").read_text())
    data["tags"] = ["renamed"]
    (to / "clock.tab.alarms.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    (to / "settings.about.reach.yaml").unlink()
    return to


def test_tags_come_from_run_json_when_a_task_file_changed_or_went(
        runs: dict[str, Path], tasks_dir: Path, tmp_path: Path) -> None:
    """Red team 102 (RT102-8): a task file edited or deleted since the run silently dropped
    out of every per-tag row ("first-party 1/1" of a run of two first-party tasks)."""
    recorded = {ref.id: ref.tags for ref in read_record(runs["SOL"] / "run.json",
                                                        RunManifest).tasks}
    assert recorded["clock.tab.alarms"] and "capability:tabbar" in recorded["clock.tab.alarms"]
    other = _changed_tasks(tasks_dir, tmp_path / "tasks")
    done = phoneshell("report", str(runs["SOL"]), "--tasks", str(other), "--format", "json")
    document = json.loads(done.stdout)
    tags = {t["tag"]: t["agents"][0] for t in document["tags"]}
    assert "renamed" not in tags, "the tags the run ran with, not the file's now"
    assert (tags["capability:tabbar"]["attempts"], tags["capability:tabbar"]["unknown"]) == (4, 0)
    assert (tags["settings"]["attempts"], tags["settings"]["planned"]) == (2, 2)
    rows = {t["task_id"]: t for t in document["tasks"]}
    assert "capability:tabbar" in rows["clock.tab.alarms"]["tags"]
    assert rows["clock.tab.alarms"]["instruction"] == ""  # never the changed file's text
    assert any("clock.tab.alarms: " in w and "its tags are, as run.json recorded them" in w
               for w in document["warnings"]), document["warnings"]


@pytest.mark.slow  # 5 s of whole programs: the README's command stays quick
def test_an_older_run_without_recorded_tags_marks_the_rows_that_may_miss_attempts(
        runs: dict[str, Path], tasks_dir: Path, tmp_path: Path) -> None:
    """A run recorded before run.json kept tags has only its files to say them: a changed or
    missing one leaves its attempts out of every tag's row, and each row says how many."""
    run = tmp_path / "OLD"
    shutil.copytree(runs["SOL"], run)
    manifest = read_record(run / "run.json", RunManifest)
    write_record(run / "run.json", manifest.model_copy(update={"tasks": tuple(
        ref.model_copy(update={"tags": None}) for ref in manifest.tasks)}))
    other = _changed_tasks(tasks_dir, tmp_path / "tasks")
    args = [str(run), "--unverified", "--tasks", str(other)]  # run.json was edited by hand
    document = json.loads(phoneshell("report", *args, "--format", "json").stdout)
    tabbar = next(t for t in document["tags"] if t["tag"] == "capability:tabbar")["agents"][0]
    assert (tabbar["attempts"], tabbar["unknown"]) == (2, 4)
    text = phoneshell("report", *args).stdout
    (line,) = [line for line in text.splitlines() if line.startswith("  tabbar ")]
    assert line.endswith(" solution @ SOL: 2/2 = 100.0%  95% CI 20.6-100.0%; may miss 4 planned "
                         "attempt(s) of tasks whose tags are not known"), text
