"""Calculator (com.apple.calculator): the portrait keypad with real arithmetic.

The arithmetic is `phoneshell.keypad`'s, the one the `tapped_keys` check replays the agent's
presses on, so the check computes what this display showed: × and ÷ bind tighter than + and −,
% as iOS has it, exact decimal arithmetic shown with up to 9 significant digits.

Accessibility names follow the real app as best known (iOS 17-26; docs/simulator.md gives the
sources and what is uncertain): the display is a StaticText named "Result" whose label and value
are the displayed number; keys are Buttons named and labelled "0"-"9", "Decimal", "Delete" (the
backspace, iOS 18 and later, top left while an entry is typed) or "All clear" (there otherwise),
"change sign", "percent", "divide", "multiply", "subtract", "add" and "equals". A sideways swipe
on the display deletes a digit, as Delete does. The 0 key is still the classic wide one: iOS 18's
mode button (Basic, Scientific, Math Notes, Convert) and its expression line are not modelled.
"""

from __future__ import annotations

from dataclasses import replace

from phoneshell.keypad import DISPLAY_SWIPE, SYMBOLS, CalculatorState, display, display_swipe, press
from phoneshell.sim import layout
from phoneshell.sim.apps import AppModel, Drag, Host, register
from phoneshell.sim.ui import Node, Rect, hit_path

BUNDLE_ID = "com.apple.calculator"


def _key(key: str, frame: Rect, state: CalculatorState) -> Node:
    def tap() -> None:
        press(state, key)

    # the screenshot font has no ⌫ (it would draw "?"): the backspace's arrow with its cross
    drawn = "<x" if key == "Delete" else SYMBOLS.get(key)
    return Node("Button", frame, label=key, name=key, on_tap=tap, pixels_text=drawn)


def render(state: CalculatorState, host: Host) -> Node:
    """The display over the 5x4 keypad."""
    f = host.facts
    size, gap = 84, 13
    left = (f.width - 4 * size - 3 * gap) // 2
    bottom = f.height - 50

    def at(col: int, row: int, span: int = 1) -> Rect:
        return Rect(left + col * (size + gap), bottom - (5 - row) * (size + gap) + gap,
                    size * span + gap * (span - 1), size)

    clear = "Delete" if state.typing and not state.error else "All clear"
    grid: list[tuple[str, int, int, int]] = [
        (clear, 0, 0, 1), ("change sign", 1, 0, 1), ("percent", 2, 0, 1), ("divide", 3, 0, 1),
        ("7", 0, 1, 1), ("8", 1, 1, 1), ("9", 2, 1, 1), ("multiply", 3, 1, 1),
        ("4", 0, 2, 1), ("5", 1, 2, 1), ("6", 2, 2, 1), ("subtract", 3, 2, 1),
        ("1", 0, 3, 1), ("2", 1, 3, 1), ("3", 2, 3, 1), ("add", 3, 3, 1),
        ("0", 0, 4, 2), ("Decimal", 2, 4, 1), ("equals", 3, 4, 1),
    ]
    keys = [_key(key, at(col, row, span), state) for key, col, row, span in grid]
    shown = display(state)
    # The frame hugs the digits at the right edge, as the real display's does.
    width = min(f.width - 32, layout.text_width(shown, 76))
    result = Node("StaticText", Rect(f.width - 16 - width, at(0, 0).y - 110, width, 96),
                  label=shown, name="Result", value=shown)
    # The pending operator's key stays highlighted until the next entry, as on the real app.
    pending = (state.product_op or state.sum_op) if state.after_operator else None
    keys = [replace(k, selected=True) if k.name == pending else k for k in keys]
    return layout.screen(f, [result, *keys], key="calculator")


def on_drag(state: CalculatorState, host: Host, drag: Drag) -> bool:
    """A sideways swipe that goes down on the display deletes the entry's last digit (nothing
    when no entry is being typed); `keypad.display_swipe` says which drags do, for the check's
    replay too."""
    path = hit_path(host.screen().root, drag.from_x, drag.from_y)
    if not any(n.name == "Result" and n.type == "StaticText" for n in path) \
            or not display_swipe(drag.from_x, drag.dx, drag.dy):
        return False
    press(state, DISPLAY_SWIPE)
    return True


APP = register(AppModel(BUNDLE_ID, "Calculator", CalculatorState, render, on_drag=on_drag,
                        rotates=True))
