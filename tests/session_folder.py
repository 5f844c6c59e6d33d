"""Folders made once for a whole test session, by whichever xdist worker gets there first.

A fixture that plays runs on the simulated iPhone costs seconds; `scope="session"` alone makes it
once per worker, so up to three times. The workers share one folder under a lock instead, and
tests only read it.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Callable
from pathlib import Path

import pytest


def made_once(factory: pytest.TempPathFactory, name: str, make: Callable[[Path], object]) -> Path:
    """The folder `name / "made"`, shared by the session's workers; `make` fills it the first
    time, while the others wait for it."""
    base = factory.getbasetemp()
    # under xdist each worker's folder sits in the session's: share that one, never a folder
    # another session (older code) left behind
    shared = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / name
    shared.mkdir(exist_ok=True)
    with (shared / "lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not (shared / "done").exists():
            make(shared / "made")
            (shared / "done").touch()
    return shared / "made"
