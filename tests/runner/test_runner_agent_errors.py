"""An agent's turn that ends in an error is scored by what the log shows: a failure when the
agent had acted on the phone (an agent must not turn its failure into a skip by what it sends,
answers or raises), a skip with the reason when it had not, and "rig down" only when the phone
no longer answers the harness either."""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

import pytest
import wda
from attempt_rig import Locker

from phoneshell.agents import make_agent, pidns
from phoneshell.agents.base import AgentContext, AgentResult
from phoneshell.errors import DeviceUnreachable
from phoneshell.runner import AttemptPlan, open_rig, run_attempt
from phoneshell.sim import SimServer
from phoneshell.tasks import Task

SETTINGS = "com.apple.Preferences"


class RaisingAgent:
    """An in-process agent that opens Settings (or not) and then raises `error`."""

    name = "raising"

    def __init__(self, error: BaseException, act: bool) -> None:
        self.error, self.act = error, act

    def run(self, context: AgentContext) -> AgentResult:
        if self.act:
            wda.Client(context.wda_url).session().app_activate(SETTINGS)
        raise self.error


@pytest.mark.parametrize("error", [RuntimeError("the model's reply broke a tool"),
                                   DeviceUnreachable("its own connection was reset"),
                                   SystemExit(0)])  # an agent (a plugin's) calling sys.exit
def test_an_agent_that_acted_and_then_raised_failed(sim: SimServer, tmp_path: Path,
                                                   suite: dict[str, Task],
                                                   error: BaseException) -> None:
    with open_rig(sim.url, tmp_path, effect_timeout_s=0.3) as rig:
        plan = AttemptPlan("R", tmp_path / "R", suite["settings.about.reach"], 1)
        done = run_attempt(plan, rig, RaisingAgent(error, act=True))
    row = done.row
    assert row.outcome == "failed" and not row.skipped and not done.rig_down, row.skip_reason
    assert f"harness error ({type(error).__name__}) in the agent's turn" in row.error
    assert type(error).__name__ in (plan.folder / "traceback.txt").read_text()


def test_an_agent_that_raised_before_acting_is_skipped_saying_why(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    with open_rig(sim.url, tmp_path, effect_timeout_s=0.3) as rig:
        plan = AttemptPlan("R", tmp_path / "R", suite["settings.about.reach"], 1)
        done = run_attempt(plan, rig, RaisingAgent(RuntimeError("no model"), act=False))
    assert done.row.outcome == "skipped" and not done.rig_down
    assert "the agent never ran: harness error (RuntimeError)" in done.row.skip_reason


def test_an_agent_that_locked_the_phone_fails_whatever_the_lock_screen_passes(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    task = suite["system.notifications.open"]
    with open_rig(sim.url, tmp_path, effect_timeout_s=0.3) as rig:
        locked = run_attempt(AttemptPlan("R", tmp_path / "R", task, 1), rig, Locker())
        after = run_attempt(AttemptPlan("R", tmp_path / "R", task, 2), rig,
                            make_agent("solution"))
    assert locked.row.outcome == "failed" and not locked.rig_down, locked.row.error
    assert "the agent locked the phone" in locked.row.error
    assert after.row.outcome == "passed", after.row.skip_reason  # unlocked: the run goes on


def test_an_interrupt_during_an_unconfined_programs_turn_says_it_could_be_the_programs(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Unconfined (no sandbox), a program can signal the harness itself: the attempt is still
    not scored (Ctrl-C may be the user's), but the row says the agent could have sent it. (In a
    PID namespace of its own, `agents/pidns.py`, it cannot name the harness: where there is
    none, as here.)"""
    monkeypatch.setattr(pidns, "_prefix", lambda: ((), "none in this test"))
    kill = f"import os, signal, time; os.kill({os.getpid()}, signal.SIGINT); time.sleep(10)"
    agent = make_agent(f"command:{shlex.quote(sys.executable)} -c {shlex.quote(kill)}")
    with open_rig(sim.url, tmp_path, effect_timeout_s=0.3) as rig:
        done = run_attempt(AttemptPlan("R", tmp_path / "R", suite["settings.about.reach"], 1),
                           rig, agent)
    assert done.interrupted and done.row.outcome == "skipped"
    assert "during the turn of an agent that ran unconfined" in done.row.skip_reason
