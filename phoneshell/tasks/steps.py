"""The step vocabulary of setup, teardown and solution lists: one registry, validation only.

Executing a step is the device layer's job (phoneshell/device); this module only says what each
step accepts, so the loader, `phoneshell schema` and the docs read the same table.

A step is written as a bare name (`- home`), a name with a scalar (`- terminate: com.apple.Maps`)
or a name with a mapping (`- wait: {seconds: 1.5}`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from phoneshell.params import Param
from phoneshell.registry import Registry

StepList = Literal["setup", "teardown", "solution"]
ALL_LISTS: tuple[StepList, ...] = ("setup", "teardown", "solution")
DIRECTIONS = ("up", "down", "left", "right")
BUTTONS = ("home",)
"""The buttons a step presses: the volume buttons change what nothing reads or sets back (the
bridge refuses them: `bridge.actions.LASTING_BUTTONS`)."""
ANSWER_STEPS = ("answer", "answer_read")
"""The steps that end a solution with its answer: a text, or what the screen shows."""
DELETABLE = ("notes_titled", "notes_containing", "reminders_titled", "safari_tabs",
             "clock_timers", "stopwatch", "alarms", "world_clocks", "timer_dialled")
"""Count probes whose growth `delete_created` knows how to delete (phoneshell/device/cleanup)."""


@dataclass(frozen=True)
class Step:
    """One step of a setup, teardown or solution list, validated against its kind."""

    kind: str
    """The registered step kind, e.g. "terminate"."""
    arg: str = ""
    """The scalar argument: bundle id, app name, URL, text, direction, button, answer, or the
    pattern of `answer_read`."""
    seconds: float = 0.0
    """Duration for `wait` and `long_press`."""
    start: tuple[float, float] | None = None
    """`swipe` from this point (screen points), instead of a direction."""
    end: tuple[float, float] | None = None
    """`swipe` to this point (screen points)."""
    options: tuple[tuple[str, str], ...] = ()
    """The text fields of the mapping form as (key, value) pairs, e.g. set_picker's wheel and
    value; read them with `option`."""
    file: str = ""
    """The task file the step came from."""
    line: int = 0
    """The 1-based line of the step in its file."""

    def describe(self) -> str:
        """The step as a person would write it, with its place: "tap 'General' (a.yaml:12)"."""
        if self.start is not None and self.end is not None:
            body = f"{self.kind} from {list(self.start)} to {list(self.end)}"
        elif self.kind == "wait":
            body = f"wait {self.seconds:g}s"
        elif not self.arg and self.options:
            # `kept` is bound by the runner for delete_created: rows, too long to name a step by
            body = " ".join([self.kind, *(f"{k}={v!r}" for k, v in self.options if k != "kept")])
        else:
            body = f"{self.kind} {self.arg!r}" if self.arg else self.kind
        if self.option("nth"):
            body += f" (row {self.option('nth')} from the top)"
        return f"{body} ({self.file}:{self.line})" if self.file else body

    def option(self, key: str, default: str = "") -> str:
        """The text given for `key` in the mapping form, or `default`."""
        return next((v for k, v in self.options if k == key), default)

    @classmethod
    def tap_on(cls, text: str, short_type: str) -> Step:
        """A `tap` of the element of `short_type` showing `text`, as `tap: {text: ..., type:
        ...}` loads: for procedures written in code, which content on screen must not steer."""
        return cls("tap", text, options=(("text", text), ("type", short_type)))


@dataclass(frozen=True)
class StepKind:
    """What one step kind accepts and where it may appear."""

    name: str
    doc: str
    scalar: Param | None = None
    """How `- kind: VALUE` is read (into `Step.arg`, or `seconds` for wait); None: no scalar."""
    params: tuple[Param, ...] = ()
    """Keys accepted in the mapping form `- kind: {key: value}`."""
    bare: bool = False
    """Whether `- kind` alone is accepted."""
    lists: tuple[StepList, ...] = ALL_LISTS
    """Which lists the step may appear in."""


STEPS: Registry[StepKind] = Registry("step", "phoneshell schema --steps")


def _add(kind: StepKind) -> None:
    STEPS.register(kind.name)(kind)


BUNDLE = Param("bundle_id", "bundle_id", "Bundle id, e.g. com.apple.Preferences.", required=True)
TEXT = Param("text", "str", "Text of the element (label, name or value; case-insensitive).",
             required=True)
ELEMENT_TYPE = Param("type", "wda_type", "Only an element of this WDA type (without its "
                                         "XCUIElementType prefix, e.g. SearchField, Button), so "
                                         "content that shares the text (a note titled Search) "
                                         "is never what is tapped.")

_add(StepKind("home", "Go to the home screen and confirm SpringBoard is in front.", bare=True))
_add(StepKind("terminate", "Stop an app if it runs; confirm it is no longer in front.",
              scalar=BUNDLE))
_add(StepKind("launch", "Launch an app by bundle id; confirm it came to the front.",
              scalar=BUNDLE))
_add(StepKind("open_app", "Open an app by its display name (or bundle id); confirm it came to "
              "the front.", scalar=Param("name", "str", "App name as on the home screen, e.g. "
                                         "Settings.", required=True)))
_add(StepKind("open_url", "Open a URL (in Safari for web links); confirm the app came to the "
              "front.", scalar=Param("url", "str", "The URL, e.g. https://example.com.",
                                     required=True)))
NTH = Param("nth", "choice", "Tap the n-th row from the top that shows the text (one a row, "
                           "the page's title and typing left out), instead of the best match: "
                           "search results in turn.", choices=tuple("123456789"))
_add(StepKind("tap", "Tap the on-screen element whose label, name or value contains the text "
              "(the shortest such text wins; with `nth`, the n-th row from the top that shows "
              "it); confirm the screen changed.",
              scalar=TEXT, params=(TEXT, ELEMENT_TYPE, NTH)))
_add(StepKind("long_press", "Touch and hold the element matching the text; confirm the screen "
              "changed.", scalar=TEXT,
              params=(TEXT, ELEMENT_TYPE, Param("seconds", "number",
                                                "How long to hold (default 1).", minimum=0.1))))
_add(StepKind("type", "Type into the focused field (a newline presses Return); confirm by "
              "reading the field back.", scalar=Param("text", "str", "The text to type.",
                                                      required=True),
              params=(Param("text", "str", "The text to type.", required=True),)))
_add(StepKind("swipe", "Scroll the screen: `down` shows what is further down (the finger moves "
              "up). With from/to, drag between two points instead.",
              scalar=Param("direction", "choice", "Which way the content scrolls.",
                           choices=DIRECTIONS),
              params=(Param("direction", "choice", "Which way the content scrolls.",
                            choices=DIRECTIONS),
                      Param("from", "point", "Start of a drag, in screen points."),
                      Param("to", "point", "End of a drag, in screen points.")),
              bare=True))
_add(StepKind("wait", "Wait a number of seconds (default 1) for the screen to settle.",
              scalar=Param("seconds", "number", "Seconds to wait.", minimum=0),
              params=(Param("seconds", "number", "Seconds to wait.", minimum=0),), bare=True))
_add(StepKind("press", "Press a hardware button.",
              scalar=Param("button", "choice", "The button.", choices=BUTTONS)))
_add(StepKind("answer", "A solution's final answer: what the agent reports as its answer.",
              scalar=Param("text", "str", "The answer text.", required=True),
              lists=("solution",)))
_add(StepKind("answer_read", "A solution's final answer read off the screen, as an agent "
              "reads it: the first text on screen the pattern matches (each element's label, "
              "name and value, in the page's order, as `regex_on_screen` searches), so the "
              "finish answers whatever this phone shows (its heading, its battery level), "
              "never a value written into the task.",
              scalar=Param("pattern", "regex", "What the value looks like, e.g. "
                                               "`^\\d+° (N|NE|E|SE|S|SW|W|NW)$`; the whole "
                                               "match is the answer.", required=True),
              lists=("solution",)))
_add(StepKind("set_picker", "Turn an on-screen picker wheel to a value by taps above or below "
              "its centre, reading it back after each, as XCTest does; confirm the wheel reads "
              "the value.",
              params=(Param("wheel", "str", "Which wheel: text its label, name or value "
                                            "contains (e.g. `min`, `o'clock`), or its position "
                                            "among the wheels on screen from the left (`\"1\"`, "
                                            "`\"2\"`...).", required=True),
                      Param("value", "str", "The value the wheel must read, e.g. `5 min`, "
                                            "`7 o'clock`, `AM` (case, spacing and the "
                                            "apostrophe's shape are ignored).",
                            required=True))))
_add(StepKind("select_tab", "Select a tab of the tab bar in front by its label (nothing when it "
              "is selected already); confirm it reads selected. Apps such as Clock reopen on "
              "the last tab used, so a setup that needs a known tab selects it, and a "
              "reference finish that needs one selects it rather than taps it.",
              scalar=Param("text", "str", "The tab's label, e.g. `World Clock`.",
                           required=True)))
_add(StepKind("back_to", "Go back (the navigation bar's back button) until the element matching "
              "the text shows (nothing when it shows already); confirm it shows. Apps such as "
              "Reminders reopen in the screen they stopped on, so a setup or a finish that "
              "starts from an app's top screen goes back to it.",
              scalar=TEXT, params=(TEXT, ELEMENT_TYPE)))
_add(StepKind("clean_notes", "Delete the notes runs left behind: every note Notes' own search "
              "finds for the text, newest first, keeping the `keep` oldest (a note another "
              "task needs to exist).",
              scalar=Param("text", "str", "Words the notes hold.", required=True),
              params=(Param("text", "str", "Words the notes hold.", required=True),
                      Param("keep", "choice", "How many of the oldest such notes stay "
                                              "(default 0).", choices=("0", "1", "2", "3")),
                      Param("exact", "choice", "`yes`: only notes that are the text and "
                                               "nothing else.", choices=("yes", "no"))),
              lists=("setup", "teardown")))
_add(StepKind("clean_alarms", "Delete alarms a run left behind (unnamed, one-off, switched "
              "off), so Clock does not slow down over many runs.", bare=True,
              lists=("setup", "teardown")))
_add(StepKind("restore_timer", "Dial Clock's timer wheels back to what the `timer_dialled` count "
              "of this duration read before the agent (Clock reopens on the duration last set, "
              "so the next attempt and the owner find theirs); when it found them at this "
              "duration or none (a timer ran), to what the run read before its first attempt, "
              "else off it to a new phone's 15 minutes.",
              scalar=Param("duration", "str", "The duration the count reads the wheels at, "
                           "H:MM:SS (the check's `text`), e.g. `0:05:00`.", required=True),
              lists=("teardown",)))
_add(StepKind("delete_created", "Delete what the agent added to a count (the task's side-effect "
              "probe, counted before the agent and after capture): as many as it grew by, newest "
              "first, through the app's own UI; nothing when it did not grow.",
              params=(Param("probe", "choice", "The count probe whose growth to delete.",
                            required=True, choices=DELETABLE),
                      Param("text", "str", "The probe's argument (the check's `text`).")),
              lists=("teardown",)))

