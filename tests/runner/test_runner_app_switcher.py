"""The App Switcher and the App Library in the harness (red team 115, RT115-4).

The switcher is a new way to open and close apps, and a screen naming several apps at once;
the App Library has a search of its own. Whole attempts through the bridge in front of the
simulated iPhone: a card's tap is logged as its app coming to the front, so the order checks
count it; an attempt left on the switcher passes no end-state check and the next attempt runs
as usual; and the library's search is no Spotlight search.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import wda
from attempt_rig import run_one

from phoneshell.agents.base import AgentContext, AgentResult
from phoneshell.evidence import Claim
from phoneshell.sim import SimServer
from phoneshell.tasks import Task

CALC, SAFARI = "com.apple.calculator", "com.apple.mobilesafari"


def _switcher(client: wda.Client) -> None:
    """Up from the home indicator, held (facebook-wda's swipe duration): the App Switcher."""
    size = client.window_size()
    client.swipe(size.width // 2, size.height - 4, size.width // 2, size.height // 2, 0.5)


class ViaSwitcher:
    """Calculator, Safari, then back to Calculator by its card in the App Switcher (or, with
    `leave`, stops with the switcher up)."""

    def __init__(self, leave: bool = False) -> None:
        self.name = "leaves-switcher" if leave else "via-switcher"
        self.leave = leave

    def run(self, context: AgentContext) -> AgentResult:
        client = wda.Client(context.wda_url).session()
        client.app_activate(CALC)
        client.app_activate(SAFARI)
        _switcher(client)
        if not self.leave:
            client(nameContains=f"card:{CALC}:", visible=True).click()
        return AgentResult(ran=True, turns=1, claim=Claim(status="done"))


class LibrarySearch:
    """Types "Calc" into the App Library's search and taps the Calculator row."""

    name = "library-search"

    def run(self, context: AgentContext) -> AgentResult:
        client = wda.Client(context.wda_url).session()
        size = client.window_size()
        for _ in range(3):
            client.swipe(size.width - 20, size.height // 2, 20, size.height // 2)
        client(className="SearchField", name="App Library").click()
        client.send_keys("Calc")
        client(className="Cell", name="Calculator").click()
        return AgentResult(ran=True, turns=1, claim=Claim(status="done"))


@pytest.mark.slow
def test_a_card_tap_is_logged_as_its_app_coming_to_the_front(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    done = run_one(sim, tmp_path, suite["multi.app_switch"], ViaSwitcher())
    assert done.row.outcome == "passed", [c.detail for c in done.row.checks]
    assert done.evidence is not None
    last = done.evidence.agent_actions()[-1]
    assert (last.kind, last.app_before, last.app_after) == ("tap", "com.apple.springboard", CALC)


@pytest.mark.slow
def test_an_attempt_left_on_the_switcher_fails_and_the_next_runs(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    task = suite["multi.app_switch"]
    left = run_one(sim, tmp_path / "a", task, ViaSwitcher(leave=True))
    assert left.row.outcome == "failed", [c.detail for c in left.row.checks]
    front = next(c for c in left.row.checks if c.kind == "foreground_app")
    assert not front.passed and "springboard" in front.detail
    after = run_one(sim, tmp_path / "b", task, ViaSwitcher(), attempt=2)
    assert after.row.outcome == "passed", [c.detail for c in after.row.checks]


@pytest.mark.slow
def test_the_app_librarys_search_is_no_spotlight_search(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    done = run_one(sim, tmp_path, suite["system.spotlight.find_app"], LibrarySearch())
    assert done.row.outcome == "failed"
    spot = next(c for c in done.row.checks if c.kind == "opened_via_spotlight")
    assert not spot.passed and "not Spotlight's search field" in spot.detail, spot.detail
    assert next(c for c in done.row.checks if c.kind == "foreground_app").passed
