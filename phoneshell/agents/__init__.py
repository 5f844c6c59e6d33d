"""Agents: adapters that act on the phone through a WDA URL and end with a claim.

Built in: `null` and `solution` (reference.py), `command:<cmd>` (command.py), `openai:<model>`
(openai_loop.py). The tools a model drives the phone with are one registry (tools.py), shared by
the OpenAI-compatible loop and `phoneshell mcp` (mcp_server.py).
"""

from phoneshell.agents import command, openai_loop, reference
from phoneshell.agents.base import AGENTS, Agent, AgentContext, AgentResult, make_agent

__all__ = ["AGENTS", "Agent", "AgentContext", "AgentResult", "command", "make_agent",
           "openai_loop", "reference"]
