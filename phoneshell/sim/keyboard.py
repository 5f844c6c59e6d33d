"""The on-screen keyboard: its keys as nodes, and what pressing each one types.

The phone shows it at the bottom of the screen while a text field in the front app has focus
(WDA's `/wda/keys` refuses to type without it, as on a real phone). Tapping a key types through
the same path as `/wda/keys`, so a model that types by tapping keys has the same effect.
What typing does with control characters is XCTest's typeText's (`phoneshell.typed_keys`):
"\\b" and "\\x7f" delete backwards, "\\n" and "\\r" are Return.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from phoneshell.sim.facts import DeviceFacts
from phoneshell.sim.key_planes import BESIDE_SPACE, PAD_ROWS, ROWS, SHIFT_LABELS
from phoneshell.sim.key_planes import KeyboardState as KeyboardState  # the phone's (phone.py)
from phoneshell.sim.ui import EditText, Node, Rect

KEYBOARD_HEIGHT = 291
"""Points from the bottom of the screen the keyboard covers (iPhone portrait, no predictions)."""
KEYBOARD_HEIGHT_LANDSCAPE = 200
"""The same in landscape, where the keys are wider and flatter."""



def keyboard_height(facts: DeviceFacts) -> int:
    """How much of the screen's bottom the keyboard covers, as the screen is turned."""
    return KEYBOARD_HEIGHT_LANDSCAPE if facts.width > facts.height else KEYBOARD_HEIGHT


def above_keyboard(facts: DeviceFacts, frame: Rect, up: bool) -> Rect:
    """The part of a list's frame the keyboard leaves while it is up, as the screen is turned.

    UIKit insets a list by the keyboard over it, so what lies under the keyboard scrolls up into
    this part. Never a negative height: a list the keyboard covers whole (a landscape screen is
    402 points tall, the portrait keyboard alone 291) keeps its top, 0 points tall.
    """
    if not up:
        return frame
    bottom = min(frame.bottom, facts.height - keyboard_height(facts))
    return Rect(frame.x, frame.y, frame.width, max(0, bottom - frame.y))


DELETE = "\b"
RETURN = "\n"


def press(state: KeyboardState, key: str) -> str:
    """Apply a key press to the keyboard state; return the text it types ("" for mode keys).
    A space or an apostrophe typed on the numbers plane leaves it showing: iOS is said to go
    back to the letters then, but nothing found states it (docs/simulator.md)."""
    if state.switch(key):
        return ""
    if key == "emoji":  # the emoji plane is not modelled (docs/simulator.md)
        return ""
    typed = {"space": " ", "delete": DELETE, "return": RETURN}.get(key, key)
    if len(typed) == 1 and typed.isalpha() and state.shift:
        state.shift = False
        return typed.upper()
    return typed


RETURN_NAMES = {"return": "Return", "go": "Go", "search": "Search", "done": "Done",
                "send": "Send", "join": "Join", "next": "Next", "route": "Route",
                "continue": "Continue"}
"""The Return key's name by its label: iOS names it after the field's returnKeyType,
capitalised ("Search"), and labels it in lower case ("search")."""
KEYS_HEIGHT = 233
"""Points of the keyboard's own frame (its four rows of keys) inside the covered area; the
globe and dictation buttons sit in the rest, below it."""


def keyboard(facts: DeviceFacts, field: EditText, state: KeyboardState,
             on_key: Callable[[str], None]) -> Node:
    """The keyboard as iOS 26 lists it: an unnamed Other holding the Keyboard (its keys) and,
    in an Other below it, the globe and dictation buttons. The phone puts it in its own window.

    Names and types as a real keyboard's (iOS 26.5 dump, docs/simulator.md): a letter is a
    `Key` named and labelled by itself; shift a `Button` "shift" (labelled "symbols", the #+=
    key, on the numbers plane and "numbers" on the symbols: `key_planes`); delete and space
    `Key`s; the 123 key a `Key` named "more" labelled "numbers" (or "letters"); the Return key
    a `Button` named for the field's return key type ("Return", "Search", "Go") and labelled
    in lower case; space a `Key` named "space" and labelled " "; Emoji a `Button` "emoji"
    labelled "Emoji" in the bottom row; the globe a `Button` "Next keyboard"; dictation a
    `Button` "dictation" labelled "Dictate". The field's `keyboard` adds keys beside space
    ("." for a web search, "@" and "." for an email address) or draws the phone pad instead.

    Args:
        facts: screen geometry.
        field: the focused field (its `return_key` labels the Return key, its `keyboard`
            chooses the keys).
        state: the plane and shift state to draw.
        on_key: called with the key's name ("a", "space", "delete", "return"...) on a tap.
    """
    height = keyboard_height(facts)
    top = facts.height - height
    landscape = height == KEYBOARD_HEIGHT_LANDSCAPE
    row_pitch, key_height = (46, 38) if landscape else (54, 42)
    keys_height = height if landscape else KEYS_HEIGHT
    keys: list[Node] = []

    def key(does: str, label: str, x: float, row: int, width: float, kind: str = "Key",
            name: str | None = None) -> None:
        frame = Rect(round(x), top + 8 + row_pitch * row, round(width), key_height)
        keys.append(Node(kind, frame, label=label, name=name or label,
                         on_tap=lambda: on_key(does)))

    if field.keyboard == "phonePad":
        _pad(facts, state, key)
    else:
        _letters(facts, field, state, key)
    board = Node("Keyboard", Rect(0, top, facts.width, keys_height), children=tuple(keys))
    below: tuple[Node, ...] = ()
    if not landscape:
        # What the globe and dictation open is not modelled, so a tap on them does nothing here
        # (docs/simulator.md, known differences).
        y = top + KEYS_HEIGHT - 11
        below = (Node("Other", Rect(0, top, facts.width, height), children=(
            Node("Button", Rect(8, y, 69, 42), name="Next keyboard", label="Next keyboard",
                 on_tap=lambda: None),
            Node("Button", Rect(facts.width - 77, y, 69, 42), name="dictation",
                 label="Dictate", on_tap=lambda: None))),)
    # the view holding the keyboard reaches the screen's bottom, as the iOS 26 dumps' does (the
    # strip below the keys is the keyboard's: a touch there is no touch on the app behind)
    return Node("Other", Rect(0, top, facts.width, height), children=(board, *below))


KeyDrawer = Callable[..., None]
"""`keyboard`'s `key(does, label, x, row, width, kind="Key", name=None)`: adds one key."""


def _letters(facts: DeviceFacts, field: EditText, state: KeyboardState, key: KeyDrawer) -> None:
    """The letters keyboard's keys on the plane shown, with the field's keys beside space."""
    pitch = facts.width / 10
    for row, chars in enumerate(ROWS[state.plane]):
        # Shorter rows are centred, as on the real layout.
        start = (facts.width - len(chars) * pitch) / 2
        for i, char in enumerate(chars):
            shown = char.upper() if state.shift and char.isalpha() else char
            key(char, shown, start + i * pitch + 3, row, pitch - 6)
    # shift on the letters, #+= on the numbers, 123 on the symbols: one Button named "shift"
    key("shift", SHIFT_LABELS[state.plane], 3, 2, pitch * 1.3, "Button", name="shift")
    key("delete", "delete", facts.width - pitch * 1.3 - 3, 2, pitch * 1.3)
    # The bottom row as a phone's (iOS 26 dumps): 123, Emoji, space (named "space", labelled
    # " "), Return; the globe and dictation buttons below the keys, outside the Keyboard.
    unit = facts.width / 402
    beside = BESIDE_SPACE[field.keyboard]
    key("more", state.more_label(), 4 * unit, 3, 50 * unit, name="more")
    key("emoji", "Emoji", 53 * unit, 3, 51 * unit, "Button", name="emoji")
    key("space", " ", 103 * unit, 3, (198 - 49 * len(beside)) * unit, name="space")
    for i, char in enumerate(beside):
        key(char, char, (300 - 49 * (len(beside) - i)) * unit, 3, 48 * unit)
    label = field.return_key.lower()
    key("return", label, 300 * unit, 3, 100 * unit, "Button",
        name=RETURN_NAMES.get(label, label.capitalize()))


def _pad(facts: DeviceFacts, state: KeyboardState, key: KeyDrawer) -> None:
    """The phone pad's keys on the plane shown: three columns, four rows, no Return (a phone
    number ends editing by a tap elsewhere, as on a phone)."""
    pitch = facts.width / 3
    for row, names in enumerate(PAD_ROWS.get(state.plane, PAD_ROWS["letters"])):
        for column, name in enumerate(names):
            if name:
                does = "delete" if name == "Delete" else name
                key(does, name, column * pitch + 3, row, pitch - 6)


def on_keyboard(path: Sequence[Node]) -> bool:
    """Whether a hit path (`touch_paths.hit_path`) lands on the keyboard's window: a key, the Return
    key, Emoji, dictation, or the space between them."""
    return any(node.type == "Keyboard" or (node.type == "Window" and _holds_keyboard(node))
               for node in path)


def _holds_keyboard(node: Node) -> bool:
    return any(child.type == "Keyboard" or _holds_keyboard(child) for child in node.children)
