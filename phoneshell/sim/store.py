"""JSON values, and the per-app persistent store: what an app keeps across terminate and tasks.

A store is what a real app writes to disk (Notes' notes, Settings' switches, alarms). It lives
as long as the simulator process, is written by `--state FILE` on stop, and is cleared only by a
reset. UI state (which page is open, scroll offsets) is not kept here: it dies with the process.
"""

from __future__ import annotations

from typing import TypeAlias, cast

JSON: TypeAlias = "None | bool | int | float | str | list[JSON] | dict[str, JSON]"
"""A JSON-serialisable value."""


class Store:
    """One app's persistent data: a JSON object with typed accessors that tolerate bad data.

    Reads fall back to the default when a key is missing or holds the wrong type (a hand-edited
    state file must not crash the simulator).
    """

    def __init__(self, data: dict[str, JSON] | None = None) -> None:
        self.data: dict[str, JSON] = dict(data or {})

    def flag(self, key: str, default: bool = False) -> bool:
        """A boolean (a switch)."""
        value = self.data.get(key)
        return value if isinstance(value, bool) else default

    def number(self, key: str, default: float = 0.0) -> float:
        """A number (a slider position, a count)."""
        value = self.data.get(key)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        return default

    def text(self, key: str, default: str = "") -> str:
        """A string."""
        value = self.data.get(key)
        return value if isinstance(value, str) else default

    def records(self, key: str) -> list[dict[str, JSON]]:
        """A list of JSON objects (notes, alarms), created empty on first use.

        The list returned is the stored one: appending to it changes the store.
        """
        value = self.data.get(key)
        if not isinstance(value, list):
            value = []
            self.data[key] = value
        # Keep only objects so callers can index them; a bad entry is dropped, not fatal.
        value[:] = [item for item in value if isinstance(item, dict)]
        return cast("list[dict[str, JSON]]", value)

    def put(self, key: str, value: JSON) -> None:
        """Set a value."""
        self.data[key] = value
