"""Typed reads from an admitted request's body, as WDA reads each field: a field of another type
than WDA's reading is refused (`gate.Refused`), never guessed, as WDA would coerce it one way and
the log would say another. Shared by the route handlers (`actions.py`, `gesture_actions.py`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from bridge.classified import Classified
from bridge.gate import Refused, json_type


class Body:
    """Typed reads from a request body: absent is None, present with another type is refused."""

    def __init__(self, data: object) -> None:
        self.data: Mapping[str, object] = data if isinstance(data, Mapping) else {}

    def num(self, key: str) -> int | float | None:
        value = self.data.get(key)
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

    def typed(self, key: str) -> str | None:
        """Text to type: a string, or a list of strings WDA joins."""
        value = self.data.get(key)
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return "".join(value)  # WDA joins a list of characters the same way
        if value is None or isinstance(value, str):
            return value
        # WDA joins a list's items by their descriptions, so [1, "a"] types "1a".
        what = "a list holding " + ", ".join(sorted({json_type(v) for v in value})) \
            if isinstance(value, list) else json_type(value)
        raise Refused(f"{key!r} must be a string or a list of strings, not {what}")


Handler = Callable[[Body, tuple[str, ...]], Classified]
"""A route's handler: the body and the ids its path captured, to the action it is."""
