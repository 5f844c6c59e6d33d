"""`phoneshell swap` puts the phone back between replays, as the attack does: a finish that
leaves a timer running (its task's teardown deletes no timer) spoils neither its own second pass
for probes nor the next finish on that phone, each of which starts from none running."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from cli_process import ROOT, run_cli

TIMER_FINISH = [
    {"open_app": "Clock"}, {"select_tab": "Timers"},
    {"set_picker": {"wheel": "hour", "value": "0 hours"}},
    {"set_picker": {"wheel": "min", "value": "5 min"}},
    {"set_picker": {"wheel": "sec", "value": "0 sec"}},
    {"tap": {"text": "Start", "type": "Button"}},
]


def two_clock_tasks(folder: Path) -> Path:
    """clock.tab.timers, finished by starting the five-minute timer (its teardown only stops
    Clock, so the timer outlasts the attempt), and clock.timer.set, which starts from none
    running and lists that finish as compatible (it does start a five-minute timer)."""
    folder.mkdir()
    leaves = yaml.safe_load((ROOT / "environments" / "clock.tab.timers.yaml").read_text())
    assert leaves["teardown"] == [{"terminate": "com.apple.mobiletimer"}]
    leaves["solution"] = TIMER_FINISH
    timer = yaml.safe_load((ROOT / "environments" / "clock.timer.set.yaml").read_text())
    timer["compatible_with"] = ["clock.tab.timers"]
    for task in (leaves, timer):
        (folder / f"{task['id']}.yaml").write_text(yaml.safe_dump(task, sort_keys=False))
    return folder


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_a_timer_a_finish_left_running_spoils_no_later_replay(tmp_path: Path) -> None:
    tasks = two_clock_tasks(tmp_path / "tasks")
    done = run_cli("swap", "--all", str(tasks), "--device", "sim", "--runs",
                   str(tmp_path / "runs"), "--format", "json", timeout=300)
    report = json.loads(done.stdout)
    # before: clock.tab.timers's second pass (for clock.timer.set's count) and clock.timer.set's
    # finish after it found the timer running and were not scored, so the pair counted wrong
    # and the acceptance its probes would have shown went unlooked for
    assert [(p["implied"], p["by"], p["compatible"], p["scored"], p["by_passed"], p["accepted"])
            for p in sorted(report["pairs"], key=lambda p: p["implied"])] == [
        ("clock.tab.timers", "clock.timer.set", True, True, True, True),
        ("clock.timer.set", "clock.tab.timers", True, True, True, True),
    ], done.stderr
    assert done.returncode == 0, done.stderr
    deleted = re.findall(r"after clock\.tab\.timers: deleted clock_timers 1 this run's agents "
                         r"left", done.stderr)
    assert len(deleted) == 2, done.stderr  # after each of its two passes
