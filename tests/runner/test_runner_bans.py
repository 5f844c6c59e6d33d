""""Do not start it", "do not save it", "do not download anything" are read from the log, not
only from a count at the end: an agent that does the forbidden thing and undoes it (a timer
started and cancelled, an alarm saved and deleted) leaves the count as it was, and still fails.
Played through the runner on a simulated iPhone, the agents being the tasks' reference finishes
with the forbidden action and its undoing written after them."""

from __future__ import annotations

from pathlib import Path

import pytest
from task_copies import play_with

UNDONE = {
    "clock.timer.set_minutes": (
        "- tap: {text: Start, type: Button}\n- tap: {text: Cancel, type: Button}\n"
        "- set_picker: {wheel: min, value: 5 min}", "tapped XCUIElementTypeButton 'Start'"),
    "clock.alarm.set_time": (
        "- tap: {text: Save, type: Button}\n- tap: {text: '7:30 AM', type: Cell}\n"
        "- tap: {text: Delete Alarm, type: Button}\n- tap: {text: Add, type: Button}\n"
        "- set_picker: {wheel: \"o'clock\", value: \"7 o'clock\"}\n"
        "- set_picker: {wheel: minute, value: 30 minutes}", "tapped XCUIElementTypeButton 'Save'"),
}


@pytest.mark.slow  # 5.3 s measured: the README's command stays quick
@pytest.mark.parametrize("task_id", sorted(UNDONE))
def test_the_forbidden_action_undone_again_still_fails(tmp_path: Path, environments: Path,
                                                        task_id: str) -> None:
    steps, why = UNDONE[task_id]
    row = play_with(tmp_path, environments, task_id, steps, after_solution=True)
    assert row.outcome == "failed", row.error
    counted = [c for c in row.checks if c.kind == "count_unchanged"]
    assert counted and counted[0].passed, "the count alone would have passed it"
    banned = [c for c in row.checks if c.kind == "tapped"]
    assert banned and not banned[0].passed and why in banned[0].detail, banned
