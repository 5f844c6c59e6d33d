"""A harness error in an attempt: before the agent's turn began it is not scored (nothing the
agent did could have caused it), after it the attempt fails, with the reason and traceback.txt
(red team 86: what the harness reads after the turn is the agent's to shape, and a skip there
was a failure turned into "not scored", played again by `--resume`)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
import wda

from phoneshell.agents.base import AgentContext, AgentResult
from phoneshell.evidence import Claim
from phoneshell.runner import AttemptPlan, open_rig, run_attempt
from phoneshell.sim import SimServer
from phoneshell.tasks import Step, Task

SETTINGS = "com.apple.Preferences"


class InTheWay:
    """An agent in this process (an adapter from an entry point, say: it may write in the
    attempt's folder) that opens Settings, or not, and leaves a file where the harness saves
    the evidence: saving it raises after the turn."""

    name = "in-the-way"

    def __init__(self, act: bool) -> None:
        self.act, self.ran = act, False

    def run(self, context: AgentContext) -> AgentResult:
        self.ran = True
        if self.act:
            wda.Client(context.wda_url).session().app_activate(SETTINGS)
        (context.workdir / "evidence").write_text("not a folder")
        return AgentResult(ran=True, claim=Claim(status="done", summary="About is open"))


@pytest.mark.parametrize("act", [True, False])
def test_a_harness_error_after_the_turn_began_fails_the_attempt(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task], act: bool) -> None:
    """Whether or not the log shows it acted: its claim, its folder and the screen it left
    are the agent's to shape too."""
    plan = AttemptPlan("R", tmp_path / "R", suite["settings.about.reach"], 1)
    with open_rig(sim.url, tmp_path, effect_timeout_s=0.3) as rig:
        done = run_attempt(plan, rig, InTheWay(act))
    row = done.row
    assert row.outcome == "failed" and not row.skipped and not done.rig_down, row.skip_reason
    assert row.error.startswith("harness error (NotADirectoryError): "), row.error
    assert "after the agent's turn began; graded failed, as the agent's own input may have " \
           "caused it; see traceback.txt" in row.error
    assert row.error_type == "NotADirectoryError"
    assert "NotADirectoryError" in (plan.folder / "traceback.txt").read_text()
    assert row.teardown is not None and row.teardown.ok, row.teardown


def test_a_harness_error_before_the_turn_is_not_scored(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    """A setup the harness chokes on (a task built in Python, past the loader's checks, that
    waits "soon" seconds) is the harness's trouble: the agent never had the phone."""
    soon = Step("wait", seconds="soon")  # type: ignore[arg-type]
    task = replace(suite["settings.about.reach"], setup=(soon,))
    plan = AttemptPlan("R", tmp_path / "R", task, 1)
    agent = InTheWay(act=True)
    with open_rig(sim.url, tmp_path, effect_timeout_s=0.3) as rig:
        done = run_attempt(plan, rig, agent)
    assert done.row.outcome == "skipped" and not agent.ran, done.row.error
    assert done.row.skip_reason.startswith("harness error (TypeError): "), done.row.skip_reason
    assert done.row.skip_reason.endswith("; see traceback.txt")
    assert "TypeError" in (plan.folder / "traceback.txt").read_text()
