"""What the command line alone tells `phoneshell run` to refuse is refused before any phone
starts, naming what the run folder holds and what was given: a `--run-id` of a run that is
there already (with the command that continues it), and a resume on other phones than the
run's (a real phone for simulated iPhones, simulated iPhones for a real phone, another number
of them). The run id was refused only once the simulator had started, and a resume with a
real `--device` named a `--latency` nobody had typed."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_process import ROOT, run_cli
from standalone_sim import standalone_sim

from phoneshell.runner.run import RunOptions, run_suite

TASK = str(ROOT / "environments" / "settings.about.reach.yaml")
STARTED = ("simulated iPhone at", "running on")
"""What `phoneshell run` prints once its phones are up."""


def refused(*args: str) -> list[str]:
    """`phoneshell run ARGS`, which must be refused before a phone starts: its last two lines."""
    done = run_cli("run", *args, timeout=120)
    assert done.returncode == 2, done.stdout + done.stderr
    assert not any(line in done.stdout for line in STARTED), done.stdout
    assert "Traceback" not in done.stderr, done.stderr
    return done.stderr.splitlines()[-2:]


@pytest.mark.slow  # a run of one attempt, then five refusals: about eight seconds
def test_a_run_id_taken_or_other_phones_for_a_resume_are_refused_first(tmp_path: Path) -> None:
    run_suite(RunOptions(paths=(TASK,), agent="null", runs_dir=tmp_path, run_id="R"),
              lambda line: None)
    new = (TASK, "--agent", "null", "--runs", str(tmp_path), "--run-id", "R")
    assert refused(*new) == [
        f"error: run R already exists: {tmp_path / 'R'}",
        f"hint: continue it: phoneshell run --resume R --runs {tmp_path}; or choose another "
        "--run-id"]
    hint = refused(*new, "--device", "http://127.0.0.1:9/the-secret")[1]
    assert hint.startswith(f"hint: continue it: phoneshell run --resume R --runs {tmp_path} "
                           "--device URL (the URL"), hint
    assert "the-secret" not in hint
    resume = ("--resume", "R", "--runs", str(tmp_path))
    assert refused(*resume, "--device", "http://127.0.0.1:9/the-secret") == [
        "error: --resume R: the run ran on 1 simulated iPhone (run.json); --device "
        "http://127.0.0.1:9 is a real phone",
        "hint: resume with --device sim, as the run began, or start a new run"]
    assert refused(*resume, "--device", "sim:2")[0] == (
        "error: --resume R: the run ran on 1 simulated iPhone (run.json); --device sim:2 "
        "starts 2 simulated iPhones")
    (tmp_path / "F").write_text("")  # a run id naming a file is the runs path's own refusal
    assert refused(TASK, "--runs", str(tmp_path), "--run-id", "F")[0] == (
        f"error: --runs {tmp_path}: {tmp_path / 'F'} is not a folder")


@pytest.mark.slow  # a standalone simulator, a run on it and a refused resume: about six seconds
def test_a_resume_of_a_run_on_a_url_without_its_device_starts_no_simulator(
        tmp_path: Path) -> None:
    with standalone_sim() as (url, _said):
        run_suite(RunOptions(paths=(TASK,), agent="null", device=url, runs_dir=tmp_path,
                             run_id="U"), lambda line: None)
    port = url.rsplit(":", 1)[1].strip("/")
    assert refused("--resume", "U", "--runs", str(tmp_path)) == [
        f"error: --resume U: the run ran on url http://127.0.0.1:{port} (run.json); no "
        "--device starts a simulated iPhone",
        "hint: resume with the --device the run was given, or start a new run"]
