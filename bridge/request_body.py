"""Typed reads from an admitted request's body, as WDA reads each field: a field of another type
than WDA's reading is refused (`gate.Refused`), never guessed, as WDA would coerce it one way and
the log would say another. Shared by the route handlers (`actions.py`, `gesture_actions.py`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping

from bridge.classified import Classified
from bridge.gate import Refused, json_type
from phoneshell.wda_routes import typed_value

POINT_FIELDS = frozenset({"x", "y", "fromX", "fromY", "toX", "toY"})
"""The fields WDA reads a point from, with doubleValue (floatValue in a W3C chain)."""
SPELLED_NUMBER = re.compile(r"-?[0-9]+(?:\.[0-9]+)?", re.ASCII)
"""A number a string spells alike for every reader: digits, a sign, a decimal point."""


def coordinate(named: str, value: object) -> int | float | None:
    """A point's field (`named` as a refusal names it: "'x'") as WDA reads it and the log names
    it: a number, or a string that spells one (`SPELLED_NUMBER`). WDA reads a point with
    doubleValue, which a string answers too: {"x": "201"} taps at 201 on a phone, and is
    logged as 201.

    Raises:
        Refused: any other string (doubleValue reads "abc" as 0 and "201px" as 201: the log
            would name a point its sender may not have meant), one past what a double holds,
            or another type.
    """
    if isinstance(value, str):
        if SPELLED_NUMBER.fullmatch(value) and math.isfinite(float(value)):
            return float(value) if "." in value else int(value)
        raise Refused(f"{named} must be a number, or a string of one (digits, a sign, a "
                      f"decimal point), not {value[:40]!r}: WDA reads it with doubleValue, "
                      "which makes a number of any string (0 of one that starts with none)")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        # WDA reads numbers with doubleValue, which turns true into 1 too.
        raise Refused(f"{named} must be a number, not {json_type(value)}")
    return value


TYPING_ROUTES = {"keys": "/wda/keys", "element": "/element/:uuid/value", "alert": "/alert/text"}
"""The route each typing `via` of the log names (`actions._typing`)."""


class Body:
    """Typed reads from a request body: absent is None, present with another type is refused."""

    def __init__(self, data: object) -> None:
        self.data: Mapping[str, object] = data if isinstance(data, Mapping) else {}

    def num(self, key: str) -> int | float | None:
        """A number field; a point's (`POINT_FIELDS`) may be a string of one (`coordinate`).
        Any other field's string is refused: not every reader WDA has for them is one a string
        answers (NSString has no unsignedIntegerValue), and no client needs it."""
        value = self.data.get(key)
        if key in POINT_FIELDS:
            return coordinate(repr(key), value)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            # WDA reads numbers with doubleValue, which turns "100" and true into numbers too.
            raise Refused(f"{key!r} must be a number, not {json_type(value)}")
        return value

    def whole(self, key: str) -> int:
        """A whole number WDA reads with unsignedIntValue (which drops a fraction and wraps a
        negative round), as the log must name it.

        Raises:
            Refused: missing (WDA reads 0), not a number, negative or not whole.
        """
        value = self.num(key)
        if value is None:
            raise Refused(f"{key!r} is missing: WDA reads a missing one as 0")
        if value < 0 or value != int(value):
            raise Refused(f"{key!r} must be a whole number of 0 or more: WDA reads it with "
                          "unsignedIntValue, so the log would name another one than it takes")
        return int(value)

    def text(self, key: str) -> str | None:
        """A string field (a bundle id, a URL, a button name)."""
        value = self.data.get(key)
        if value is None or isinstance(value, str):
            return value
        raise Refused(f"{key!r} must be a string, not {json_type(value)}")

    def typed(self, key: str, route: str) -> str | None:
        """Text to type from the body's `key`, read as WDA reads the `value` of the typing
        route `route` (`wda_routes.typed_value`, the simulator's reading too): a list of
        strings joined, a string where the route takes one.

        Raises:
            Refused: a list holding anything but strings (WDA joins its items' descriptions,
                so [1, "a"] types "1a"), a string where WDA takes a list only (`/wda/keys`:
                WDA fails and types nothing, and the log would say it typed), any other type.
        """
        value = self.data.get(key)
        if value is None:
            return None
        text = typed_value(route, value)
        if isinstance(value, list) and not all(isinstance(v, str) for v in value) \
                or text is None and not isinstance(value, str):
            raise Refused(f"{key!r} must be a string or a list of strings, not "
                          f"{_described(value)}")
        if text is None:
            raise Refused(f"{route} types {key!r} only as a list of characters: WDA joins it "
                          "with componentsJoinedByString:, which a string lacks, so it would "
                          "fail and type nothing; send the text as a list of its characters")
        return text

    def typed_text(self, via: str) -> str:
        """The text the typing route `via` ("keys", "element" or "alert": `TYPING_ROUTES`)
        types, read as WDA reads it.

        An element's value types `value`, or `text` when the body has no `value`
        (`handleSetValue`: value ?: text); `/wda/keys` and an alert's text read `value` only.
        Selenium 4 sends both, `text` the string and `value` its characters: admitted when they
        spell the same text, which is then what is typed whichever WDA reads.

        Raises:
            Refused: `value` and `text` spell different texts (WDA types one, a reader of the
                log or the request may take the other), a keys or alert route given only
                `text` (WDA types nothing of it, and the log would say it did), or a field WDA
                cannot read as text (`typed`).
        """
        route = TYPING_ROUTES[via]
        # `text` is typed by an element's value only; elsewhere it is only compared
        value, text = self.typed("value", route), self.typed("text", TYPING_ROUTES["element"])
        if "value" in self.data and "text" in self.data and value != text:
            raise Refused("the body has a 'value' and a 'text' that spell different texts: WDA "
                          "types 'value', and a reader taking 'text' would name other keys; "
                          "send one, or both spelling the same text")
        if "value" not in self.data and "text" in self.data and via != "element":
            raise Refused("this route types 'value' only, and its body has only 'text', which "
                          "WDA would not type; send the keys as 'value'")
        return (value if "value" in self.data else text) or ""

    def strings(self, key: str) -> list[str] | None:
        """A list of strings WDA reads as one (an NSArray it compares names against).

        Raises:
            Refused: not a list, or an item that is not a string (WDA would compare it with
                every name and match none, or fail on it as a list).
        """
        value = self.data.get(key)
        if value is None:
            return None
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise Refused(f"{key!r} must be a list of strings, not {_described(value)}")
        return value


def _described(value: object) -> str:
    """A body value's JSON type for a refusal: "a list holding number, string"."""
    if isinstance(value, list):
        return "a list holding " + ", ".join(sorted({json_type(v) for v in value}))
    return json_type(value)


Handler = Callable[[Body, tuple[str, ...]], Classified]
"""A route's handler: the body and the ids its path captured, to the action it is."""
