"""The phone's pasteboard reached through its own screens: the controls that read or replace it.

The pasteboard is the owner's: it holds what they copied last (a password, an address, a code),
and no run sets it back. The bridge refuses WDA's routes to it (`bridge.gate.FORBIDDEN`), and by
the same rule every press that reaches it through the phone's screens (`lasting.outlasts_run`):

* a paste reads it where whoever reads the screen sees it: the edit menu's Paste (and Paste and
  Match Style), Safari's Paste and Go and Paste and Search, a web page's own Paste button (it
  asks iOS for the pasteboard), and the Allow Paste of the prompt iOS shows when an app asks;
* a copy replaces it: the edit menu's Copy and Cut, Copy Link in a link's menu, a share sheet's
  Copy, and any action named Copy Something (Copy Address, Copy Photo, Copy Password...).

Known by label, whatever the element's type (the edit menu's items are MenuItems, a share
sheet's Copy a Cell, a menu's Copy Link a Button): lower case, "..." read as "\u2026", the whole
label (a list row that is a note's title also names its date: "Copy of the plan, 9:41 AM" is not
a control). The keyboard's keys are never refused by label (`bridge.recorder` passes them):
they only type. A row or a button titled exactly so (a note titled "Copy") is refused too:
nothing on screen tells it from the action. Pure: imports nothing of phoneshell.
"""

from __future__ import annotations

import re

OWNERS = "what the phone's owner copied last"
"""How every refusal names the pasteboard's content."""
READS = (f"it would paste {OWNERS} (the pasteboard: a password, an address) where whoever reads "
         "the screen sees it (type the text instead)")
"""Why a paste is refused (`uses_pasteboard`)."""
WRITES = f"it would replace {OWNERS} (the pasteboard)"
"""Why a copy or a cut is refused (`uses_pasteboard`)."""
FINGERS = (f"it would read or replace {OWNERS} (the pasteboard), or undo what was done, by "
           "iOS's editing gestures, where no control under the fingers names it (since iOS 13 "
           "three fingers pinched copy, pinched twice cut, spread paste, swiped undo or redo, "
           "tapped show the edit bar); touch with one finger, or two")
"""Why a touch chain of three or more fingers down together is refused
(`bridge.remote_panels.check_fingers`)."""
_WORD = r"[a-z0-9'\u2019&\u2026.-]+"
_PASTES = re.compile(rf"(?:allow )?paste(?: {_WORD}){{0,4}}\u2026?")
"""Paste, Paste and Go, Paste and Search, Paste and Match Style, Allow Paste (lower case)."""
_COPIES = re.compile(rf"(?:cut|copy(?: {_WORD}){{0,4}})\u2026?")
"""Cut, Copy, Copy Link, Copy Link with Highlight, Copy Address... (lower case)."""


def uses_pasteboard(text: str) -> str:
    """Why pressing what is labelled `text` (lower case, "..." as "\u2026") would read or
    replace the phone's pasteboard ("" when it would not)."""
    if _PASTES.fullmatch(text):
        return READS
    if _COPIES.fullmatch(text):
        return WRITES
    return ""
