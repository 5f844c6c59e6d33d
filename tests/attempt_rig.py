"""One attempt through a bridge in front of a simulated iPhone, as `phoneshell run` does it."""

from __future__ import annotations

from pathlib import Path

import wda

from phoneshell.agents import Agent
from phoneshell.agents.base import AgentContext, AgentResult
from phoneshell.evidence import Claim
from phoneshell.runner import AttemptPlan, AttemptResult, open_rig, run_attempt
from phoneshell.sim import SimServer
from phoneshell.tasks import Task


def run_one(sim: SimServer, runs: Path, task: Task, agent: Agent, attempt: int = 1,
            ) -> AttemptResult:
    """One attempt of `task` in run r1 under `runs`, through a fresh bridge."""
    installed = frozenset(str(b) for b in sim.state()["installed"])  # type: ignore[union-attr]
    plan = AttemptPlan("r1", runs / "r1", task, attempt, installed)
    with open_rig(sim.url, runs, effect_timeout_s=0.5) as rig:
        return run_attempt(plan, rig, agent)


class Locker:
    """Locks the phone and claims it is done: the lock screen is SpringBoard's cover sheet,
    the window Notification Centre is drawn in."""

    name = "locker"

    def run(self, context: AgentContext) -> AgentResult:
        wda.Client(context.wda_url).lock()
        return AgentResult(ran=True, claim=Claim(status="done", summary="it is up"))
