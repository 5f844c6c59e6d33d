"""What an agent is to the runner: something handed an instruction and a WDA URL that acts, then
claims. One registry; `--agent NAME[:ARG]` picks an adapter, and outside adapters arrive through
the `phoneshell.agents` entry-point group, loaded on the first miss.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Protocol

from phoneshell.agents.sandbox import Sandbox
from phoneshell.evidence import Claim
from phoneshell.registry import Registry
from phoneshell.tasks import Task


@dataclass(frozen=True)
class AgentContext:
    """What an attempt gives its agent.

    Real agents get only `instruction` and `wda_url` (and the budgets); `task` is there for the
    harness's own reference agents (the solution), never passed on to a model.
    """

    task: Task
    instruction: str
    wda_url: str
    """Where to drive the phone: the bridge, which logs every action."""
    max_steps: int
    timeout_s: float
    workdir: Path
    """The attempt's folder: an agent in this process may write transcripts there; a program
    gets a scratch folder inside it (`agent/`) and sees nothing else of it."""
    sandbox: Sandbox | None = None
    """How a program agent is confined (None: unconfined, as for a test calling it directly)."""
    cut_off: Callable[[], str] = lambda: ""
    """Why the agent's access to the phone ended before its turn did ("" while it stands):
    once it is not "", nothing the agent sends reaches the phone, and its turn is ended."""


def ended_early(why: str) -> str:
    """What an agent's turn ended by `AgentContext.cut_off` says: the reason's first clause
    (its whole text is the grade's, from the log)."""
    return f"its access to the phone ended early ({why.split(':', 1)[0]})"


@dataclass(frozen=True)
class AgentResult:
    """How the agent's turn ended."""

    ran: bool
    """False when the agent never got going (it could not start, or its model was never reached);
    the attempt is then skipped, not scored."""
    claim: Claim | None = None
    """The agent's structured claim, if it made one."""
    turns: int = 0
    timed_out: bool = False
    out_of_turns: bool = False
    error: str = ""
    """Why the agent stopped early or never ran."""
    error_type: str = ""
    """The type of the exception its turn ended in, if any (the runner keeps it as data)."""
    stopped: str = ""
    """Why the harness stopped its program for a limit of its turn (the disk, its folder's size
    or files, output it could not keep, files it could not take back): a failure whatever its
    checks say, as running out of time or turns is (`runner.turn.overrule`)."""


class Agent(Protocol):
    """An agent adapter: one call per attempt."""

    name: str
    """How the agent is named in results ("solution", "command:./play.sh")."""

    def run(self, context: AgentContext) -> AgentResult:
        """Act on the phone at `context.wda_url` and return the claim."""
        ...


AgentFactory = Callable[[str], Agent]
"""Builds an agent from the text after `NAME:` in `--agent NAME:ARG` ("" when absent)."""


def _load_entry_points(registry: Registry[AgentFactory]) -> None:
    for entry in metadata.entry_points(group="phoneshell.agents"):
        if entry.name not in registry:
            registry.register(entry.name)(entry.load())


BUILTIN_MODULES = ("command", "openai_loop", "reference", "replay", "wander")
"""The modules of `phoneshell.agents` that register a built-in agent: imported when `AGENTS` is
first read, whoever reads it (the runner, a library user, the CLI)."""


def _import_builtins() -> None:
    for module in BUILTIN_MODULES:
        importlib.import_module(f"phoneshell.agents.{module}")


AGENTS: Registry[AgentFactory] = Registry("agent", "phoneshell run --help",
                                          on_miss=_load_entry_points, builtins=_import_builtins)


def make_agent(spec: str) -> Agent:
    """Build the agent named by `--agent` (`solution`, `null`, `command:./play.sh`...)."""
    name, _, arg = spec.partition(":")
    return AGENTS.lookup(name)(arg)
