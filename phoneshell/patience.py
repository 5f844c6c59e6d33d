"""How long a read the phone refused is asked again before the failure counts.

A real phone's WDA fails a read now and then and serves the same read a moment later: XCTest
cannot take a snapshot or a screenshot while the screen is mid-animation or the phone is short
of memory, and WDA answers 500 `unknown error` then. One failure, or two 24 ms apart, says
nothing about the screen (red team 105: two failed screenshots at capture failed an honest
finish). So a read that failed is asked again after pauses that double from `FIRST_PAUSE_S`,
until `patience_s` has passed since the first ask (its own time counted), and at least once
more; only then does its last failure stand. Timing alone: callers say which failures are
worth asking again (WDA's refusals, not a phone nothing listens for, which is told elsewhere).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

FIRST_PAUSE_S = 0.1
"""The pause before the second ask; each later pause is twice the one before."""
PHONE_PATIENCE_S = 5.0
"""How long a run asks a refused read again: as long as a step's effect may take on a real
phone, the simulator's runs too (its faults, and a proxy's, stand for a phone's hiccups)."""


def patiently(ask: Callable[[], T], patience_s: float,
              failures: tuple[type[Exception], ...],
              final: tuple[type[Exception], ...] = ()) -> T:
    """`ask()`, asked again while it raises one of `failures` (none of `final`), after pauses
    that double from 0.1 s, until `patience_s` has passed since the first ask, at least twice
    in all; the last failure is raised.

    Args:
        patience_s: how long a failing read is asked (a real phone's: seconds).
        failures: what is worth asking again (WDA refused the read).
        final: of those, what is raised at once (nothing listens: not a hiccup).
    """
    start = time.monotonic()
    pause, asked = FIRST_PAUSE_S, 0
    while True:
        try:
            return ask()
        except final:
            raise
        except failures:
            asked += 1
            left = start + patience_s - time.monotonic()
            if asked > 1 and left <= 0:
                raise
            time.sleep(max(0.0, min(pause, left)) if asked > 1 else pause)
            pause *= 2
