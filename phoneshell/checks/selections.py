"""What is selected in a field when the agent types into it, read from the audit log (pure).

The phone types over a selection (`typed_keys.typed_over`, the simulator's one rule): a delete
deletes the selection alone, a character typed takes its place. The log names a selection in
one case: a tap on the edit menu's Select All selects the field's whole text, so the next
keystroke replaces all of it (what the field held before the agent's text too). A touch and
hold or a double tap on a field that holds text selects the word under the finger (or only
places the caret, where there is no word), and the edit menu's Select the word beside the
caret: the bridge logs the field and its value, never the word, so what the keystroke after
it leaves in the field is not known (`Selected.whole` False), and the replay says so rather
than guess (`Editing.unknown`). A selection lasts until the next keystroke into its field,
through the edit menu's items that only read (Copy, Look Up...), a scroll that leaves the
field where it was, or a keyboard key that types nothing (shift); any other action drops it,
as on the phone: a tap (on the field too: the caret goes to the end of the text), another
field, Done, hiding the keyboard, the menu's Cut or Paste (the field's next logged value says
what they left).
"""

from __future__ import annotations

from dataclasses import dataclass

from phoneshell.audit import Action
from phoneshell.checks.held import READING_MENU_ITEMS, menu_item, value_held
from phoneshell.xcui import TEXT_INPUTS

HOLD_S = 0.5
"""How long a touch must last to be a long press (UIKit's default minimum press duration)."""
SELECT_ALL, SELECT = "select all", "select"


@dataclass(frozen=True)
class Selected:
    """A selection in one field, waiting for the agent's next keystroke into it."""

    key: tuple[str, str, str, str]
    """The field (`keystrokes._field_key`)."""
    whole: bool
    """All of the field's text (Select All); False: a part the log does not name."""
    by: Action
    """The hold or menu tap that made it."""

    def why(self) -> str:
        """Why the field's text is not known after a keystroke over a part-selection."""
        return (f"{self.by.describe()} selected part of the field's text, which the log does "
                "not name, and the keystroke after it typed over it")


def held(action: Action) -> bool:
    """Whether a tap was a touch and hold (a long press), by its gesture or its duration."""
    duration = action.params.get("duration")
    long = isinstance(duration, (int, float)) and duration >= HOLD_S
    return action.params.get("gesture") == "touch_and_hold" or long


def holds_on(action: Action, key: tuple[str, str, str, str]) -> Selected | None:
    """What a tap on a text input (beginning the editing of field `key`) selects: a touch and
    hold or a double tap on text selects a part the log does not name; a plain tap, or one on
    an empty field, nothing (a tap leaves the caret at the end of the text)."""
    pressed_twice = (action.presses or 0) >= 2
    if action.target is None or action.target.type not in TEXT_INPUTS:
        return None
    if not (held(action) or pressed_twice) or value_held(action.target) == "":
        return None
    return Selected(key, False, action)


def after(selected: Selected | None, action: Action,
          last_key: tuple[str, str, str, str] | None) -> Selected | None:
    """The selection after `action`, neither a keystroke nor a tap on a text input (module
    docstring): the menu's Select All or Select make one in the field it was opened on (the
    last one edited, `last_key`), its items that only read keep it, anything else drops it."""
    item = menu_item(action)
    if item is None or last_key is None or last_key[0] != action.app_before:
        return None
    if item in (SELECT_ALL, SELECT):
        return Selected(last_key, item == SELECT_ALL, action)
    return selected if item in READING_MENU_ITEMS else None
