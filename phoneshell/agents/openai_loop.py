"""`openai:<model>`: a tool-calling loop against any OpenAI-compatible chat completions endpoint.

Stdlib HTTP only. The model gets the shared guide (tools.GUIDE) and its budgets as the system
prompt, the instruction and the first observation as the user message, and the registry's tools;
every tool call goes through `PhoneTools` on the bridge URL, so every action is logged. Settings
come from the environment (docs/agents.md):

    PHONESHELL_OPENAI_BASE_URL, else OPENAI_BASE_URL, else https://api.openai.com/v1
    PHONESHELL_OPENAI_API_KEY, else OPENAI_API_KEY (needed for the default base URL)
    PHONESHELL_VISION=1       attach a screenshot after each screen change
    PHONESHELL_VISION_KEEP=N  images kept in the conversation (default 3; older ones elided)
    PHONESHELL_OPENAI_RETRIES=N  retries of a 429 or 5xx answer (default 2)

Budgets: `max_steps` tool calls (`done` is accepted after the last) and `timeout_seconds` of wall
clock; running out of either ends the loop and the attempt cannot pass. A model may take the
whole clock to answer: a reply that outlives it is out of time, the first one too.

The model is treated as an adversary that would learn any way to have a hard task not scored,
so nothing it sends can skip the attempt: no tool name or arguments (tools.py answers them with
an error message), no text (kept escaped: `untrusted.storable`), no reply shape, no delay. The
agent **never ran**, and the attempt is skipped, only when the first request never reached a
model (`ModelUnreachable`): no connection could be made to the endpoint (refused, DNS, no route,
TLS, no connection within the clock), or it refused the request as HTTP 401, 403 or 404 (a key,
an account or a model name that is wrong). Every other failure after the request was sent
(a 400, a 429 or 5xx left after the retries, a reply cut off or not OpenAI-shaped) is the
attempt's failure, scored; so is the harness failing to keep what the endpoint sent (its
transcript line), once the endpoint answered: a fault a reply could set off is never a skip.
Every string from the endpoint, error bodies too, is made storable where it comes in
(chat_api), and a transcript line is made so again before it is written. The transcript goes to
`transcript.jsonl` in the attempt folder.
"""

from __future__ import annotations

import base64
import json
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from phoneshell.agents.base import AGENTS, Agent, AgentContext, AgentResult, ended_early
from phoneshell.agents.chat_api import (
    ChatClient,
    Message,
    ModelError,
    ModelTimeout,
    ModelUnreachable,
    OpenAISettings,
    storable_json,
)
from phoneshell.agents.tools import GUIDE, TOOLS, PhoneTools, budget_told, every_call
from phoneshell.errors import RIG_DOWN, RunError
from phoneshell.evidence import Claim
from phoneshell.untrusted import storable

TRANSCRIPT = "transcript.jsonl"
TALK_ENDS = ("Every reply must call a tool: a reply without one (thinking aloud, a plan, a "
             "report in prose) ends the task at once as failed, its text taken as your summary.")
"""The one end of the loop its model chooses that the guide does not name (an MCP client keeps
its own loop), said after the budget: red team 112's model said "I'll open the Calculator app
first" and was over, never told."""
MAX_CONVERSATION_CHARS = 16 << 20
"""The most a conversation may hold, screenshots aside (about a thousand screens of a deep
source): each request sends all of it again, so one that grew without end would take the
harness's memory and the endpoint's bandwidth, and its transcript the disk. A model that
outgrows it has failed, as a command agent that outgrows its folder has."""


class Transcript:
    """The conversation as JSON lines in the attempt folder (screenshots as their size only)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.written = 0
        """Characters written so far: the conversation's size, its screenshots aside."""

    def write(self, record: dict[str, object]) -> None:
        """Append one line; its text is made storable first, so no text can stop the writing
        of it (a lone surrogate, from the endpoint or the phone, is kept as its escape)."""
        line = storable_json(_without_images({"t": round(time.time(), 3), **record}))
        text = json.dumps(line, ensure_ascii=False) + "\n"
        with self.path.open("a", encoding="utf-8") as out:
            out.write(text)
        self.written += len(text)


def _without_images(value: object) -> object:
    if isinstance(value, dict):
        if value.get("type") == "image_url":
            url = str(cast(dict[str, object], value.get("image_url") or {}).get("url", ""))
            return {"type": "image_url", "image_url": f"[image, {len(url)} characters]"}
        return {k: _without_images(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_without_images(v) for v in value]
    return value


def _image_message(png: bytes, caption: str) -> Message:
    url = "data:image/png;base64," + base64.b64encode(png).decode()
    return {"role": "user", "content": [{"type": "text", "text": caption},
                                        {"type": "image_url", "image_url": {"url": url}}]}


def _keep_last_images(messages: list[Message], keep: int) -> None:
    """Replace all but the last `keep` images with a line saying one was there."""
    seen = 0
    for message in reversed(messages):
        parts = message.get("content")
        if not isinstance(parts, list):
            continue
        for i in range(len(parts) - 1, -1, -1):
            if parts[i].get("type") == "image_url":
                seen += 1
                if seen > keep:
                    parts[i] = {"type": "text", "text": "[earlier screenshot omitted]"}


def tool_specs() -> list[Message]:
    """The registry's tools in the chat completions `tools` shape."""
    return [{"type": "function", "function": {"name": t.name, "description": t.description,
                                              "parameters": t.parameters}}
            for _, t in TOOLS.items()]


@dataclass
class _Conversation:
    """One attempt's messages, tools and transcript."""

    tools: PhoneTools
    transcript: Transcript
    deadline: float
    timeout_s: float
    messages: list[Message]
    answered: bool = False
    """The model replied at least once (after that, an API error is the attempt's failure)."""
    reached: bool = False
    """The endpoint answered a request, with a reply or an error of its own (anything but
    `ModelUnreachable`): from then on, whatever stops the loop is the attempt's failure."""
    talk_turns: int = 0
    """Replies without a tool call (each counts as a turn)."""
    cut_off: Callable[[], str] = lambda: ""
    """Why the agent's access to the phone ended early ("" while it stands)."""

    def add(self, message: Message, **extra: object) -> None:
        """Append a message to the conversation and to the transcript."""
        self.messages.append(message)
        self.transcript.write({"message": message, **extra})

    def end(self, claim: Claim | None = None, *, timed_out: bool = False,
            out_of_turns: bool = False, error: str = "") -> AgentResult:
        """Close the transcript and say how the attempt ended (the model took part)."""
        turns = self.tools.turns + self.talk_turns
        self.transcript.write({"end": {"turns": turns, "timed_out": timed_out,
                                       "out_of_turns": out_of_turns, "error": error,
                                       "claim": None if claim is None else vars(claim)}})
        return AgentResult(ran=True, claim=claim, turns=turns,
                           timed_out=timed_out, out_of_turns=out_of_turns, error=error)

    def spent_end(self) -> AgentResult:
        """End out of turns: past the budget the model did something other than a valid done
        (a call, a refused done, a reply in prose), and the error says which."""
        return self.end(self.tools.claim, out_of_turns=True,
                        error=f"used {every_call(self.tools.max_turns)}, then "
                              f"{self.tools.refused}")

    def outgrown(self) -> AgentResult | None:
        """End the attempt as failed once the conversation holds more than
        `MAX_CONVERSATION_CHARS` (None while it does not)."""
        if self.transcript.written <= MAX_CONVERSATION_CHARS:
            return None
        why = (f"the conversation outgrew {MAX_CONVERSATION_CHARS >> 20} MiB "
               f"({self.transcript.written:,} characters, screenshots aside)")
        return self.end(Claim(status="failed", summary=f"stopped: {why}"), error=why)

    def unrecorded(self, exc: Exception) -> AgentResult:
        """End as failed when the harness could not keep what the endpoint sent (the transcript
        would not take a line: a full disk, a file gone), with the harness error as the reason
        and its traceback kept where it can be. Not a skip: a fault a reply can set off would
        then be a way to have a hard task not scored."""
        try:
            with (self.transcript.path.parent / "traceback.txt").open("a") as out:
                out.write(traceback.format_exc())
            kept = "see traceback.txt"
        except OSError as also:
            kept = f"its traceback could not be kept either ({type(also).__name__})"
        why = (f"harness error ({type(exc).__name__}) keeping the model's turn: "
               f"{storable(str(exc))[:300]}; {kept}")
        return AgentResult(ran=True, claim=Claim(status="failed", summary=why),
                           turns=self.tools.turns + self.talk_turns, error=why,
                           error_type=type(exc).__name__)

    def out_of_time(self) -> AgentResult:
        """End on the wall clock: the attempt cannot pass."""
        return self.end(self.tools.claim, timed_out=True,
                        error=f"ran out of time ({self.timeout_s:.0f}s)")


class OpenAIAgent:
    """Drive the phone with a model behind an OpenAI-compatible chat completions endpoint."""

    def __init__(self, model: str, settings: OpenAISettings) -> None:
        self.model = model
        self.name = f"openai:{model}"
        self.settings = settings
        self.client = ChatClient(settings)

    def run(self, context: AgentContext) -> AgentResult:
        """Run the loop until `done`, a reply without a tool call, or a budget runs out."""
        tools = PhoneTools(context.wda_url, self.settings.vision, context.max_steps)
        chat = _Conversation(tools, Transcript(context.workdir / TRANSCRIPT),
                             time.monotonic() + context.timeout_s, context.timeout_s, [],
                             cut_off=context.cut_off)
        first = tools.observe()
        chat.add({"role": "system", "content": (
            f"{GUIDE}\n\n{budget_told(context.max_steps, context.timeout_s)} {TALK_ENDS}")})
        chat.add(_user_turn(f"{context.instruction}\n\n{first.text}", first.screenshot_png))
        while True:
            try:
                ended = self._turn(chat)
            except RIG_DOWN:
                raise
            except Exception as exc:  # noqa: BLE001 - the harness's failure to record, scored
                if not chat.reached:  # nothing of the endpoint's yet: the runner says never ran
                    raise
                return chat.unrecorded(exc)
            if ended is not None:
                return ended

    def _turn(self, chat: _Conversation) -> AgentResult | None:
        """Ask the model once and run its tool calls; the result when the attempt ended."""
        remaining = chat.deadline - time.monotonic()
        if remaining <= 0:
            return chat.out_of_time()
        body: Message = {"model": self.model, "messages": chat.messages, "tools": tool_specs(),
                         "tool_choice": "auto"}
        try:  # the model may think as long as the clock lets it, its first reply too
            reply = self.client.complete(body, remaining, chat.deadline)
        except ModelError as exc:
            chat.reached = chat.reached or not isinstance(exc, ModelUnreachable)
            chat.transcript.write({"error": str(exc)})
            if isinstance(exc, ModelUnreachable) and not chat.answered:  # no model saw it
                return AgentResult(ran=False, error=f"the model API at "
                                   f"{self.settings.base_url} was never reached: {exc}")
            if isinstance(exc, ModelTimeout) or time.monotonic() >= chat.deadline:
                return chat.out_of_time()
            return chat.end(Claim(status="failed", summary=f"model API error: {exc}"),
                            error=f"model API error: {exc}")
        chat.answered = chat.reached = True
        if time.monotonic() >= chat.deadline:  # what it said came after its time was up
            return chat.out_of_time()
        try:
            return self._act(chat, reply)
        except RIG_DOWN:
            raise
        except Exception as exc:  # noqa: BLE001 - whatever the model sent, never a skip
            # A harness bug that the model's reply set off is kept, with its traceback, and
            # the attempt fails: a skip is what a model under training would learn to cause.
            with (chat.transcript.path.parent / "traceback.txt").open("a") as out:
                out.write(traceback.format_exc())
            why = (f"harness error ({type(exc).__name__}) acting on the model's reply: "
                   f"{storable(str(exc))[:300]}; see traceback.txt")
            return chat.end(Claim(status="failed", summary=why), error=why)

    def _act(self, chat: _Conversation, reply: Message) -> AgentResult | None:
        """Keep the model's reply and run its tool calls; the result when the attempt ended."""
        chat.transcript.write({"usage": reply.get("usage"), "id": reply.get("id")})
        choice = cast(list[Message], reply["choices"])[0]
        message = cast(Message, choice.get("message") or {})
        raw_calls = message.get("tool_calls") or []
        calls = [_call_of(c) for c in (raw_calls if isinstance(raw_calls, list) else [raw_calls])]
        content = message.get("content") or None
        kept: Message = {"role": "assistant", "content": content}
        if calls:
            kept["tool_calls"] = calls
        chat.add(kept, finish_reason=choice.get("finish_reason"))
        outgrown = chat.outgrown()
        if outgrown is not None:
            return outgrown
        if not calls and chat.tools.spent:  # past the budget: refused as any call but done is
            chat.tools.refuse("replied without a tool call instead of calling done")
            return chat.spent_end()
        if not calls:  # talking instead of acting ends the attempt; the text is the summary
            chat.talk_turns += 1
            return chat.end(Claim(status="failed", summary=str(content or "")),
                            error="the model replied without a tool call")
        shot: bytes | None = None
        for call in calls:
            if time.monotonic() >= chat.deadline:
                return chat.out_of_time()
            function = cast(dict[str, str], call["function"])
            done = chat.tools.call(function["name"], function["arguments"])
            chat.add({"role": "tool", "tool_call_id": call["id"], "content": done.text})
            outgrown = chat.outgrown()
            if outgrown is not None:
                return outgrown
            ended = chat.cut_off()
            if ended:  # nothing more it asks can reach the phone: the attempt failed
                why = ended_early(ended)
                return chat.end(Claim(status="failed", summary=f"stopped: {why}"), error=why)
            if chat.tools.out_of_turns:
                return chat.spent_end()
            if chat.tools.claim is not None:
                return chat.end(chat.tools.claim)
            shot = done.screenshot_png or shot
        if shot is not None:
            chat.add(_image_message(shot, "The screen now:"))
            _keep_last_images(chat.messages, self.settings.keep_images)
        return None


def _user_turn(text: str, png: bytes | None) -> Message:
    """The first user message: the instruction and the first observation (and its image)."""
    if png is None:
        return {"role": "user", "content": text}
    image = cast(list[Message], _image_message(png, "")["content"])[1]
    return {"role": "user", "content": [{"type": "text", "text": text}, image]}


def _call_of(call: object) -> Message:
    """A tool call as it goes back to the endpoint: the fields the API defines, as strings
    (arguments some servers send as an object are sent back as its JSON)."""
    given = cast(Message, call) if isinstance(call, dict) else {}
    function = given.get("function")
    named = cast(Message, function) if isinstance(function, dict) else {}
    name, arguments = named.get("name") or "", named.get("arguments") or "{}"
    return {"id": str(given.get("id") or ""), "type": "function",
            "function": {"name": name if isinstance(name, str) else json.dumps(name),
                         "arguments": arguments if isinstance(arguments, str)
                         else json.dumps(arguments)}}


def _openai(arg: str) -> Agent:
    """`openai:MODEL`: a tool-calling loop against an OpenAI-compatible endpoint."""
    if not arg:
        raise RunError("the openai agent needs a model name",
                       hint="--agent openai:MODEL, e.g. openai:gpt-4.1")
    return OpenAIAgent(arg, OpenAISettings.from_env())


AGENTS.register("openai")(_openai)
