"""Calculator (com.apple.calculator): the portrait keypad with real arithmetic.

The arithmetic is `phoneshell.keypad`'s, the one the `tapped_keys` check replays the agent's
presses on, so the check computes what this display showed: × and ÷ bind tighter than + and −,
% as iOS has it, exact decimal arithmetic shown with up to 9 significant digits.

Accessibility names follow the real app as best known (iOS 17-26): the display is a StaticText
named "Result" whose label and value are the displayed number; keys are Buttons named and
labelled "0"-"9", "Decimal", "All clear", "Clear", "change sign", "percent", "divide",
"multiply", "subtract", "add" and "equals". The keypad is the classic one with a wide 0 (iOS 18
swapped in a backspace and a mode button).
"""

from __future__ import annotations

from dataclasses import replace

from phoneshell.keypad import SYMBOLS, CalculatorState, display, press
from phoneshell.sim import layout
from phoneshell.sim.apps import AppModel, Host, register
from phoneshell.sim.ui import Node, Rect

BUNDLE_ID = "com.apple.calculator"


def _key(key: str, frame: Rect, state: CalculatorState) -> Node:
    def tap() -> None:
        press(state, key)

    return Node("Button", frame, label=key, name=key, on_tap=tap, pixels_text=SYMBOLS.get(key))


def render(state: CalculatorState, host: Host) -> Node:
    """The display over the 5x4 keypad."""
    f = host.facts
    size, gap = 84, 13
    left = (f.width - 4 * size - 3 * gap) // 2
    bottom = f.height - 50

    def at(col: int, row: int, span: int = 1) -> Rect:
        return Rect(left + col * (size + gap), bottom - (5 - row) * (size + gap) + gap,
                    size * span + gap * (span - 1), size)

    clear = "Clear" if state.typing and not state.error else "All clear"
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


APP = register(AppModel(BUNDLE_ID, "Calculator", CalculatorState, render, rotates=True))
