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
  text reaches typeText, where the rule above applies in turn.
"""

from __future__ import annotations

import unicodedata

DELETES = frozenset("\b\x7f")
"""What typeText takes as the keyboard's delete key: Backspace and XCUIKeyboardKeyDelete."""
RETURNS = frozenset("\n\r")
"""What typeText takes as the Return key."""
KEYS = DELETES | RETURNS
"""Every character typeText presses a key for instead of typing it."""

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


def first_composed(value: str) -> str:
    """The first composed character of `value`, as NSString's
    rangeOfComposedCharacterSequenceAtIndex:0 gives it (WDA's FBRequireValue): a character with
    its combining marks, variation selectors and skin tones, an emoji joined by zero-width
    joiners, a flag's two regional indicators, or "\\r\\n"."""
    if value.startswith("\r\n"):
        return "\r\n"
    end = 1 if value else 0
    if value and ord(value[0]) in _REGIONAL and len(value) > 1 and ord(value[1]) in _REGIONAL:
        return value[:2]
    while end < len(value):
        char = value[end]
        if char == _JOINER and end + 1 < len(value):
            end += 2
        elif (unicodedata.category(char).startswith("M") or ord(char) in _MODIFIERS
              or 0xE0020 <= ord(char) <= 0xE007F or char == _JOINER):
            end += 1
        else:
            break
    return value[:end]


def w3c_key(value: str) -> str:
    """What one W3C key action's value types (`W3C_KEYS`, on its first composed character)."""
    key = first_composed(value)
    code = key[:1]  # WDA looks at the first UTF-16 unit only
    if code in W3C_KEYS:
        return W3C_KEYS[code]
    return "" if W3C_CODES[0] <= code <= W3C_CODES[1] else key
