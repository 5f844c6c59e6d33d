"""The simulated iPhone's processes: the record of a running app and pids that look like a
phone's (SpringBoard's small and fixed, an app's large, unrelated and fresh at each launch)."""

from __future__ import annotations

import random
import zlib
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from phoneshell.sim.ui import showing

SPRINGBOARD_PID = 58
"""SpringBoard starts early in boot, so its pid is small and stays put."""
APP_PIDS = (300, 65000)
"""The range an app's pid is drawn from at each launch: a phone's are large and unrelated to
one another (what launched since boot), so a counter from 1000 would tell a simulator."""


@dataclass(frozen=True)
class Process:
    """A running app: its process id and its UI state (created by the app's `new_state`)."""

    pid: int
    state: Any
    launch: int = field(default_factory=showing)
    """Which launch this is: a relaunched app's views are new ones, so its ids are new too."""


class Pids:
    """Draws the pids of one phone's launches from `APP_PIDS`.

    Seeded by the phone's identity: pids look unrelated, yet two phones alike, played alike,
    show alike sources (replays and side-by-side tests compare them).
    """

    def __init__(self, udid: str) -> None:
        self._draw = random.Random(zlib.crc32(udid.encode()))

    def new(self, taken: Collection[int]) -> int:
        """A pid for an app launching now, none of `taken` (the running apps' pids)."""
        while True:
            pid = self._draw.randint(*APP_PIDS)
            if pid not in taken:
                return pid
