"""What the harness writes to the disk because of an agent's turn, by attempt: its trajectory
frames and lines (`bridge.trajectory`) and its lines in the audit log (`bridge.shares`). An agent
that taps without end makes the harness write without end, outside the agent's folder (red team
81 filled a disk with 739 frames); what is written so is charged to its turn
(`agents.bounds.DiskWatch`), as its own writes are. Pure bookkeeping, in the process that runs
the bridge and the turn: never writes a file.
"""

from __future__ import annotations

import threading
from pathlib import Path

from phoneshell.records.layout import ATTEMPTS

Key = tuple[str, str, int]
"""Run id, task id, attempt number (a bridge context's)."""

_WRITTEN: dict[Key, int] = {}
_LOCK = threading.Lock()


def charge(key: Key, size: int) -> None:
    """Count `size` bytes the harness wrote because of the turn of attempt `key`."""
    with _LOCK:
        _WRITTEN[key] = _WRITTEN.get(key, 0) + size


def written(key: Key | None) -> int:
    """The bytes the harness wrote because of attempt `key`'s turns so far (0: none, or no key)."""
    with _LOCK:
        return _WRITTEN.get(key, 0) if key else 0


def key_of(folder: Path) -> Key | None:
    """The attempt an attempt folder is (`<runs>/<run_id>/attempts/<task_id>/<n>`, as
    `runner.plan` makes it); None for any other folder (a command judge's)."""
    if len(folder.parents) < 3 or folder.parents[1].name != ATTEMPTS or \
            not (folder.name.isascii() and folder.name.isdigit()):
        return None
    return folder.parents[2].name, folder.parent.name, int(folder.name)


__all__ = ["Key", "charge", "key_of", "written"]
