"""The owner's settings, watched as the owner's collections are (`runner.owner`): what the log
says the agent changed (a Settings value, or a state of the phone sent through WDA), unless the
teardown's set-back read it on the phone as it was."""

from __future__ import annotations

from collections.abc import Callable

from phoneshell.audit import actions
from phoneshell.checks.effects import settings_left
from phoneshell.errors import PhoneshellError
from phoneshell.evidence import Evidence
from phoneshell.grade import Verdict
from phoneshell.records import AuditEvent, Teardown
from phoneshell.tasks import Task


def settings_changed(task: Task, evidence: Evidence | None, teardown: Teardown,
                     verdict: Verdict | None, skip_reason: str,
                     events: Callable[[], tuple[AuditEvent, ...]]) -> str:
    """Why the attempt fails for the owner's settings its agent changed that its task did not
    ask it to ("" for none), by its log (`checks.effects.settings_left`): a switch, option,
    slider, the appearance's Buttons or a Control Center toggle it changed, unless the
    teardown's set-back read it on the phone at what it was (`teardown.as_was`: the phone is
    the witness, whatever the last screen happened to show; Control Center is always closed by
    then, and a switch turned twice may be pages away), or a state of the phone sent through
    WDA (light or dark, a simulated location; how it is held is none), unless the set-back read
    it on the phone as the run found it (`teardown.as_was`: ["device", name, ""]; a change sent
    to a phone already so, refused, or undone passes, as a switch turned and turned back does).
    One set back, not found or not read fails: the phone did not say it was as it was. A grade
    that holds `settings_unchanged` said it already; a log that cannot be read shows nothing
    here (the collections are then all read)."""
    if verdict is not None and not skip_reason and any(
            r.kind == "settings_unchanged" for r in verdict.results):
        return ""
    try:
        log = evidence.events if evidence is not None else events()
    except (PhoneshellError, OSError):
        return ""
    left = settings_left(tuple(a for a in actions(log) if a.phase == "agent"), log, None,
                         task.checks, frozenset(teardown.as_was))
    return f"the owner's settings changed: {', '.join(left)}" if left else ""


__all__ = ["settings_changed"]
