"""A tap outside the focused text field: what ends editing besides Return and a Done button.

UIKit ends no editing by itself when a finger lands elsewhere: the keyboard stays, and the tap
does what it would with no field focused (a control runs, another field takes focus). Apps that
do more say so on the field (`EditText.on_tap_outside`), as Reminders does for the reminder
being written: a tap anywhere outside its title saves it and ends editing. docs/simulator.md
lists every field and what such a tap does there.

The tap lands where it was aimed on the screen as it was when the finger went down (UIKit
hit-tests at touch-down): ending editing drops the keyboard and lengthens lists, and a tap
aimed at blank space must not land on the row that moves under the finger.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from phoneshell.sim import gestures
from phoneshell.sim.keyboard import on_keyboard
from phoneshell.sim.status_bar_tap import on_status_bar
from phoneshell.sim.touch_paths import actionable, hit_path

if TYPE_CHECKING:
    from phoneshell.sim.phone import Phone


def tap(phone: Phone, x: float, y: float) -> None:
    """Tap a point: first, if it is outside a focused field that ends editing on such a tap,
    end it; then the tap lands as `gestures.tap` lands it."""
    field = phone.keyboard_field()
    # The status bar is not the app's: its tap scrolls the list and leaves the field editing.
    if field is None or field.on_tap_outside is None or on_status_bar(phone, x, y):
        gestures.tap(phone, x, y)
        return
    path = hit_path(phone.screen().root, x, y)
    if on_keyboard(path) or any(node.field is field for node in path):
        gestures.tap(phone, x, y)
        return
    target = actionable(path)
    field.on_tap_outside()
    phone.changed()
    if target is not None:
        gestures.activate(phone, target, x, y)
