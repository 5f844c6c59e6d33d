"""Find an action's target in a WDA JSON page source: the focused field, or the element at a point.

Pure: reads the decoded `GET /source?format=json` tree (notes/wda-stack.md §2.2: short `type`
names, `rect` in points, `is*` flags as the strings "1"/"0"), or an element's own attributes,
and never the phone. Also decides what must not be written down: text typed into a secure
field, which keyboard key was tapped while a secure field (or an unknown one) has focus, and
what of a request WDA echoes back in its error messages.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping, Sequence

from bridge.back_menus import pages_back
from bridge.touched import KEYBOARD_TYPE as KEYBOARD_TYPE
from bridge.touched import Rect as Rect
from bridge.touched import ancestry
from bridge.touched import in_keyboard as in_keyboard
from bridge.touched import keyboard_at as keyboard_at
from bridge.touched import node_at as node_at
from bridge.touched import rect_of as rect_of
from phoneshell.records import Target
from phoneshell.xcui import (
    ALERT_TYPES,
    CHECKMARK,
    KEY_TYPE,
    SECURE_TYPE,
    TEXT_INPUT_TYPES,
    alert_press,
    flag,
    focused,
    full_type,
    section,
    short_type,
    walk,
)

MASK = "***"
"""What the log holds instead of text typed into (or read from) a secure field."""

SECURE_TYPES = frozenset({SECURE_TYPE, full_type(SECURE_TYPE)})
SECURE_FLAGS = ("isSecure", "secure")
KEY_TYPES = frozenset({KEY_TYPE, full_type(KEY_TYPE)})


def focused_node(tree: object) -> Mapping[str, object] | None:
    """The deepest node flagged `isFocused` (the field the keyboard types into), if any."""
    return focused(tree)


def input_with_focus(tree: object, focus_known: bool) -> Mapping[str, object] | None:
    """The text input with focus: the one flagged `isFocused` in a tree that says (a JSON
    source); in one that does not (an XML source), the tree's only text input while the
    keyboard shows, for the keyboard is up only for an input with focus. None: not told."""
    if focus_known:
        return focused_node(tree)
    nodes = [node for _, node in walk(tree)]
    if not any(node.get("type") == KEYBOARD_TYPE and flag(node, "isVisible") for node in nodes):
        return None
    inputs = [node for node in nodes
              if short_type(str(node.get("type", ""))) in TEXT_INPUT_TYPES]
    return inputs[0] if len(inputs) == 1 else None


def alert_button(tree: object, params: Mapping[str, object]) -> Mapping[str, object] | None:
    """The button of the alert in `tree` that WDA's alert route named by `params` (`gesture`
    "alert_accept" or "alert_dismiss", and `button` when the request names one) presses, by
    WDA's own rule (`xcui.alert_press`): the first visible Alert, else the first visible Sheet,
    and every Button inside it. None: no alert, or no such button."""
    nodes = [node for _, node in walk(tree) if flag(node, "isVisible")]
    for kind in ALERT_TYPES:
        alert = next((n for n in nodes if short_type(str(n.get("type", ""))) == kind), None)
        if alert is not None:
            buttons = [n for _, n in walk(alert) if short_type(str(n.get("type", ""))) == "Button"]
            name = params.get("button")
            index = alert_press(kind, [_text(b, "label") for b in buttons],
                                str(params.get("gesture")), name if isinstance(name, str) else None)
            return None if index is None else buttons[index]
    return None


def is_secure(node: Mapping[str, object] | None) -> bool:
    """Whether a node is a secure text input (by type, or by a secure flag)."""
    if node is None:
        return False
    return node.get("type") in SECURE_TYPES or any(flag(node, k) for k in SECURE_FLAGS)


def any_secure(tree: object) -> bool:
    """Whether any secure text input is on screen (a password field may have the focus)."""
    return any(is_secure(node) for _, node in walk(tree))


def is_key(node: Mapping[str, object]) -> bool:
    """Whether a node is a key of the on-screen keyboard."""
    return node.get("type") in KEY_TYPES


def keys_are_secret(tree: object) -> bool:
    """Whether a key tapped now may type into a secure field.

    True when the focused field is secure, and when no field is marked focused: a keyboard is up,
    so something has focus, and nothing proves it is not a password field.
    """
    focused = focused_node(tree)
    return focused is None or is_secure(focused)


def _text(node: Mapping[str, object], key: str) -> str:
    value = node.get(key)
    return value if isinstance(value, str) else "" if value is None else str(value)


def _kind(node: Mapping[str, object]) -> str:
    return short_type(_text(node, "type"))


def is_checkmark(node: Mapping[str, object]) -> bool:
    """Whether a node is UIKit's checkmark button (in a cell: the option chosen)."""
    return _kind(node) == "Button" and _text(node, "label") == CHECKMARK


def offers_choice(tree: object) -> bool:
    """Whether the screen shows a list of options (a checkmark in a cell)."""
    return any(is_checkmark(n) for _, n in walk(tree))


def section_checked(line: Sequence[Mapping[str, object]],
                    at: int) -> tuple[list[Mapping[str, object]], list[Mapping[str, object]]]:
    """The rows of the section of the cell `line[at]` (`line`: an `ancestry`), and those of them
    holding UIKit's checkmark. The section is the row's own (`xcui.section`: the rows touching
    it in its list), never the whole list: a row of another section (Ringtone's Download All
    Purchased Tones above the tones) is no option of it. ([], []) for a cell with no list."""
    if at <= 0:
        return [], []
    rows = section(line[at - 1], line[at])
    return rows, [r for r in rows if any(is_checkmark(n) for _, n in walk(r))]


def chosen_before(tree: object, node: Mapping[str, object]) -> str:
    """For a node in a list of options (a cell, or inside one, of a section where exactly one
    cell holds UIKit's checkmark), the label of the cell holding it: the option chosen before a
    tap on `node`, its section the row's own (`section_checked`). "" anywhere else, and where
    several cells of the section are checked (a list that chooses several: which one a tap
    changes cannot be told). Whether the row is an option at all is its own shape's to say
    (`bridge.settings_controls.settings_at`)."""
    line = ancestry(tree, node)
    cells = [i for i, n in enumerate(line) if _kind(n) == "Cell"]
    if not cells:
        return ""
    _, checked = section_checked(line, cells[-1])
    if len(checked) != 1:
        return ""
    return _text(checked[0], "label") or _text(checked[0], "name")


def to_target(node: Mapping[str, object], secret: bool = False, page: str = "",
              chosen: str = "", keyboard: bool = False, pages_back: int = 0) -> Target:
    """The audit target for a node: full type name, label, name, and value (masked if secure).

    Args:
        node: a source node, or an element's attributes (`type`, `label`, `name`, `value`).
        secret: mask label, name and value too (a key tapped into a secure field: its label
            is the character typed).
        page: the title of the page it is on (`page_title`).
        chosen: in a list of options, the one chosen before (`chosen_before`).
        keyboard: it is part of the on-screen keyboard (`in_keyboard`); a key always is.
        pages_back: as an item of the back button's history menu, the pages it goes back
            (`back_menus.pages_back`).
    """
    kind = full_type(_text(node, "type") or "Other")
    keyboard = keyboard or is_key(node)
    if secret:
        return Target(type=kind, label=MASK, name=MASK, value=MASK, page=page,
                      keyboard=keyboard)
    value = MASK if is_secure(node) else _text(node, "value")
    return Target(type=kind, label=_text(node, "label"), name=_text(node, "name"), value=value,
                  page=page, chosen=chosen, keyboard=keyboard, pages_back=pages_back)


def page_title(tree: object) -> str:
    """The title of the page on screen: the name of the last-drawn visible navigation bar (a
    sheet's over the page under it); when none is visible, the last-drawn one covered: a modal
    without a bar of its own (an alert, an action sheet, a context menu, a popover) reports the
    page it was presented over not visible, as a phone does, yet what it offers acts on that page
    (a held row's Delete in Recently Deleted). "" when the tree has no navigation bar.

    A modal with a bar of its own (a page sheet titled "Add Alarm") is its own page: its bar is
    the visible one, or, under a confirmation over it, the last drawn."""
    shown: str | None = None
    covered = ""
    for _, node in walk(tree):
        if short_type(_text(node, "type")) == "NavigationBar":
            if node.get("isVisible") != "0":
                shown = _text(node, "name")
            else:
                covered = _text(node, "name")
    return covered if shown is None else shown


def target_in(tree: object, node: Mapping[str, object]) -> Target:
    """The audit target for a node of `tree`, a key's masked while keys may be secret, with the
    title of the page it is on, in a list of options the option chosen before, whether it
    is part of the keyboard, and, for an item of the back button's history menu, how many pages
    back it goes."""
    secret = is_key(node) and keys_are_secret(tree)
    return to_target(node, secret=secret, page=page_title(tree),
                     chosen="" if secret else chosen_before(tree, node),
                     keyboard=in_keyboard(tree, node), pages_back=pages_back(tree, node))


ECHO_MIN_CHARS = 3
"""Request strings shorter than this are left in an error message unless they are secret: masking
every "a" would leave the message unreadable, and such a string says little."""


TEXT_KEYS = frozenset({"value", "text", "content"})
"""Where a request carries what a person typed or copied: keys and fields (`value`, `text`), W3C
key actions (`value`), the pasteboard (`content`, base64). The rest of a body is the protocol's
own vocabulary ("pointerMove", "touch"), which an error message may name."""


def _strings(value: object) -> list[str]:
    """The text a request carries (see `TEXT_KEYS`), a list of characters also joined, and
    base64 text also decoded."""
    found: list[str] = []
    stack: list[tuple[object, bool]] = [(value, False)]
    while stack:
        item, text = stack.pop()
        if isinstance(item, str) and text:
            found.append(item)
            found.extend(_decoded(item))
        elif isinstance(item, Mapping):
            stack.extend((v, text or k in TEXT_KEYS) for k, v in item.items())
        elif isinstance(item, list):
            if text and all(isinstance(v, str) for v in item):
                found.append("".join(item))
            stack.extend((v, text) for v in item)
    return found


def _decoded(text: str) -> list[str]:
    """A pasteboard's content arrives base64-encoded; WDA may echo it decoded."""
    if len(text) < 8 or len(text) % 4:
        return []
    try:
        plain = base64.b64decode(text, validate=True).decode("utf-8")
    except (binascii.Error, ValueError):
        return []
    return [plain] if plain.isprintable() else []


def mask_echoes(message: str, body: object, logged: Mapping[str, object],
                secret: str = "") -> str:
    """WDA's error message with what the request sent but the log does not show masked.

    WDA's messages repeat a request's arguments ("... value 'hunter2' ..."); a string the log
    itself holds (a bundle id, a URL, an element id) may stay, anything else of the body may
    not. `secret` (the text typed into a secure field) is masked whatever its length. A text is
    masked where WDA echoes it, as a word of its own, never inside a longer word or a string the
    log holds: a typed "1" leaves the element id "43DFDC05-C71B-..." whole (red team 139: it
    was masked inside the id, which then named no element; the line holds the id anyway).
    """
    shown = {str(v) for v in logged.values() if v is not None}
    hidden = {s for s in _strings(body) if len(s) >= ECHO_MIN_CHARS and s not in shown}
    if secret:
        hidden.add(secret)
    kept = [span for text in shown if len(text) >= ECHO_MIN_CHARS
            for span in _spans(message, text)]
    masked: list[tuple[int, int]] = []
    for text in sorted(hidden, key=len, reverse=True):  # longest first: no half-masked words
        for start, end in _spans(message, text):
            if not (_in_a_word(message, start, end) or _within(start, end, kept)
                    or _overlaps(start, end, masked)):
                masked.append((start, end))
    for start, end in sorted(masked, reverse=True):
        message = message[:start] + MASK + message[end:]
    return message


def _spans(message: str, text: str) -> list[tuple[int, int]]:
    """Every place `text` occurs in `message` (overlapping ones too)."""
    found: list[tuple[int, int]] = []
    start = message.find(text) if text else -1
    while start >= 0:
        found.append((start, start + len(text)))
        start = message.find(text, start + 1)
    return found


def _word_char(char: str) -> bool:
    # an id's characters: letters, digits, a UUID's dashes
    return char.isalnum() or char in "-_"


def _in_a_word(message: str, start: int, end: int) -> bool:
    """Whether message[start:end] runs on into the word around it (is part of a longer one)."""
    joined_before = start > 0 and _word_char(message[start - 1]) and _word_char(message[start])
    joined_after = end < len(message) and _word_char(message[end]) \
        and _word_char(message[end - 1])
    return joined_before or joined_after


def _within(start: int, end: int, spans: Sequence[tuple[int, int]]) -> bool:
    return any(a <= start and end <= b for a, b in spans)


def _overlaps(start: int, end: int, spans: Sequence[tuple[int, int]]) -> bool:
    return any(start < b and a < end for a, b in spans)
