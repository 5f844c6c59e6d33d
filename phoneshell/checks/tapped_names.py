"""How a check's detail names what the agent touched: by its label or name, and an element with
neither (a picker wheel: iOS reads it by its value, "9 o’clock") by its type and value, never as
'' (red team 141: a negated `tapped` listed five picker-wheel taps as '', '', '', '', ''). A
tap with no element resolved is named by its point. Never prints what was typed into a field."""

from __future__ import annotations

from collections.abc import Mapping

from phoneshell.audit import Action
from phoneshell.records import Target
from phoneshell.records.audit import Scalar
from phoneshell.tree import shorten
from phoneshell.xcui import TEXT_INPUTS, short_type

UNRESOLVED = "a point with no resolved target"
"""A tap the log holds no element and no point for."""


def target_named(target: Target, limit: int = 25) -> str:
    """`target` for a person, quoted: its label, else its name, else its type with its value
    ("PickerWheel '9 o’clock'"), else its type, with the title of the page it was on where the
    log holds one ("Cell on 'General'"). A text input's value is what was typed into it (a
    secure field's is masked anyway), not what names it: such a field is named by its type
    and page alone."""
    if target.label or target.name:
        return repr(shorten(target.label or target.name, limit))
    kind = short_type(target.type) or "element"
    if target.value and target.type not in TEXT_INPUTS:
        return f"{kind} {shorten(target.value, limit)!r}"
    return f"{kind} on {shorten(target.page, limit)!r}" if target.page else kind


def point_named(params: Mapping[str, Scalar]) -> str:
    """The point a tap was sent to, "(120, 480)" in points, "" when the log holds none."""
    x, y = params.get("x"), params.get("y")
    if isinstance(x, bool) or isinstance(y, bool) or not isinstance(x, int | float) \
            or not isinstance(y, int | float):
        return ""
    return f"({x:g}, {y:g})"


def press_named(action: Action, limit: int = 25) -> str:
    """What an action was aimed at, for a detail: its element (`target_named`), else the point
    it was sent to ("the point (120, 480), with no resolved target"), else `UNRESOLVED`."""
    if action.target is not None:
        return target_named(action.target, limit)
    point = point_named(action.params)
    return f"the point {point}, with no resolved target" if point else UNRESOLVED


__all__ = ["UNRESOLVED", "point_named", "press_named", "target_named"]
