"""Agents: adapters that act on the phone through a WDA URL and end with a claim.

Built in: `null` and `solution` (reference.py), `open-app` and `replay:<run>` (replay.py),
`command:<cmd>` (command.py), `openai:<model>` (openai_loop.py), `wander:<seed>` (wander.py).
The tools a model drives the phone with are one registry (tools.py), shared by the
OpenAI-compatible loop and `phoneshell mcp` (mcp_server.py).
"""

# Every module that registers a built-in agent, listed: `make_agent` finds them all as soon as
# this package is imported, whoever imports it (the runner, a library user, the CLI).
from phoneshell.agents import command, openai_loop, reference, replay, wander
from phoneshell.agents.base import AGENTS, Agent, AgentContext, AgentResult, make_agent

BUILTIN = ("null", "solution", "open-app", "replay", "command", "openai", "wander")
"""The built-in agents' names (a test holds the registry to this list and to docs/agents.md)."""

__all__ = ["AGENTS", "BUILTIN", "Agent", "AgentContext", "AgentResult", "command", "make_agent",
           "openai_loop", "reference", "replay", "wander"]
