"""Two runs are compared, and their task table merged, only on the same task: the same id and
the same version of its file (task_sha256). Attempts of another version are left apart, named
in a warning (text and JSON), and shown in rows of their own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from report.report_rig import ROOT, phoneshell

from phoneshell.sim import SimServer


@pytest.mark.slow  # whole runs, some ten seconds: CI runs it
def test_runs_of_two_versions_of_a_task_are_not_paired_as_one(tmp_path: Path) -> None:
    old, new = tmp_path / "old", tmp_path / "new"
    for folder in (old, new):
        folder.mkdir()
        for name in ("reach", "serial"):
            (folder / f"{name}.yaml").write_text(
                (ROOT / "environments" / f"settings.about.{name}.yaml").read_text())
    edited = (new / "reach.yaml").read_text().replace("name: ", "name: Edited ", 1)
    (new / "reach.yaml").write_text(edited)
    runs = tmp_path / "runs"
    for run_id, tasks, agent in (("A", old, "solution"), ("B", new, "null")):
        done = phoneshell("run", str(tasks), "--runs", str(runs), "--run-id", run_id,
                          "--agent", agent)
        assert done.returncode in (0, 1), done.stdout + done.stderr
    done = phoneshell("report", str(runs / "A"), str(runs / "B"), "--format", "json")
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    (c,) = report["comparisons"]
    assert (c["pairs"], c["only_a"], c["apart"]) == (1, 1, 1), c
    assert [t["task_id"] for t in c["per_task"]] == ["settings.about.serial"]
    assert c["apart_tasks"][0].startswith("settings.about.reach: 1 attempt(s), task file ")
    warning = next(w for w in report["warnings"] if "not of the same task" in w)
    assert "settings.about.reach" in warning and "left out of the comparison" in warning
    assert any(w.startswith("task settings.about.reach: the runs ran 2 versions of its file")
               for w in report["warnings"])
    rows = [(t["task_id"], [cell["run_id"] for cell in t["runs"]]) for t in report["tasks"]]
    assert rows == [("settings.about.reach", ["A"]), ("settings.about.serial", ["A", "B"]),
                    ("settings.about.reach", ["B"])], "each version in its own row"
    text = phoneshell("report", str(runs / "A"), str(runs / "B"))
    assert "1 pair(s) (same task, task file and attempt, scored in both); 0 left out " \
        "(skipped or missing in one); 1 left apart (not the same task" in text.stdout
    assert "warning: solution @ A and null @ B: 1 attempt(s) scored in both are not of the " \
        "same task" in text.stdout


@pytest.mark.slow  # whole runs, some ten seconds: CI runs it
def test_runs_on_two_kinds_of_phone_are_not_paired_as_one(tmp_path: Path) -> None:
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    (tasks / "reach.yaml").write_text(
        (ROOT / "environments" / "settings.about.reach.yaml").read_text())
    runs = tmp_path / "runs"
    with SimServer() as sim:
        for run_id, device in (("SIM", "sim"), ("URL", sim.url)):
            done = phoneshell("run", str(tasks), "--runs", str(runs), "--run-id", run_id,
                              "--device", device)
            assert done.returncode == 0, done.stdout + done.stderr
    done = phoneshell("report", str(runs / "SIM"), str(runs / "URL"), "--format", "json")
    report = json.loads(done.stdout)
    assert report["comparisons"] == [], "no pair of the same task on the same kind of phone"
    assert any("settings.about.reach: 1 attempt(s), phone sim vs url" in w
               for w in report["warnings"]), report["warnings"]
