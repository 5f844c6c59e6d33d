"""WDA's keyboard dismiss as what it presses: the one key `keyNames` names, as a tap on it.

`/wda/keyboard/dismiss` taps the keyboard's keys the names name, in the keyboard's order, until
the keyboard goes (`phoneshell.keyboard_dismiss`, the rule the simulator plays): a letter types,
Return sends. So the log names the key it presses, from the screen known before it: a tap at the
key's hit point (where XCTest taps an element), `via` the dismiss, aimed and masked as any tap on
a key is. A dismiss that names no key shown (or finds no keyboard) presses nothing, and stays a
`keyboard_dismiss` with no target and `taps` 0, as it was classified (`bridge.actions`): the log
says no finger went down, so no reader takes it for a touch it cannot name. One that names
several keys is refused: WDA presses them in turn until the keyboard goes, and only the phone
knows after which, so the log could not say which it pressed. Pure: a function of the action
and the tree.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from bridge.classified import Classified, pt
from bridge.gate import Refused
from bridge.touched import rect_of
from phoneshell.keyboard_dismiss import DISMISS_VIA, keys_pressed
from phoneshell.xcui import short_type, walk


def _keyboard_elements(tree: object) -> list[Mapping[str, object]]:
    """Every element inside each visible Keyboard of `tree`, in document order (WDA looks under
    `app.keyboard`: the globe and dictation, drawn beside it on iOS 26, are not in it)."""
    found: list[Mapping[str, object]] = []
    for _, board in walk(tree):
        if short_type(str(board.get("type") or "")) == "Keyboard" \
                and board.get("isVisible") != "0":
            found += [node for _, node in walk(board) if node is not board]
    return found


def dismiss_pressed(action: Classified, tree: object | None) -> Classified:
    """A keyboard dismiss (its `key_names`) as the tap on the key it presses, from `tree` (the
    screen known before it); any other action, and a dismiss that presses nothing, as it is.

    Raises:
        Refused: the screen is not known (nothing says what the names press), or the names
            name more than one key of the keyboard.
    """
    if not action.key_names:
        return action
    if tree is None:
        raise Refused("the bridge could not read the screen, so which keys of the keyboard "
                      "keyNames would press is unknown; read the screen and send it again", 503,
                      "unknown error")
    keys = [node for node in _keyboard_elements(tree) if node.get("isVisible") != "0"]
    pressed = keys_pressed([(short_type(str(n.get("type") or "")), str(n.get("name") or ""),
                             str(n.get("label") or "")) for n in keys], action.key_names)
    if not pressed:
        return replace(action, key_names=())
    if len(pressed) > 1:
        raise Refused(f"keyNames name {len(pressed)} keys of the keyboard: WDA taps them in "
                      "turn until the keyboard goes, and only the phone knows after which, so "
                      "the log could not say which keys it pressed; name one key (or tap it)",
                      403, "unsupported operation")
    rect = rect_of(keys[pressed[0]].get("rect"))
    if rect is None or rect.width <= 0 or rect.height <= 0:
        raise Refused("keyNames name a key of the keyboard whose frame the screen does not "
                      "give, so the log could not name it; tap the key", 403,
                      "unsupported operation")
    x, y = (pt(v) for v in rect.centre)
    return replace(action, params={"x": x, "y": y, "gesture": "tap", "via": DISMISS_VIA},
                   aim="point", points=((x, y),), key_names=())
