"""Runs of the Clock tasks on one simulated iPhone, as a user starts them: an agent that leaves
a timer or the stopwatch going beside its task fails for it whatever tasks its run holds, the
run stops them, and the next run finds the phone as the first left it and scores every task
(red team 98, RT98-1: a run of the stopwatch task or Go to the Alarms tab passed such an agent
and left them going, and the next run did not score the timer and stopwatch tasks)."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest
from cli_process import run_cli

from phoneshell.sim import SimServer

HERE = Path(__file__).parent
CLOCK = "com.apple.mobiletimer"
LEAVER = f"command:{shlex.quote(sys.executable)} {shlex.quote(str(HERE / 'clock_leaver_agent.py'))}"


def run(sim: SimServer, runs: Path, run_id: str, *args: str) -> list[dict[str, object]]:
    """`phoneshell run environments ARGS` on `sim`: its rows (the run must end as a run does,
    and find the phone where its tasks start)."""
    done = run_cli("run", "environments", "--device", sim.url, "--runs", str(runs),
                   "--run-id", run_id, *args)
    assert done.returncode in (0, 1), done.stdout[-3000:] + done.stderr[-3000:]
    assert "already has" not in done.stdout + done.stderr, done.stdout + done.stderr
    return [json.loads(line) for line in
            (runs / run_id / "results.jsonl").read_text().splitlines()]


def clock_store(sim: SimServer) -> dict[str, object]:
    """What Clock keeps: its alarms, cities, stopwatch, timer and wheels (not the tab it
    reopens on, which every agent moves)."""
    store: dict[str, object] = dict(sim.state()["stores"][CLOCK])  # type: ignore[index]
    store.pop("tab", None)
    return store


@pytest.mark.slow  # about 8 s of whole programs
def test_what_an_agent_leaves_going_in_clock_fails_it_and_every_run_after_scores(
        tmp_path: Path) -> None:
    with SimServer() as sim:
        first = run(sim, tmp_path, "R1", "--task", "clock.*", "--agent", "solution")
        assert [row["outcome"] for row in first] == ["passed"] * 9, first
        found = clock_store(sim)
        left = run(sim, tmp_path, "R2", "--task", "clock.stopwatch.start", "--task",
                   "clock.tab.alarms", "--repeat", "2", "--agent", LEAVER)
        assert sorted((row["task_id"], row["outcome"], row["error"]) for row in left) == [
            ("clock.stopwatch.start", "failed", "a timer was left running, which the task did "
             "not ask for (1 running or paused on Clock's Timers tab, where the run found "
             "none)")] * 2 + [
            ("clock.tab.alarms", "failed", "the stopwatch was left going, which the task did "
             "not ask for (off zero on Clock's Stopwatch tab, where the run found it at "
             "zero)")] * 2, left
        assert clock_store(sim) == found
        again = run(sim, tmp_path, "R3", "--task", "clock.*", "--repeat", "2", "--agent",
                    "solution")
        assert [row["outcome"] for row in again] == ["passed"] * 18, again
        assert clock_store(sim) == found
