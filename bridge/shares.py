"""How much of the audit log each agent's turn may write, and has written.

Every line is bounded (`AuditEvent.bounded`), but an agent can send requests without end: taps,
typing, requests the bridge refuses, reads that each find the phone changed around it. So each
turn gets a share of the log (`AGENT_LOG_BYTES`), opened when its grant is made: its lines are
those of phase `agent` of its attempt, wherever they come from. The line that would pass the
share is not written: one line saying so is (`refused`, `params.via` = `log_share`), and every
later line of the turn is refused (`ShareSpent`) and counted, never written, but its actions'
outcomes (what reached the phone is always logged). The bridge then ends the agent's grant, and
the grade fails the attempt for it. What its lines take of the disk is charged to its turn
(`phoneshell.behalf`), as its own writes are. Pure bookkeeping: never writes a file.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, replace

from bridge.context import RunContext
from phoneshell.behalf import charge
from phoneshell.errors import BridgeError

AGENT_LOG_BYTES = 4 * 1024 * 1024
"""The most bytes of log lines one agent's turn may have written (4 MiB). The reference finishes
of the whole suite write 0.2 MiB of agent lines together, the busiest attempt 14 KiB (a clock's
wheels); 4 MiB is a thousand requests each typing the most one may, into a field already full
(about 3.8 KB a request)."""


class ShareSpent(BridgeError):
    """An agent's turn has written all the log it may: the line was not written, and the action
    it was for must not reach the phone."""


@dataclass
class Share:
    """What one agent's turn may write to the log, and has written."""

    limit: int
    used: int = 0
    """Bytes of the turn's lines written (newlines included)."""
    lines: int = 0
    """Lines written."""
    spent: bool = False
    """A line did not fit: the turn may write nothing more but its actions' outcomes."""
    dropped: int = 0
    """Lines refused since it was spent (counted, never written)."""

    def describe(self) -> str:
        """Why the agent's turn ended, for its refused line, its replies and its grade."""
        return (f"the agent's share of the audit log is used up: {self.lines:,} line(s), "
                f"{self.used:,} bytes, and an agent's turn may write {self.limit:,}; its access "
                "ended there, and what it sent after was refused and counted, not logged")


Key = tuple[str, str, int]


def key_of(context: RunContext) -> Key:
    """Which attempt's share a line of `context` counts in (when its phase is `agent`)."""
    return context.run_id, context.task_id, context.attempt


class Shares:
    """The shares of the agents' turns whose lines one writer writes (thread-safe)."""

    def __init__(self) -> None:
        self._shares: dict[Key, Share] = {}
        self._lock = threading.Lock()

    def open(self, context: RunContext, limit: int = AGENT_LOG_BYTES) -> None:
        """Give the agent's turn of `context`'s attempt `limit` bytes of the log, from now (an
        earlier turn of the same attempt, retried, is forgotten)."""
        with self._lock:
            self._shares[key_of(context)] = Share(max(0, limit))

    def of(self, context: RunContext) -> Share | None:
        """A copy of the share of `context`'s attempt (None: none was opened)."""
        with self._lock:
            found = self._shares.get(key_of(context))
            return None if found is None else replace(found)

    def admit(self, context: RunContext, size: int) -> Share | None:
        """Count a line of `size` bytes of `context` in its share, when it fits (or the line is
        no agent's, or it has no share): None. A line that does not fit spends the share: its
        copy is returned, and the caller writes the line that says so, then raises.

        Raises:
            ShareSpent: the share was spent before (the line is counted dropped).
        """
        if context.phase != "agent":
            return None
        with self._lock:
            share = self._shares.get(key_of(context))
            if share is None:
                return None
            if share.spent:
                share.dropped += 1
                raise ShareSpent(share.describe(), hint=HINT)
            if share.used + size > share.limit:
                share.spent = True
                return replace(share)
            share.used, share.lines = share.used + size, share.lines + 1
        charge(key_of(context), size)
        return None

    def count(self, key: Key, size: int) -> None:
        """Count an outcome line in its action's share, fit or not: the action reached the
        phone, so its outcome is written whatever the share says."""
        with self._lock:
            share = self._shares.get(key)
            if share is not None:
                share.used, share.lines = share.used + size, share.lines + 1
        if share is not None:
            charge(key, size)


HINT = "an agent that taps, types or is refused without end fills the log; its attempt fails"
