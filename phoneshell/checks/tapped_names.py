"""How a check's detail names what the agent touched: by its label or name, and an element with
neither (a picker wheel: iOS reads it by its value, "9 o’clock") by its type and value, never as
'' (red team 141: a negated `tapped` listed five picker-wheel taps as '', '', '', '', '')."""

from __future__ import annotations

from phoneshell.records import Target
from phoneshell.tree import shorten
from phoneshell.xcui import TEXT_INPUTS, short_type


def target_named(target: Target, limit: int = 25) -> str:
    """`target` for a person, quoted: its label, else its name, else its type with its value
    ("PickerWheel '9 o’clock'"), else its type. A text input's value is what was typed into
    it, not what names it: such a field is named by its type alone."""
    if target.label or target.name:
        return repr(shorten(target.label or target.name, limit))
    kind = short_type(target.type) or "element"
    if target.value and target.type not in TEXT_INPUTS:
        return f"{kind} {shorten(target.value, limit)!r}"
    return kind


__all__ = ["target_named"]
