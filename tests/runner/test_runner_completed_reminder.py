"""A reminder the agent makes and ticks off is one it made: the search that counts reminders by
title lists completed ones, so the whole it is judged against counts them too, and the teardown
deletes it (red team 54: the attempt was told it renamed the owner's reminder, and the run left
the reminder on the phone). But it is no reminder as asked: ticked off, it never reminds, and
the task counts open ones only (red team 93: the attempt passed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import wda
from attempt_rig import run_one

from phoneshell.agents import AgentContext, AgentResult
from phoneshell.agents.reference import SolutionAgent
from phoneshell.device import Phone, run_listed
from phoneshell.sim import SimServer
from phoneshell.tasks import Task

TITLE = "collect parcel"


class TicksItOff(SolutionAgent):
    """Makes the reminder as the reference does, then taps its completion circle."""

    def run(self, context: AgentContext) -> AgentResult:
        done = super().run(context)
        session = wda.Client(context.wda_url).session()
        session(label="Done", className="XCUIElementTypeButton").click()
        row = session(label=TITLE, className="XCUIElementTypeStaticText").get(timeout=2).bounds
        session.tap(45, row.y + row.height / 2)  # the circle at the row's start
        return done


@pytest.mark.slow  # 2.7 s measured: the README's command stays quick
def test_a_reminder_made_and_ticked_off_fails_is_not_called_the_owners_and_is_deleted(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    row = run_one(sim, tmp_path, suite["reminders.create"], TicksItOff()).row
    said = " ".join(check.detail for check in row.checks)
    assert row.outcome == "failed", said
    assert f"open_reminders_titled({TITLE!r}): 0 before the agent, 0 after" in said, said
    assert "renamed or overwritten" not in said, said
    assert row.teardown.ok and row.teardown.left == (), row.teardown
    phone = Phone(sim.url)
    assert run_listed(phone, "reminders_titled", TITLE).count == 0, "the teardown deleted it"
    assert run_listed(phone, "reminders", "").count == 24, "and nothing of the owner's"
    evidence = json.loads((tmp_path / "r1" / "attempts" / "reminders.create" / "1" / "evidence"
                           / "evidence.json").read_text())
    whole = next(p for p in evidence["probes"] if p["name"] == "reminders")
    assert f"completed: {TITLE}" in whole["rows_after"], "the agent ticked it off"
