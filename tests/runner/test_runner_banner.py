"""A notification banner the phone shows by itself after an honest finish is not a change made
around the bridge (red team 105, RT105-3): the attempt passes, with no custody line. Played
through the runner and the bridge on one simulated iPhone, the message posted through the
simulator's own route (no WDA request), as a text comes to a phone; once by an agent in this
process, once by a `command:` program through `phoneshell run`'s library, with the owner watch."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from phoneshell.agents import AgentContext, AgentResult
from phoneshell.agents.reference import SolutionAgent
from phoneshell.runner import AttemptPlan, open_rig, run_attempt
from phoneshell.runner.folder import read_results
from phoneshell.runner.run import RunOptions, run_suite
from phoneshell.sim import SimServer
from phoneshell.tasks import Task

ROOT = Path(__file__).resolve().parents[2]
NOTIFIED = Path(__file__).with_name("notified_finish.py")
TASK = "clock.tab.alarms"


class FinishThenMessage(SolutionAgent):
    """Plays the reference finish; then a message comes (the phone's doing)."""

    def __init__(self, sim: SimServer) -> None:
        super().__init__()
        self.sim = sim

    def run(self, context: AgentContext) -> AgentResult:
        """The finish, then the banner."""
        result = super().run(context)
        self.sim.notify("com.apple.MobileSMS", "Mom", "Call me when you can")
        return result


def test_a_banner_after_an_honest_finish_is_no_custody_break(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    with open_rig(sim.url, tmp_path, timeout_s=10, effect_timeout_s=0.3) as rig:
        done = run_attempt(AttemptPlan("r1", tmp_path / "r1", suite[TASK], 1), rig,
                           FinishThenMessage(sim))
    assert done.row.outcome == "passed", (done.row.error, done.row.checks)
    assert done.evidence is not None and "acted_outside_bridge" not in done.evidence.flags
    assert all(e.stage != "custody" for e in done.evidence.events)


@pytest.mark.slow  # 4.6 s measured: the README's command stays quick
def test_a_run_whose_honest_agent_gets_a_message_passes(tmp_path: Path) -> None:
    """The red team's own path: a `command:` agent, the message posted through the control
    route, the owner watch after the teardown."""
    with SimServer() as sim:
        agent = (f"command:{shlex.quote(sys.executable)} {shlex.quote(str(NOTIFIED))} "
                 f"{sim.url}")
        run_suite(RunOptions(paths=(str(ROOT / "environments"),), task_globs=(TASK,),
                             agent=agent, device=sim.url, runs_dir=tmp_path, run_id="R",
                             sandbox="none"), lambda line: None)
        stores = sim.state()["stores"]
    (row,) = read_results(tmp_path / "R" / "results.jsonl")
    assert row.outcome == "passed", (row.error, row.skip_reason)
    waiting = stores["com.apple.springboard"]["notifications"]  # type: ignore[index]
    assert [n["title"] for n in waiting] == ["Mom"]  # type: ignore[index,union-attr]
