"""What a phone makes of typed characters: XCTest's typeText keys, and WDA's W3C key map.

Pure: the one table the simulator types by, the bridge logs W3C key actions by, and the checks
replay the audit log's typing by, so the screen, the log and the grade agree.

Two doors, two rules (WebDriverAgent, FBW3CActionsHelpers.m and FBKeyboard):

* `/wda/keys`, an element's value and an alert's text hand the string to XCTest's typeText
  untranslated. typeText treats "\\b" and "\\x7f" (XCUIKeyboardKeyDelete) as the delete key and
  "\\n" and "\\r" as Return; every other character, WebDriver's private-use key codes included
  ("\\ue003" is *not* Backspace there), is typed as itself (`DELETES`, `RETURNS`).
* W3C key actions (`POST /actions`, a `key` source) use only the first composed character of each
  key's value and map WebDriver's key codes by `FBMapIfSpecialCharacter` (`w3c_key`) before the
  text reaches typeText, where the rule above applies in turn. Several key sources play side by
  side, by time (`key_source`, `in_time_order`): the bridge logs, and the simulator types, that
  one order.

What typing does to a field is here too, for the simulator and the checks' replay alike: a
delete removes a whole composed character (`typed`, `composed`), and a Return ends a field of
one line's editing there (`up_to_return`).
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

DELETES = frozenset("\b\x7f")
"""What typeText takes as the keyboard's delete key: Backspace and XCUIKeyboardKeyDelete."""
RETURNS = frozenset("\n\r")
"""What typeText takes as the Return key."""
KEYS = DELETES | RETURNS
"""Every character typeText presses a key for instead of typing it."""
_RETURN = re.compile("[\n\r]")

W3C_KEYS = {
    "\ue000": "", "\ue003": "\b", "\ue004": "\t", "\ue006": "\r", "\ue007": "\n",
    "\ue00c": "\x1b", "\ue00d": " ", "\ue05d": " ", "\ue017": "\x7f", "\ue018": ";",
    "\ue019": "=", **{chr(0xE01A + n): str(n) for n in range(10)}, "\ue024": "*",
    "\ue025": "+", "\ue026": ",", "\ue027": "-", "\ue028": ".", "\ue029": "/",
}
"""WDA's FBMapIfSpecialCharacter: WebDriver's key codes that type something, and what."""
W3C_CODES = ("\ue000", "\ue05d")
"""WebDriver's key code range: a code there that `W3C_KEYS` lacks (shift, an arrow, F1...)
types nothing; a character outside it types itself."""

_JOINER = "\u200d"
_MODIFIERS = range(0x1F3FB, 0x1F400)
_REGIONAL = range(0x1F1E6, 0x1F200)
_OPEN, _AFTER_JOINER, _LONE_REGIONAL, _CR, _CLOSED = range(5)
"""How a composed character being read may go on: with marks, modifiers, tags and joiners
(`_OPEN`), with anything (a joiner was its last), also with a second regional indicator (a
flag's first half) or "\n" (after "\r"), or not at all (a flag, "\r\n")."""


def _start(char: str) -> int:
    return _CR if char == "\r" else _LONE_REGIONAL if ord(char) in _REGIONAL else _OPEN


def _joined(state: int, char: str) -> int | None:
    """How the composed character goes on once `char` joins it; None: `char` begins another."""
    if state == _CLOSED:
        return None
    if state == _AFTER_JOINER:
        return _OPEN
    if (state == _LONE_REGIONAL and ord(char) in _REGIONAL) or (state == _CR and char == "\n"):
        return _CLOSED
    if char == _JOINER:
        return _AFTER_JOINER
    extends = unicodedata.category(char).startswith("M") or ord(char) in _MODIFIERS or \
        0xE0020 <= ord(char) <= 0xE007F
    return _OPEN if extends else None


def first_composed(value: str) -> str:
    """The first composed character of `value`, as NSString's
    rangeOfComposedCharacterSequenceAtIndex:0 gives it (WDA's FBRequireValue): a character with
    its combining marks, variation selectors and skin tones, an emoji joined by zero-width
    joiners, a flag's two regional indicators, or "\\r\\n"."""
    if not value:
        return ""
    state: int | None = _start(value[0])
    end = 1
    while state is not None and end < len(value):
        state = _joined(state, value[end])
        end += 1 if state is not None else 0
    return value[:end]


def composed(text: str) -> list[str]:
    """`text` cut into composed characters (`first_composed`, one after another): what the
    delete key removes one at a time, and what a field's length counts."""
    chars: list[str] = []
    starts: list[int] = []
    _compose(chars, starts, [], text)
    return ["".join(chars[a:b]) for a, b in zip(starts, [*starts[1:], len(chars)][:len(starts)],
                                                 strict=True)]


def _compose(chars: list[str], starts: list[int], states: list[int], text: str) -> None:
    """Add `text` to composed characters being read (`chars`, where each begins, its state)."""
    for char in text:
        state = _joined(states[-1], char) if states else None
        if state is None:
            starts.append(len(chars))
            states.append(_start(char))
        else:
            states[-1] = state
        chars.append(char)


def typed(before: str, run: str) -> str:
    """A field's text after typeText types `run` at its end, as the simulator types it and the
    checks replay it: "\\b" and "\\x7f" delete the last composed character (a letter with its
    accents, an emoji of several joined, a flag: an iPhone's delete key removes it whole), Return
    is a new line (a field of one line ends its editing at a Return instead: `up_to_return`),
    every other character types itself."""
    if not DELETES.intersection(run):
        return before + _newlines(run)
    kept = _kept(before, sum(run.count(d) for d in DELETES))
    chars: list[str] = []
    starts: list[int] = []
    states: list[int] = []
    _compose(chars, starts, states, before[kept:])
    begun = 0
    for index, char in enumerate(run):
        if char not in DELETES:
            continue
        _compose(chars, starts, states, _newlines(run[begun:index]))
        begun = index + 1
        if starts:
            del chars[starts.pop():]
            states.pop()
    _compose(chars, starts, states, _newlines(run[begun:]))
    return before[:kept] + "".join(chars)


def typed_over(text: str, selection: tuple[int, int] | None, run: str) -> tuple[str, int]:
    """`text` after `run` (keys up to a Return that ends editing, `up_to_return`) is typed
    where the caret is, as UIKit types it, for the simulator and the checks' replay alike: a
    selection [start, end) is replaced by what comes next, a delete deleting it alone and a
    character typed taking its place; with none (None: the caret at the end of the text) the
    keys act before the caret (`typed`). Returns the text and where the caret then sits."""
    start, end = selection or (len(text), len(text))
    if start < end and run[:1] in DELETES:
        run = run[1:]
    head = typed(text[:start], run)
    return head + text[end:], len(head)


def _kept(text: str, deletes: int) -> int:
    """Where in `text` a composed character surely begins with at least `deletes` after it
    (0 when none does): what `deletes` deletes cannot reach before it, and how the characters
    before it compose cannot change how those after it do, so typing reads only the tail (a
    delete into a long note costs what it deletes, not the note's length). A character begins
    one surely when it joins nothing before it: not a mark, a modifier, a tag, a joiner, a
    regional indicator or "\\n", after no joiner."""
    found = 0
    for at in range(len(text) - 1, 0, -1):
        char = text[at]
        if text[at - 1] != _JOINER and char != "\n" and _start(char) == _OPEN and \
                _joined(_OPEN, char) is None:
            found += 1
            if found > deletes:
                return at
    return 0


def _newlines(text: str) -> str:
    return text.replace("\r", "\n")


def up_to_return(text: str, start: int, single_line: bool) -> tuple[str, int | None]:
    """What typeText types into one field of `text` from `start`, and where it goes on: in a
    field of one line up to its first Return, which ends the field's editing (the index past
    it: what follows goes to whatever field has the focus then, or nowhere); in a text view
    to the end (None), every Return a new line."""
    found = _RETURN.search(text, start) if single_line else None
    if found is None:
        return text[start:], None
    return text[start:found.start()], found.end()


def w3c_key(value: str) -> str:
    """What one W3C key action's value types (`W3C_KEYS`, on its first composed character)."""
    key = first_composed(value)
    code = key[:1]  # WDA looks at the first UTF-16 unit only
    if code in W3C_KEYS:
        return W3C_KEYS[code]
    return "" if W3C_CODES[0] <= code <= W3C_CODES[1] else key


class KeysRefused(ValueError):
    """W3C key actions WDA refuses (`invalid argument`); the message is WDA's."""


@dataclass(frozen=True)
class KeyRun:
    """Keys of one W3C key source typed together: from a key going down while none is held to
    the last key up, typed (`w3c_key` of each key up, in the order they come up) when that key
    comes up, `at_ms` into the request on its source's clock."""

    text: str
    at_ms: float


def without_cancelled(items: object) -> list[Mapping[str, object]]:
    """A source's action items, each `pointerCancel` dropped with the item before it (WDA's
    preprocessing)."""
    kept: list[Mapping[str, object]] = []
    for item in items if isinstance(items, list) else ():
        if not isinstance(item, Mapping):
            raise KeysRefused(f"action items must be objects, got {item!r}")
        if item.get("type") == "pointerCancel":
            if kept:
                kept.pop()
            continue
        kept.append(item)
    return kept


def _pause_ms(item: Mapping[str, object]) -> float:
    value = item.get("duration")
    if value is None:
        return 0.0
    number = math.inf
    if isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value) < 1e308:
        number = float(value)
    if not math.isfinite(number):
        raise KeysRefused(f"'duration' must be a number in '{item}'")
    if number < 0:
        raise KeysRefused(f"'duration' must not be negative in '{item}'")
    return number


def key_source(source: Mapping[str, object]) -> tuple[list[KeyRun], float]:
    """What one W3C key source types (`KeyRun`s, in its own order) and how long it plays (ms),
    checked as WDA's FBW3CActionsSynthesizer checks it.

    Raises:
        KeysRefused: WDA would refuse it (no items, an unknown item type, an empty or missing
            value, a key up without its key down or a key down never let go).
    """
    name, items = source.get("id"), source.get("actions")
    if not isinstance(items, list) or not items:
        raise KeysRefused("It is mandatory to have at least one item defined for each action. "
                          f"Action with id '{name}' contains none")
    runs: list[KeyRun] = []
    held: list[str] = []
    typed_now: list[str] = []
    clock_ms = 0.0
    for item in without_cancelled(items):
        kind, value = item.get("type"), item.get("value")
        if kind == "pause":
            clock_ms += _pause_ms(item)
            continue
        if kind not in ("keyDown", "keyUp"):
            raise KeysRefused(f"'{name}' action item type '{kind}' is not supported. Only the "
                              "following action item types are supported: pause, keyUp, keyDown")
        if not isinstance(value, str) or not value:
            raise KeysRefused("Key value must be present and should be a valid non-empty string "
                              f"for '{item}'")
        value = first_composed(value)  # WDA's FBRequireValue keeps only the first character
        if kind == "keyDown":
            held.append(value)
            continue
        if value not in held:
            raise KeysRefused(f"Key Up action '{value}' is not balanced with a preceding Key "
                              f"Down one in '{item}'")
        held.remove(value)
        typed_now.append(w3c_key(value))
        if not held:
            runs.append(KeyRun("".join(typed_now), clock_ms))
            typed_now = []
    if held:
        raise KeysRefused(f"Key Down action '{held[0]}' must have a closing Key Up successor "
                          f"in '{name}'")
    return runs, clock_ms


def in_time_order(sources: Sequence[Sequence[KeyRun]]) -> list[KeyRun]:
    """Every source's runs as the phone types them: WDA plays the sources side by side, each on
    its own clock from the request's start, so runs go by `at_ms`; runs at one moment go in the
    order of their sources, and of the items within one."""
    ordered = [(run.at_ms, index, order, run) for index, runs in enumerate(sources)
               for order, run in enumerate(runs)]
    return [run for *_, run in sorted(ordered, key=lambda r: r[:3])]
