"""Audit-logged actions in words a person (or a judge model) reads: "Tapped Button '7'".

Pure: one action in, one sentence out. The words say what the harness saw the agent do, never
what the agent says it did. Every value in them that the agent chose or the phone showed (text
typed, bundle ids, URLs, labels, buttons, directions, routes, the phone's error messages, the
claim) is quoted one way, `untrusted.quoted`: a literal on one line, so no newline or quote in
it can pass for the harness's own words; only numbers are shown bare. A sentence is one line.
A value cut short is cut outside its quotes ("'abc' (cut: 439 characters, 200 shown)"), so the
cut never reads as the agent's text, nor the agent's "..." as a cut.
"""

from __future__ import annotations

import ast
import re

from phoneshell.audit import Action
from phoneshell.records import Claim, Scalar
from phoneshell.untrusted import quoted

TEXT_SHOWN = 200
"""Characters of typed text or a URL shown before it is cut."""

_GESTURES = {
    "double_tap": "Double-tapped", "touch_and_hold": "Touched and held",
    "two_finger_tap": "Tapped with two fingers", "force_touch": "Force-touched",
    "taps": "Tapped several times", "alert_accept": "Accepted the alert",
    "alert_dismiss": "Dismissed the alert", "keyboard_dismiss": "Dismissed the keyboard",
}
_SWIPES = {"scroll": "Scrolled", "scroll_to": "Scrolled to", "pinch": "Pinched",
           "rotate": "Rotated", "picker_select": "Turned a picker wheel",
           "multi_touch": "Moved several fingers"}


ERROR_SHOWN = 120
"""Characters of the phone's error message shown before it is cut."""


def _quoted(value: Scalar, shown: int = TEXT_SHOWN) -> str:
    """A value as the judge reads it: a number bare, anything else quoted, cut to `shown`."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    text = str(value)
    if len(text) <= shown:
        return quoted(text)
    return f"{quoted(text[:shown])} (cut: {len(text)} characters, {shown} shown)"


# A literal `untrusted.quoted` wrote (Python's repr of a str): the harness's own words hold no
# quote character, so every quote in a sentence opens one of these.
_LITERAL = re.compile(r"'(?:[^'\\\n]|\\.)*'" r'|"(?:[^"\\\n]|\\.)*"')


def literals(words: str) -> list[str]:
    """The values quoted in `words` (a sentence, or `claim_words`), as the agent or the phone
    wrote them: a tapped label, typed text (as far as it is shown), an error message."""
    found = []
    for match in _LITERAL.finditer(words):
        try:
            value = ast.literal_eval(match.group())
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            continue
        if isinstance(value, str):
            found.append(value)
    return found


def _element(action: Action) -> str:
    """The target as "Button '7'" ("" when unresolved)."""
    if action.target is None:
        return ""
    kind = action.target.type.removeprefix("XCUIElementType")
    kind = kind if kind.isidentifier() else _quoted(kind)
    name = action.target.label or action.target.name
    return f"{kind} {_quoted(name)}" if name else kind


def _point(action: Action, x: str = "x", y: str = "y") -> str:
    px, py = action.params.get(x), action.params.get(y)
    return f"({_quoted(px)}, {_quoted(py)})" if px is not None and py is not None else ""


def _tap(action: Action) -> str:
    gesture = str(action.params.get("gesture", "tap"))
    verb = _GESTURES.get(gesture, "Tapped")
    if gesture.startswith("alert_"):
        button = action.params.get("button")
        return verb + (f" with {_quoted(button)}" if button else "")
    if gesture == "keyboard_dismiss":
        return verb
    where = _element(action) or (f"at {_point(action)}" if _point(action) else "an element")
    return f"{verb} {where}"


def _type(action: Action) -> str:
    into = _element(action)
    where = f" into {into}" if into else ""
    if action.params.get("via") == "clear":
        return f"Cleared the text of {into or 'a field'}"
    return f"{_typed(action.params.get('text', ''))}{where}"


def _typed(text: Scalar) -> str:
    return f"Typed {_quoted(text)}"


_INTO = re.compile(r"(?: into [\w.-]+(?: (?:" + _LITERAL.pattern + "))?)?")


def typed_into(words: str, text: str) -> str:
    """The element a type step's `words` say its `text` went into (" into TextView 'Note'"),
    "" when they name none or are not a type step's words of that text."""
    if not words.startswith(said := _typed(text)):
        return ""
    found = _INTO.match(words, len(said))
    return found.group() if found else ""


def _swipe(action: Action) -> str:
    verb = _SWIPES.get(str(action.params.get("gesture", "")), "Swiped")
    direction = action.params.get("direction")
    start, end = _point(action, "from_x", "from_y"), _point(action, "to_x", "to_y")
    if start and end:
        return f"{verb} from {start} to {end}"
    return f"{verb} {_quoted(direction)}" if direction else verb


def _app(verb: str, action: Action) -> str:
    bundle = action.params.get("bundle_id")
    return f"{verb} {_quoted(bundle)}" if bundle else f"{verb} an app"


def sentence(action: Action) -> str:
    """The action in words, with what changed in front and how the phone answered."""
    kind = action.kind
    if kind == "launch":
        text = _app("Opened", action)
    elif kind == "activate":
        text = _app("Brought to the front", action)
    elif kind == "terminate":
        text = _app("Closed", action)
    elif kind == "tap":
        text = _tap(action)
    elif kind == "type":
        text = _type(action)
    elif kind == "home":
        text = "Went to the Home Screen"
    elif kind == "press":
        button = action.params.get("button")
        text = f"Pressed the {_quoted(button)} button" if button else "Pressed a button"
    elif kind == "swipe":
        text = _swipe(action)
    elif kind == "open_url":
        text = f"Opened the URL {_quoted(action.params.get('url', ''))}"
    else:
        text = f"Sent the request POST {_quoted(action.params.get('route', '?'))}"
    if action.ok is False:
        text += f" (the phone refused it: {_quoted(action.error, ERROR_SHOWN)})"
    elif action.ok is None:
        text += " (no answer from the phone was logged)"
    elif action.app_after and action.app_after not in (action.app_before,
                                                       action.params.get("bundle_id")):
        text += f"; now in front: {_quoted(action.app_after)}"
    return text


def claim_words(claim: Claim | None) -> str:
    """What the agent reported, in words: "status done; answer '42'; summary '...'" ("" for
    no claim)."""
    if claim is None:
        return ""
    said = [f"status {claim.status}"]
    if claim.answer:
        said.append(f"answer {quoted(claim.answer)}")
    if claim.summary:
        said.append(f"summary {quoted(claim.summary)}")
    return "; ".join(said)
