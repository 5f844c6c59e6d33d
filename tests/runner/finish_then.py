"""A test agent that plays the task's reference finish, then steps of its own: what an honest
agent does plus what it left behind or wandered into, through its own WDA URL."""

from __future__ import annotations

from phoneshell.agents import AgentContext, AgentResult
from phoneshell.agents.reference import SolutionAgent
from phoneshell.device import Phone, run_steps
from phoneshell.tasks import Step


class FinishThen(SolutionAgent):
    """Plays the reference finish, then `steps`, and reports the finish's result."""

    def __init__(self, steps: tuple[Step, ...] = ()) -> None:
        super().__init__()
        self.steps = steps

    def run(self, context: AgentContext) -> AgentResult:
        """Play the finish, then the steps (one second for each to show its effect)."""
        result = super().run(context)
        run_steps(Phone(context.wda_url, effect_timeout_s=1.0), self.steps)
        return result
