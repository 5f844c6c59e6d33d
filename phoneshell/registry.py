"""Named vocabularies (check kinds, steps, agents, probes): one dict each, filled at import time.

A miss raises `UnknownName` with close matches and the command that lists every name, so a
typo in a task file or on the command line is fixed in one go.
"""

from __future__ import annotations

import difflib
import threading
from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

from phoneshell.errors import UnknownName

T = TypeVar("T")


def close_matches(name: str, names: list[str], n: int = 3) -> list[str]:
    """Return the names most like `name`, best first (used for "did you mean").

    Substring relations count as close too ("exists" finds "element_exists"), which
    difflib's ratio alone would miss for short names.
    """
    found = difflib.get_close_matches(name, names, n=n, cutoff=0.6)
    low = name.lower()
    for candidate in sorted(names):
        if len(found) >= n:
            break
        if candidate not in found and len(low) >= 3 and (low in candidate or candidate in low):
            found.append(candidate)
    return found


class Registry(Generic[T]):
    """A dict of named entries with a decorator to fill it and a lookup that explains misses.

    Args:
        kind: what an entry is called in messages ("check kind", "step").
        list_command: the command that lists every entry, quoted in the hint of a miss.
        on_miss: called once, on the first miss, to load more entries (entry points).
        builtins: called once, before the registry is first read, to import the modules that
            register its own entries (agents: a command that makes none need not import them).
    """

    def __init__(self, kind: str, list_command: str,
                 on_miss: Callable[[Registry[T]], None] | None = None,
                 builtins: Callable[[], None] | None = None) -> None:
        self.kind = kind
        self.list_command = list_command
        self._entries: dict[str, T] = {}
        self._on_miss = on_miss
        self._builtins = builtins
        self._filling = threading.RLock()
        self._filled_once = builtins is None

    def _filled(self) -> dict[str, T]:
        """The entries, the built-in ones imported first. Another thread's read waits until
        they are all registered (the attack's phones make their agents at once)."""
        if not self._filled_once:
            with self._filling:
                load, self._builtins = self._builtins, None
                if load is not None:
                    load()
                    self._filled_once = True
        return self._entries

    def register(self, name: str) -> Callable[[T], T]:
        """Decorate (or call on) an entry to file it under `name`; names are unique."""

        def add(entry: T) -> T:
            if name in self._entries:
                raise ValueError(f"{self.kind} {name!r} is registered twice")
            self._entries[name] = entry
            return entry

        return add

    def lookup(self, name: str) -> T:
        """Return the entry called `name`, or raise `UnknownName` naming close matches."""
        if name not in self._filled():
            with self._filling:  # a miss while another thread loads them waits for them
                load, self._on_miss = self._on_miss, None
                if load is not None:
                    load(self)
        try:
            return self._entries[name]
        except KeyError:
            raise UnknownName(self.kind, name, close_matches(name, self.names()),
                              self.list_command) from None

    def __contains__(self, name: object) -> bool:
        return name in self._filled()

    def names(self) -> list[str]:
        """Every registered name, in registration order."""
        return list(self._filled())

    def items(self) -> Iterator[tuple[str, T]]:
        """Every (name, entry), in registration order."""
        return iter(list(self._filled().items()))
