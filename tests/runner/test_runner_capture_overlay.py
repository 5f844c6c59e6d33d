"""An attempt left on the App Switcher is graded on what shows, and the capture closes nothing.

Fixer AM, after red team 115 (RT115-4): the end-state capture's scroll dragged the switcher's
newest card up, which closes that app on a phone as in the simulator, then went home and opened
Spotlight. A whole attempt through the bridge in front of the simulated iPhone: the searched
book's row would need the scroll capture, the agent leaves the switcher up over Books, and the
attempt fails (not skipped) with the switcher named, and nothing but the agent dragged.
"""

from __future__ import annotations

from pathlib import Path

import wda
from attempt_rig import run_one

from phoneshell.agents.base import AgentContext, AgentResult
from phoneshell.evidence import Claim
from phoneshell.sim import SimServer
from phoneshell.tasks import Task

BOOKS = "com.apple.iBooks"
DRAG = "POST /wda/dragfromtoforduration"


class SearchThenSwitcher:
    """Books' search for the title, as its reference finish does, then the App Switcher left
    up (up from the home indicator, held: facebook-wda's swipe duration)."""

    name = "search-then-switcher"

    def run(self, context: AgentContext) -> AgentResult:
        client = wda.Client(context.wda_url).session()
        client.app_activate(BOOKS)
        client(className="Button", label="Search").get(timeout=2).click()
        client(className="SearchField").get(timeout=2).click()
        client.send_keys("Moby Dick")
        size = client.window_size()
        client.swipe(size.width // 2, size.height - 4, size.width // 2, size.height // 2, 0.5)
        return AgentResult(ran=True, turns=1, claim=Claim(status="done"))


def test_a_switcher_left_up_fails_naming_it_and_the_capture_closes_nothing(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    before = sim.request_counts().get(DRAG, 0)
    done = run_one(sim, tmp_path, suite["books.search"], SearchThenSwitcher())
    assert done.row.outcome == "failed", (done.row.reason, [c.detail for c in done.row.checks])
    found = next(c for c in done.row.checks if c.kind == "element_exists_anywhere")
    assert not found.passed and "not found" in found.detail, found.detail
    assert "the App Switcher" in found.detail, found.detail
    assert done.evidence is not None
    assert [c.role for c in done.evidence.captures] == ["final"]  # nothing scrolled
    # the agent's own swipe up was the attempt's only drag: the capture's did not close Books
    # by its card (the drag is the harness's, so the bridge's log has no line for it)
    assert sim.request_counts().get(DRAG, 0) - before == 1
