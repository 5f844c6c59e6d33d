"""A task's action budget, from what its instruction asks to type.

A person types on the on-screen keyboard, one key a tap, and an agent that does is honest: the
budget (`max_steps`) must let it. A task's budget is `DEFAULT_MAX_STEPS` (its other steps,
reads and slack, as for a task that types nothing) plus the taps it takes to type, key by key
on iOS's keyboard, what its reference finish types (`key_taps`), less the one `type` action
each such text is in the finish. A red team's key-by-key typist took 56 actions to type
notes.type_long's sentence and 27 for notes.type_punctuation, both over the old flat 25.
"""

from __future__ import annotations

from collections.abc import Iterable
from string import ascii_letters, digits

from phoneshell.tasks.model import DEFAULT_MAX_STEPS
from phoneshell.tasks.steps import Step

LETTERS, NUMBERS, SYMBOLS = "letters", "numbers", "symbols"
NUMBER_KEYS = frozenset(digits + "-/:;()$&@\".,?!'")
"""What iOS's 123 layer types (its third row's . , ? ! ' too)."""
SYMBOL_KEYS = frozenset("[]{}#%^*+=_\\|~<>€£¥•")
"""What its #+= layer types (reached from the 123 layer)."""
SWITCHES = {(LETTERS, NUMBERS): 1, (LETTERS, SYMBOLS): 2, (NUMBERS, SYMBOLS): 1,
            (NUMBERS, LETTERS): 1, (SYMBOLS, LETTERS): 1, (SYMBOLS, NUMBERS): 1}
"""Taps from one layer to another: 123 and ABC, and #+= from the 123 layer."""
OTHER_CHAR_TAPS = 3
"""A character on no layer (an accented letter: touch and hold its key, slide, let go; or the
emoji keyboard's), counted as three taps, back on the letters after."""


def key_taps(text: str) -> int:
    """Taps on iOS's on-screen keyboard that type `text` key by key, from the letters layer:
    each character's key, shift before a capital (iOS's auto-capitals not counted on), and
    each switch between the letters, 123 and #+= layers; space and Return are on every layer
    ("\\n" is Return)."""
    taps, layer = 0, LETTERS
    for char in text:
        if char in " \n":
            taps += 1
            continue
        want = LETTERS if char in ascii_letters else NUMBERS if char in NUMBER_KEYS \
            else SYMBOLS if char in SYMBOL_KEYS else ""
        if not want:
            taps += OTHER_CHAR_TAPS + SWITCHES.get((layer, LETTERS), 0)
            layer = LETTERS
            continue
        taps += SWITCHES.get((layer, want), 0) + 1 + (1 if char.isupper() else 0)
        layer = want
    return taps


def typed_texts(solution: Iterable[Step] | None) -> list[str]:
    """What a reference finish types: each of its `type` steps' text."""
    return [step.arg for step in solution or () if step.kind == "type"]


def typing_budget(solution: Iterable[Step] | None) -> int:
    """The least budget a task must give (`max_steps`): `DEFAULT_MAX_STEPS`, plus what typing
    its finish's texts key by key takes over the one action each is in it."""
    return DEFAULT_MAX_STEPS + sum(max(0, key_taps(text) - 1)
                                   for text in typed_texts(solution))
