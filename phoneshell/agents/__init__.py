"""Agents: adapters that act on the phone through a WDA URL and end with a claim.

Built in: `null` and `solution` (reference.py), `open-app` and `replay:<run>` (replay.py),
`command:<cmd>` (command.py), `openai:<model>` (openai_loop.py), `wander:<seed>` (wander.py).
The tools a model drives the phone with are one registry (tools.py), shared by the
OpenAI-compatible loop and `phoneshell mcp` (mcp_server.py).

Each name is imported from its module when first used (`phoneshell.lazy_names`), and the
modules that register the built-in agents when `AGENTS` is first read (`base.BUILTIN_MODULES`):
`phoneshell finish`, which writes a claim with `agents.environment`, imports no agent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from phoneshell.lazy_names import lazy

if TYPE_CHECKING:
    from phoneshell.agents.base import AGENTS, Agent, AgentContext, AgentResult, make_agent

BUILTIN = ("null", "solution", "open-app", "replay", "command", "openai", "wander")

__all__ = ["AGENTS", "BUILTIN", "Agent", "AgentContext", "AgentResult", "make_agent"]

lazy(__name__, {
    "phoneshell.agents.base": ("AGENTS", "Agent", "AgentContext", "AgentResult", "make_agent"),
})
