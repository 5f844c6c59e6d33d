"""What the agent's typing came to, field by field: each send, and each text a field held.

Read from the editings `keystrokes.editings` replays from the audit log (pure: never touches a
device). A send is one definition for every check (`sends`): Return typed, or the keyboard's
own Return tapped, while the field had the editing, or a tap on the suggestion that is the
text typed (`chosen`).
"""

from __future__ import annotations

from collections.abc import Sequence

from phoneshell.audit import Action
from phoneshell.checks.keystrokes import Editing, Typed, editings
from phoneshell.spelling import folded
from phoneshell.xcui import TEXT_INPUTS


def sends(editing: Editing) -> list[Typed]:
    """Every send of one field's text, in order: the one definition every check uses. Return
    typed, or the keyboard's own Return tapped, while the field had the editing; or the tap
    that ended the editing on the suggestion that is what was typed (`chosen`)."""
    suggestion = chosen(editing)
    return [s for s in editing.states if s.sent] + ([suggestion] if suggestion else [])


def _moments(editing: Editing) -> list[Typed]:
    """The field's text after each keystroke and at each send (`sends`), in order."""
    suggestion = chosen(editing)
    return editing.states + ([suggestion] if suggestion else [])


def typed_runs(actions: Sequence[Action]) -> list[Typed]:
    """Every state of every field the agent typed into: its text after each keystroke, and at
    each send (`Typed.sent`, `sends`), in order."""
    return [state for editing in editings(actions) for state in _moments(editing)]


def typed_sends(actions: Sequence[Action]) -> list[Typed]:
    """Every send of every field the agent typed into (`sends`), in order."""
    return [state for editing in editings(actions) for state in sends(editing)]


def typed_ends(actions: Sequence[Action]) -> list[Typed]:
    """What each field held when something was done with it: each send (`sends`), and its text
    when its editing ended (not the moments in between: text typed and then deleted was never
    run)."""
    found: list[Typed] = []
    for editing in editings(actions):
        last = [] if editing.went_on else editing.states[-1:]
        found += sends(editing) + [s for s in last if not s.sent]
    return found


def chosen(editing: Editing) -> Typed | None:
    """The send of a field's text by a tap on the suggestion that is it: the editing ended with
    a press (`Action.presses`) in the same app, on no text input nor the keyboard, on an
    element labelled the line being typed, whole (Safari's suggestion "iso 8601 date format"
    runs that search; "Find “iso 8601 date format”", a longer suggestion or a site's row runs
    none of it)."""
    end, line = editing.end, folded(editing.text.rsplit("\n", 1)[-1])
    if end is None or not end.presses or end.target is None or len(line) < 2:
        return None
    if end.app_before != editing.key[0] or end.target.type in TEXT_INPUTS or end.target.keyboard:
        return None
    if folded(end.target.label) != line:
        return None
    return Typed(editing.field_action or editing.opened_by, editing.text, True, end,
                 editing.held)
