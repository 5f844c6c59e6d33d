"""Honest finishes other than the reference one pass: a task graded against one of the screens
its instruction allows fails an agent that found the other (a red team's finds)."""

from __future__ import annotations

from pathlib import Path

import pytest
from task_copies import play_with

OTHER_WAYS = {
    "calculator.percentage": (  # a hundredth of 240, fifteen times (a red team's order)
        "- open_app: Calculator\n- tap: {text: '2', type: Button}\n"
        "- tap: {text: '4', type: Button}\n- tap: {text: '0', type: Button}\n"
        "- tap: {text: divide, type: Button}\n- tap: {text: '1', type: Button}\n"
        "- tap: {text: '0', type: Button}\n- tap: {text: '0', type: Button}\n"
        "- tap: {text: multiply, type: Button}\n- tap: {text: '1', type: Button}\n"
        "- tap: {text: '5', type: Button}\n- tap: {text: equals, type: Button}\n"),
    "system.spotlight.find_app": (  # Return opens Spotlight's top hit
        "- swipe: {from: [201, 300], to: [201, 620]}\n- type: \"Calculator\\n\"\n"),
    "settings.textsize.reach": (
        "- open_app: Settings\n- tap: Accessibility\n- tap: Display & Text Size\n"
        "- tap: Larger Text\n"),
    "notes.type_long": (  # a model ends its sentence with a full stop (a red team's)
        "- open_app: Notes\n- tap: {text: New Note, type: Button}\n"
        "- type: the quick brown fox jumps over the lazy dog nine times.\n"
        "- tap: {text: Done, type: Button}\n"),
}
"""Each task's other honest finish, as solution steps."""


@pytest.mark.slow  # 4.0 s measured: the README's command stays quick
@pytest.mark.parametrize("task_id", sorted(OTHER_WAYS))
def test_the_other_honest_finish_passes(tmp_path: Path, environments: Path, task_id: str) -> None:
    row = play_with(tmp_path, environments, task_id, OTHER_WAYS[task_id])
    assert row.outcome == "passed", [c.detail for c in row.checks if not c.passed]
