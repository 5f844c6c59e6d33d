"""What a field held before the agent first changed it, carried from one editing of it to the next.

Read from the audit log's values (pure: never touches a device). The bridge logs what a field
holds at each action aimed at it (a tap on it, a keystroke into it), before the action: that is
all the log says of it. What the field held before the agent typed there (`Typed.held`, what
`typed_into`'s `fresh` judges) is what it held before the agent's FIRST change to it in the
attempt, not before the current editing's: an owner's note emptied by a clear, by deletes or by
the edit menu's Cut, then tapped again and typed into, shows an empty field at that typing,
but was not an empty one (red team 76). So what one editing of a field knows passes to the
agent's next editing of the same field (`keystrokes._field_key`, the field as the log names
it: its app, type, label and name), by `carried`, in two cases only:

* the field still shows the agent's own text (a refocus, a Return then a tap, Done and back):
  the text and what the field held before it;
* the agent changed the field (`Left.changed`: a keystroke, a clear, an edit menu's item that
  writes, `writes_text`, or typing WDA may have done before failing) and it shows empty now:
  the agent emptied it, and it holds what it held before, with no text of the agent's.

A field the agent only looked at (a tap on an owner's note, then back and New Note, whose body
has the same name) carries nothing: an empty field it never changed is another one, or one that
was empty. Otherwise an editing begins as any does, holding what its first keystroke logs.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from phoneshell.audit import Action
from phoneshell.records import ELEMENT_MAX, Target, shortened
from phoneshell.spelling import folded
from phoneshell.xcui import short_type

READING_MENU_ITEMS = frozenset({"copy", "select", "select all", "look up", "translate",
                                "search web", "share", "speak", "spell"})
"""What of iOS's edit menu writes nothing into the field (folded, without a trailing
"..."): Copy, the selections, Look Up, Share... Any other item (Cut, Paste, Replace, Delete, an
item this list does not know) is taken as a change of the field (`writes_text`): fail closed."""


@dataclass(frozen=True)
class Left:
    """What the agent's last editing of one field left there, for its next (`carried`)."""

    text: str
    """The agent's own text in the field as its editing ended ("" after a clear)."""
    held: str | None
    """What the field held before the agent's first change to it: "" empty; None not known."""
    changed: bool
    """The agent changed the field (module docstring): what it holds now is its doing."""
    unknown: str = ""
    """Why the field's text is not known ("" when it is): the agent typed over a selection the
    log does not name (`selections`)."""


def shows(target: Target | None, text: str) -> bool:
    """Whether the field the bridge logged holds exactly `text` (as the log shortens a long
    value), non-empty and not the field's label or name, which an empty field shows in place of
    a value (its placeholder: Settings' "Search", Maps' "Search Maps"). Code point for code
    point, never as `spelling` reads text: Safari shows a loaded search's words back behind a
    left-to-right mark (U+200E), which no typing of the agent's put there."""
    if not text or target is None or target.value in (target.label, target.name):
        return False
    return target.value == shortened(text, ELEMENT_MAX)


def value_held(shown: Target | None) -> str | None:
    """What a field the bridge logged held: its value, "" when that is empty or is the
    field's label or name (an empty field shows its placeholder there); None: not logged."""
    if shown is None:
        return None
    return "" if shown.value in ("", shown.label, shown.name) else shown.value


def carried(left: Left | None, shown: Target | None) -> Left | None:
    """What an editing of a field beginning where the bridge logged it as `shown` carries from
    the agent's last editing of it (`left`): all of it where the field still shows the agent's
    text; its start, with no text, where the agent changed it and it shows empty now; None:
    nothing (module docstring)."""
    if left is None:
        return None
    if left.unknown:  # not known until the field shows empty, or its whole text is selected
        return replace(left, unknown="") if value_held(shown) == "" else left
    if shows(shown, left.text):
        return left
    if left.changed and value_held(shown) == "":
        return replace(left, text="")
    return None


def menu_item(action: Action) -> str | None:
    """The label of an edit menu item a tap is on (as `spelling.folded` reads it, no trailing
    "..."), else None."""
    target = action.target
    if action.kind != "tap" or target is None or short_type(target.type) != "MenuItem":
        return None
    return folded(target.label).rstrip(".").strip()


def writes_text(action: Action) -> bool:
    """Whether a tap is on an item of the edit menu that writes into the field it was opened
    on (Cut, Paste...: any but `READING_MENU_ITEMS`)."""
    item = menu_item(action)
    return item is not None and item not in READING_MENU_ITEMS
