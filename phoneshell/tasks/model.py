"""The task: one YAML file's worth of setup, instruction, checks, teardown and reference finish."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from phoneshell.checks import Check
from phoneshell.params import Param
from phoneshell.tasks.steps import ANSWER_STEPS, Step

Difficulty = Literal["easy", "medium", "hard"]
DIFFICULTIES: tuple[Difficulty, ...] = ("easy", "medium", "hard")
DEFAULT_MAX_STEPS = 25
DEFAULT_TIMEOUT_S = 240.0


@dataclass(frozen=True)
class Task:
    """One task file, validated. Built by `load_task` / `load_tasks`, never by hand in tools."""

    id: str
    """Unique id, e.g. "settings.about.reach"."""
    name: str
    """A short title for people."""
    instruction: str
    """The only thing the agent is told."""
    app: str = ""
    """Bundle id the task centres on (the default for `foreground_app`)."""
    difficulty: Difficulty = "medium"
    tags: tuple[str, ...] = ()
    """Free tags; `capability:<name>` tags group results in reports."""
    setup: tuple[Step, ...] = ()
    """Steps that put the phone in a known state before the agent starts."""
    checks: tuple[Check, ...] = ()
    """All must pass for the attempt to pass."""
    teardown: tuple[Step, ...] = ()
    """Steps that clean up after the attempt, always run."""
    notes: str = ""
    """Why the task is built this way, for people."""
    max_steps: int = DEFAULT_MAX_STEPS
    """The agent's budget of actions (turns)."""
    timeout_seconds: float = DEFAULT_TIMEOUT_S
    """The agent's wall-clock budget."""
    solution: tuple[Step, ...] | None = None
    """A reference finish, never shown to agents; None when the file has none."""
    compatible_with: tuple[str, ...] = ()
    """Ids of tasks whose finish legitimately satisfies this task too."""
    compatible_attacks: tuple[tuple[str, str], ...] = ()
    """(attack id, reason): cheap finishes `phoneshell attack` makes that do what the
    instruction asks, so their passing is right (docs/attack.md)."""
    file: str = ""
    """The file the task was read from."""
    line: int = 1
    sha256: str = ""
    """Hash of the file's bytes, recorded in run manifests."""

    def answer(self) -> str | None:
        """The solution's `answer` step text, if it has one (None for a finish that reads its
        answer off the screen: `answer_step`)."""
        for step in self.solution or ():
            if step.kind == "answer":
                return step.arg
        return None

    def answer_step(self) -> Step | None:
        """The solution's answer step: `answer` (a text) or `answer_read` (what the screen
        shows), if it has one."""
        for step in self.solution or ():
            if step.kind in ANSWER_STEPS:
                return step
        return None


TASK_FIELDS: tuple[Param, ...] = (
    Param("id", "str", "Unique task id, e.g. settings.about.reach.", required=True),
    Param("name", "str", "A short title.", required=True),
    Param("app", "bundle_id", "Bundle id the task centres on; the default for foreground_app."),
    Param("difficulty", "choice", "How hard the task is.", choices=DIFFICULTIES),
    Param("tags", "str_list", "Free tags; capability:<name> tags group results."),
    Param("instruction", "str", "What the agent is told (the only thing it is told).",
          required=True),
    Param("setup", "str_list", "Steps run before the agent."),
    Param("checks", "str_list", "Checks that must all pass.", required=True),
    Param("teardown", "str_list", "Steps run after the attempt, always."),
    Param("notes", "str", "Why the task is built this way."),
    # Upper bounds: a typo (a timeout in milliseconds) must not hold a phone for days.
    Param("max_steps", "int", "The agent's action budget (default: 25 plus the key taps of "
          "typing the solution's text key by key, phoneshell.tasks.budget).", minimum=3,
          maximum=1000),
    Param("timeout_seconds", "number", "The agent's wall-clock budget in seconds.", minimum=1,
          maximum=3600),
    Param("solution", "str_list", "A reference finish (steps, ending with answer when the task "
                                  "asks for one); never shown to agents."),
    Param("compatible_with", "str_list", "Task ids whose finish legitimately satisfies this "
                                         "task."),
    Param("compatible_attacks", "str_map", "Attack ids (`phoneshell attack`) whose finish does "
                                           "what the instruction asks, each with a one-line "
                                           "reason."),
)
"""Top-level keys of a task file (list-valued keys are described further by the schema)."""
