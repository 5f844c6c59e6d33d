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
Only a rig that went down (WDA unreachable, phone locked) raises. A `null` argument is one left
out (`tool_schema.given`), and `done` is read by the claim file's own reader, so a claim means
the same whichever way it came.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import cast

from phoneshell.agents.aiming import DRAG, swipe_ends, target
from phoneshell.agents.environment import GRADED, oversized_claim
from phoneshell.agents.observation import Observation, read_screen
from phoneshell.agents.opening import choose_app
from phoneshell.agents.read_tool import READ, READ_ARGS, read_row
from phoneshell.agents.tool_schema import (
    Args,
    JsonSchema,
    Tool,
    ToolReply,
    argument_problem,
    checked_call,
)
from phoneshell.device import SPRINGBOARD, Phone, run_step
from phoneshell.device.steps import is_home_screen
from phoneshell.errors import RIG_DOWN, DeviceError, StepError
from phoneshell.records import CLAIM_STATUSES, Claim, ClaimFile, RecordError
from phoneshell.registry import Registry
from phoneshell.tasks import Step

DIRECTIONS = ("up", "down", "left", "right")
BUTTONS = ("home",)
HOLD_S = 1.0
"""How long long_press holds when it is not told (a person's long press; iOS opens a context
menu after 0.5 s)."""
MAX_HOLD_S = 5.0
"""The longest hold a tool asks for: the bridge refuses a longer gesture (`MAX_GESTURE_S`)."""
SETTLE_S = 2.0
"""How long an action's effect may take to show before "the screen did not change"."""
POLL_S = 0.1

GUIDE = """\
You operate an iPhone through tools. Each observation is a table of what is on the screen, one
row per element: id, type, text, centre (x,y in points), size and flags, under a line giving the
screen's size. A text is cut after 80 characters (flagged cut): read gives a row's whole text.
A list may go on past the screen even when no "more content" line says so: swipe to see.
Act by the ids of the latest observation only (an id such as 3.12 means observation 3, row 12);
older ids are refused. Where an element's centre is not the place, tap and long_press also
take a point (x, y in points, from the top-left corner; sent in whole points), and swipe takes
a drag from one point to another instead of a direction: to turn one picker wheel (a tap above
or below its centre turns it a row, a drag along it several), to swipe in from a screen edge
(down from the top edge, y 0, opens Notification Centre), to move a slider. long_press touches
and holds (context menus, selecting a word). Every action returns the new observation, or says the
screen did not change (then try something else). Use open_app to open an app, swipe to scroll,
type to enter text into the focused field, a whole text in one call (tapping the keyboard's keys
spends a call a key). Each tool call is one turn of your budget, a read or a mistaken one too,
and acts on the phone once at most (open_app launches or taps once, press presses once). When
you have finished, or cannot go on, call done once with status done,
gave_up or failed, the answer the task asked for (if any) and a one-sentence summary. """ + GRADED
"""What every agent path tells the model about the tools (system prompt, MCP instructions)."""


def tool_calls(count: int) -> str:
    """`count` tool calls in words: "1 tool call", "25 tool calls"."""
    return f"{count} tool call{'' if count == 1 else 's'}"


def budget_told(max_turns: int | None, timeout_s: float | None = None) -> str:
    """The budget a model is told after `GUIDE` (the `openai:` loop's system prompt, the MCP
    server's instructions), with this task's numbers ("" with no budget of calls): what
    `PhoneTools` holds it to, every tool call a turn."""
    if max_turns is None:
        return ""
    seconds = f" and {timeout_s:.0f} seconds" if timeout_s is not None else ""
    return (f"Budget: at most {tool_calls(max_turns)} (then only done){seconds}; each call is "
            "one, a read or a mistaken one too.")


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
        self.looked = False
        """Whether the attempt's first observation (the free one) was given: by this object, or
        by another server of the same attempt (`mcp_server` carries it in the turns file)."""
        self.turns = 0
        """Tool calls made, `done` and mistaken calls included, the attempt's first observation
        not; calls refused past the budget are not counted, so it is at most `max_turns` and one
        valid `done`."""
        self.out_of_turns = False
        self.refused = ""
        """What ended the budget once it was spent ("" while nothing did): "called 'tap'
        instead of done", "called done, which was refused: ...", or the loop's own words."""
        self.claim: Claim | None = None

    @property
    def spent(self) -> bool:
        """Whether every tool call of the budget is used (then only a valid done is taken)."""
        return self.max_turns is not None and self.turns >= self.max_turns

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
        if self.spent and name != "done":
            return self.refuse(f"called {name[:40]!r} instead of done")
        tool, checked = checked_call(TOOLS, name, arguments)
        if name == "done" and not isinstance(checked, str):  # a claim the harness can read
            made = claim_of(checked)
            checked = made if isinstance(made, str) else checked
        if self.spent and isinstance(checked, str):  # past the budget, only a valid done
            return self.refuse(f"called done, which was refused: {checked}",
                               f"; this done was refused: {checked}")
        # Every call costs a turn, a mistaken one too: none is free to repeat. The first look
        # at the screen is none on any path: the `openai:` loop sends it with the instruction
        # (`observe`, before any call), an MCP client must ask for it (red team 112).
        if not (name == "observe" and not self.looked and not isinstance(checked, str)):
            self.turns += 1
        if isinstance(checked, str):
            return ToolReply(checked, error=True)
        assert tool is not None
        try:
            return cast(ToolReply, tool.run(self, checked))
        except RIG_DOWN:
            raise
        except (DeviceError, StepError) as exc:
            return ToolReply(f"{name} failed: {exc.message}", error=True)

    def refuse(self, what: str, told: str = "") -> ToolReply:
        """Refuse what the model did past the budget (not counted): the attempt is out of
        turns, `refused` says what it did (`what`, the first time), and the model is told
        (`told`: why, after "call done")."""
        self.out_of_turns = True
        self.refused = self.refused or what
        return ToolReply(f"out of turns: {used_all(self.max_turns or 0)}; call done" + told,
                         error=True)

    # -- helpers the tools share ----------------------------------------------------------------

    def observe(self) -> ToolReply:
        """Issue a new observation of the screen."""
        self.issued += 1
        self.looked = True
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
        self.looked = True
        self.latest = seen
        return self._shown(seen)


def every_call(max_turns: int | None) -> str:
    """Every tool call of a budget, in words: "all 25 tool calls", "the 1 tool call"."""
    if max_turns is None:
        return "every tool call"
    return "the 1 tool call" if max_turns == 1 else f"all {max_turns} tool calls"


def used_all(max_turns: int) -> str:
    """That every tool call of a budget is used: "all 25 tool calls are used", "the 1 tool
    call is used"."""
    return f"{every_call(max_turns)} {'is' if max_turns == 1 else 'are'} used"


def claim_of(args: Args) -> Claim | str:
    """The claim a `done` makes, or why it is refused: read by the claim file's own reader,
    and no larger than the harness reads (`oversized_claim`)."""
    # The one reader of a claim, whatever wrote it (this call, `phoneshell finish`'s file, a
    # stdout line): the arguments were checked against the same fields, nulls left out.
    try:
        claim = ClaimFile.of({"v": ClaimFile.VERSION, **args}, "done").claim
    except RecordError as exc:
        return f"done was refused: {exc}"
    too_large = oversized_claim(claim)
    return f"done was refused: {too_large}" if too_large else claim


Handler = Callable[[PhoneTools, Args], ToolReply]


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


AFTER = ("Returns the new observation, or a line saying the screen did not change (then the "
         "previous observation's ids stay valid).")


@tool("observe", "Read the screen. Returns an observation: a table with one row per element "
      "worth reading or acting on (id, type, text, centre x,y in points, size WxH, flags: "
      "focused, disabled, on/off for switches, selected, empty for an empty text field, cut "
      "for a text cut after 80 characters: read gives it whole). Ids "
      "belong to this observation only: once a newer observation is issued (by observe, or by "
      "an action that changed the screen), older ids are refused.", {})
def _observe(tools: PhoneTools, args: Args) -> ToolReply:
    return tools.observe()


@tool("read", READ, READ_ARGS, ("id",))
def _read(tools: PhoneTools, args: Args) -> ToolReply:
    return read_row(tools.latest, args)


ID: JsonSchema = {"type": "string", "description": "an id from the latest observation, e.g. "
                  "\"3.12\" (or give x and y instead)"}
X: JsonSchema = {"type": "number", "description": "a point instead of an id: x in points from "
                 "the screen's left edge"}
Y: JsonSchema = {"type": "number", "description": "y in points from the screen's top edge"}


@tool("tap", "Tap an element by its id in the latest observation (e.g. \"3.12\": observation "
      "3, row 12): the tap lands on the element's centre as that observation recorded it. Or "
      "tap a point on the screen, x and y in points (e.g. above or below a picker wheel's "
      "centre to turn that wheel one row). " + AFTER,
      {"id": ID, "x": X, "y": Y})
def _tap(tools: PhoneTools, args: Args) -> ToolReply:
    point = target(tools.phone, tools.latest, "tap", args)
    if isinstance(point, str):
        return ToolReply(point, error=True)
    before = tools.latest
    tools.phone.tap(*point)
    return tools.after_action(before)


@tool("long_press", "Touch and hold an element by its id in the latest observation, or a "
      f"point (x, y), for `seconds` (default {HOLD_S:g}): brings up a context menu (a link's, "
      "an app icon's) or selects the word held in a text being edited. " + AFTER,
      {"id": ID, "x": X, "y": Y,
       "seconds": {"type": "number", "minimum": 0.1, "maximum": MAX_HOLD_S,
                   "description": f"how long to hold, {0.1:g} to {MAX_HOLD_S:g} "
                                  f"(default {HOLD_S:g})"}})
def _long_press(tools: PhoneTools, args: Args) -> ToolReply:
    point = target(tools.phone, tools.latest, "long_press", args)
    if isinstance(point, str):
        return ToolReply(point, error=True)
    before = tools.latest
    tools.phone.touch_and_hold(*point, float(cast(float, args.get("seconds", HOLD_S))))
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
      "next page to the right (the finger moves left), `left` the page to the left. Or, instead "
      "of a direction, drag one finger from (from_x, from_y) to (to_x, to_y), in points: along "
      "one picker wheel to turn it (up brings later rows), in from a screen edge (down from the "
      "top edge, from_y 0: Notification Centre), along a slider. " + AFTER,
      {"direction": {"type": "string", "enum": list(DIRECTIONS),
                     "description": "where the content you want to see is"},
       **{key: {"type": "number", "description": f"a drag's {key.replace('_', ' ')}, in points "
                                                 "(all four, instead of a direction)"}
          for key in DRAG}})
def _swipe(tools: PhoneTools, args: Args) -> ToolReply:
    ends = swipe_ends(tools.phone, args)
    if isinstance(ends, str):
        return ToolReply(ends, error=True)
    before = tools.latest
    tools.phone.drag(*ends)
    return tools.after_action(before)


@tool("open_app", "Open an app, and wait until it is in front: one of Apple's apps by its "
      "name (\"Settings\", \"Notes\") or its bundle id, or the icon of that name on the "
      "home-screen page showing (how any other app opens). A name it cannot place is answered "
      "with the names close to it, and nothing is done. " + AFTER,
      {"name": {"type": "string", "description": "the app's name (or an Apple app's bundle "
                                                 "id)"}}, ("name",))
def _open_app(tools: PhoneTools, args: Args) -> ToolReply:
    name = str(args["name"]).strip()
    if not name:
        return ToolReply("name is empty: give the app's name, e.g. \"Settings\"", error=True)
    with tools.phone.keeping_reads():
        choice = choose_app(tools.phone, name)
    if choice.problem:
        return ToolReply(f"open_app: {choice.problem}", error=True)
    before = tools.latest
    if choice.icon is None:
        run_step(tools.phone, Step("launch", choice.bundle_id, file="tool call"))
        return tools.after_action(before)
    tools.phone.tap(*choice.icon.centre)
    if not tools.phone.poll(lambda: tools.phone.foreground().bundle_id != SPRINGBOARD,
                            tools.settle_s * 2):
        raise StepError(f"tapping the icon {name!r} opened nothing (pressed once)")
    return tools.after_action(before)


@tool("press", "Press a hardware button, once: `home` goes to the home screen (from an app; on "
      "the home screen, to its first page). " + AFTER,
      {"button": {"type": "string", "enum": list(BUTTONS), "description": "the button"}},
      ("button",))
def _press(tools: PhoneTools, args: Args) -> ToolReply:
    before = tools.latest
    tools.phone.home()
    shown = tools.after_action(before)
    if is_home_screen(tools.phone):
        return shown
    # one call, one press: a second try is the model's to make, and to count
    return replace(shown, text="home was pressed once and the home screen does not show; "
                               f"press again, or try something else.\n{shown.text}")


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
    claim = claim_of(args)  # `call` refuses what this refuses before it counts the call
    if isinstance(claim, str):
        return ToolReply(claim, error=True)
    tools.claim = claim
    return ToolReply(f"claim recorded: {claim.status}; the attempt is over")


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
