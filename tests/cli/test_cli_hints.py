"""A hint follows what failed, never one piece of advice for every failure: `phoneshell finish`
says which of its claim file's troubles it met (a full disk, a read-only folder, a folder gone),
naming the file, each under real conditions (a 64 MiB tmpfs, `small_disk`, made full or
read-only); a swap that stopped early sends to `phoneshell doctor` only a phone that went
down, not a stop signal. Each through the CLI as a subprocess."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_process import ROOT, run_cli
from small_disk import ballast, small_disk


@pytest.fixture
def disk(tmp_path: Path) -> Iterator[Path]:
    with small_disk(tmp_path / "disk") as mounted:
        yield mounted


def finish(claim_file: Path) -> subprocess.CompletedProcess[str]:
    return run_cli("finish", "--status", "done", "--answer", "423",
                   env={"PHONESHELL_CLAIM_FILE": str(claim_file)})


def said(done: subprocess.CompletedProcess[str]) -> tuple[str, str]:
    """The `error:` and `hint:` lines."""
    lines = done.stderr.splitlines()
    return (next(x for x in lines if x.startswith("error:")),
            next(x for x in lines if x.startswith("hint:")))


def test_finish_on_a_full_disk_says_the_disk_is_full(disk: Path) -> None:
    (disk / "agent").mkdir()
    ballast(disk, 0)
    done = finish(disk / "agent" / "claim.json")
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    error, hint = said(done)
    assert f"cannot write the claim to {disk / 'agent' / 'claim.json'}" in error
    assert "the disk holding it is full" in error, error
    assert "folder still there" not in hint and "JSON line on stdout" in hint, hint


def test_finish_into_a_read_only_folder_says_it_may_not_write_there(disk: Path) -> None:
    (disk / "agent").mkdir()
    subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
    done = finish(disk / "agent" / "claim.json")
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    error, hint = said(done)
    assert "Read-only file system" in error and str(disk / "agent" / "claim.json") in error
    assert f"may not write {disk / 'agent'}" in hint and "folder still there" not in hint, hint


def test_finish_after_its_folder_was_removed_says_the_folder_is_gone(tmp_path: Path) -> None:
    done = finish(tmp_path / "agent" / "claim.json")
    assert done.returncode == 2, done.stderr
    error, hint = said(done)
    assert f"its folder {tmp_path / 'agent'} is gone" in error, error
    assert "did the program remove it?" in hint, hint


ENVIRONMENTS = Path(__file__).resolve().parents[2] / "environments"
SWAP_TASKS = [str(ENVIRONMENTS / f"{t}.yaml") for t in ("calculator.arithmetic",
                                                        "multi.app_switch", "weather.open")]


def phoneshell(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "phoneshell", *args], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONWARNINGS": "error"})


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_a_swap_stopped_by_a_signal_is_told_to_run_again_not_to_check_the_phone(
        tmp_path: Path) -> None:
    swap = phoneshell("swap", "--all", *SWAP_TASKS, "--device", "sim:2", "--runs", str(tmp_path))
    deadline = time.monotonic() + 120
    # a finish is being played, or the threads that play them are starting (a first stop
    # there once ended the swap with a bare "stopped by SIGTERM", no summary)
    while not list(tmp_path.glob("swap-*/attempts/*/1")):
        assert swap.poll() is None and time.monotonic() < deadline, swap.communicate()
        time.sleep(0.02)
    swap.send_signal(signal.SIGTERM)
    _, stderr = swap.communicate(timeout=120)
    assert swap.returncode == 2, stderr
    assert "error: the swap stopped early: interrupted (SIGTERM)" in stderr, stderr
    hint = next(x for x in stderr.splitlines() if x.startswith("hint:"))
    assert "run the swap again" in hint and "doctor" not in hint, hint


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_a_swap_stopped_while_its_phone_is_set_up_ends_as_one_stopped_during_its_finishes(
        tmp_path: Path) -> None:
    # each request waits 0.05 s: the phone's set-up (its counts, the owner watch) takes seconds,
    # and the signal comes as it begins; it once ended in a bare "stopped by SIGTERM"
    sim = phoneshell("sim", "--port", "0", "--fault", "slow=0.05")
    try:
        assert sim.stdout is not None
        url = sim.stdout.readline().split(" at ")[1].split(";")[0]
        swap = phoneshell("swap", "--all", *SWAP_TASKS[:2], "--device", url,
                          "--runs", str(tmp_path))
        assert swap.stdout is not None
        assert swap.stdout.readline().startswith("running on "), swap.communicate()
        swap.send_signal(signal.SIGTERM)
        out, err = swap.communicate(timeout=120)
    finally:
        sim.terminate()
        sim.communicate(timeout=30)
    assert swap.returncode == 2, err
    assert out.startswith("stopped by SIGTERM while the phones were set up: no finish is "
                          "played\n"), out
    assert "2 pair(s): 0 compatible, 2 incompatible; 0 accepted, 2 not scored" in out, out
    # each finish's line says its pair was not played, not that it passed no other task
    assert "its finish passes 0 other task(s); 1 not scored: not run: interrupted (SIGTERM)" \
        in out, out
    assert "error: the swap stopped early: interrupted (SIGTERM)" in err, err
    assert not list(tmp_path.glob("swap-*/attempts")), "a finish was played after the stop"


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_a_swap_whose_phone_went_down_is_sent_to_doctor(tmp_path: Path) -> None:
    sim = phoneshell("sim", "--port", "0", "--fault", "locked")
    try:
        assert sim.stdout is not None
        url = sim.stdout.readline().split(" at ")[1].split(";")[0]
        done = run_cli("swap", "multi.app_switch", "calculator.arithmetic", "--device", url,
                       "--runs", str(tmp_path))
    finally:
        sim.terminate()
        sim.communicate(timeout=30)
    assert done.returncode == 2, done.stderr
    assert "error: the swap stopped early: rig down:" in done.stderr, done.stderr
    hint = next(x for x in done.stderr.splitlines() if x.startswith("hint:"))
    assert "`phoneshell doctor`" in hint and "signal" not in hint, hint


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_a_run_into_a_read_only_runs_folder_names_it_and_is_no_bug(disk: Path) -> None:
    subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
    done = run_cli("run", SWAP_TASKS[0], "--agent", "null", "--runs", str(disk), "--run-id", "R")
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr  # was 3, a bug
    error, hint = said(done)
    # refused before any phone starts, naming --runs (bac4507), as the system would
    assert f"error: --runs {disk}: " in error and "Read-only file system" in error, error
    assert "give --runs a folder this user can write" in hint, hint


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_a_run_whose_phone_went_down_says_so_and_how_to_go_on(tmp_path: Path) -> None:
    mark = tmp_path / "agent-started"
    sim = phoneshell("sim", "--port", "0")
    try:
        assert sim.stdout is not None
        url = sim.stdout.readline().split(" at ")[1].split(";")[0]
        run = phoneshell("run", *SWAP_TASKS[:2], "--device", url, "--runs", str(tmp_path),
                         "--run-id", "R", "--sandbox", "none",
                         "--agent", f"command:sh -c 'touch {mark}; sleep 5'")
        deadline = time.monotonic() + 60
        while not mark.exists():  # the phone goes down during the first agent's turn
            assert time.monotonic() < deadline and run.poll() is None, run.communicate()
            time.sleep(0.05)
    finally:
        sim.kill()
        sim.communicate(timeout=30)
    out, err = run.communicate(timeout=120)
    assert run.returncode == 2, (out, err)
    error, hint = said(subprocess.CompletedProcess([], 2, out, err))
    assert error.startswith("error: run R stopped early: ") and "rig down" in error, error
    assert f"phoneshell run --resume R --runs {tmp_path}" in hint and "doctor" in hint, hint
