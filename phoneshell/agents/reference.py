"""The harness's own agents: `null` (does nothing: a baseline) and `solution` (plays the task's
reference finish through the same WDA URL an agent gets, so it is logged like any agent).
"""

from __future__ import annotations

from phoneshell.agents.base import AGENTS, Agent, AgentContext, AgentResult, takes_no_arg
from phoneshell.device import Phone, read_answer, run_step
from phoneshell.errors import DeviceError, StepError
from phoneshell.evidence import Claim


class NullAgent:
    """Does nothing and claims nothing: what passes with it passes without an agent."""

    name = "null"

    def run(self, context: AgentContext) -> AgentResult:
        """Return at once."""
        return AgentResult(ran=True, claim=Claim(status="gave_up",
                                                 summary="the null agent does nothing"))


class SolutionAgent:
    """Plays `solution` step by step and reports its `answer` step as the answer, or what its
    `answer_read` step reads off the screen."""

    name = "solution"

    def run(self, context: AgentContext) -> AgentResult:
        """Run the reference finish; a task without one cannot be played."""
        solution = context.task.solution
        if solution is None:
            return AgentResult(ran=False, error=f"task {context.task.id} has no solution")
        phone = Phone(context.wda_url)
        answer, turns = "", 0
        for step in solution:
            if step.kind == "answer":
                answer = step.arg
                continue
            if turns >= context.max_steps and step.kind != "answer_read":
                return AgentResult(ran=True, turns=turns, out_of_turns=True,
                                   error=f"the solution needs more than {context.max_steps} steps")
            try:
                if step.kind == "answer_read":  # read where the steps before it left the phone
                    answer = read_answer(phone, step)
                    continue
                run_step(phone, step)
            except (StepError, DeviceError) as exc:
                return AgentResult(ran=True, turns=turns + 1, error=str(exc),
                                   claim=Claim(status="failed", summary=str(exc)))
            turns += 1
        summary = f"played the reference finish of {context.task.id}"
        return AgentResult(ran=True, turns=turns,
                           claim=Claim(status="done", answer=answer, summary=summary))


def _null(arg: str) -> Agent:
    """Do nothing and claim gave_up (what passes with it passes without an agent)."""
    takes_no_arg("null", arg)
    return NullAgent()


def _solution(arg: str) -> Agent:
    """Play the task's reference finish (the harness's own check that a task can pass)."""
    takes_no_arg("solution", arg)
    return SolutionAgent()


AGENTS.register("null")(_null)
AGENTS.register("solution")(_solution)
