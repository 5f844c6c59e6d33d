"""A Settings page reached through Spotlight, as a real phone offers: a task that asks only for
the page passes, one whose point is Settings' own search or its rows does not."""

from __future__ import annotations

from pathlib import Path

import pytest
import wda
from attempt_rig import run_one

from phoneshell.agents import AgentContext, AgentResult
from phoneshell.evidence import Claim
from phoneshell.sim import SimServer
from phoneshell.tasks import Task


class ThroughSpotlight:
    """Pulls Spotlight down, types the page's name and taps its result."""

    name = "spotlight"

    def __init__(self, page: str) -> None:
        self.page = page

    def run(self, context: AgentContext) -> AgentResult:
        session = wda.Client(context.wda_url).session()
        session.swipe(201, 300, 201, 620)
        session.send_keys(self.page)
        session(label=self.page, className="XCUIElementTypeCell").get(timeout=2).click()
        return AgentResult(ran=True, turns=3, claim=Claim(status="done", summary="opened it"))


@pytest.mark.parametrize(("task", "page", "outcome"), [
    ("settings.bluetooth.reach", "Bluetooth", "passed"),  # the page is the task
    ("settings.datetime.reach", "Date & Time", "passed"),
    ("settings.search.bluetooth", "Bluetooth", "failed"),  # Settings' own search is the task
])
def test_a_page_opened_from_spotlight_is_judged_by_what_the_task_asks(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task], task: str, page: str,
        outcome: str) -> None:
    row = run_one(sim, tmp_path, suite[task], ThroughSpotlight(page)).row
    assert row.outcome == outcome, [(c.kind, c.passed, c.detail) for c in row.checks]
    failed = [c.kind for c in row.checks if not c.passed]
    assert failed == ([] if outcome == "passed" else ["opened_from_search"])
