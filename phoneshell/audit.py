"""The audit event: the one contract the bridge (writer) and the grader (reader) share.

Each action the bridge forwards is two lines of `audit.jsonl` with the same `seq`: the intent,
written and flushed before the request goes to the phone, and the outcome after it answered.
`read_audit` tolerates a torn last line (a crash mid-write) and reports it; `actions` pairs
intents with outcomes, so an intent with no outcome is an action the phone may have received.
Kinds are the named actions (launch ... open_url) plus `other`, a POST the bridge could not
name, logged with its route so nothing that may act on the phone goes unrecorded.
The schema is documented in docs/audit-log.md.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, cast

from phoneshell.records import Fields, RecordError, Scalar, dumps

AUDIT_VERSION = 1
UNSCOPED_RUN = "unscoped"

Phase = Literal["setup", "probe", "agent", "check", "teardown", "unscoped"]
PHASES: tuple[Phase, ...] = ("setup", "probe", "agent", "check", "teardown", "unscoped")
ActionKind = Literal["launch", "activate", "terminate", "tap", "type", "home", "press", "swipe",
                     "open_url", "other"]
ACTION_KINDS: tuple[ActionKind, ...] = ("launch", "activate", "terminate", "tap", "type", "home",
                                        "press", "swipe", "open_url", "other")
"""Every kind the bridge logs. `other` is any POST the bridge does not know as a read or as one
of the named actions (params {"route": path}): it may change the phone, so it is logged, never
forwarded silently."""
Stage = Literal["intent", "outcome"]


@dataclass(frozen=True)
class Target:
    """The element an action was aimed at: the focused field for keys, the hit element for taps."""

    type: str
    """WDA element type, e.g. "XCUIElementTypeSearchField"."""
    label: str = ""
    name: str = ""
    value: str = ""
    """The field's value before typing ("***" for a secure field)."""

    @classmethod
    def read(cls, f: Fields) -> Target:
        """Read a target object strictly."""
        target = cls(type=f.text("type"), label=f.text("label", ""), name=f.text("name", ""),
                     value=f.text("value", ""))
        f.done()
        return target


@dataclass(frozen=True)
class AuditEvent:
    """One line of audit.jsonl."""

    v: int
    """Schema version (1)."""
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
    """`intent` (written before forwarding) or `outcome` (after the phone answered)."""
    params: Mapping[str, Scalar] = field(default_factory=dict)
    """What the request asked for: bundle_id, x/y, text, url, button, from/to points..."""
    app_before: str = ""
    """Foreground bundle id just before the action (intent lines)."""
    app_after: str = ""
    """Foreground bundle id just after the action (outcome lines)."""
    target: Target | None = None
    """The focused field (keys) or the element under the point (taps), when resolved."""
    ok: bool | None = None
    """Outcome: whether WDA accepted the request; null on intent lines."""
    error: str = ""
    """Outcome: WDA's error or the transport failure, when not ok."""

    def to_json(self) -> str:
        """This event as one JSON line (no newline)."""
        return dumps(self)

    @classmethod
    def read(cls, f: Fields) -> AuditEvent:
        """Read one event strictly from a decoded JSON object."""
        event = cls(
            v=f.version("v", AUDIT_VERSION),
            run_id=f.text("run_id"),
            task_id=f.text("task_id"),
            attempt=f.integer("attempt"),
            phase=cast(Phase, f.choice("phase", PHASES)),
            seq=f.integer("seq"),
            t=f.number("t"),
            kind=cast(ActionKind, f.choice("kind", ACTION_KINDS)),
            stage=cast(Stage, f.choice("stage", ("intent", "outcome"))),
            params=f.scalars("params"),
            app_before=f.text("app_before", ""),
            app_after=f.text("app_after", ""),
            target=f.obj("target", Target.read, required=False),
            ok=f.opt_flag("ok"),
            error=f.text("error", ""),
        )
        f.done()
        return event


@dataclass(frozen=True)
class AuditLog:
    """The events of an audit file, and what could not be read."""

    events: tuple[AuditEvent, ...]
    torn_tail: str = ""
    """The last line when it was cut off mid-write (a crash); empty when the file is whole."""
    problems: tuple[str, ...] = ()
    """Lines that are whole but do not match the schema, each with its line number."""


def parse_audit(text: str, where: str = "audit.jsonl") -> AuditLog:
    """Parse audit JSONL text; a torn final line is reported, never raised."""
    lines = text.split("\n")
    torn = ""
    if lines and lines[-1] == "":
        lines.pop()
    elif lines:  # no final newline: the writer died mid-line
        torn = lines.pop()
    events: list[AuditEvent] = []
    problems: list[str] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            events.append(AuditEvent.read(Fields(json.loads(line), f"{where} line {number}")))
        except json.JSONDecodeError as exc:
            problems.append(f"{where} line {number}: not JSON ({exc.msg})")
        except RecordError as exc:
            problems.append(str(exc))
    if torn:
        try:  # a complete object that only lacks its newline is still a good event
            events.append(AuditEvent.read(Fields(json.loads(torn),
                                                 f"{where} line {len(lines) + 1}")))
            torn = ""
        except (json.JSONDecodeError, RecordError):
            pass
    return AuditLog(tuple(events), torn, tuple(problems))


def read_audit(path: Path, offset: int = 0) -> AuditLog:
    """Read an audit.jsonl file (missing file: no events), from byte `offset` on.

    Reading from an offset taken earlier (`audit_size`) gives what was appended since, without
    reading the whole log again; line numbers in problems then count from the offset.
    """
    if not path.exists():
        return AuditLog(())
    with path.open("rb") as log:
        log.seek(offset)
        text = log.read().decode("utf-8", errors="replace")
    return parse_audit(text, str(path))


def audit_size(path: Path) -> int:
    """The log's size in bytes now (0 when it does not exist yet): an offset for `read_audit`."""
    return path.stat().st_size if path.exists() else 0


@dataclass(frozen=True)
class Action:
    """One action: its intent joined with its outcome (if the outcome was ever written)."""

    seq: int
    phase: Phase
    kind: ActionKind
    t: float
    params: Mapping[str, Scalar]
    app_before: str
    app_after: str
    """Foreground after the action; "" when no outcome was recorded."""
    target: Target | None
    ok: bool | None
    """None when the log has the intent only (the bridge died before the phone answered)."""
    error: str

    def describe(self) -> str:
        """A short human line: kind, the main parameter and the outcome."""
        main = next((str(self.params[k]) for k in ("bundle_id", "text", "url", "button")
                     if k in self.params), "")
        if self.kind == "tap" and self.target is not None:
            main = self.target.label or self.target.name or main
        elif self.kind == "tap" and "x" in self.params:
            main = f"({self.params['x']}, {self.params['y']})"
        state = {True: "ok", False: f"failed: {self.error}", None: "no outcome"}[self.ok]
        return f"#{self.seq} {self.phase} {self.kind} {main!r} {state}".replace(" ''", "")


def actions(events: Iterable[AuditEvent]) -> tuple[Action, ...]:
    """Pair each intent with its outcome by seq (per run), in seq order."""
    intents: dict[tuple[str, int], AuditEvent] = {}
    outcomes: dict[tuple[str, int], AuditEvent] = {}
    for event in events:
        key = (event.run_id, event.seq)
        (intents if event.stage == "intent" else outcomes)[key] = event
    merged: list[Action] = []
    for key in sorted(set(intents) | set(outcomes), key=lambda k: (k[0], k[1])):
        intent, outcome = intents.get(key), outcomes.get(key)
        first = intent or outcome
        assert first is not None
        merged.append(Action(
            seq=first.seq, phase=first.phase, kind=first.kind, t=first.t,
            params=first.params,
            app_before=(intent.app_before if intent else "") or first.app_before,
            app_after=outcome.app_after if outcome else "",
            target=(intent.target if intent and intent.target else
                    outcome.target if outcome else None),
            ok=outcome.ok if outcome else None,
            error=outcome.error if outcome else "",
        ))
    return tuple(merged)
