"""Agents: adapters that act on the phone through a WDA URL and end with a claim.

Built in: `null` and `solution` (reference.py). Others register under the same registry.
"""

from phoneshell.agents import reference
from phoneshell.agents.base import AGENTS, Agent, AgentContext, AgentResult, make_agent

__all__ = ["AGENTS", "Agent", "AgentContext", "AgentResult", "make_agent", "reference"]
