"""The on-screen keyboard: its keys as nodes, and what pressing each one types.

The phone shows it at the bottom of the screen while a text field in the front app has focus
(WDA's `/wda/keys` refuses to type without it, as on a real phone). Tapping a key types through
the same path as `/wda/keys`, so a model that types by tapping keys has the same effect.
Typed control characters: "\\b" deletes backwards, "\\n" is Return.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from phoneshell.sim.facts import DeviceFacts
from phoneshell.sim.ui import EditText, Node, Rect

KEYBOARD_HEIGHT = 291
"""Points from the bottom of the screen the keyboard covers (iPhone portrait, no predictions)."""
KEYBOARD_HEIGHT_LANDSCAPE = 200
"""The same in landscape, where the keys are wider and flatter."""



def keyboard_height(facts: DeviceFacts) -> int:
    """How much of the screen's bottom the keyboard covers, as the screen is turned."""
    return KEYBOARD_HEIGHT_LANDSCAPE if facts.width > facts.height else KEYBOARD_HEIGHT


_LETTERS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
_NUMBERS = ("1234567890", "-/:;()$&@\"", ".,?!'")
DELETE = "\b"
RETURN = "\n"


@dataclass
class KeyboardState:
    """Which key plane shows and whether shift is on (mutable: the phone owns one)."""

    numbers: bool = False
    shift: bool = False


def press(state: KeyboardState, key: str) -> str:
    """Apply a key press to the keyboard state; return the text it types ("" for mode keys)."""
    if key == "shift":
        state.shift = not state.shift
        return ""
    if key == "more":
        state.numbers = not state.numbers
        return ""
    typed = {"space": " ", "delete": DELETE, "return": RETURN}.get(key, key)
    if len(typed) == 1 and typed.isalpha() and state.shift:
        state.shift = False
        return typed.upper()
    return typed


def keyboard(facts: DeviceFacts, field: EditText, state: KeyboardState,
             on_key: Callable[[str], None]) -> Node:
    """The Keyboard node with one Key per key (the Return key a Button), for the field that has
    focus.

    Args:
        facts: screen geometry.
        field: the focused field (its `return_key` labels the Return key).
        state: the plane and shift state to draw.
        on_key: called with the key's name ("a", "space", "delete", "return"...) on a tap.
    """
    height = keyboard_height(facts)
    top = facts.height - height
    row_pitch, key_height = (46, 38) if height == KEYBOARD_HEIGHT_LANDSCAPE else (54, 42)
    pitch = facts.width / 10
    rows = _NUMBERS if state.numbers else _LETTERS
    keys: list[Node] = []

    def key(name: str, label: str, x: float, row: int, width: float, kind: str = "Key") -> None:
        frame = Rect(round(x), top + 8 + row_pitch * row, round(width), key_height)
        keys.append(Node(kind, frame, label=label, name=label,
                         on_tap=lambda: on_key(name)))

    for row, chars in enumerate(rows):
        # Shorter rows are centred, as on the real layout.
        start = (facts.width - len(chars) * pitch) / 2
        for i, char in enumerate(chars):
            shown = char.upper() if state.shift and char.isalpha() else char
            key(char, shown, start + i * pitch + 3, row, pitch - 6)
    if not state.numbers:
        key("shift", "shift", 3, 2, pitch * 1.3)
    key("delete", "delete", facts.width - pitch * 1.3 - 3, 2, pitch * 1.3)
    key("more", "letters" if state.numbers else "numbers", 3, 3, pitch * 2.4)
    key("space", "space", pitch * 2.5 + 3, 3, pitch * 5 - 6)
    # iOS draws the Return key as a Button inside the keyboard, not as a Key ("Go", "Search")
    key("return", field.return_key, facts.width - pitch * 2.4 - 3, 3, pitch * 2.4, "Button")
    return Node("Keyboard", Rect(0, top, facts.width, height), children=tuple(keys))
