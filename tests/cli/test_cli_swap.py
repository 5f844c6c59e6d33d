"""The swap test on the simulated iPhone: the public suite accepts wrong finishes, ours tells
them apart, and the full matrix finds no acceptance the static test did not predict."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

import pytest
from cli_process import run_cli

ROOT = Path(__file__).resolve().parents[2]


phoneshell = partial(run_cli, timeout=900)


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_a_calculator_finish_fails_the_app_switch_task(tmp_path: Path) -> None:
    done = phoneshell("swap", "multi.app_switch", "calculator.arithmetic", "--runs", str(tmp_path))
    assert done.returncode == 0, done.stdout + done.stderr  # the grader was right
    assert "multi.app_switch <= calculator.arithmetic  incompatible, rejected: correct" in \
        done.stdout
    assert "opened_in_order" in done.stdout
    own = phoneshell("swap", "multi.app_switch", "multi.app_switch", "--runs", str(tmp_path),
                     "--format", "json")
    assert json.loads(own.stdout)["pairs"][0]["accepted"] is True


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_a_fresh_note_fails_the_search_task(tmp_path: Path) -> None:
    done = phoneshell("swap", "notes.search", "notes.create_titled", "--runs", str(tmp_path),
                      "--format", "json")
    pair = json.loads(done.stdout)["pairs"][0]
    assert (pair["by_passed"], pair["accepted"]) == (True, False)
    assert "1 before the agent, 2 after" in pair["detail"]
    own = phoneshell("swap", "notes.search", "notes.search", "--runs", str(tmp_path),
                     "--format", "json")
    assert json.loads(own.stdout)["pairs"][0]["accepted"] is True


@pytest.mark.suite
def test_the_public_suite_accepts_every_implied_swap(tmp_path: Path, reference: Path) -> None:
    done = phoneshell("swap", "--implied", str(reference / "phoneshell-environments"),
                      "--solutions", "environments", "--device", "sim", "--runs", str(tmp_path),
                      "--format", "json")
    report = json.loads(done.stdout)
    assert len(report["pairs"]) == 46
    assert all(p["scored"] and p["accepted"] and not p["compatible"] for p in report["pairs"])
    assert report["neg_accuracy"] == 0.0 and done.returncode == 1


@pytest.mark.suite
def test_our_suite_rejects_the_pairs_the_public_suite_accepted(tmp_path: Path,
                                                               reference: Path) -> None:
    done = phoneshell("swap", "--pairs-from", str(reference / "phoneshell-environments"),
                      "environments", "--device", "sim", "--runs", str(tmp_path), "--format",
                      "json")
    report = json.loads(done.stdout)
    pairs = report["pairs"]
    assert len(pairs) == 46 and done.returncode == 0, done.stderr[-2000:]
    assert sum(p["compatible"] for p in pairs) == 6
    assert all(p["accepted"] == p["compatible"] and p["scored"] for p in pairs)
    assert (report["pos_accuracy"], report["neg_accuracy"], report["balanced_accuracy"]) == \
        (1.0, 1.0, 1.0)


@pytest.mark.suite
def test_the_full_matrix_finds_no_unexpected_acceptance(tmp_path: Path) -> None:
    done = phoneshell("swap", "--all", "environments", "--runs", str(tmp_path), "--format",
                      "json")
    report = json.loads(done.stdout)
    assert report["unexpected"] == [], report["unexpected"]
    assert done.returncode == 0
    assert all(p["compatible"] for p in report["pairs"] if p["accepted"])


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_a_baseline_names_the_tasks_that_pass_without_the_work(tmp_path: Path) -> None:
    files = [str(ROOT / "environments" / f"{t}.yaml") for t in ("weather.open",
                                                                 "settings.about.reach")]
    done = phoneshell("baseline", *files, "--runs", str(tmp_path), "--format", "json")
    assert done.returncode == 1, done.stderr
    assert json.loads(done.stdout)["passing"] == {"weather.open": {"open-app": [
        "foreground_app 'com.apple.weather'"]}}
    assert "baseline null: running 2 task(s)" in done.stderr  # progress, not two silent minutes
    # Over the whole suite, .ci/run's attack plays these two families (null, open-app) on every
    # task and fails on any pass a task does not list as compatible: the open tasks' only.


@pytest.mark.slow
def test_a_recorded_finish_replays_and_swaps(tmp_path: Path) -> None:
    # one recorded finish is enough: it replays, swaps in where it is compatible and is
    # rejected where it is not
    first = phoneshell("run", "environments", "--task", "settings.search.wifi", "--runs",
                       str(tmp_path), "--run-id", "R")
    assert first.returncode == 0, first.stdout + first.stderr
    again = phoneshell("run", "environments", "--task", "settings.search.wifi", "--agent",
                       f"replay:{tmp_path / 'R'}", "--runs", str(tmp_path), "--run-id", "R2")
    assert again.returncode == 0, again.stdout + again.stderr
    assert "1 attempt(s): 1 passed" in again.stdout
    swapped = phoneshell("swap", "settings.wifi.switch_visible", "settings.search.wifi",
                         "--finish-from", str(tmp_path / "R"), "--runs", str(tmp_path),
                         "--format", "json")
    pair = json.loads(swapped.stdout)["pairs"][0]
    assert pair["compatible"] and pair["accepted"] and pair["by_passed"]
    wrong = phoneshell("swap", "calculator.arithmetic", "settings.search.wifi", "--finish-from",
                       str(tmp_path / "R"), "--runs", str(tmp_path), "--format", "json")
    pair = json.loads(wrong.stdout)["pairs"][0]
    assert pair["scored"] and pair["by_passed"] and pair["accepted"] is False
    missing = phoneshell("swap", "settings.search.wifi", "notes.search", "--finish-from",
                         str(tmp_path / "R"), "--runs", str(tmp_path), "--format", "json")
    pair = json.loads(missing.stdout)["pairs"][0]
    assert not pair["scored"] and "no attempt of notes.search" in pair["skip_reason"]
    # A recorded finish whose log was edited after the run is not replayed, unless asked.
    with (tmp_path / "R" / "audit.jsonl").open("a") as log:
        log.write("\n")
    edited = phoneshell("swap", "settings.wifi.switch_visible", "settings.search.wifi",
                        "--finish-from", str(tmp_path / "R"), "--runs", str(tmp_path))
    assert edited.returncode == 2 and "does not match its seal" in edited.stderr
    assert "audit.jsonl: 1 byte(s) (1 line(s)) were added after the last seal" in edited.stderr
    shown = phoneshell("swap", "settings.wifi.switch_visible", "settings.search.wifi",
                       "--finish-from", str(tmp_path / "R"), "--runs", str(tmp_path),
                       "--unverified")
    assert "UNVERIFIED" in shown.stdout + shown.stderr
    replayed = phoneshell("run", "environments", "--task", "settings.search.wifi", "--agent",
                          f"replay:{tmp_path / 'R'}", "--runs", str(tmp_path), "--run-id", "R3")
    assert replayed.returncode == 2 and "does not match its seal" in replayed.stderr
