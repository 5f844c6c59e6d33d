"""Waiting on the main thread in slices, so that a stop signal is handled while it waits.

Any thread of a process may take a signal sent to it, and CPython runs the Python handler on the
main thread only, once that runs Python code again: a main thread asleep in one long wait (for
the workers' whole queue, for a flag) runs it only when the wait ends. `phoneshell attack
--device sim:2` on a loaded machine played on to its last finish after a SIGTERM about one time
in fifteen (the signal caught, none pending, the handler never run until the end). So the
runner's waits on its workers (`awake`), and `phoneshell sim` and `phoneshell bridge` waiting
for a flag their handler sets (`until`), wait in slices of `AWAKE_S`. Here, not in the runner:
the simulator and the bridge do not import the runner.
"""

from __future__ import annotations

import time
from collections.abc import Callable

AWAKE_S = 0.2
"""How long a waiting main thread sleeps at most before it runs a stop signal's handler, when
one came meanwhile."""


def awake(wait: Callable[[float], bool]) -> None:
    """Wait until `wait` (a lock's `acquire` or an event's `wait`, given a timeout) says it is
    done, in slices of `AWAKE_S`: a stop signal that came meanwhile is raised here within that.
    The handler must take no lock the wait holds: `runner.stop`'s only raises or appends."""
    while not wait(AWAKE_S):
        pass


def until(done: Callable[[], bool]) -> None:
    """Sleep in slices of `AWAKE_S` until `done()`: a flag a signal handler sets. A plain flag,
    never an event: a handler runs on the main thread between two of its instructions, maybe
    while that holds the lock of the very event it would set, and `Event.set` there never
    returns (`phoneshell sim` hung so on a SIGTERM that came as its wait's slice ended)."""
    while not done():
        time.sleep(AWAKE_S)
