"""`phoneshell grade` of a run's evidence reaches the run's verdict, or says why not: the rules
the evidence shows are applied by the grade, the run's own are read back from what it sealed,
and the task file is held to the one the run graded by."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from attempt_rig import Locker

from phoneshell.runner import AttemptPlan, open_rig, run_attempt
from phoneshell.sim import SimServer
from phoneshell.tasks import Task

ROOT = Path(__file__).resolve().parents[2]
PLAY = ROOT / "examples" / "agents" / "play_solution.py"
TASK = "settings.about.reach"


def phoneshell(*args: str, env: dict[str, str] | None = None,
               ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "phoneshell", *args], capture_output=True,
                          text=True, env={**os.environ, "PYTHONWARNINGS": "error", **(env or {})},
                          timeout=120)


def _task_copy(environments: Path, folder: Path, **keys: object) -> Path:
    """The suite's settings.about.reach with `keys` set at the top of the file."""
    text = (environments / f"{TASK}.yaml").read_text()
    folder.mkdir()
    extra = "".join(f"{key}: {value}\n" for key, value in keys.items())
    path = folder / f"{TASK}.yaml"
    path.write_text(text.replace("instruction:", f"{extra}instruction:", 1))
    return path


@pytest.mark.slow
def test_an_attempt_that_ran_out_of_time_is_graded_failed_as_the_run_failed_it(
        tmp_path: Path, environments: Path) -> None:
    task = _task_copy(environments, tmp_path / "tasks", timeout_seconds=6)
    # plays the reference finish and claims done, then outstays its time
    agent = f"command:{shlex.quote(sys.executable)} {shlex.quote(str(PLAY))}; sleep 30"
    ran = phoneshell("run", str(task.parent), "--agent", agent, "--sandbox", "none",
                     "--runs", str(tmp_path), "--run-id", "R",
                     env={"PHONESHELL_EXPOSE_TASK_FILE": "1"})
    row = json.loads((tmp_path / "R" / "results.jsonl").read_text().splitlines()[-1])
    assert ran.returncode == 1 and row["timed_out"], ran.stdout + ran.stderr
    assert all(c["passed"] for c in row["checks"]), "its checks pass: only the time fails it"
    folder = tmp_path / "R" / row["evidence"]

    graded = phoneshell("grade", str(folder), "--task", str(task))
    assert graded.returncode == 1, graded.stdout + graded.stderr
    assert graded.stdout.startswith(
        f"{TASK}: FAILED: the run overruled it: the agent ran out of time\n"), graded.stdout
    assert graded.stderr == "", "the same verdict as the run's: nothing to explain"
    data = json.loads(phoneshell("grade", str(folder), "--task", str(task), "--format",
                                 "json").stdout)
    assert data["passed"] is False and data["run_overruled"] == "the agent ran out of time"

    # the evidence alone, outside the run: its checks pass, and the note says what is unknown
    shutil.copytree(folder, tmp_path / "copy")
    alone = phoneshell("grade", str(tmp_path / "copy"), "--task", str(task))
    assert alone.returncode == 0 and "not inside a run folder" in alone.stderr
    assert "(time, turns, the owner's collections) is not known here" in alone.stderr

    # another version of the task file: refused, then graded under it when asked, and said
    edited = tmp_path / "edited" / f"{TASK}.yaml"
    edited.parent.mkdir()
    edited.write_text(task.read_text() + "# edited after the run\n")
    refused = phoneshell("grade", str(folder), "--task", str(edited))
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert f"error: {edited} is not the task file the run graded {TASK} by" in refused.stderr
    assert row["task_sha256"] in refused.stderr and "--task-changed" in refused.stderr
    changed = phoneshell("grade", str(folder), "--task", str(edited), "--task-changed")
    assert changed.returncode == 1 and "warning: TASK CHANGED: " in changed.stderr
    assert changed.stdout.startswith(f"{TASK}: FAILED: the run overruled it: the agent ran out")


def test_an_agent_that_broke_the_rig_fails_by_its_evidence_alone(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    task = suite["system.notifications.open"]
    with open_rig(sim.url, tmp_path, effect_timeout_s=0.3) as rig:
        done = run_attempt(AttemptPlan("R", tmp_path / "R", task, 1), rig, Locker())
    assert done.row.outcome == "failed" and done.row.evidence, done.row.error
    assert all(c.passed for c in done.row.checks), "the lock screen passes its checks"
    # out of the run: no verdict.json, no row, no seal; only the evidence's own log
    shutil.copytree(tmp_path / "R" / done.row.evidence, tmp_path / "copy")
    graded = phoneshell("grade", str(tmp_path / "copy"), "--task", task.file)
    assert graded.returncode == 1, graded.stdout
    assert f"{task.id}: FAILED\n" in graded.stdout
    assert "failed whatever its checks say: the agent locked the phone (#" in graded.stdout
