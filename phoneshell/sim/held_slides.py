"""A touch held still until a context menu opens, then slid: the menu's item it lifts on is chosen.

iOS opens the context menu of what a finger holds still on for `holds.LONG_PRESS_S` (a
list's row, an app's icon, a link: here the element's `on_hold`), and the same finger, sliding
onto one of the menu's items and lifting there, chooses it (press, hold, slide, release). So a
drag held that long before it slid, on an element that takes a hold, holds it first and then
lifts: on a menu's item it taps it; anywhere else the menu stays open, as on a phone. An
element that takes a slide its own way (`presses.SLID`: a switch, a slider, a text view, whose
hold moves the caret, `on_hold_at`) is dragged as ever. The bridge cannot name the item chosen
(no menu shows on the screen before the touch), so the log's readers take such a slide as a
press they cannot name (`holds.held_slide`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING

from phoneshell.holds import LONG_PRESS_S, PRESS_FIELDS
from phoneshell.presses import MENUS, PRESS_SLOP_PT, SLID
from phoneshell.sim.apps import Drag
from phoneshell.sim.touch_paths import hit_path
from phoneshell.sim.ui import Node

if TYPE_CHECKING:
    from phoneshell.sim.phone import Phone


def pressed_s(body: Mapping[str, object], route: str) -> float:
    """How long the touch route `route` (its path's last part) presses before it moves or
    lifts: the one body field WDA reads as that (`holds.PRESS_FIELDS`), the field the bridge
    logs it by, never another; 0 when it is absent or no number (doubleValue of nothing), or
    the route reads no press."""
    field = PRESS_FIELDS.get(route)
    value = body.get(field) if field else None
    return float(value) if isinstance(value, (int, float)) else 0.0


def _held(path: list[Node]) -> Node | None:
    """The element under the finger that takes its hold as a context menu (its `on_hold`,
    enabled), None when none does or what lies deepest takes slides its own way."""
    for node in reversed(path):
        if node.type in SLID or node.on_hold_at is not None:
            return None
        if node.on_hold is not None:
            return node if node.enabled else None
    return None


def held_slide(phone: Phone, move: Drag) -> bool:
    """Play a drag held still `LONG_PRESS_S` or more before it slid, on an element that opens
    a context menu: the hold, then the lift (a tap of the menu's item under it, if any). False,
    playing nothing, for any other drag."""
    moved = move.wandered or math.hypot(move.dx, move.dy) > PRESS_SLOP_PT
    if phone.locked or not moved or move.duration_s < LONG_PRESS_S:
        return False
    holder = _held(hit_path(phone.screen().root, move.from_x, move.from_y))
    if holder is None or holder.on_hold is None:
        return False
    holder.on_hold()
    phone.changed()
    if any(node.type in MENUS for node in hit_path(phone.screen().root, move.to_x, move.to_y)):
        phone.tap(move.to_x, move.to_y)  # the item the finger lifts on
    return True
