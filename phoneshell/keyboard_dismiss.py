"""Which keys of the on-screen keyboard WDA's `/wda/keyboard/dismiss` presses, by the `keyNames`
sent: the one rule the simulated iPhone plays and the bridge logs by.

An iPhone keyboard has no key that hides it, so WDA (`XCUIApplication+FBHelpers`,
`fb_dismissKeyboardWithKeyNames`) looks for the keys it is told among the keyboard's own keys
and buttons and taps them: a letter types, Return ("Go", "Search", "Done") sends. Read from
WDA's source as we know it (inferred, not read off a phone): with no keyboard shown it answers
success and taps nothing; otherwise it queries the keyboard once for every Key or Button whose
identifier (`name`) or label equals one of `keyNames` exactly (case and all), takes the matches
in the keyboard tree's order, each element once however often the list names it, and taps them
in turn, stopping as soon as the keyboard is gone; if the keyboard is still shown after the last
one it answers `invalid element state` ("Did not know how to dismiss the keyboard"), having
pressed them all. (On an iPad it then taps the keyboard's last key too; the rig is an iPhone.)
So the route can press keys and then fail, and the order it presses them in is the keyboard's,
not the list's.

Pure: imports nothing of phoneshell, so the simulator (a device) and the bridge both use it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

DISMISS_VIA = "keyboard_dismiss"
"""How the bridge logs the route: the gesture of a dismiss that pressed nothing it could name,
and the `via` of a tap on the one key a dismiss pressed."""
PRESSED_TYPES = frozenset({"Key", "Button"})
"""Short types of the keyboard's elements the route matches (its keys; Return, shift, delete,
more are Buttons or Keys by iOS version)."""


def keys_pressed(keys: Sequence[tuple[str, str, str]], key_names: Sequence[str]) -> list[int]:
    """Which of the keyboard's elements the route presses, in the order it presses them.

    Args:
        keys: every element inside the shown keyboard, in document order, as (short type,
            name, label).
        key_names: the request's `keyNames`.

    Returns:
        Indexes into `keys`: each matched Key or Button once, in the keyboard's order. The
        route presses them in turn until the keyboard is gone (the phone alone knows when).
    """
    wanted = set(key_names)
    return [i for i, (kind, name, label) in enumerate(keys)
            if kind in PRESSED_TYPES and (name in wanted or label in wanted)]


def pressed_then_failed(kind: str, params: Mapping[str, object]) -> bool:
    """Whether a logged action is the key press of a keyboard dismiss (the bridge logs the one
    key it presses as a tap, `via` the dismiss): WDA answers it failed when the keyboard stays
    up after the press, a letter's or a text view's Return, so its `ok` false is no proof that
    nothing was pressed. The reader's definition, beside the rule the bridge logs by."""
    return kind == "tap" and params.get("via") == DISMISS_VIA
