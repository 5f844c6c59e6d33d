"""A phone that locks itself after the agent's turn (Auto-Lock ran out) is unlocked and graded
on the screen the agent left, never taken for the rig down: an agent could otherwise set
Auto-Lock short, wait, and have an attempt it would fail not scored, and the run stopped."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
import wda
from attempt_rig import run_one

from phoneshell.agents import AgentContext, AgentResult
from phoneshell.agents.reference import SolutionAgent
from phoneshell.device import Phone
from phoneshell.sim import SimServer
from phoneshell.tasks import Step, Task

PREFS = "com.apple.Preferences"
TO_AUTO_LOCK = (Step("open_app", "Settings"), Step("swipe", "down"),
                Step("tap", "Display & Brightness"),
                Step("tap", "Auto-Lock"), Step("tap", "30 seconds"))


class IdleAgent(SolutionAgent):
    """Plays its finish, then leaves the phone alone past its Auto-Lock time before it ends, as
    a model thinking for a minute would (the simulated phone's clock moves when told)."""

    def __init__(self, sim: SimServer, lock_press: bool = False) -> None:
        super().__init__()
        self.sim, self.lock_press = sim, lock_press

    def run(self, context: AgentContext) -> AgentResult:
        done = super().run(context)
        if self.lock_press:
            wda.Client(context.wda_url).lock()
        self.sim.advance_clock(60.0)
        return done


def _task(suite: dict[str, Task], *finish: Step) -> Task:
    return replace(suite["settings.about.reach"], solution=(*TO_AUTO_LOCK, *finish))


def test_a_phone_locked_by_the_auto_lock_the_agent_set_is_unlocked_and_graded(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    about = (Step("tap", "Back"), Step("tap", "Back"), Step("tap", "General"),
             Step("tap", "About"))
    done = run_one(sim, tmp_path, _task(suite, *about), IdleAgent(sim))
    row = done.row
    assert not done.rig_down and not row.skipped, row.skip_reason
    assert row.outcome == "passed", ([c.detail for c in row.checks], row.error)
    manifest = json.loads((tmp_path / "r1" / row.evidence / "evidence.json").read_text())
    assert "unlocked" in manifest["flags"]
    assert not Phone(sim.url).locked()
    assert "Auto-Lock" in " ".join(row.teardown.switched), "and Auto-Lock is set back"


def test_the_screen_under_the_lock_is_graded_as_any_other(sim: SimServer, tmp_path: Path,
                                                          suite: dict[str, Task]) -> None:
    done = run_one(sim, tmp_path, _task(suite), IdleAgent(sim))
    assert not done.rig_down and done.row.outcome == "failed", done.row.skip_reason
    shown = done.row.checks[1]
    assert not shown.passed and "'Model Number' not found" in shown.detail
    assert "Auto-Lock" in shown.detail, "read on the page the agent left, not the lock screen"


@pytest.mark.slow  # 1.5 s measured: the README's command stays quick
def test_a_lock_the_agent_pressed_stays_its_failure(sim: SimServer, tmp_path: Path,
                                                    suite: dict[str, Task]) -> None:
    about = (Step("tap", "Back"), Step("tap", "Back"), Step("tap", "General"),
             Step("tap", "About"))
    done = run_one(sim, tmp_path, _task(suite, *about), IdleAgent(sim, lock_press=True))
    assert not done.rig_down and done.row.outcome == "failed", (done.row.skip_reason,
                                                                 done.row.error)
    assert "the agent locked the phone" in done.row.error


class AroundThenIdle(IdleAgent):
    """Plays its finish, then opens another app straight through WDA, around the bridge, and
    leaves the phone to lock."""

    def run(self, context: AgentContext) -> AgentResult:
        done = SolutionAgent.run(self, context)
        Phone(self.sim.url).launch("com.apple.calculator")
        self.sim.advance_clock(60.0)
        return done


def test_a_change_made_around_the_bridge_before_the_lock_is_still_caught(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    done = run_one(sim, tmp_path, _task(suite), AroundThenIdle(sim))
    row = done.row
    assert not done.rig_down and row.outcome == "failed", row.skip_reason
    manifest = json.loads((tmp_path / "r1" / row.evidence / "evidence.json").read_text())
    assert {"unlocked", "acted_outside_bridge"} <= set(manifest["flags"])
