"""safari.tabs.open_switcher through the runner and the bridge, opened the way an iOS 26 user
opens the tab overview, whose compact bar has no Tabs button (red team 122, RT122-1): a swipe up
on the bottom bar's address passes; the same swipe up on the page or from the home indicator
does not, nor does a swipe along the bar (it brings another tab, not the overview)."""

from __future__ import annotations

from pathlib import Path

import pytest
import wda
from attempt_rig import run_one

from phoneshell.agents import AgentContext, AgentResult
from phoneshell.evidence import Claim
from phoneshell.sim import SimServer
from phoneshell.tasks import Task

SAFARI = "com.apple.mobilesafari"


class SwipesOnSafari:
    """Opens Safari and makes one swipe that starts `start` (on the address, on the page, on the
    home indicator), `way` up or left, then claims the overview is up."""

    name = "swipes-on-safari"

    def __init__(self, start: str, way: str = "up") -> None:
        self.start, self.way = start, way

    def run(self, context: AgentContext) -> AgentResult:
        session = wda.Client(context.wda_url).session(SAFARI)
        field = session(name="TabBarItemTitle").get(timeout=5).bounds
        x, y = field.x + field.width // 2, field.y + field.height // 2
        y = {"address": y, "page": 500, "home_indicator": 866}[self.start]
        to_x, to_y = (x, y - 250) if self.way == "up" else (x - 150, y)
        session.swipe(x, y, to_x, to_y, 0.2)
        return AgentResult(ran=True, turns=1, claim=Claim(status="done", summary="shown"))


def test_a_swipe_up_on_the_address_passes(sim: SimServer, tmp_path: Path,
                                          suite: dict[str, Task]) -> None:
    row = run_one(sim, tmp_path, suite["safari.tabs.open_switcher"],
                  SwipesOnSafari("address")).row
    assert row.outcome == "passed", [(c.kind, c.detail) for c in row.checks if not c.passed]


@pytest.mark.parametrize(("start", "way", "failing"), [
    ("page", "up", ["regex_on_screen"]),
    ("home_indicator", "up", ["foreground_app", "regex_on_screen"]),
    ("address", "left", ["regex_on_screen"]),
])
def test_a_swipe_elsewhere_or_along_the_bar_does_not(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task], start: str, way: str,
        failing: list[str]) -> None:
    row = run_one(sim, tmp_path, suite["safari.tabs.open_switcher"],
                  SwipesOnSafari(start, way)).row
    assert row.outcome == "failed"
    assert [c.kind for c in row.checks if not c.passed] == failing
