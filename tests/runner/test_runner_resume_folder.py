"""What a run folder says is never taken on its word by `run --resume` and `report` (red team 45):
an unsealed run.json put where a sealed run was is refused, not resumed from scratch; a stop
between a resume's start and its first seal leaves a run that reports and resumes; run.json's
run id names no folder outside the runs folder and draws no lines; run.lock's text draws none
either, and the lock's holder is named by the kernel's account, uid and all; a record of latest
seals that cannot be read is a warning. The CLI runs as a subprocess on the simulated iPhone."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from phoneshell.seal import key_path

ROOT = Path(__file__).resolve().parents[2]
REACH = ROOT / "environments" / "settings.about.reach.yaml"
INTERRUPT = """
import os, signal, sys, time
import phoneshell.runner.run as run
real = run.resume_folder
def resume_folder(*a, **k):  # Ctrl-C lands just after the resume has begun
    out = real(*a, **k)
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(0.5)
    return out
run.resume_folder = resume_folder
from phoneshell.cli import main
sys.exit(main(sys.argv[1:]))
"""
FAKE = "solution @ R: 2/2 = 100.0%  95% CI 34.2-100.0%"


def phoneshell(*args: str, head: tuple[str, ...] = ("-m", "phoneshell"),
               env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *head, *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=180, env=env)


def ran(runs: Path, *more: str) -> Path:
    done = phoneshell("run", str(REACH), "--agent", "null", "--runs", str(runs), "--run-id", "R",
                      *more)
    assert done.returncode == 1, done.stdout + done.stderr  # null fails it
    return runs / "R"


@pytest.fixture(scope="module")
def one_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished run, copied by the tests that only read it or are refused (a copy elsewhere
    holds its run's latest seal, so it verifies)."""
    return ran(tmp_path_factory.mktemp("one") / "runs")


def copied(one_run: Path, tmp_path: Path) -> Path:
    run = tmp_path / "runs" / "R"
    shutil.copytree(one_run, run)
    return run


def edit(run: Path, **fields: object) -> None:
    manifest = json.loads((run / "run.json").read_text())
    manifest.update(fields)
    (run / "run.json").write_text(json.dumps(manifest))


@pytest.mark.slow  # 5 s of whole programs: the README's command stays quick
def test_an_unsealed_reset_of_a_failed_run_is_not_resumed_from_scratch(tmp_path: Path) -> None:
    run = ran(tmp_path / "runs")
    manifest = json.loads((run / "run.json").read_text())
    edit(run, seal=None, started_at=manifest["started_at"] + 1, agent="solution")
    for name in ("attempts", "results.jsonl", "audit.jsonl"):
        shutil.rmtree(run / name) if (run / name).is_dir() else (run / name).unlink()
    resume = phoneshell("run", "--resume", "R", "--runs", str(tmp_path / "runs"))
    assert resume.returncode == 2, resume.stdout + resume.stderr
    assert "error: run R cannot be continued from" in resume.stderr
    assert "this folder held run R begun at " in resume.stderr
    assert "passed" not in resume.stdout and not (run / "results.jsonl").exists()
    report = phoneshell("report", str(run))
    assert report.returncode == 2 and "the folder was put back or replaced" in report.stderr


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_a_stop_as_a_resume_begins_leaves_a_run_that_reports_and_resumes(
        tmp_path: Path) -> None:
    run = ran(tmp_path / "runs", "--repeat", "2")
    before = (run / "run.json").read_bytes()
    stopped = phoneshell("run", "--resume", "R", "--runs", str(tmp_path / "runs"),
                         head=("-c", INTERRUPT))
    assert stopped.returncode != 0, stopped.stdout + stopped.stderr
    assert (run / "run.json").read_bytes() == before  # run.json is written by a seal, or not
    report = phoneshell("report", str(run))
    assert report.returncode == 1, report.stdout + report.stderr  # 0/2, reported
    assert "null @ R: 0/2" in report.stdout
    again = phoneshell("run", "--resume", "R", "--runs", str(tmp_path / "runs"))
    assert again.returncode == 1, again.stdout + again.stderr
    assert "2 attempt(s) were already scored and not run again" in again.stdout + again.stderr
    resumed = json.loads((run / "run.json").read_text())
    assert len(resumed["resumed_at"]) == 1  # the resume that sealed is the one recorded


@pytest.mark.slow  # 2.6 s measured: the README's command stays quick
def test_a_run_id_in_run_json_names_no_folder_and_draws_no_line(
        one_run: Path, tmp_path: Path) -> None:
    run = copied(one_run, tmp_path)
    edit(run, run_id=f"../../escaped\n\n{FAKE}\nall checks verified")
    resume = phoneshell("run", "--resume", "R", "--runs", str(tmp_path / "runs"))
    assert resume.returncode == 2, resume.stdout + resume.stderr
    assert "run.json names run '../../escaped\\n\\n" in resume.stderr
    assert not (tmp_path / "escaped").exists() and not list(tmp_path.parent.glob("escaped*"))
    shown = phoneshell("report", str(run), "--unverified")
    text = shown.stdout + shown.stderr
    assert FAKE in text and not any(line.startswith(FAKE) for line in text.splitlines()), text
    assert "\nall checks verified" not in text


@pytest.mark.slow  # 5 s of whole programs: the README's command stays quick
def test_run_folder_text_is_shown_quoted_and_the_lock_names_its_holder(
        one_run: Path, tmp_path: Path) -> None:
    run = copied(one_run, tmp_path)
    edit(run, agent="null\n" + FAKE, git_commit="abc\n  all attempts verified")
    shown = phoneshell("report", str(run), "--unverified")
    text = shown.stdout + shown.stderr
    assert not any(line.startswith((FAKE, "  all attempts verified"))
                   for line in text.splitlines()), text
    edit(run, agent="null", git_commit=json.loads((one_run / "run.json").read_text())[
        "git_commit"])
    (run / "run.lock").write_text(json.dumps({"pid": 1, "run_id": "R", "since": "now",
                                              "key": "x", "command": f"phoneshell run\n\n{FAKE}"}))
    holder = subprocess.Popen(  # a read-only open of the folder is enough to flock it
        [sys.executable, "-c", "import fcntl, os, sys, time\n"
         f"fd = os.open({str(run)!r}, os.O_RDONLY | os.O_DIRECTORY)\n"
         "fcntl.flock(fd, fcntl.LOCK_EX); print('held', flush=True); time.sleep(60)"],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        report = phoneshell("report", str(run))
        resume = phoneshell("run", "--resume", "R", "--runs", str(tmp_path / "runs"))
    finally:
        holder.kill()
        holder.communicate()
    for out in (report.stdout + report.stderr, resume.stderr):
        assert not any(line.startswith(FAKE) for line in out.splitlines()), out
        assert "'phoneshell run\\n\\n" + FAKE in out
        assert f"pid {holder.pid} of uid {os.getuid()} (who holds the lock, says the kernel; " \
               "its lock file names pid 1 (run R, since now)" in out, out
    assert resume.returncode == 2 and "is being written by another phoneshell" in resume.stderr


@pytest.mark.slow  # 2.7 s measured: the README's command stays quick
def test_a_record_of_latest_seals_out_of_reach_is_said_not_blamed_on_the_folder(
        one_run: Path, tmp_path: Path) -> None:
    run = copied(one_run, tmp_path)
    key = tmp_path / "key" / "k"  # the key as another user reads it; the records beside it
    key.parent.mkdir()  # out of reach (here a link, which is never followed)
    shutil.copyfile(key_path(), key)
    (tmp_path / "records").mkdir()
    (tmp_path / "key" / "k.latest").symlink_to(tmp_path / "records")
    env = {**os.environ, "PHONESHELL_KEY_FILE": str(key)}
    report = phoneshell("report", str(run), env=env)
    assert report.returncode == 1, report.stdout + report.stderr  # reported: null failed
    text = report.stdout + report.stderr
    assert f"warning: {run}: could not check that run.json holds the latest seal of run R: " \
           "this machine's record of it cannot be read" in text, text
    assert "does not match its seal" not in text
    resume = phoneshell("run", "--resume", "R", "--runs", str(tmp_path / "runs"), env=env)
    assert resume.returncode == 2 and "could not check" in resume.stderr, resume.stderr
    assert "resume it as a user who can read" in resume.stderr
