"""The swap test's bookkeeping when the phone misbehaves: a finish that could not be captured, or
graded, is not scored (and counts as wrong), and a phone that goes down stops the swaps."""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path

import pytest
from cli_process import run_cli

from phoneshell.checks import Check
from phoneshell.records import SwapResult
from phoneshell.replays import _Attempts as Attempts
from phoneshell.runner import open_rig
from phoneshell.sim import SimServer
from phoneshell.swap import Selection, Swapper, accuracy, play_swaps, summary_lines
from phoneshell.tasks import Task

ROOT = Path(__file__).resolve().parents[1]


def swap_pairs(swappers: list[Swapper], pairs: list[tuple[Task, Task]],
               progress: Callable[[str], None]) -> tuple[SwapResult, ...]:
    chosen = Selection(tuple(pairs), tuple({t.id: t for p in pairs for t in p}.values()),
                       frozenset())
    return play_swaps(swappers, chosen, progress).pairs


def three_pairs(suite: dict[str, Task]) -> list[tuple[Task, Task]]:
    """Three pairs of the suite, each quick to play."""
    return [(suite["multi.app_switch"], suite["calculator.arithmetic"]),
            (suite["notes.search"], suite["notes.create_titled"]),
            (suite["settings.wifi.switch_visible"], suite["settings.search.wifi"])]


@pytest.fixture
def swapper(tmp_path: Path) -> Iterator[tuple[SimServer, Swapper]]:
    with SimServer() as sim, open_rig(sim.url, tmp_path, timeout_s=10,
                                      effect_timeout_s=0.3) as rig:
        yield sim, Swapper(rig, tmp_path / "S", "S")


def test_a_finish_whose_screen_came_back_cut_off_is_not_scored(
        swapper: tuple[SimServer, Swapper], suite: dict[str, Task]) -> None:
    sim, swap = swapper
    sim.set_faults(["truncated-source"])
    pair = (suite["settings.wifi.switch_visible"], suite["settings.search.wifi"])
    [result] = swap_pairs([swap], [pair], lambda line: None)
    assert not result.scored and not result.accepted
    assert result.skip_reason.startswith("not scored:") and "cut-off" in result.skip_reason
    assert accuracy([result]).positive == 0.0, "an unscored pair counts as wrong"


def test_a_phone_that_goes_down_stops_the_swaps(swapper: tuple[SimServer, Swapper],
                                                suite: dict[str, Task]) -> None:
    sim, swap = swapper
    pairs = three_pairs(suite)
    lines: list[str] = []

    def progress(line: str) -> None:
        lines.append(line)
        if len(lines) == 1:
            sim.set_faults(["locked"])

    results = swap_pairs([swap], pairs, progress)
    assert results[0].scored and not results[0].accepted, "the first pair ran on a good phone"
    assert "is locked" in results[1].skip_reason and "is locked" in swap.stopped
    assert results[2].skip_reason == f"not scored: not run: {swap.stopped}"
    assert "NOT SCORED" in lines[2]


def test_a_check_that_raises_while_grading_is_not_scored(
        swapper: tuple[SimServer, Swapper], suite: dict[str, Task]) -> None:
    # red team 111: a kind function that raised failed its check, and the pair counted as the
    # checks rejecting B's finish ("correct"); a pattern the loader would refuse raises so
    _, swap = swapper
    a, b = suite["settings.wifi.switch_visible"], suite["settings.search.wifi"]
    bug = Check.make("regex_on_screen", "(")
    lines: list[str] = []
    chosen = Selection(((replace(a, checks=(*a.checks, bug)), b),
                        (a, replace(b, checks=(*b.checks, bug)))), (a, b), frozenset())
    report = play_swaps([swap], chosen, lines.append)
    as_a, as_b = report.pairs
    assert not as_a.scored and not as_a.correct and as_a.by_passed
    assert as_a.skip_reason.startswith(f"as {a.id}, regex_on_screen '(': could not be graded: "
                                       "PatternError: missing )"), as_a.skip_reason
    assert f"NOT SCORED: as {a.id}, regex_on_screen '(': could not be graded" in lines[0]
    assert not as_b.scored and as_b.skip_reason.startswith(
        f"{b.id}'s finish as {b.id}, regex_on_screen '(': could not be graded"), as_b.skip_reason
    assert summary_lines(report, full=False)[0].endswith(
        "2 not scored (2 could not be graded)"), summary_lines(report, full=False)


@pytest.mark.slow  # 2.4 s measured: the README's command stays quick
def test_pairs_are_shared_out_between_phones(tmp_path: Path, suite: dict[str, Task]) -> None:
    pairs = [(suite["multi.app_switch"], suite["calculator.arithmetic"]),
             (suite["settings.wifi.switch_visible"], suite["settings.search.wifi"]),
             (suite["multi.three_apps"], suite["calculator.arithmetic"]),
             (suite["notes.search"], suite["notes.create_titled"])]
    attempts = Attempts()
    with ExitStack() as stack:
        bridges, swappers = [], []
        for _ in range(2):
            sim = stack.enter_context(SimServer())
            rig = stack.enter_context(open_rig(sim.url, tmp_path, timeout_s=10,
                                               effect_timeout_s=1.0))
            bridges.append(rig.bridge)
            swappers.append(Swapper(rig, tmp_path / "S", "S", attempts=attempts))
        results = swap_pairs(swappers, pairs, lambda line: None)
    assert [(r.implied, r.by) for r in results] == [(a.id, b.id) for a, b in pairs]
    assert all(r.correct for r in results), [(r.implied, r.accepted) for r in results]
    assert all(b.recorder.actions_logged > 0 for b in bridges), "both phones played finishes"
    # one attempt folder per replay, numbered across phones: none overwrote another
    played = sorted(p.relative_to(tmp_path / "S" / "attempts").as_posix()
                    for p in (tmp_path / "S" / "attempts").glob("*/*"))
    assert played == ["calculator.arithmetic/1", "calculator.arithmetic/2",
                      "notes.create_titled/1", "settings.search.wifi/1"]


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_the_full_matrix_counts_the_acceptances_nobody_predicted(tmp_path: Path) -> None:
    """Two tasks each passed by the other's finish, unmarked and not implied by check text: both
    swapped pairs stay in the denominators (accepted, so wrong), listed as unexpected too."""
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    for task_id, check in (("weather.open", "foreground_app\n  text: com.apple.weather"),
                           ("weather.see_here", "regex_on_screen\n  text: '(?i)my location|°'")):
        (tasks / f"{task_id}.yaml").write_text(
            f"id: {task_id}\nname: {task_id}\napp: com.apple.weather\ntimeout_seconds: 8\n"
            "instruction: In Weather, do it.\nsetup:\n- home\n- terminate: com.apple.weather\n"
            f"checks:\n- kind: {check}\nteardown:\n- terminate: com.apple.weather\n- home\n"
            "solution:\n- open_app: Weather\n")
    done = run_cli("swap", "--all", str(tasks), "--runs", str(tmp_path / "runs"), "--format",
                   "json")
    assert done.returncode == 1, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert [(p["implied"], p["by"], p["accepted"]) for p in report["pairs"]] == [
        ("weather.see_here", "weather.open", True), ("weather.open", "weather.see_here", True)]
    assert (report["pos_accuracy"], report["neg_accuracy"]) == (None, 0.0)
    assert len(report["unexpected"]) == 2
    text = run_cli("swap", "--all", str(tasks), "--runs", str(tmp_path / "runs"))
    assert "2 pair(s): 0 compatible, 2 incompatible; 2 accepted, 0 not scored" in text.stdout
    assert "negative accuracy 0.0%" in text.stdout, text.stdout


def test_a_stop_between_two_finishes_on_one_phone_ends_them_as_not_run(
        swapper: tuple[SimServer, Swapper], suite: dict[str, Task]) -> None:
    # With one phone the finishes ran on the thread a Ctrl-C or SIGTERM lands on: one landing
    # between two finishes lost the one just played and left the command with "stopped by
    # SIGTERM" and no summary, where several phones say what was not run.
    _, swap = swapper
    pairs = three_pairs(suite)
    lines: list[str] = []

    def progress(line: str) -> None:
        lines.append(line)
        if len(lines) == 1:  # the first pair's line said: Ctrl-C, to this process
            os.kill(os.getpid(), signal.SIGINT)

    results = swap_pairs([swap], pairs, progress)
    assert len(results) == 3
    assert results[0].scored, "the pair played before the stop keeps its result"
    assert swap.stopped == "interrupted (Ctrl-C)"
    assert [r.skip_reason for r in results[2:]] == [f"not scored: not run: {swap.stopped}"]
