"""Double taps: a tap that quickly follows another at the same spot, which a text view takes as
one gesture (it selects the word under the finger and shows the edit menu, as a long press
does) and every other control as one more tap.

WDA's `doubleTap` (and `tapWithNumberOfTaps`) taps twice at once; a W3C action chain of two
quick taps (a second `pointerDown` within `DOUBLE_TAP_S` of the first `pointerUp`, within
`DOUBLE_TAP_SLOP_PT` of it) does the same. The first tap is a tap (it places the caret); the
second goes to the nearest view under the finger with an `on_double_tap_at`, unless a control
nearer the finger takes taps (a button over the text), which is tapped again. After a tap that
took the phone to another screen (a row opening its page), the quick taps after it land while
the screen is still moving, and a phone drops them (UIKit takes no touches during a
transition): `under` tells, for both ways in.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from phoneshell.holds import LONG_PRESS_S
from phoneshell.presses import DOUBLE_TAP_S
from phoneshell.sim import actions
from phoneshell.sim.apps import Drag
from phoneshell.sim.touch_paths import actionable, hit_path
from phoneshell.sim.ui import Rect

if TYPE_CHECKING:
    from phoneshell.sim.phone import Phone

DOUBLE_TAP_SLOP_PT = 20
"""How far apart the two taps may land (inferred: a finger's second tap on the same word)."""


def under(phone: Phone, x: float, y: float) -> tuple[str, str, str, Rect] | None:
    """Where a tap at (x, y) lands (the front app, the place of the control in its screen, its
    type and frame), to tell whether a tap moved the phone to another screen. Not its label: a
    control that redraws its own label in place (Pause to Resume, Start to Stop, C to AC) is
    still the control the next tap of a double tap lands on."""
    screen = phone.screen()
    node = actionable(hit_path(screen.root, x, y))
    if node is None:
        return None
    key = next((k for k, n in zip(screen.keys, screen.nodes, strict=True) if n is node), "")
    return phone.active()[0], key.rpartition("/")[0], node.type, node.frame


def tap_again(phone: Phone, x: float, y: float) -> None:
    """The tap that quickly follows one at the same spot: the double tap of the view under the
    finger that takes one (a text view selects the word there), else a tap."""
    if phone.locked:
        return
    path = hit_path(phone.screen().root, x, y)
    taker = actionable(path)
    for node in reversed(path):
        if node.on_double_tap_at is not None:
            if node.enabled:
                node.on_double_tap_at(x, y)
                phone.changed()
            return
        if node is taker:
            break  # a control nearer the finger takes taps: it is tapped again
    phone.tap(x, y)


class QuickTaps:
    """The phone's hands for a W3C plan (`actions.perform`), making each tap that quickly
    follows another at the same spot a double tap (`tap_again`), and dropping such taps after
    one that took the phone to another screen (`under`), as WDA's doubleTap does. Any other
    touch or typing in between breaks the run."""

    def __init__(self, phone: Phone, plan: actions.Plan) -> None:
        self.phone = phone
        # The touches `actions.perform` makes taps of, in order: one finger, still, short.
        self._taps = [step[0] for step in plan.steps if isinstance(step, tuple)
                      and len({t.finger for t in step}) == 1 and not step[0].moved
                      and step[0].held_s < LONG_PRESS_S]
        self._last: actions.Touch | None = None
        self._moved_on = False
        """The tap before took the phone to another screen."""

    def tap(self, x: float, y: float) -> None:
        """Tap a point: again, when the tap before was a moment ago beside it; not at all when
        that tap took the phone to another screen."""
        touch = self._taps.pop(0) if self._taps else None
        last, self._last = self._last, touch
        again = touch is not None and touch.down == (x, y) and last is not None and \
            touch.start_ms - last.end_ms <= DOUBLE_TAP_S * 1000 and \
            math.dist(touch.down, last.down) <= DOUBLE_TAP_SLOP_PT
        if again and self._moved_on:
            return  # it lands while the screen moves: dropped, as the taps after it are
        if touch is None or touch.down != (x, y):
            self._last = None  # not the tap planned: count it as a lone one
        watched = bool(self._taps)  # only a planned tap after it may be dropped
        before = under(self.phone, x, y) if watched else None
        if again:
            tap_again(self.phone, x, y)
        else:
            self.phone.tap(x, y)
        self._moved_on = watched and under(self.phone, x, y) != before

    def hold(self, x: float, y: float, duration_s: float) -> None:
        """Touch and hold a point."""
        self._last = None
        self.phone.hold(x, y, duration_s)

    def drag(self, drag: Drag) -> None:
        """Drag one finger."""
        self._last = None
        self.phone.drag(drag)

    def type_text(self, text: str) -> bool:
        """Type into the focused field."""
        self._last = None
        return self.phone.type_text(text)
