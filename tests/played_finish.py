"""A finish played with facebook-wda as an agent, one attempt of a suite task on the simulated
iPhone through the bridge, and what failed in it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import wda
from attempt_rig import run_one

from phoneshell.agents import AgentContext, AgentResult
from phoneshell.evidence import Claim
from phoneshell.records import ResultRow
from phoneshell.sim import SimServer
from phoneshell.tasks import Task

Play = Callable[[wda.Client], "str | None"]
"""A finish: it acts through the client, and returns its answer (None: it has none)."""


class Played:
    """An agent that plays one finish through the URL it is given, and claims done."""

    name = "played"

    def __init__(self, play: Play) -> None:
        self.play = play

    def run(self, context: AgentContext) -> AgentResult:
        """Play the finish and claim done, with its answer."""
        answer = self.play(wda.Client(context.wda_url))
        return AgentResult(ran=True, turns=1, claim=Claim(status="done", answer=answer))


def played(sim: SimServer, runs: Path, task: Task, play: Play) -> ResultRow:
    """The result row of one attempt of `task` with `play` as its agent (never skipped)."""
    row = run_one(sim, runs, task, Played(play)).row
    assert row.outcome != "skipped", row.skip_reason
    return row


def failed_checks(row: ResultRow) -> dict[str, str]:
    """The checks that failed, by kind, with their details."""
    return {c.kind: c.detail for c in row.checks if not c.passed}
