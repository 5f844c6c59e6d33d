"""A command agent that wraps an MCP client around `phoneshell mcp`, as Claude Code or Codex
would, and plays the calls it is given: `python mcp_calls_agent.py CALLS.json`, a JSON list of
`[tool, arguments]`. Each reply goes, as a JSON line, to `replies.jsonl` in its scratch folder.
Run it twice in one command line and the attempt has two servers, as a client's restart makes."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


async def play(calls: list[tuple[str, dict[str, object]]]) -> None:
    server = StdioServerParameters(command=sys.executable, args=["-m", "phoneshell", "mcp"],
                                   env=dict(os.environ))  # the attempt's variables, passed on
    replies = Path(os.environ["PHONESHELL_ATTEMPT_DIR"]) / "replies.jsonl"
    async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        for tool, arguments in calls:
            result = await session.call_tool(tool, arguments)
            text = "\n".join(c.text for c in result.content if c.type == "text")
            with replies.open("a") as out:
                out.write(json.dumps({"tool": tool, "error": result.is_error, "text": text})
                          + "\n")


if __name__ == "__main__":
    anyio.run(play, json.loads(Path(sys.argv[1]).read_text()))
