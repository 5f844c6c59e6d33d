"""`phoneshell mcp`: an MCP server (the official `mcp` SDK) exposing the tool registry.

Claude Code, Codex or any MCP client drives the phone through it: the tools are the registry's
(tools.py), with the same names, descriptions and argument schemas as the OpenAI-compatible loop,
and every call acts through the bridge URL it was given, so the bridge logs every action. Inside
an attempt (a `command:` agent that wraps an MCP client), it also reads the attempt's variables:
`done` writes the claim to `PHONESHELL_CLAIM_FILE`, `PHONESHELL_MAX_STEPS` is enforced as the
turn budget, and the turns used are kept in the attempt folder's turns file.

One attempt has one budget and one `done`, however many servers its client starts (a restart
after a crash, a reconnect): each call reads the attempt's count, its free first look and its
claim from the turns and claim files, and writes them back, under a lock on the attempt folder
that a second server waits on (red team 145).

Only `phoneshell mcp` imports this module: the SDK is an optional extra (`phoneshell[mcp]`).
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import anyio
import anyio.to_thread
import mcp_types as types
from anyio.abc import ObjectReceiveStream, ObjectSendStream
from mcp.server import Server, ServerRequestContext
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage

from phoneshell import __version__
from phoneshell.agents.environment import (
    ATTEMPT_DIR,
    CLAIM_FILE,
    MAX_STEPS,
    read_claim_file,
    read_turns,
    write_claim,
    write_turns,
)
from phoneshell.agents.tool_schema import Args
from phoneshell.agents.tools import GUIDE, TOOLS, PhoneTools, ToolReply, budget_told
from phoneshell.errors import RIG_DOWN, PhoneshellError
from phoneshell.records import RecordError, TurnUse

Incoming = SessionMessage | Exception


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
        self._sent_as: dict[str | int, object] = {}
        """Arguments sent as something other than an object, by request id (`held`)."""

    async def on_list_tools(self, ctx: ServerRequestContext,
                            params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        """Every tool of the registry."""
        return types.ListToolsResult(tools=list_tools())

    async def on_call_tool(self, ctx: ServerRequestContext,
                           params: types.CallToolRequestParams) -> types.CallToolResult:
        """Run one call in a worker thread (the device layer is synchronous)."""
        arguments: Args | str = dict(params.arguments or {})
        if ctx.request_id is not None and ctx.request_id in self._sent_as:  # as sent: a mistake
            arguments = json.dumps(self._sent_as.pop(ctx.request_id))
        async with self._lock:
            reply = await anyio.to_thread.run_sync(self.counted, params.name, arguments)
        content: list[types.ContentBlock] = [types.TextContent(text=reply.text)]
        if reply.screenshot_png:
            content.append(types.ImageContent(
                data=base64.b64encode(reply.screenshot_png).decode(), mime_type="image/png"))
        return types.CallToolResult(content=content, is_error=reply.error)

    def counted(self, name: str, arguments: Args | str) -> ToolReply:
        """Run one call as a call of the attempt: its count, first look and claim read from
        the attempt's files first, written back after, another server of it held off."""
        with self._attempt_held():
            self._resume()
            claim = self.tools.claim
            try:
                reply = self.tools.call(name, arguments)
            except RIG_DOWN as exc:
                reply = ToolReply(f"the phone cannot be driven: {hinted(exc)}", error=True)
            if self.tools.claim is not claim and self.claim_file is not None:
                write_claim(self.claim_file, self.tools.claim)  # type: ignore[arg-type]
            if self.attempt_dir is not None:
                write_turns(self.attempt_dir, TurnUse(
                    turns=self.tools.turns, out_of_turns=self.tools.out_of_turns,
                    refused=self.tools.refused, looked=self.tools.looked))
        return reply

    @contextmanager
    def _attempt_held(self) -> Iterator[None]:
        """Hold the attempt folder (a lock on the folder itself: no file of ours in it) while
        a call is read, run and written, so two servers of one attempt take turns."""
        try:
            fd = (os.open(self.attempt_dir, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
                  if self.attempt_dir is not None else None)
        except OSError:  # no folder to hold: the turns file cannot be written either
            fd = None
        try:
            if fd is not None:
                fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            if fd is not None:
                os.close(fd)  # lets the lock go

    def _resume(self) -> None:
        """Carry on from what the attempt's files say: the turns another server counted (or
        this one did), whether the free look was given, and a claim already made."""
        if self.attempt_dir is not None and (use := read_turns(self.attempt_dir)) is not None:
            self.tools.turns = use.turns
            self.tools.out_of_turns = self.tools.out_of_turns or use.out_of_turns
            self.tools.refused = self.tools.refused or use.refused
            self.tools.looked = self.tools.looked or use.looked
        if self.tools.claim is None and self.claim_file is not None:
            with suppress(RecordError, OSError):  # not a claim: a done may still make one
                self.tools.claim = read_claim_file(self.claim_file)

    async def forward(self, incoming: ObjectReceiveStream[Incoming],
                      outgoing: ObjectSendStream[Incoming]) -> None:
        """Pass the client's messages to the SDK's server, each `held` first."""
        async with outgoing:
            async for message in incoming:
                await outgoing.send(self.held(message))

    def held(self, message: Incoming) -> Incoming:
        """A `tools/call` whose arguments are not an object, with `{}` in their place and what
        was sent kept for `on_call_tool`: the SDK refused it before any handler saw it, so it
        was free and never out of turns, where every call costs one (red team 145)."""
        request = message.message if isinstance(message, SessionMessage) else None
        if not (isinstance(request, types.JSONRPCRequest) and request.method == "tools/call"
                and isinstance(request.params, dict)):
            return message
        sent = request.params.get("arguments")
        if sent is None or isinstance(sent, dict):
            return message
        self._sent_as[request.id] = sent
        asked = request.model_copy(update={"params": {**request.params, "arguments": {}}})
        return SessionMessage(asked, message.metadata)  # type: ignore[union-attr]

    def server(self) -> Server:
        """The SDK's server with this state's handlers."""
        told = budget_told(self.tools.max_turns)
        return Server("phoneshell", version=__version__,
                      instructions=f"{GUIDE}\n\n{told}" if told else GUIDE,
                      on_list_tools=self.on_list_tools, on_call_tool=self.on_call_tool)


def hinted(exc: PhoneshellError) -> str:
    """The error's message with its hint, said once: a bridge's message already ends with its
    own hint ("(is WDA running at that URL? `phoneshell doctor` checks the chain)"), and the
    client's, the same advice, was said again after it."""
    advice = exc.hint.rsplit("? ", 1)[-1].strip()
    return exc.message if not exc.hint or advice in exc.message else f"{exc.message} ({exc.hint})"


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
        async with stdio_server() as (read_stream, write_stream), anyio.create_task_group() as tg:
            send, receive = anyio.create_memory_object_stream[Incoming](0)
            tg.start_soon(state.forward, read_stream, send)
            await server.run(receive, write_stream, server.create_initialization_options())
            tg.cancel_scope.cancel()

    anyio.run(main)
    return 0
