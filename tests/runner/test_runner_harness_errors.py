"""A harness error in an attempt: before the agent's turn began it is not scored (nothing the
agent did could have caused it), after it the attempt fails, with the reason and traceback.txt
(red team 86: what the harness reads after the turn is the agent's to shape, and a skip there
was a failure turned into "not scored", played again by `--resume`)."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

import pytest
import wda

from phoneshell.agents.base import AGENTS, AgentContext, AgentResult
from phoneshell.agents.reference import SolutionAgent
from phoneshell.evidence import Claim
from phoneshell.runner import AttemptPlan, open_rig, run_attempt
from phoneshell.runner.around import watch_around
from phoneshell.runner.ending import Played, fell
from phoneshell.runner.folder import read_results
from phoneshell.runner.run import RunOptions, run_suite
from phoneshell.runner.teardown import Left
from phoneshell.sim import SimServer
from phoneshell.tasks import Step, Task

SETTINGS, CALC = "com.apple.Preferences", "com.apple.calculator"


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


class Spoiler(SolutionAgent):
    """Plays the reference finish; in the first of two attempts (task ids ending .1) it also
    spoils what the harness does after its turn: `folder` makes a folder where the harness
    writes the verdict, `claim` returns a claim that is not a `Claim`. Both raised past the
    attempt's guard (writing the row), and the worker recorded no row and stopped the phone."""

    name = "spoiler"

    def __init__(self, how: str) -> None:
        self.how = how

    def run(self, context: AgentContext) -> AgentResult:
        result = super().run(context)
        if not context.task.id.endswith(".1"):
            return result
        if self.how == "folder":
            (context.workdir / "verdict.json").mkdir()
            return result
        return replace(result, claim="About is open")  # type: ignore[arg-type]


AGENTS.register("spoiler")(Spoiler)

AFTER = ("after the agent's turn began; graded failed, as the agent's own input may have "
         "caused it; see traceback.txt")
SPOILED = {  # the row's error type, and its error: what raised in the phases, then past them
    "folder": ("IsADirectoryError", (
        "harness error (IsADirectoryError): ", AFTER,
        "; its verdict.json could not be written (IsADirectoryError)")),
    "claim": ("ValidationError", (
        "harness error (AttributeError): 'str' object has no attribute 'model_copy' ", AFTER,
        "; harness error (ValidationError): ",
        "claim\n  Input should be a valid dictionary or instance of Claim", AFTER))}


@pytest.mark.slow  # 3.4 s measured: the README's command stays quick
@pytest.mark.parametrize("how", sorted(SPOILED))
def test_a_harness_error_past_the_attempts_guard_still_fails_it_and_the_phone_goes_on(
        tmp_path: Path, environments: Path, how: str) -> None:
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    for n in (1, 2):
        (tasks / f"{n}.yaml").write_text((environments / "settings.about.reach.yaml").read_text()
                                         .replace("id: settings.about.reach",
                                                  f"id: settings.about.reach.{n}"))
    with SimServer() as sim:
        run_suite(RunOptions(paths=(str(tasks),), agent=f"spoiler:{how}", device=sim.url,
                             runs_dir=tmp_path, run_id="R"), lambda line: None)
    run = tmp_path / "R"
    assert not list(run.glob("worker-*-traceback.txt")), "the phone stopped"
    first, second = read_results(run / "results.jsonl")
    error_type, said = SPOILED[how]
    assert first.outcome == "failed" and first.error_type == error_type, first
    assert first.error.startswith(said[0]) and first.error.endswith(said[-1]), first.error
    assert all(part in first.error for part in said), first.error
    assert first.claim is None and first.teardown.ok, first
    assert error_type in (run / "attempts" / first.task_id / "1" / "traceback.txt").read_text()
    assert second.task_id == "settings.about.reach.2" and second.passed, second


def test_a_teardown_that_raised_is_run_again_and_the_attempt_still_fails(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    """What `run_attempt` hands `ending.fell` when its teardown raised (none ended): the
    teardown runs again from what the harness read itself (the agent left Calculator running),
    and the row says failed, with the traceback."""
    plan = AttemptPlan("R", tmp_path / "R", suite["settings.about.reach"], 1)
    plan.folder.mkdir(parents=True)
    with open_rig(sim.url, tmp_path, effect_timeout_s=0.3) as rig:
        wda.Client(sim.url).session().app_activate(CALC)  # as the agent left it
        played = Played(time.time(), rig.audit_mark(plan.run_dir),
                        watch_around(rig, InTheWay(act=False)), began=True,
                        left=Left(running=(Step("terminate", CALC),)))
        try:
            raise RuntimeError("raised in the teardown")
        except RuntimeError as exc:
            row = fell(plan, rig, "in-the-way", played, exc)
    assert row.outcome == "failed" and row.error.startswith("harness error (RuntimeError): "), row
    assert row.teardown.ok and row.teardown.stopped == (CALC,), row.teardown
    assert CALC not in sim.state()["running"]  # type: ignore[operator]
    assert "raised in the teardown" in (plan.folder / "traceback.txt").read_text()
