"""How many bytes of clients' request bodies the bridge holds at once: a bound across threads.

Each body is bounded (`gate.MAX_BODY_BYTES`, and `gate.check_size` before it is parsed), but an
agent's grant has a pool of threads (`http_server.POOLS`), each of which may hold one body while
it is read, parsed, logged and forwarded. So the bytes held at once are bounded too: a request
reserves its declared length (the whole limit when it is chunked) before its body is read, and
gives it back when it has been answered. One that finds no room waits for it, and past
`WAIT_S` is refused (503, WDA's `unknown error`), never read. Never blocks the harness: its
requests are not charged here.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from bridge.gate import MAX_BODY_BYTES, Refused

BODIES_AT_ONCE_BYTES = 4 * MAX_BODY_BYTES
"""The most body bytes of clients (not the harness) held at once. Parsing costs a small multiple
of a body's bytes (`gate.check_size`), so this bounds the harness's memory for clients' bodies
to tens of MiB, whatever they send. An honest agent's bodies are a few KB: thousands fit."""
WAIT_S = 10.0
"""How long a request waits for room before it is refused (a large body is parsed in well under
a second, so room comes back quickly unless bodies are being held on purpose)."""


class BodyBudget:
    """Bytes of request bodies held at once, at most `total`."""

    def __init__(self, total: int = BODIES_AT_ONCE_BYTES, wait_s: float = WAIT_S) -> None:
        self.total, self.wait_s = total, wait_s
        self.held = 0
        """Bytes reserved now."""
        self.most_held = 0
        """The most bytes ever reserved at once (for tests and reports)."""
        self._changed = threading.Condition()

    @contextmanager
    def hold(self, size: int | None) -> Iterator[None]:
        """Reserve `size` bytes (None: a chunked body, reserved at `MAX_BODY_BYTES`) for the
        block, waiting up to `wait_s` for room.

        Raises:
            Refused: no room came in time (503).
        """
        wanted = min(MAX_BODY_BYTES if size is None else size, MAX_BODY_BYTES, self.total)
        deadline = time.monotonic() + self.wait_s
        with self._changed:
            while self.held + wanted > self.total:
                left = deadline - time.monotonic()
                if left <= 0 or not self._changed.wait(left):
                    if self.held + wanted <= self.total:
                        break
                    raise Refused(f"the bridge is holding {self.held:,} bytes of request bodies "
                                  f"already, its most at once ({self.total:,}), and this one's "
                                  f"{wanted:,} found no room within {self.wait_s:g} s; send "
                                  "smaller requests, or fewer at once", 503, "unknown error")
            self.held += wanted
            self.most_held = max(self.most_held, self.held)
        try:
            yield
        finally:
            with self._changed:
                self.held -= wanted
                self._changed.notify_all()
