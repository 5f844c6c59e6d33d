"""A command agent that wraps an MCP client around `phoneshell mcp`, as Claude Code or Codex
would: it observes until its budget is spent, swipes once past it, and exits without `done`."""

from __future__ import annotations

import os
import sys

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


async def spend() -> None:
    server = StdioServerParameters(command=sys.executable, args=["-m", "phoneshell", "mcp"],
                                   env=dict(os.environ))  # the attempt's variables, passed on
    async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        # the budget, and the first look, which is no turn
        for _ in range(int(os.environ["PHONESHELL_MAX_STEPS"]) + 1):
            await session.call_tool("observe", {})
        await session.call_tool("swipe", {"direction": "up"})  # refused: the budget is spent


if __name__ == "__main__":
    anyio.run(spend)
