"""The suite's alarm task, with the hour checked as docs/checks.md spells a picker wheel's value
(`7 o'clock`, a straight apostrophe), passes its own reference finish: the wheel writes
`7 o’clock` as iOS does, and checks read both as one (red team 85)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from attempt_rig import run_one

from phoneshell.agents.reference import SolutionAgent
from phoneshell.checks import Check
from phoneshell.sim import SimServer
from phoneshell.tasks import Task


@pytest.mark.slow  # one whole attempt: about seven seconds
def test_the_hour_as_the_docs_spell_it_passes_the_reference_finish(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    task = suite["clock.alarm.set_time"]
    spelled = (Check.make("regex_on_screen", "^7 o'clock$", type="PickerWheel"),
               Check.make("element_exists", "7 o'clock", type="PickerWheel"))
    row = run_one(sim, tmp_path, replace(task, checks=(*task.checks, *spelled)),
                  SolutionAgent()).row
    failed = {c.kind: c.detail for c in row.checks if not c.passed}
    assert row.outcome == "passed", failed
    shown = " ".join(c.detail for c in row.checks)
    assert "o’clock" in shown, "the wheel wrote iOS's apostrophe"
