"""`phoneshell run` as a user runs it: a subprocess on the in-process simulated iPhone."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_process import run_cli

from phoneshell.phones.lock import DeviceLock
from phoneshell.runner import RunOptions, run_suite
from phoneshell.runner.folder import read_results
from phoneshell.runner.lines import summary_lines
from phoneshell.runner.run import RunInterrupted
from phoneshell.sim import SimServer

ROOT = Path(__file__).resolve().parents[2]


phoneshell = run_cli


@pytest.mark.slow  # 5.6 s measured: the README's command stays quick
def test_run_with_the_solution_agent_passes_and_records_everything(tmp_path: Path) -> None:
    done = phoneshell("run", "environments", "--task", "settings.about.*", "--task",
                      "calculator.arithmetic", "--runs", str(tmp_path), "--run-id", "R")
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("no --device given: running on a simulated iPhone at http://")
    assert "[1/3] calculator.arithmetic" in lines[1] and "passed" in lines[1]
    assert "3 attempt(s): 3 passed, 0 failed, 0 skipped (100% of scored)" in done.stdout
    rows = [json.loads(x) for x in (tmp_path / "R" / "results.jsonl").read_text().splitlines()]
    assert [r["task_id"] for r in rows] == ["calculator.arithmetic", "settings.about.reach",
                                            "settings.about.serial"]
    assert all(r["outcome"] == "passed" and r["v"] == 1 for r in rows)
    manifest = json.loads((tmp_path / "R" / "run.json").read_text())
    assert manifest["agent"] == "solution" and manifest["devices"][0]["kind"] == "sim"
    assert manifest["paths"] == ["environments"] and manifest["repeat"] == 1
    assert [t["id"] for t in manifest["tasks"]] == [r["task_id"] for r in rows]
    assert all(len(t["sha256"]) == 64 for t in manifest["tasks"])


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_null_agent_fails_and_json_goes_to_stdout(tmp_path: Path) -> None:
    done = phoneshell("run", "environments", "--task", "settings.about.reach", "--agent",
                      "null", "--device", "sim", "--runs", str(tmp_path), "--format", "json")
    assert done.returncode == 1
    report = json.loads(done.stdout)
    assert (report["passed"], report["failed"], report["skipped"]) == (0, 1, 0)
    assert report["rows"][0]["checks"][0]["detail"].startswith("in front: 'com.apple.springboard'")
    assert "settings.about.reach" in done.stderr  # progress lines go to stderr with json


@pytest.mark.slow  # 6 s of whole programs: the README's command stays quick
def test_bad_options_exit_2_with_a_hint(tmp_path: Path) -> None:
    no_match = phoneshell("run", "environments", "--task", "nothing.*", "--runs", str(tmp_path))
    assert no_match.returncode == 2 and "error: no task id matches 'nothing.*'" in no_match.stderr
    bad_agent = phoneshell("run", "environments", "--agent", "solutoin", "--runs", str(tmp_path))
    assert bad_agent.returncode == 2
    assert "error: unknown agent 'solutoin'; did you mean 'solution'?" in bad_agent.stderr
    bad_device = phoneshell("run", "environments", "--device", "phone", "--runs", str(tmp_path))
    assert bad_device.returncode == 2
    assert "error: --device 'phone' is not sim, sim:N, a WDA URL, a udid or all" in \
        bad_device.stderr


@pytest.mark.slow  # 1.9 s measured: the README's command stays quick
def test_an_unreachable_device_cannot_start_a_run(tmp_path: Path) -> None:
    done = phoneshell("run", "environments", "--task", "settings.about.reach", "--device",
                      "http://127.0.0.1:9", "--runs", str(tmp_path))
    assert done.returncode == 2
    assert "error: cannot start the run: no answer from WDA at http://127.0.0.1:9" in done.stderr


@pytest.mark.slow  # a whole program of about ten seconds: CI runs it
def test_resume_runs_only_what_was_not_scored(tmp_path: Path) -> None:
    # A real skip: the phone's sessions go stale after the first attempt, so the rig is down,
    # the second attempt is skipped and the run stops there.
    with SimServer() as sim:
        def progress(line: str) -> None:
            if line.startswith("[1/"):
                sim.set_faults(["stale-session"])

        first = run_suite(RunOptions(("environments",), device=sim.url, task_globs=(
            "settings.about.reach", "calculator.arithmetic"), repeat=2, runs_dir=tmp_path,
            run_id="R"), progress)
    assert [r.outcome for r in first.rows] == ["passed", "skipped"] and first.stopped
    # one passed of four planned: the skipped and the two never run counted as failed
    assert "  at least 25% of the 4 planned: every attempt not scored counted as failed" in \
        summary_lines(first)
    skipped = first.rows[1]
    results = tmp_path / "R" / "results.jsonl"
    with SimServer() as sim:
        again = phoneshell("run", "--resume", "R", "--runs", str(tmp_path), "--device", sim.url)
        assert again.returncode == 0, again.stdout + again.stderr
        # the run's whole record: the attempt scored before the resume counts too
        assert "4 attempt(s): 4 passed, 0 failed, 0 skipped (100% of scored)" in again.stdout
        assert "at least" not in again.stdout, "all 4 planned are scored"
        assert "1 attempt(s) were already scored and not run again; this session ran 3" in \
            again.stdout
        final = [json.loads(x) for x in results.read_text().splitlines()]
        assert len(final) == 5
        retried = next(r for r in final[2:] if r["task_id"] == skipped.task_id)
        assert retried["attempt"] == skipped.attempt == 2 and retried["outcome"] == "passed"
        assert (tmp_path / "R" / "attempts" / skipped.task_id / "2.skipped-1").is_dir()
        # the retry's evidence holds its own actions only, not those of the try it replaced
        task_dir = tmp_path / "R" / "attempts" / skipped.task_id
        assert len(agent_actions(task_dir / "1" / "evidence")) >= 2
        assert agent_actions(task_dir / "2" / "evidence") == \
            agent_actions(task_dir / "1" / "evidence")
        manifest = json.loads((tmp_path / "R" / "run.json").read_text())
        assert len(manifest["resumed_at"]) == 1
        nothing = phoneshell("run", "--resume", "R", "--runs", str(tmp_path), "--device",
                             sim.url)
    assert nothing.returncode == 0, "a resume with nothing left to run still reports the run"
    assert "4 attempt(s): 4 passed" in nothing.stdout and "4 attempt(s) were already scored " \
        "and not run again; this session ran 0" in nothing.stdout


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_resume_refuses_a_run_that_does_not_match_its_seal(tmp_path: Path) -> None:
    first = phoneshell("run", "environments", "--task", "calculator.arithmetic", "--runs",
                       str(tmp_path), "--run-id", "R")
    assert first.returncode == 0, first.stderr
    results = tmp_path / "R" / "results.jsonl"
    row = json.loads(results.read_text())
    row.update(outcome="skipped", passed=False, skipped=True, skip_reason="rig down: edited",
               checks=[])  # a hand edit that would have the attempt run again
    results.write_text(json.dumps(row) + "\n")
    again = phoneshell("run", "--resume", "R", "--runs", str(tmp_path))
    assert again.returncode == 2 and "does not match its seal" in again.stderr


def agent_actions(evidence: Path) -> list[tuple[str, str]]:
    """The kind and params of each agent action in an attempt's slice of the audit log."""
    lines = [json.loads(x) for x in (evidence / "audit.jsonl").read_text().splitlines()]
    return [(e["kind"], json.dumps(e["params"], sort_keys=True)) for e in lines
            if e["phase"] == "agent" and e["stage"] == "intent"]


@pytest.mark.slow  # 5 s of whole programs: the README's command stays quick
def test_resume_refuses_a_changed_task_and_a_missing_run(tmp_path: Path) -> None:
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    source = (ROOT / "environments" / "settings.about.reach.yaml").read_text()
    (tasks / "a.yaml").write_text(source)
    done = phoneshell("run", str(tasks), "--runs", str(tmp_path), "--run-id", "R")
    assert done.returncode == 0, done.stderr
    (tasks / "a.yaml").write_text(source.replace("name: ", "name: Changed "))
    changed = phoneshell("run", "--resume", "R", "--runs", str(tmp_path))
    assert changed.returncode == 2 and "changed since run R began" in changed.stderr
    missing = phoneshell("run", "--resume", "nope", "--runs", str(tmp_path))
    assert missing.returncode == 2 and "error: no run nope in" in missing.stderr


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_several_simulated_phones_share_the_tasks(tmp_path: Path) -> None:
    # six tasks: each of the three phones takes one as they start, so all three are used
    done = phoneshell("run", "environments", "--task", "settings.about.*", "--task",
                      "settings.search.*", "--device", "sim:3", "--runs", str(tmp_path),
                      "--run-id", "R")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "running on 3 simulated iPhones" in done.stdout
    rows = [json.loads(x) for x in (tmp_path / "R" / "results.jsonl").read_text().splitlines()]
    assert len(rows) == 6 and all(r["passed"] for r in rows)
    assert {r["device"] for r in rows} == {"sim-1", "sim-2", "sim-3"}
    manifest = json.loads((tmp_path / "R" / "run.json").read_text())
    assert [d["label"] for d in manifest["devices"]] == ["sim-1", "sim-2", "sim-3"]
    seqs = [json.loads(x)["seq"] for x in (tmp_path / "R" / "audit.jsonl").read_text()
            .splitlines() if '"stage":"intent"' in x]
    assert len(set(seqs)) == len(seqs), "one audit log for the run, one seq per action"


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_a_phone_another_run_holds_is_refused_naming_the_holder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PHONESHELL_LOCK_DIR", str(tmp_path / "locks"))
    with SimServer() as sim:
        key = "loopback:" + sim.url.rsplit(":", 1)[1]  # however the URL spells loopback
        with DeviceLock(key, "other-run", directory=tmp_path / "locks"):
            taken = phoneshell("run", "environments", "--task", "settings.about.reach",
                               "--device", sim.url, "--runs", str(tmp_path))
        assert taken.returncode == 2
        assert f"error: device {key} is in use by" in taken.stderr
        assert "other-run" in taken.stderr
        free = phoneshell("run", "environments", "--task", "settings.about.reach",
                          "--device", sim.url, "--runs", str(tmp_path))
        assert free.returncode == 0, free.stdout + free.stderr
        assert f"running on {sim.url}" in free.stdout


@pytest.mark.slow
def test_a_run_killed_in_the_middle_of_an_attempt_can_be_resumed(tmp_path: Path) -> None:
    # killed (a crash, a full disk, a power cut) before it sealed what it wrote last: the
    # audit lines and the folder of the attempt in flight are not sealed, and refused the
    # resume. They are set aside, never graded, the attempt is played again, and every
    # report says so.
    mark = tmp_path / "stalled"
    agent = (f"command:case $PHONESHELL_TASK_ID in settings.about.reach) if [ ! -e {mark} ]; "
             f"then touch {mark}; sleep 60; fi;; esac; echo '{{\"status\": \"gave_up\"}}'")
    env = {**os.environ, "PYTHONWARNINGS": "error"}
    run = subprocess.Popen(
        [sys.executable, "-m", "phoneshell", "run", "environments", "--task",
         "calculator.arithmetic", "--task", "settings.about.reach", "--agent", agent,
         "--sandbox", "none", "--runs", str(tmp_path), "--run-id", "R"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while not mark.exists():
            assert time.monotonic() < deadline and run.poll() is None
            time.sleep(0.05)
    finally:
        run.send_signal(signal.SIGKILL)
        run.wait(timeout=30)
    assert len((tmp_path / "R" / "results.jsonl").read_text().splitlines()) == 1
    again = phoneshell("run", "--resume", "R", "--runs", str(tmp_path), "--sandbox", "none")
    assert again.returncode == 1, again.stdout + again.stderr  # done, gave up: not all passed
    assert "set aside in incomplete/, never graded:" in again.stdout
    assert "attempt settings.about.reach/1" in again.stdout
    rows = [json.loads(x) for x in (tmp_path / "R" / "results.jsonl").read_text().splitlines()]
    assert [(r["task_id"], r["outcome"]) for r in rows] == [
        ("calculator.arithmetic", "failed"), ("settings.about.reach", "failed")]
    report = phoneshell("report", str(tmp_path / "R"))
    assert report.returncode == 1, report.stderr  # verified; not all passed
    assert "resumed after setting aside what was written after its last seal" in report.stdout


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_resume_plans_from_run_json_not_from_the_task_files_found_now(tmp_path: Path) -> None:
    # A task file deleted since the run began must not drop its attempts out of the plan: a
    # resume that loses one still to run refuses, naming it; one already scored needs no file,
    # and its attempts still count as already scored.
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    for name in ("reach", "serial"):
        (tasks / f"{name}.yaml").write_text(
            (ROOT / "environments" / f"settings.about.{name}.yaml").read_text())

    def progress(line: str) -> None:  # Ctrl-C once the first attempt is recorded
        if line.startswith("[1/"):
            raise KeyboardInterrupt

    with pytest.raises(RunInterrupted, match="stopped after 1 of 2 attempt"):
        run_suite(RunOptions((str(tasks),), runs_dir=tmp_path, run_id="R"), progress)
    rows = read_results(tmp_path / "R" / "results.jsonl")
    assert [(r.task_id, r.outcome) for r in rows] == [("settings.about.reach", "passed")]
    serial = (tasks / "serial.yaml").read_text()
    (tasks / "serial.yaml").unlink()
    lost = phoneshell("run", "--resume", "R", "--runs", str(tmp_path))
    assert lost.returncode == 2, lost.stdout + lost.stderr
    assert "error: run R planned 1 task(s) with attempts still to run that are not among its " \
        f"task files now: settings.about.serial (was {tasks / 'serial.yaml'}); looked for in " \
        f"{tasks}" in lost.stderr
    (tasks / "serial.yaml").write_text(serial)
    (tasks / "reach.yaml").unlink()  # scored already: nothing of it runs again
    again = phoneshell("run", "--resume", "R", "--runs", str(tmp_path))
    assert again.returncode == 0, again.stdout + again.stderr
    assert "2 attempt(s): 2 passed" in again.stdout
    assert "1 attempt(s) were already scored and not run again" in again.stdout
