"""The keyboard's three planes (letters, numbers, symbols): their keys, the keys that switch
between them, and what a press of one of those does to the plane shown. Pure.

As iOS 26's English (US) keyboard has them. The letters plane is transcribed from iOS 26 dumps
(tests/keyboard_dump.py). The numbers plane's `shift` position holding a `Button` named
"shift" labelled "symbols" (the #+= key) is from a public XCUITest dump of an earlier iOS
(appium/appium#16336); the symbols plane's rows, and its `shift` position holding "shift"
labelled "numbers" (the 123 key back), are inferred: no dump of ours shows them
(docs/simulator.md, Keyboard).

A field chooses its keyboard (`KeyboardType`, UIKit's `keyboardType`): the letters keyboard
with one or two more keys beside space (`BESIDE_SPACE`), or the phone pad (`PAD_ROWS`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Plane = Literal["letters", "numbers", "symbols"]
KeyboardType = Literal["default", "webSearch", "email", "phonePad"]
"""The keyboard a field asks for, as UIKit's `keyboardType` names them: "default" (letters),
"webSearch" (Safari's address: "prominently features the space and period", Apple's
UIKeyboardType docs), "email" ("the at (@), period (.) and space"), "phonePad" (digits with
letters under them, no letter keys)."""

ROWS: dict[Plane, tuple[str, str, str]] = {
    "letters": ("qwertyuiop", "asdfghjkl", "zxcvbnm"),
    "numbers": ("1234567890", "-/:;()$&@\"", ".,?!'"),
    "symbols": ("[]{}#%^*+=", "_\\|~<>€£¥•", ".,?!'"),
}
"""Each plane's three rows of character keys, each key named and labelled by its character."""
SHIFT_LABELS: dict[Plane, str] = {"letters": "shift", "numbers": "symbols", "symbols": "numbers"}
"""The label of the `Button` named "shift" at the third row's start, by plane: shift on the
letters plane, #+= (to the symbols) on the numbers plane, 123 (back to the numbers) on the
symbols plane."""
BESIDE_SPACE: dict[KeyboardType, tuple[str, ...]] = {"default": (), "webSearch": (".",),
                                                     "email": ("@", "."), "phonePad": ()}
"""The character keys between space and Return on every plane, by keyboard (space is as much
shorter). Inferred from Apple's docs: no dump of ours shows these keyboards."""
PAD_ROWS: dict[Plane, tuple[tuple[str, str, str], ...]] = {
    "letters": (("1", "2", "3"), ("4", "5", "6"), ("7", "8", "9"), ("+*#", "0", "Delete")),
    "symbols": (("*", "#", "+"), ("", "", ""), ("", "", ""), ("123", "", "Delete")),
}
"""The phone pad's keys, four rows of three ("" for none), by the plane they stand in for:
its digits first; "+*#" shows what it names, "123" goes back. A number pad's backspace is
named "Delete" (public XCUITests tap `keys["Delete"]` there). A phone's +*# plane has more
(pause, wait): not modelled (docs/simulator.md, Keyboard)."""
PAD_SWITCHES: dict[str, Plane] = {"+*#": "symbols", "123": "letters"}
"""The phone pad's keys that change its plane, and the plane each shows."""


@dataclass
class KeyboardState:
    """Which key plane shows and whether shift is on (mutable: the phone owns one)."""

    plane: Plane = "letters"
    shift: bool = False

    def switch(self, key: str) -> bool:
        """Apply a press of `shift` or `more` (the 123 / ABC key at the bottom left); return
        whether `key` was one of them. `more` goes from the letters to the numbers, and from
        the numbers or the symbols back to the letters; `shift` turns shift on or off on the
        letters and swaps the numbers and the symbols; the phone pad's "+*#" and "123" go to
        its second plane and back (`PAD_SWITCHES`)."""
        if key in PAD_SWITCHES:
            self.plane = PAD_SWITCHES[key]
        elif key == "more":
            self.plane = "numbers" if self.plane == "letters" else "letters"
        elif key == "shift" and self.plane == "letters":
            self.shift = not self.shift
        elif key == "shift":
            self.plane = "symbols" if self.plane == "numbers" else "numbers"
        else:
            return False
        return True

    def more_label(self) -> str:
        """The `more` key's label: "numbers" from the letters, "letters" from the others."""
        return "numbers" if self.plane == "letters" else "letters"
