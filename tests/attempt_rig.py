"""One attempt through a bridge in front of a simulated iPhone, as `phoneshell run` does it."""

from __future__ import annotations

from pathlib import Path

from bridge import BridgeServer
from phoneshell.agents import Agent
from phoneshell.device import Phone
from phoneshell.runner import AttemptPlan, AttemptResult, run_attempt
from phoneshell.runner.attempt import Rig
from phoneshell.sim import SimServer
from phoneshell.tasks import Task


def run_one(sim: SimServer, runs: Path, task: Task, agent: Agent, attempt: int = 1,
            ) -> AttemptResult:
    """One attempt of `task` in run r1 under `runs`, through a fresh bridge."""
    installed = frozenset(str(b) for b in sim.state()["installed"])  # type: ignore[union-attr]
    plan = AttemptPlan("r1", runs / "r1", task, attempt, installed)
    with BridgeServer(sim.url, runs_dir=runs) as bridge:
        return run_attempt(plan, Rig(bridge, Phone(bridge.url, effect_timeout_s=0.5)), agent)
