"""The audit event: the one contract the bridge (writer) and the grader (reader) share.

Each action the bridge forwards is two lines of `audit.jsonl` with the same `seq`: the intent,
written and flushed before the request goes to the phone, and the outcome after it answered.
Two more stages stand alone: `refused` (a request the bridge would not forward) and `custody`
(the phone changed with no logged action to explain it). The schema is documented in
docs/audit-log.md.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from phoneshell.records.base import Part, Record

AUDIT_VERSION = 2
UNSCOPED_RUN = "unscoped"

Scalar = str | int | float | bool | None
Phase = Literal["setup", "probe", "agent", "check", "teardown", "unscoped"]
PHASES: tuple[Phase, ...] = ("setup", "probe", "agent", "check", "teardown", "unscoped")
ActionKind = Literal["launch", "activate", "terminate", "tap", "type", "home", "press", "swipe",
                     "open_url", "other"]
ACTION_KINDS: tuple[ActionKind, ...] = ("launch", "activate", "terminate", "tap", "type", "home",
                                        "press", "swipe", "open_url", "other")
"""Every kind the bridge logs. `other` is any POST the bridge does not know as a read or as one
of the named actions (params {"route": path}): it may change the phone, so it is logged, never
forwarded silently."""
Stage = Literal["intent", "outcome", "refused", "custody"]
STAGES: tuple[Stage, ...] = ("intent", "outcome", "refused", "custody")
"""`intent` (before forwarding) and `outcome` (after the phone answered) are the two lines of an
action; `refused`: a request the bridge did not forward, and why; `custody`: the phone was seen
changed although no logged action explains it (something acted outside the bridge)."""


class Target(Part):
    """The element an action was aimed at: the focused field for keys, the hit element for taps."""

    type: str
    """WDA element type, e.g. "XCUIElementTypeSearchField"."""
    label: str = ""
    """The element's label."""
    name: str = ""
    """The element's name (its accessibility identifier when it has one)."""
    value: str = ""
    """The field's value before typing ("***" for a secure field)."""
    page: str = ""
    """The title of the page it was on: the name of the navigation bar on screen ("" when none
    showed, or the element was named by id). A Settings switch is set back on this page."""
    chosen: str = ""
    """For a row of a list of options (one of its cells holds UIKit's checkmark: Auto-Lock's),
    the label of the option chosen before the action ("" elsewhere): a Settings choice the
    agent changed is set back to it."""
    keyboard: bool = False
    """The element is part of the on-screen keyboard (inside its `XCUIElementTypeKeyboard`): a
    key, or the keyboard's own Return button. A Button labelled Done or Search elsewhere on the
    screen is not: only the keyboard's Return sends what was typed."""


class AuditEvent(Record):
    """One line of audit.jsonl."""

    VERSION: ClassVar[int] = AUDIT_VERSION
    VERSION_KEY: ClassVar[str] = "v"
    v: int = AUDIT_VERSION
    """Schema version (2)."""
    run_id: str
    """The run this action belongs to; "unscoped" when no run context was set."""
    task_id: str
    """The task of the attempt ("" when unscoped)."""
    attempt: int
    """Attempt number within the run, from 1 (0 when unscoped)."""
    phase: Phase
    """Which part of the attempt acted: setup, probe, agent, check, teardown (or unscoped)."""
    seq: int
    """Strictly increasing per run; the intent and outcome of one action share it."""
    t: float
    """Unix time in seconds when this line was written."""
    kind: ActionKind
    """What was done: launch, activate, terminate, tap, type, home, press, swipe, open_url, or
    other (an unnamed POST; params {"route": path})."""
    stage: Stage
    """`intent` (written before forwarding), `outcome` (after the phone answered), `refused`
    (not forwarded; `error` says why) or `custody` (the phone changed outside the bridge:
    `app_before`/`screen_before` what the log last showed, `app_after`/`screen_after` what was
    seen, `params.via` the read that saw it)."""
    params: dict[str, Scalar] = Field(default_factory=dict)
    """What the request asked for: bundle_id, x/y, text, url, button, from/to points..."""
    app_before: str = ""
    """Foreground bundle id just before the action (intent lines)."""
    app_after: str = ""
    """Foreground bundle id just after the action (outcome lines)."""
    screen_before: str = ""
    """A digest of the screen the action was aimed at (intent lines), when a page source was at
    hand; "" when none was read."""
    screen_after: str = ""
    """A digest of the screen just after the action (outcome lines); "" when none was read."""
    target: Target | None = None
    """The focused field (keys) or the element under the point (taps), when resolved."""
    ok: bool | None = None
    """Outcome: whether WDA accepted the request; null on intent lines."""
    error: str = ""
    """Outcome: WDA's error or the transport failure, when not ok (with the request's own text
    masked wherever WDA echoed it); refused and custody lines: why."""
