"""The tools a model drives the phone with: one registry, used verbatim by every agent path.

Each tool has one name, one description and one JSON schema of arguments; the OpenAI-compatible
loop sends them as `tools`, the MCP server lists them, and docs/agents.md prints the table made
by `tool_table()`. `PhoneTools` runs the calls of one attempt against one WDA URL (the bridge,
which logs every action) and never reaches the phone any other way.

Ids come from observations (observation.py): an id is valid only for the observation that issued
it, and a tap acts on that snapshot's element. Whatever the model gets wrong (a stale or unknown
id, a missing argument, a step that did not take) is an error *message* to the model, and so is
whatever it sends on purpose (any tool name; arguments that are not JSON, nested thousands deep,
numbers of thousands of digits; text with lone surrogates, kept escaped: `untrusted.storable`).
Only a rig that went down (WDA unreachable, phone locked) raises.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import cast

from phoneshell.agents.environment import GRADED
from phoneshell.agents.observation import Observation, read_screen
from phoneshell.device import Phone, run_step
from phoneshell.device.steps import go_home, scroll_points
from phoneshell.errors import RIG_DOWN, DeviceError, StepError
from phoneshell.records import CLAIM_STATUSES, Claim, ClaimStatus
from phoneshell.registry import Registry
from phoneshell.tasks import Step
from phoneshell.untrusted import storable

JsonSchema = dict[str, object]
Args = Mapping[str, object]
DIRECTIONS = ("up", "down", "left", "right")
BUTTONS = ("home",)
SETTLE_S = 2.0
"""How long an action's effect may take to show before "the screen did not change"."""
POLL_S = 0.1

GUIDE = """\
You operate an iPhone through tools. Each observation is a table of what is on the screen, one
row per element: id, type, text, centre (x,y in points), size and flags. Act by the ids of the
latest observation only (an id such as 3.12 means observation 3, row 12); older ids are refused.
Every action returns the new observation, or says the screen did not change (then try something
else). Use open_app to open an app, swipe to scroll, type to enter text into the focused field.
When you have finished, or cannot go on, call done once with status done, gave_up or failed, the
answer the task asked for (if any) and a one-sentence summary. """ + GRADED
"""What every agent path tells the model about the tools (system prompt, MCP instructions)."""


@dataclass(frozen=True)
class ToolReply:
    """What a tool call gives back to the model."""

    text: str
    screenshot_png: bytes | None = None
    """The screen after the call, when screenshots are on and the screen was read."""
    error: bool = False
    """The call did nothing: bad arguments, a stale id, a step that did not take..."""


class PhoneTools:
    """The tool calls of one attempt: the latest observation, the turn count, the claim.

    Args:
        wda_url: where to act (the bridge's URL).
        vision: attach a screenshot to every reply that reads the screen.
        max_turns: tool calls allowed (None: no limit); after the last one, only a valid `done`
            is accepted.
        settle_s: how long an action's effect may take to show.
    """

    def __init__(self, wda_url: str, vision: bool = False, max_turns: int | None = None,
                 settle_s: float = SETTLE_S) -> None:
        self.phone = Phone(wda_url, effect_timeout_s=settle_s)
        self.vision = vision
        self.max_turns = max_turns
        self.settle_s = settle_s
        self.latest: Observation | None = None
        self.issued = 0
        """Observations issued so far (the number of the latest)."""
        self.turns = 0
        """Tool calls made, `done` and mistaken calls included; calls refused past the budget
        are not counted, so it is at most `max_turns` and one valid `done`."""
        self.out_of_turns = False
        self.claim: Claim | None = None

    def call(self, name: str, arguments: Args | str) -> ToolReply:
        """Run one tool call; mistakes come back as error replies.

        Args:
            name: the tool.
            arguments: an object, or its JSON text (as chat APIs send it).

        Raises:
            DeviceUnreachable, DeviceUnusable, DeviceLocked: the rig is down.
        """
        if self.claim is not None:
            return ToolReply("done was already called: the attempt is over", error=True)
        spent = self.max_turns is not None and self.turns >= self.max_turns
        if spent and name != "done":
            return self._out_of_turns("")
        tool, checked = self._checked(name, arguments)
        if spent and isinstance(checked, str):  # past the budget, only a valid done is taken
            return self._out_of_turns(f"; this done was refused: {checked}")
        self.turns += 1  # every call costs a turn, a mistaken one too: none is free to repeat
        if isinstance(checked, str):
            return ToolReply(checked, error=True)
        assert tool is not None
        try:
            return tool.run(self, checked)
        except RIG_DOWN:
            raise
        except (DeviceError, StepError) as exc:
            return ToolReply(f"{name} failed: {exc.message}", error=True)

    def _out_of_turns(self, why: str) -> ToolReply:
        """Refuse a call past the budget (not counted)."""
        self.out_of_turns = True
        return ToolReply(f"out of turns: all {self.max_turns} tool calls are used; call done"
                         + why, error=True)

    @staticmethod
    def _checked(name: str, arguments: Args | str) -> tuple[Tool | None, Args | str]:
        """The tool and its arguments as an object, or what is wrong with the call."""
        if name not in TOOLS:
            return None, f"there is no tool {name!r}; the tools are {', '.join(TOOLS.names())}"
        if isinstance(arguments, str):
            try:
                parsed: object = json.loads(arguments or "{}")
            except (ValueError, RecursionError):  # not JSON, nested too deep, a huge number
                parsed = None
            if not isinstance(parsed, dict):
                return None, f"{name}: the arguments are not a JSON object: {arguments[:200]!r}"
            arguments = cast(Args, parsed)
        # Text the model sent is kept (claims, transcripts, the audit log): a lone surrogate
        # ("\ud800" in JSON) could not be written as UTF-8, so it stays as its escape.
        arguments = {storable(k): storable(v) if isinstance(v, str) else v
                     for k, v in arguments.items()}
        tool = TOOLS.lookup(name)
        problem = argument_problem(tool, arguments)
        return (None, f"{name}: {problem}") if problem else (tool, arguments)

    # -- helpers the tools share ----------------------------------------------------------------

    def observe(self) -> ToolReply:
        """Issue a new observation of the screen."""
        self.issued += 1
        self.latest = read_screen(self.phone, self.issued)
        return self._shown(self.latest)

    def _shown(self, observation: Observation) -> ToolReply:
        png = self.phone.screenshot_png() if self.vision else None
        return ToolReply(observation.as_text(), png)

    def after_action(self, before: Observation | None) -> ToolReply:
        """The new observation once the screen changed and settled, or a short line saying it did
        not change (the previous observation and its ids stay valid)."""
        old = before.signature() if before else ""
        deadline = time.monotonic() + self.settle_s
        seen = read_screen(self.phone, self.issued + 1)
        while seen.signature() == old and time.monotonic() < deadline:
            time.sleep(POLL_S)
            seen = read_screen(self.phone, self.issued + 1)
        if seen.signature() == old and before is not None:
            return ToolReply(f"the screen did not change; observation {before.number} and its ids "
                         "are still valid")
        while time.monotonic() < deadline:  # changed: wait for it to stop changing
            time.sleep(POLL_S)
            again = read_screen(self.phone, self.issued + 1)
            if again.signature() == seen.signature():
                break
            seen = again
        self.issued += 1
        self.latest = seen
        return self._shown(seen)

    def resolve(self, ref: object) -> tuple[float, float] | str:
        """The centre of the row `ref` names in the latest observation, or why it names none."""
        latest = self.latest
        if latest is None:
            return "there is no observation yet: call observe first"
        # nine digits at most: a number is never longer, and int() refuses 4,300 digits
        match = (re.fullmatch(r"\s*(\d{1,9})\.(\d{1,9})\s*", ref) if isinstance(ref, str)
                 else None)
        if match is None:
            return (f"{str(ref)[:40]!r} is not an id; ids look like \"{latest.number}.3\" "
                    f"(observation {latest.number}, row 3)")
        number, row_number = int(match.group(1)), int(match.group(2))
        if number > latest.number:
            return (f"there is no observation {number}: the latest is observation "
                    f"{latest.number}; use an id from it")
        if number != latest.number:
            return (f"id {ref} is from observation {number}, but observation {latest.number} is "
                    "the latest: an id is valid only for the observation that issued it; use "
                    f"an id from observation {latest.number}")
        row = latest.row(row_number)
        if row is None:
            return (f"observation {latest.number} has no row {row_number} (its ids run "
                    f"{latest.number}.1 to {latest.number}.{len(latest.rows)})")
        return row.centre


Handler = Callable[[PhoneTools, Args], ToolReply]


@dataclass(frozen=True)
class Tool:
    """One tool as every agent path presents it."""

    name: str
    description: str
    parameters: JsonSchema
    """The JSON schema of the arguments (an object schema)."""
    run: Handler


TOOLS: Registry[Tool] = Registry("tool", "phoneshell mcp --tools")


def tool(name: str, description: str, properties: dict[str, JsonSchema],
         required: tuple[str, ...] = ()) -> Callable[[Handler], Handler]:
    """Register the decorated handler as tool `name`."""
    schema: JsonSchema = {"type": "object", "properties": properties,
                          "required": list(required), "additionalProperties": False}

    def add(handler: Handler) -> Handler:
        TOOLS.register(name)(Tool(name, description, schema, handler))
        return handler

    return add


def argument_problem(tool: Tool, arguments: Args) -> str:
    """What is wrong with `arguments` for `tool` ("" when nothing): the subset of JSON schema
    the tools use (required keys, string type, enums, no extra keys)."""
    properties = cast(dict[str, JsonSchema], tool.parameters["properties"])
    for key in cast(list[str], tool.parameters["required"]):
        if key not in arguments:
            return f"missing argument {key!r}"
    for key, value in arguments.items():
        spec = properties.get(key)
        if spec is None:
            return f"unknown argument {key!r}; arguments: {', '.join(properties) or 'none'}"
        if spec.get("type") == "string" and not isinstance(value, str):
            return f"{key!r} must be a string, not {type(value).__name__}"
        choices = cast(list[str] | None, spec.get("enum"))
        if choices is not None and value not in choices:
            return f"{key!r} must be one of {', '.join(choices)}; got {str(value)[:40]!r}"
    return ""


AFTER = ("Returns the new observation, or a line saying the screen did not change (then the "
         "previous observation's ids stay valid).")


@tool("observe", "Read the screen. Returns an observation: a table with one row per element "
      "worth reading or acting on (id, type, text, centre x,y in points, size WxH, flags: "
      "focused, disabled, on/off for switches, selected, empty for an empty text field). Ids "
      "belong to this observation only: once a newer observation is issued (by observe, or by "
      "an action that changed the screen), older ids are refused.", {})
def _observe(tools: PhoneTools, args: Args) -> ToolReply:
    return tools.observe()


@tool("tap", "Tap an element by its id in the latest observation (e.g. \"3.12\": observation 3, "
      "row 12). The tap lands on the element's centre as that observation recorded it. " + AFTER,
      {"id": {"type": "string", "description": "an id from the latest observation, e.g. \"3.12\""}},
      ("id",))
def _tap(tools: PhoneTools, args: Args) -> ToolReply:
    point = tools.resolve(args["id"])
    if isinstance(point, str):
        return ToolReply(point, error=True)
    before = tools.latest
    tools.phone.tap(*point)
    return tools.after_action(before)


@tool("type", "Type text into the text field that has focus (tap the field first; the "
      "observation flags it `focused`). \"\\n\" presses Return. " + AFTER,
      {"text": {"type": "string", "description": "the text to type; \"\\n\" presses Return"}},
      ("text",))
def _type(tools: PhoneTools, args: Args) -> ToolReply:
    text = str(args["text"])
    if not text:
        return ToolReply("nothing to type: text is empty", error=True)
    if not any(f.focused for f in tools.phone.fields()):
        return ToolReply("no text field has focus: tap one first (nothing was typed)", error=True)
    before = tools.latest
    tools.phone.type_keys(text)
    return tools.after_action(before)


@tool("swipe", "Scroll the screen to reveal more in `direction`: `down` shows what is further "
      "down (the finger moves up), `up` what is further up (the finger moves down), `right` the "
      "next page to the right (the finger moves left), `left` the page to the left. " + AFTER,
      {"direction": {"type": "string", "enum": list(DIRECTIONS),
                     "description": "where the content you want to see is"}},
      ("direction",))
def _swipe(tools: PhoneTools, args: Args) -> ToolReply:
    before = tools.latest
    start, end = scroll_points(tools.phone, str(args["direction"]))
    tools.phone.drag(start, end)
    return tools.after_action(before)


@tool("open_app", "Open an app by its home-screen name (\"Settings\", \"Notes\") or bundle id, "
      "and wait until it is in front. " + AFTER,
      {"name": {"type": "string", "description": "the app's name or bundle id"}}, ("name",))
def _open_app(tools: PhoneTools, args: Args) -> ToolReply:
    name = str(args["name"]).strip()
    if not name:
        return ToolReply("name is empty: give the app's name, e.g. \"Settings\"", error=True)
    before = tools.latest
    run_step(tools.phone, Step("open_app", name, file="tool call"))
    return tools.after_action(before)


@tool("press", "Press a hardware button: `home` goes to the home screen. " + AFTER,
      {"button": {"type": "string", "enum": list(BUTTONS), "description": "the button"}},
      ("button",))
def _press(tools: PhoneTools, args: Args) -> ToolReply:
    before = tools.latest
    if not go_home(tools.phone):
        return ToolReply("the home screen did not show after pressing home", error=True)
    return tools.after_action(before)


@tool("done", "Finish the task and report, once, as the last call. status: `done` (you did what "
      "was asked), `gave_up` (you stopped without finishing) or `failed` (you could not do it). "
      "answer: the value the task asked for, alone (`57°F`, `MQ163LL/A`, `Example Domain`; "
      "empty when it asked for none): naming other values besides it fails as a guess. summary: "
      "a sentence or two on what you did. The phone, not this report, decides whether the task "
      "passed, as you leave it: the task's app in front, showing the result.",
      {"status": {"type": "string", "enum": list(CLAIM_STATUSES),
                  "description": "done, gave_up or failed"},
       "answer": {"type": "string", "description": "the value asked for, alone, or empty"},
       "summary": {"type": "string", "description": "what you did, briefly"}},
      ("status",))
def _done(tools: PhoneTools, args: Args) -> ToolReply:
    status = cast(ClaimStatus, args["status"])
    tools.claim = Claim(status=status, answer=str(args.get("answer", "")),
                        summary=str(args.get("summary", "")))
    return ToolReply(f"claim recorded: {status}; the attempt is over")


def tool_table() -> str:
    """The tools as a Markdown table (docs/agents.md prints exactly this)."""
    lines = ["| tool | arguments | what it does |", "|---|---|---|"]
    for name, entry in TOOLS.items():
        properties = cast(dict[str, JsonSchema], entry.parameters["properties"])
        required = cast(list[str], entry.parameters["required"])
        args = []
        for key, spec in properties.items():
            choices = cast(list[str] | None, spec.get("enum"))
            kind = "|".join(choices).replace("|", " \\| ") if choices else str(spec["type"])
            args.append(f"`{key}`{'' if key in required else '?'}: {kind}")
        lines.append(f"| `{name}` | {', '.join(args) or '—'} | {entry.description} |")
    return "\n".join(lines) + "\n"


__all__ = ["GUIDE", "TOOLS", "PhoneTools", "ToolReply", "Tool", "argument_problem", "tool_table"]
