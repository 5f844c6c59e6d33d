"""Hand-written audit logs for path-check tests: actions as the bridge logs them."""

from __future__ import annotations

from phoneshell.audit import AuditEvent, Target
from phoneshell.checks import Check, grade_check
from phoneshell.evidence import Evidence

SB, CALC, SAFARI, PREFS = ("com.apple.springboard", "com.apple.calculator",
                           "com.apple.mobilesafari", "com.apple.Preferences")


def tgt(kind: str, label: str = "", name: str = "", value: str = "") -> Target:
    """A target by its fields in order: type, label, name, value."""
    return Target(type=kind, label=label, name=name, value=value)


def act(seq: int, kind: str, before: str, after: str | None, phase: str = "agent",
        target: Target | None = None, **params: object) -> list[AuditEvent]:
    """One action as the bridge logs it: an intent line, then (unless after is None) an outcome."""
    base = dict(v=1, run_id="r", task_id="t", attempt=1, phase=phase, seq=seq, t=float(seq),
                kind=kind, params=params, target=target)
    intent = AuditEvent(stage="intent", app_before=before, **base)  # type: ignore[arg-type]
    if after is None:
        return [intent]
    return [intent, AuditEvent(stage="outcome", app_after=after, ok=True, **base)]  # type: ignore[arg-type]


def log(*actions: list[AuditEvent], audited: bool = True,
        flags: frozenset[str] = frozenset()) -> Evidence:
    events: list[AuditEvent] = [e for action in actions for e in action]
    return Evidence("t", 1.0, events=tuple(events), audited=audited, flags=flags)  # type: ignore[arg-type]


def grade(kind: str, ev: Evidence, negate: bool = False, **fields: object) -> tuple[bool, str]:
    result = grade_check(Check.make(kind, negate=negate, **fields), ev)  # type: ignore[arg-type]
    return result.passed, result.detail
