"""Calculator (com.apple.calculator): the portrait keypad with real arithmetic.

The arithmetic is `phoneshell.keypad`'s, the one the `tapped_keys` check replays the agent's
presses on, so the check computes what this display showed: × and ÷ bind tighter than + and −,
% as iOS has it, exact decimal arithmetic shown with up to 9 significant digits.

Accessibility names follow the real app as best known (iOS 17-26; docs/simulator.md gives the
sources and what is uncertain): the display is a StaticText named "Result" whose label and value
are the displayed number; keys are Buttons named and labelled "0"-"9", "Decimal", "Delete" (the
backspace, iOS 18 and later, top left while an entry is typed) or "All clear" (there otherwise),
"change sign", "percent", "divide", "multiply", "subtract", "add" and "equals". A sideways swipe
anywhere on the display (the full width above the keypad, the Result text inside it) deletes a
digit, as Delete does. The 0 key is still the classic wide one: iOS 18's mode button (Basic,
Scientific, Math Notes, Convert) and its expression line are not modelled.

Turned to landscape it shows the Scientific keypad, as the phone does: six columns of scientific
keys left of the same keys. Its "left parenthesis" and "right parenthesis" group (the names are
inferred: no dump of that keypad is known); the rest (`keypad.SCIENTIFIC`) are there to be seen
and tapped but compute nothing here, and the `tapped_keys` check refuses a computation that
presses one.
"""

from __future__ import annotations

from dataclasses import replace

from phoneshell.keypad import (
    CLOSE,
    DISPLAY_SWIPE,
    OPEN,
    SCIENTIFIC,
    SYMBOLS,
    CalculatorState,
    display,
    display_area,
    display_swipe,
    press,
)
from phoneshell.sim import layout
from phoneshell.sim.apps import AppModel, Drag, Host, register
from phoneshell.sim.touch_paths import hit_path
from phoneshell.sim.ui import Node, Rect, walk

BUNDLE_ID = "com.apple.calculator"


def _key(key: str, frame: Rect, state: CalculatorState) -> Node:
    def tap() -> None:
        press(state, key)

    # the screenshot font has no ⌫ (it would draw "?"): the backspace's arrow with its cross;
    # nor superscripts, roots or π: the Scientific keys are drawn by their names
    drawn = "<x" if key == "Delete" else SYMBOLS.get(key) or _ascii(SCIENTIFIC.get(key))
    return Node("Button", frame, label=key, name=key, on_tap=tap, pixels_text=drawn)


def _ascii(symbol: str | None) -> str | None:
    """A Scientific key's symbol as the screenshot font draws it: x², ²√x, π as x^2, 2Vx, pi."""
    if symbol is None:
        return None
    for fancy, plain in (("²", "^2"), ("³", "^3"), ("ʸ", "^y"), ("ˣ", "^x"), ("₁₀", "10"),
                         ("π", "pi"), ("−", "-"), ("√", "V")):
        symbol = symbol.replace(fancy, plain)
    return symbol.replace("^2V", "2V").replace("^3V", "3V").replace("^yV", "yV")


SCIENTIFIC_ROWS = (
    (OPEN, CLOSE, "memory clear", "memory plus", "memory minus", "memory recall"),
    ("second", "square", "cube", "power", "e to the x", "10 to the x"),
    ("reciprocal", "square root", "cube root", "root", "natural log", "log 10"),
    ("factorial", "sin", "cos", "tan", "e", "EE"),
    ("Rad", "sinh", "cosh", "tanh", "pi", "Rand"),
)
"""The Scientific keypad's columns left of the basic keys, row by row (iOS 17's landscape)."""


def render(state: CalculatorState, host: Host) -> Node:
    """The display over the 5x4 keypad; turned, over the Scientific keypad's 5x10."""
    f = host.facts
    landscape = f.width > f.height
    # portrait: 84-point keys, 13 apart; landscape: 64 x 52 keys, 8 apart, inside the notch's
    # and the home indicator's margins
    width, height, gap = (64, 52, 8) if landscape else (84, 84, 13)
    columns = 10 if landscape else 4
    left = (f.width - columns * width - (columns - 1) * gap) // 2
    bottom = f.height - (21 if landscape else 50)

    def at(col: int, row: int, span: int = 1) -> Rect:
        return Rect(left + col * (width + gap), bottom - (5 - row) * (height + gap) + gap,
                    width * span + gap * (span - 1), height)

    clear = "Delete" if state.typing and not state.error else "All clear"
    grid: list[tuple[str, int, int, int]] = [
        (clear, 0, 0, 1), ("change sign", 1, 0, 1), ("percent", 2, 0, 1), ("divide", 3, 0, 1),
        ("7", 0, 1, 1), ("8", 1, 1, 1), ("9", 2, 1, 1), ("multiply", 3, 1, 1),
        ("4", 0, 2, 1), ("5", 1, 2, 1), ("6", 2, 2, 1), ("subtract", 3, 2, 1),
        ("1", 0, 3, 1), ("2", 1, 3, 1), ("3", 2, 3, 1), ("add", 3, 3, 1),
        ("0", 0, 4, 2), ("Decimal", 2, 4, 1), ("equals", 3, 4, 1),
    ]
    if landscape:
        grid = [*((key, col, row, 1) for row, keys in enumerate(SCIENTIFIC_ROWS)
                  for col, key in enumerate(keys)),
                *((key, col + 6, row, span) for key, col, row, span in grid)]
    keys = [_key(key, at(col, row, span), state) for key, col, row, span in grid]
    shown = display(state)
    # The text's frame hugs the digits at the right edge, as the real display's does...
    size = 56 if landscape else 76
    wide = min(f.width - 32, layout.text_width(shown, size))
    tall = size + 20
    right = left + columns * (width + gap) - gap if landscape else f.width - 16
    result = Node("StaticText", Rect(right - wide,
                                     at(0, 0).y - tall - (4 if landscape else 14), wide, tall),
                  label=shown, name="Result", value=shown)
    # ...inside the display's view, the full width above the keypad (`keypad.DisplayArea`)
    view = Node("Other", Rect(0, 0, f.width, at(0, 0).y), children=(result,))
    # The pending operator's key stays highlighted until the next entry, as on the real app.
    pending = (state.product_op or state.sum_op) if state.after_operator else None
    keys = [replace(k, selected=True) if k.name == pending else k for k in keys]
    return layout.screen(f, [view, *keys], key="calculator")


def on_drag(state: CalculatorState, host: Host, drag: Drag) -> bool:
    """A sideways swipe that goes down on the display, anywhere on it and not on a key, deletes
    the entry's last digit (nothing when no entry is being typed); `keypad.display_area` says
    where the display is and `keypad.display_swipe` which drags delete, for the check's replay
    too."""
    root = host.screen().root
    area = display_area(host.facts.width,
                        (n.frame.y for n in walk(root) if n.type == "Button" and n.visible))
    path = hit_path(root, drag.from_x, drag.from_y)
    if area is None or not area.holds(drag.from_x, drag.from_y) \
            or any(n.type == "Button" for n in path) \
            or not display_swipe(drag.from_x, drag.dx, drag.dy):
        return False
    press(state, DISPLAY_SWIPE)
    return True


APP = register(AppModel(BUNDLE_ID, "Calculator", CalculatorState, render, on_drag=on_drag,
                        rotates=True))
