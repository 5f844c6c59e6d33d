"""`phoneshell mcp`: an MCP server (the official `mcp` SDK) exposing the tool registry.

Claude Code, Codex or any MCP client drives the phone through it: the tools are the registry's
(tools.py), with the same names, descriptions and argument schemas as the OpenAI-compatible loop,
and every call acts through the bridge URL it was given, so the bridge logs every action. Inside
an attempt (a `command:` agent that wraps an MCP client), it also reads the attempt's variables:
`done` writes the claim to `PHONESHELL_CLAIM_FILE`, `PHONESHELL_MAX_STEPS` is enforced as the
turn budget, and the turns used are kept in the attempt folder's turns file.

Only `phoneshell mcp` imports this module: the SDK is an optional extra (`phoneshell[mcp]`).
"""

from __future__ import annotations

import base64
import os
from pathlib import Path

import anyio
import anyio.to_thread
import mcp_types as types
from mcp.server import Server, ServerRequestContext
from mcp.server.stdio import stdio_server

from phoneshell import __version__
from phoneshell.agents.environment import (
    ATTEMPT_DIR,
    CLAIM_FILE,
    MAX_STEPS,
    write_claim,
    write_turns,
)
from phoneshell.agents.tools import GUIDE, TOOLS, PhoneTools, ToolReply, budget_told
from phoneshell.errors import RIG_DOWN
from phoneshell.records import TurnUse


def list_tools() -> list[types.Tool]:
    """The registry's tools as MCP tools."""
    return [types.Tool(name=t.name, description=t.description, input_schema=t.parameters)
            for _, t in TOOLS.items()]


class ToolServer:
    """The state behind one MCP connection: the attempt's tools and where it reports.

    Args:
        tools: the calls' state (the bridge URL, the latest observation, the budget).
        claim_file: where `done` writes the claim (None: outside an attempt).
        attempt_dir: where the turns file goes (None: outside an attempt).
    """

    def __init__(self, tools: PhoneTools, claim_file: Path | None = None,
                 attempt_dir: Path | None = None) -> None:
        self.tools = tools
        self.claim_file = claim_file
        self.attempt_dir = attempt_dir
        self._lock = anyio.Lock()  # one call at a time: ids depend on the order of calls

    async def on_list_tools(self, ctx: ServerRequestContext,
                            params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        """Every tool of the registry."""
        return types.ListToolsResult(tools=list_tools())

    async def on_call_tool(self, ctx: ServerRequestContext,
                           params: types.CallToolRequestParams) -> types.CallToolResult:
        """Run one call in a worker thread (the device layer is synchronous)."""
        async with self._lock:
            try:
                reply = await anyio.to_thread.run_sync(self.tools.call, params.name,
                                                       dict(params.arguments or {}))
            except RIG_DOWN as exc:
                reply = ToolReply(f"the phone cannot be driven: {exc.message} ({exc.hint})",
                              error=True)
            self._record(params.name)
        content: list[types.ContentBlock] = [types.TextContent(text=reply.text)]
        if reply.screenshot_png:
            content.append(types.ImageContent(
                data=base64.b64encode(reply.screenshot_png).decode(), mime_type="image/png"))
        return types.CallToolResult(content=content, is_error=reply.error)

    def _record(self, name: str) -> None:
        if name == "done" and self.tools.claim is not None and self.claim_file is not None:
            write_claim(self.claim_file, self.tools.claim)
        if self.attempt_dir is not None:
            write_turns(self.attempt_dir, TurnUse(turns=self.tools.turns,
                                                  out_of_turns=self.tools.out_of_turns,
                                                  refused=self.tools.refused))

    def server(self) -> Server:
        """The SDK's server with this state's handlers."""
        told = budget_told(self.tools.max_turns)
        return Server("phoneshell", version=__version__,
                      instructions=f"{GUIDE}\n\n{told}" if told else GUIDE,
                      on_list_tools=self.on_list_tools, on_call_tool=self.on_call_tool)


def from_environment(bridge_url: str, vision: bool) -> ToolServer:
    """A server for `bridge_url`, reporting where the attempt's variables say (when set)."""
    steps = os.environ.get(MAX_STEPS, "")
    claim = os.environ.get(CLAIM_FILE, "")
    folder = os.environ.get(ATTEMPT_DIR, "")
    tools = PhoneTools(bridge_url, vision,
                       int(steps) if steps.isascii() and steps.isdigit() else None)
    return ToolServer(tools, Path(claim) if claim else None, Path(folder) if folder else None)


def serve_stdio(state: ToolServer) -> int:
    """Serve MCP over stdin/stdout until the client closes the connection."""
    server = state.server()

    async def main() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(main)
    return 0
