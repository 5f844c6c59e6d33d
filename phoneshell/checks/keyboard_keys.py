"""What a tap on the on-screen keyboard is, and what it types into the focused field.

Pure: read from the targets the bridge logged (never touches a device).
"""

from __future__ import annotations

from phoneshell.records import Target
from phoneshell.xcui import KEY_TYPE, full_type

KEY = full_type(KEY_TYPE)
KEY_TEXT = {"space": " ", "delete": "\b"}
"""What the keyboard's named keys type, by name (the others, shift, more, emoji..., type
nothing). iOS names a key for what it does and labels it for what it shows: the space key is
named "space" and labelled " ", the 123 key named "more" and labelled "numbers", the Return key
named "Go" and labelled "go" (iOS 26 dumps, docs/simulator.md): so a key is known by its name
first (`key_identity`), its label only when it has no name."""


def in_keyboard(target: Target | None) -> bool:
    """Whether a tap's target is part of the on-screen keyboard (a key, or its Return)."""
    return target is not None and (target.type == KEY or target.keyboard)


def key_identity(target: Target) -> str:
    """What a keyboard key is: its name, else its label (" " stays: a lone space is a key)."""
    return target.name if target.name.strip() else target.label


def key_text(target: Target) -> str:
    """What a tap on a key of the keyboard types into the field ("" for a mode key)."""
    key = key_identity(target)
    named = KEY_TEXT.get(key.strip().lower())
    if named is not None:
        return named
    return key if len(key) == 1 else "*" if key == "***" else ""
