"""The ledgers of the disks the program turns share (`bounds.DiskWatch`): what each turn wrote
of its own, what the harness deleted itself, which turns ended and which one settles, and one
turn's share of a disk's bytes or files.
Pure bookkeeping but `delete_counted`, which deletes what it counts.
"""
from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from phoneshell.agents import walk
from phoneshell.agents.own_writes import counted

if TYPE_CHECKING:
    from phoneshell.agents.bounds import DiskWatch

SHARE_LOCK = threading.Lock()
WATCHED: set[DiskWatch] = set()
"""The turns watched now, on every disk (several phones' agents, a command judge)."""
WRITTEN: dict[int, list[int]] = {}
"""By disk (device number): the net bytes and files every turn on it was seen to write of its
own, as last measured, from the harness's start (what a turn wrote and was given back goes
back; so does what the run gave back of earlier agents, `given_back`)."""
FREED: dict[int, list[int]] = {}
"""By disk: the bytes and files the harness itself deleted on it from its start (a stopped
turn's folder, `wipe`; what the run gave back of earlier agents, `given_back`): never what
came back to another turn's disk as its processes went (red team 132)."""
ENDED: dict[int, int] = {}
"""By disk: how many turns on it have ended (their processes gone, `DiskWatch.after`): what
comes back to a disk while another turn's processes go may be that turn's (red team 137)."""
SETTLING: dict[int, threading.Lock] = {}
"""By disk: held by the one turn stopped to see what comes back once its processes are gone,
from before it is stopped until its turn is closed; another waits for it, running (two turns
stopped at once each took what the other's processes gave back: red team 137)."""
BYTES, FILES = 0, 1
"""The two quantities of a disk a turn may take, as the ledgers index them."""


def given_back(disk: int, size: int, files: int, kept: bool) -> None:
    """Count `size` bytes and `files` files the harness deleted on the disk `disk`; `kept`:
    they were of a turn no longer watched (what its `close` left counted as written)."""
    with SHARE_LOCK:
        freed = FREED.setdefault(disk, [0, 0])
        freed[BYTES] += size
        freed[FILES] += files
        if kept:
            written = WRITTEN.setdefault(disk, [0, 0])
            written[BYTES] -= size
            written[FILES] -= files


def settling(disk: int) -> threading.Lock:
    """The lock of the disk `disk` that one turn settles under at a time (`SETTLING`)."""
    with SHARE_LOCK:
        return SETTLING.setdefault(disk, threading.Lock())


def ended(disk: int, more: int = 0) -> int:
    """How many turns on the disk `disk` have ended, after counting `more` (`ENDED`)."""
    with SHARE_LOCK:
        ENDED[disk] = ENDED.get(disk, 0) + more
        return ENDED[disk]


@dataclass
class Share:
    """One quantity of the disk (its bytes or its files) as one turn may take of it."""

    free_at_start: int
    floor: int
    """Below this much free, the agent is stopped: what it took is its allowance."""
    room: int
    """What the harness keeps of it."""
    own_at_start: int
    others_at_start: int
    own: int = 0
    seen_free: int = 0
    """The free quantity at the last look while its processes ran."""
    seen_others: int = 0
    seen_freed: int = 0
    """The other turns' own writes and the harness's deletions at that look."""

    def may(self) -> int:
        return self.free_at_start - self.floor

    def took(self) -> int:
        return self.own - self.own_at_start

    def unseen(self) -> int:
        """What was lost by the last look that neither its own nor the other turns' writes
        show (what the harness deleted of theirs is gone from those, `given_back`)."""
        return max(0, self.free_at_start - self.seen_free - self.took()
                   - (self.seen_others - self.others_at_start))

    def back(self, free: int, freed: int) -> int:
        """What came back since the last look and could be its own: not what the harness
        freed (another turn's folder deleted, earlier agents' given back)."""
        return min(max(0, free - self.seen_free - (freed - self.seen_freed)), self.unseen())


def delete_counted(folder: Path, kept: bool) -> list[str]:
    """Delete what `folder` holds (`walk.delete`), counting what that gave back to the disk as
    the harness's (`given_back`; `kept`: of a turn no longer watched); what could not be."""
    try:
        disk = os.stat(folder).st_dev
    except OSError:
        return walk.delete(folder)
    _, size, files = counted(folder, 1 << 62, 1 << 62)
    troubles = walk.delete(folder)
    _, left, left_files = counted(folder, 1 << 62, 1 << 62)
    given_back(disk, max(0, size - left), max(0, files - left_files), kept)
    return troubles


__all__ = ["BYTES", "ENDED", "FILES", "FREED", "SETTLING", "SHARE_LOCK", "WATCHED", "WRITTEN",
           "Share", "delete_counted", "ended", "given_back", "settling"]
