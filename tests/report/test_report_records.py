"""What a report trusts in a run folder: the last row of an attempt, only over skipped rows; the
task files only when their bytes are the ones the run ran."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
import yaml
from report.report_rig import phoneshell

from phoneshell.records import RunManifest, TaskRef, read_record, write_record
from phoneshell.report import build_report, load_run
from phoneshell.report.runs import ReportError
from phoneshell.runner.folder import append_result, read_results, writing


def copy_run(run: Path, to: Path) -> Path:
    shutil.copytree(run, to / run.name)
    return to / run.name


@pytest.mark.slow  # 1.8 s measured: the README's command stays quick
def test_a_scored_attempt_recorded_twice_is_refused(runs: dict[str, Path],
                                                    tmp_path: Path) -> None:
    run = copy_run(runs["NUL"], tmp_path)
    first = read_results(run / "results.jsonl")[0]
    append_result(run / "results.jsonl",
                  first.model_copy(update={"outcome": "passed", "passed": True}))
    assert "does not match its seal" in phoneshell("report", str(run)).stderr
    done = phoneshell("report", str(run), "--unverified")  # a hand-edited run, shown anyway
    assert done.returncode == 2
    assert f"{first.task_id} #1 was scored (failed) and then recorded again" in done.stderr


def test_a_row_of_another_run_is_refused(runs: dict[str, Path], tmp_path: Path) -> None:
    run = copy_run(runs["SOL"], tmp_path)
    append_result(run / "results.jsonl",
                  read_results(run / "results.jsonl")[0].model_copy(update={"run_id": "OTHER"}))
    done = phoneshell("report", str(run), "--unverified")
    assert done.returncode == 2 and "holds a row of run 'OTHER'" in done.stderr


def test_a_row_whose_outcome_contradicts_its_flags_is_refused(runs: dict[str, Path],
                                                              tmp_path: Path) -> None:
    run = copy_run(runs["NUL"], tmp_path)
    results = run / "results.jsonl"
    row = json.loads(results.read_text().splitlines()[0])
    row.update(outcome="passed")  # but passed is still false: a hand edit or a torn tool
    results.write_text(json.dumps(row) + "\n")
    done = phoneshell("report", str(run), "--unverified")
    assert done.returncode == 2
    assert "outcome 'passed' disagrees with passed=False, skipped=False" in done.stderr


def test_last_row_wins_over_skipped_rows_only(runs: dict[str, Path]) -> None:
    record = load_run(runs["RESUMED"])
    (again,) = [a for a in record.attempts if a.superseded]
    assert again.superseded[0].skipped and again.superseded[0].skip_reason.startswith("rig down")
    assert again.row.passed and again.row.started_at > again.superseded[0].started_at
    # the timeline is the counted try's: its first action comes after the skipped try began
    timeline = record.timeline(again)
    assert timeline and all(a.t >= again.row.started_at for a in timeline)
    assert {a.phase for a in timeline} >= {"agent", "teardown"}
    earlier = [e for e in record.audit.records if e.task_id == again.task_id
               and e.attempt == again.number and e.t < again.row.started_at]
    assert earlier  # the skipped try acted too, and is left out of the timeline


@pytest.mark.slow  # 1.8 s measured: the README's command stays quick
def test_changed_and_missing_task_files_are_reported_not_guessed(
        runs: dict[str, Path], tasks_dir: Path, tmp_path: Path) -> None:
    other = tmp_path / "tasks"
    shutil.copytree(tasks_dir, other)
    data = yaml.safe_load((other / "clock.tab.alarms.yaml").read_text())
    data["instruction"] = "Something else entirely."
    (other / "clock.tab.alarms.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    (other / "settings.about.reach.yaml").unlink()
    done = phoneshell("report", str(runs["SOL"]), "--tasks", str(other), "--format", "json")
    document = json.loads(done.stdout)
    status = {f["task_id"]: f["status"] for f in document["task_files"]}
    assert status == {"calculator.chain": "ok", "clock.tab.alarms": "changed",
                      "clock.tab.timers": "ok", "settings.about.reach": "missing"}
    assert any("clock.tab.alarms.yaml changed since the run" in w for w in document["warnings"])
    rows = {t["task_id"]: t for t in document["tasks"]}
    assert rows["clock.tab.alarms"]["instruction"] == ""  # never the changed file's text
    assert rows["clock.tab.timers"]["instruction"] == "Launch Clock and move to its Timers tab."
    tabbar = next(t for t in document["tags"] if t["tag"] == "capability:tabbar")
    assert tabbar["agents"][0]["attempts"] == 4  # as run.json recorded them (test_report_tags)
    fine = json.loads(phoneshell("report", str(runs["SOL"]), "--tasks", str(tasks_dir),
                                 "--format", "json").stdout)
    assert {f["status"] for f in fine["task_files"]} == {"ok"} and fine["warnings"] == []


def test_a_task_file_gone_from_disk_is_missing(runs: dict[str, Path], tmp_path: Path) -> None:
    run = copy_run(runs["TIGHT"], tmp_path)
    manifest = read_record(run / "run.json", RunManifest)
    gone = tmp_path / "gone.yaml"
    write_record(run / "run.json", manifest.model_copy(update={"tasks": tuple(
        TaskRef(id=t.id, file=str(gone), sha256=t.sha256) for t in manifest.tasks)}))
    report = build_report([load_run(run, unverified=True)])  # run.json was edited by hand
    (note,) = report.task_files
    assert (note.status, note.detail) == ("missing", f"its file {gone} is missing")
    assert report.tasks[0].instruction == "" and report.tags == ()


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_task_files_are_found_from_where_the_run_started(tasks_dir: Path,
                                                         tmp_path: Path) -> None:
    project = tmp_path / "project"
    shutil.copytree(tasks_dir, project / "tasks")
    done = phoneshell("run", "tasks", "--task", "clock.tab.alarms", "--runs", "runs",
                      "--run-id", "R", cwd=project)
    assert done.returncode == 0, done.stdout + done.stderr
    assert read_record(project / "runs" / "R" / "run.json", RunManifest).tasks[0].file == \
        "tasks/clock.tab.alarms.yaml"
    # reported from another folder: the relative path is tried from the run's project too
    document = json.loads(phoneshell("report", str(project / "runs" / "R"), "--format",
                                     "json", cwd=tmp_path).stdout)
    assert [(f["file"], f["status"]) for f in document["task_files"]] == [
        ("tasks/clock.tab.alarms.yaml", "ok")]
    assert document["tasks"][0]["instruction"] == "Launch Clock and move to its Alarms tab."


def test_a_run_being_written_is_reported_as_sealed_so_far_naming_its_writer(
        runs: dict[str, Path], tmp_path: Path) -> None:
    run = copy_run(runs["SOL"], tmp_path)
    held = writing(run, "SOL")
    try:
        record = load_run(run)  # the folder matches its seal: shown, marked as partial
        assert any(f"still being written, by pid {os.getpid()} " in w for w in record.warnings)
        row = read_results(run / "results.jsonl")[0]
        append_result(run / "results.jsonl", row.model_copy(update={"attempt": 99}))
        with pytest.raises(ReportError) as refused:  # written past its seal: not a forgery
            load_run(run)
        assert refused.value.message.startswith(
            f"{run} is still being written, by pid {os.getpid()} ")
    finally:
        held.release()
    assert not any("still being written" in w for w in load_run(run, unverified=True).warnings)
