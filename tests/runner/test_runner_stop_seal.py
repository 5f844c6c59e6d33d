"""Stops, seals and resumes under attack (red team 32): a first stop signal waits for the
clean-up that protects the phone; a move of sealed files and its seal are one step; a resume
never seals what no seal covered, refuses before it moves anything and records what it moves;
what changes what the agent gets is recorded and must match on resume. The CLI runs as a
subprocess on the simulated iPhone; `signal_at.py` sends SIGTERM at an exact point."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
REACH = ROOT / "environments" / "settings.about.reach.yaml"
SIGNAL_AT = Path(__file__).with_name("signal_at.py")


def phoneshell(*args: str, env: dict[str, str] | None = None,
               at: tuple[str, Path, int] | None = None) -> subprocess.CompletedProcess[str]:
    head = [str(SIGNAL_AT), at[0], str(at[1]), str(at[2]), "--"] if at else \
        ["-m", "phoneshell"]
    return subprocess.run([sys.executable, *head, *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=120, env={**os.environ, **(env or {})})


def rows(run_dir: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in (run_dir / "results.jsonl").read_text().splitlines()]


def manifest(run_dir: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((run_dir / "run.json").read_text())
    return data


def null_run(tmp_path: Path, *extra: str, env: dict[str, str] | None = None,
             at: tuple[str, Path, int] | None = None) -> subprocess.CompletedProcess[str]:
    return phoneshell("run", str(REACH), "--agent", "null", "--runs", str(tmp_path),
                      "--run-id", "R", *extra, env=env, at=at)


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_a_first_stop_in_the_teardown_waits_for_it_and_a_second_cuts_it_short(
        tmp_path: Path) -> None:
    mark = tmp_path / "whole"
    done = null_run(tmp_path, at=("teardown", mark, 1))
    assert done.returncode == 2, done.stdout + done.stderr
    assert "error: stopped by SIGTERM: run R stopped after 1 of 1 attempt(s)" in done.stderr
    assert mark.exists(), "the first SIGTERM cut the teardown short"
    [row] = rows(tmp_path / "R")
    assert row["outcome"] == "failed"  # scored, then torn down whole: it stands
    assert row["teardown"]["ok"] is True
    assert phoneshell("report", str(tmp_path / "R")).returncode == 1  # sealed, verifies
    # two signals: the second cuts the teardown short, and says so in the row
    mark2, runs2 = tmp_path / "whole2", tmp_path / "two"
    done = phoneshell("run", str(REACH), "--agent", "null", "--runs", str(runs2),
                      "--run-id", "R", at=("teardown", mark2, 2))
    assert done.returncode == 2, done.stdout + done.stderr
    assert not mark2.exists()
    [row] = rows(runs2 / "R")
    assert row["skip_reason"] == ("interrupted (SIGTERM) before the attempt was recorded; its "
                                  "teardown was cut short")


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_a_first_stop_in_the_runs_tidy_up_waits_for_it(tmp_path: Path) -> None:
    mark = tmp_path / "whole"
    done = null_run(tmp_path, at=("finish", mark, 1))
    assert done.returncode == 2, done.stdout + done.stderr
    assert mark.exists(), "the first SIGTERM cut the run's closing tidy-up short"
    assert "stopped by SIGTERM" in done.stderr
    done = phoneshell("run", str(REACH), "--agent", "null", "--runs", str(tmp_path / "two"),
                      "--run-id", "R", at=("finish", tmp_path / "whole2", 2))
    assert done.returncode == 2
    assert not (tmp_path / "whole2").exists()
    assert "the tidy-up was cut short (SIGTERM again)" in done.stdout + done.stderr


@pytest.mark.slow  # a whole program of ten seconds or more: CI runs it
def test_a_stop_just_after_a_skipped_try_is_moved_aside_leaves_a_verifiable_run(
        tmp_path: Path) -> None:
    # a skipped try: the first SIGTERM in the teardown of a run whose agent was interrupted
    first = null_run(tmp_path, at=("teardown", tmp_path / "x", 2))
    assert rows(tmp_path / "R")[0]["outcome"] == "skipped", first.stderr
    mark = tmp_path / "renamed"
    again = phoneshell("run", "--resume", "R", "--runs", str(tmp_path), at=("rename", mark, 1))
    assert mark.exists(), again.stdout + again.stderr
    assert again.returncode == 2, again.stdout + again.stderr
    checked = phoneshell("report", str(tmp_path / "R"))
    assert "does not match its seal" not in checked.stderr, checked.stderr
    last = phoneshell("run", "--resume", "R", "--runs", str(tmp_path))
    assert last.returncode == 1, last.stdout + last.stderr  # it ran again (null fails)
    assert (tmp_path / "R" / "attempts" / REACH.stem / "1.skipped-1").is_dir()


def forge_unsealed(run_dir: Path) -> None:
    """A forger without the key: drop the seal, turn the row into a pass, drop the evidence."""
    data = manifest(run_dir)
    data["seal"] = None
    (run_dir / "run.json").write_text(json.dumps(data))
    forged = [{**r, "outcome": "passed", "passed": True} for r in rows(run_dir)]
    (run_dir / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in forged))
    subprocess.run(["rm", "-rf", str(run_dir / "attempts")], check=True)


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_a_run_whose_seal_was_removed_is_never_sealed_again(tmp_path: Path) -> None:
    key = tmp_path / "key" / "run-signing.key"  # its own, so its records of latest seals too
    key.parent.mkdir()
    shutil.copy(os.environ["PHONESHELL_KEY_FILE"], key)
    env = {"PHONESHELL_KEY_FILE": str(key)}
    assert null_run(tmp_path, env=env).returncode == 1
    forge_unsealed(tmp_path / "R")
    again = phoneshell("run", "--resume", "R", "--runs", str(tmp_path), env=env)
    assert again.returncode == 2, again.stdout + again.stderr
    # this machine sealed the run in that folder: an unsealed run.json there is put back
    assert "but this machine sealed the run up to seal" in again.stderr, again.stderr
    # a machine with the key and no record of the run (or its records lost) refuses it too
    shutil.rmtree(key.parent / "run-signing.key.latest")
    again = phoneshell("run", "--resume", "R", "--runs", str(tmp_path), env=env)
    assert again.returncode == 2, again.stdout + again.stderr
    assert "has no seal" in again.stderr and "results.jsonl holds" in again.stderr
    assert manifest(tmp_path / "R")["seal"] is None  # nothing signed it
    assert phoneshell("report", str(tmp_path / "R"), env=env).returncode != 0


@pytest.mark.slow  # a whole program of ten seconds or more: CI runs it
def test_a_resume_refused_moves_nothing_and_one_that_moves_records_it(tmp_path: Path) -> None:
    assert null_run(tmp_path).returncode == 1
    run_dir = tmp_path / "R"
    with (run_dir / "results.jsonl").open("a") as out:  # written after the last seal (a crash)
        out.write('{"torn": "after the seal"}\n')
    refused = phoneshell("run", "--resume", "R", "--runs", str(tmp_path), "--device", "sim:2")
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert ("the run ran on 1 simulated iPhone (run.json); --device sim:2 starts 2 "
            "simulated iPhones") in refused.stderr, refused.stderr
    assert not (run_dir / "incomplete").exists()  # checked before anything was moved
    stopped = phoneshell("run", "--resume", "R", "--runs", str(tmp_path),
                         at=("finish", tmp_path / "m", 2))  # stopped after the move
    assert stopped.returncode == 2, stopped.stdout + stopped.stderr
    assert manifest(run_dir)["set_aside"] == [ "results.jsonl: 1 line(s) after the last seal"]
    assert phoneshell("report", str(run_dir)).returncode == 1


@pytest.mark.slow  # a whole program of ten seconds or more: CI runs it
def test_handing_the_agent_the_task_file_is_recorded_said_and_must_match_on_resume(
        tmp_path: Path) -> None:
    program = tmp_path / "agent.sh"
    program.write_text("exit 0\n")
    expose = {"PHONESHELL_EXPOSE_TASK_FILE": "1"}
    done = phoneshell("run", str(REACH), "--agent", f"command:sh {program}", "--sandbox",
                      "none", "--runs", str(tmp_path), "--run-id", "R", env=expose)
    assert done.returncode == 1, done.stdout + done.stderr
    setup = manifest(tmp_path / "R")["agent_setup"]
    assert setup[0].startswith("PHONESHELL_EXPOSE_TASK_FILE=1")
    assert setup[1].startswith(f"program {program}: sha256 ")
    said = phoneshell("report", str(tmp_path / "R"))
    assert "agent setup: PHONESHELL_EXPOSE_TASK_FILE=1" in said.stdout + said.stderr
    unset = {"PHONESHELL_EXPOSE_TASK_FILE": "0"}
    refused = phoneshell("run", "--resume", "R", "--runs", str(tmp_path), env=unset)
    assert refused.returncode == 2
    assert "its agent would get something else than the run's did" in refused.stderr
    program.write_text("echo another program\n")
    refused = phoneshell("run", "--resume", "R", "--runs", str(tmp_path), env=expose)
    assert refused.returncode == 2
    assert f"program {program}: sha256" in refused.stderr
    # and a run started without it records nothing, and refuses a resume with it
    assert phoneshell("run", str(REACH), "--agent", "null", "--runs", str(tmp_path),
                      "--run-id", "Q", "--repeat", "2").returncode == 1
    assert manifest(tmp_path / "Q")["agent_setup"] == []
    refused = phoneshell("run", "--resume", "Q", "--runs", str(tmp_path), env=expose)
    assert refused.returncode == 2, refused.stdout + refused.stderr
