"""The audit event: the one contract the bridge (writer) and the grader (reader) share.

Each action the bridge forwards is two lines of `audit.jsonl` with the same `seq`: the intent,
written and flushed before the request goes to the phone, and the outcome after it answered.
Two more stages stand alone: `refused` (a request the bridge would not forward) and `custody`
(the phone changed with no logged action to explain it). The schema is documented in
docs/audit-log.md.

Every string a line holds that the phone or the client chose (typed text, a URL, a field's text,
a label, an error) is kept to a bounded length (`AuditEvent.bounded`), so no action makes a line
longer than a few kilobytes, whatever the agent typed before it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import ClassVar, Literal

from pydantic import Field

from phoneshell.records.base import Part, Record

AUDIT_VERSION = 2
UNSCOPED_RUN = "unscoped"
LOG_SHARE = "log_share"
"""`params.via` of the `refused` lines that say an agent's turn used up its share of the log
(`params.lines`, `params.bytes`), and how many of its lines were refused after (`dropped`)."""
TEXT_MAX = 2000
"""The most characters a string of `params`, or `error`, is written with: more than one request
may type (`bridge.limits.MAX_TYPED_CHARS`), so typed text is never shortened."""
ELEMENT_MAX = 1000
"""The most characters a string of `target`, or an app id, is written with. A label or a name
is a few words; a field's text (what an agent typed before) can be anything."""

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


def shortened(text: str, limit: int) -> str:
    """`text` when it has at most `limit` characters; else its start, then its length and a
    digest of the whole, `limit` characters in all: "xxx… [400,000 characters, sha256
    1f0c…]". Two texts shortened are the same text exactly when their shortened forms are the
    same (but for a digest collision), so equality still compares them, and a substring of
    the start is still found."""
    if len(text) <= limit:
        return text
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    tail = f"… [{len(text):,} characters, sha256 {digest}]"
    return text[:max(0, limit - len(tail))] + tail


def _short_params(params: Mapping[str, Scalar]) -> dict[str, Scalar]:
    return {key: shortened(value, TEXT_MAX) if isinstance(value, str) else value
            for key, value in params.items()}


class Target(Part):
    """The element an action was aimed at: the focused field for keys, the hit element for taps."""

    type: str
    """WDA element type, e.g. "XCUIElementTypeSearchField"."""
    label: str = ""
    """The element's label."""
    name: str = ""
    """The element's name (its accessibility identifier when it has one)."""
    value: str = ""
    """The field's value before typing ("***" for a secure field), shortened past 1,000
    characters."""
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
    pages_back: int = 0
    """For an item of the history menu a navigation bar's back button opens when held (iOS 14
    on; shown over the page, its first item the page the back button names), how many pages
    back choosing it goes: 1 for the first, the page right under this one, 2 for the next
    (`bridge/back_menus.py`); 0 for anything else."""

    def bounded(self) -> Target:
        """This target with each string at most `ELEMENT_MAX` characters (`shortened`)."""
        fields = ("type", "label", "name", "value", "page", "chosen")
        if all(len(getattr(self, f)) <= ELEMENT_MAX for f in fields):
            return self
        return self.model_copy(update={f: shortened(getattr(self, f), ELEMENT_MAX)
                                       for f in fields})


class AuditEvent(Record):
    """One line of audit.jsonl. A string the phone or a client chose is written at most 2,000
    characters long in `params` and `error`, 1,000 in `target` and the app ids; a longer one is
    shortened to its start, its length and a digest ("xxx… [400,000 characters, sha256
    1f0c9a2b3c4d5e6f]"), so equal texts stay equal."""

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
    field: Target | None = None
    """Intent lines of a tap on the on-screen keyboard (`target.keyboard`, or a Key): the text
    input with focus, which the key types into, when the bridge could tell (null otherwise). A
    field the phone focuses by itself (Spotlight's, a new note's body) was never tapped: this
    is how the log says where a key's character went."""
    ok: bool | None = None
    """Outcome: whether WDA accepted the request; null on intent lines."""
    answered_t: float | None = None
    """Outcome lines: Unix time when WDA answered the request, where the line was written at a
    read after the answer (its `t`), which may come long after (a put-off read); null where the
    line was written at the answer, on other lines, and when no answer came."""
    error: str = ""
    """Outcome: WDA's error or the transport failure, when not ok (with the request's own text
    masked wherever WDA echoed it); refused and custody lines: why."""

    def bounded(self) -> AuditEvent:
        """This event with every string the phone or a client chose kept short (`shortened`):
        params and error to `TEXT_MAX` characters, the target's strings and app ids to
        `ELEMENT_MAX`. What the bridge writes, and what readers keep of older, unbounded logs."""
        params = _short_params(self.params)
        target = self.target.bounded() if self.target is not None else None
        field = self.field.bounded() if self.field is not None else None
        app_before = shortened(self.app_before, ELEMENT_MAX)
        app_after = shortened(self.app_after, ELEMENT_MAX)
        error = shortened(self.error, TEXT_MAX)
        if (params == self.params and target is self.target and field is self.field
                and app_before == self.app_before
                and app_after == self.app_after and error == self.error):
            return self
        return self.model_copy(update={"params": params, "target": target, "field": field,
                                       "app_before": app_before, "app_after": app_after,
                                       "error": error})
