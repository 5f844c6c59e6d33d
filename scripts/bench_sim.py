"""Measure request latency of the simulated iPhone through the unmodified facebook-wda client.

Starts an in-process simulator on a free loopback port, opens Settings, and times 200 calls
each of `source()` (XML), `tap()` and `screenshot()`, printing the median and 90th percentile
in milliseconds. Reads are timed twice: "repeat" reads an unchanged screen (the simulator
reuses what it built), "fresh" reads right after a change, so the source or PNG is rebuilt.
Target (issue 3): XML source of the Settings main screen at most 5 ms median.

Usage: .venv/bin/python scripts/bench_sim.py [-n COUNT]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import wda

from phoneshell.sim import SimServer

SETTINGS = "com.apple.Preferences"


def timed(count: int, call: Callable[[], object],
          before: Callable[[], None] | None = None) -> list[float]:
    """Milliseconds per call; `before` runs untimed ahead of each call."""
    samples = []
    for _ in range(count):
        if before is not None:
            before()
        start = time.perf_counter()
        call()
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def report(name: str, samples: list[float]) -> None:
    """Print median and p90 of one measurement."""
    ordered = sorted(samples)
    p90 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.9))]
    print(f"{name:<28} median {statistics.median(ordered):7.2f} ms   p90 {p90:7.2f} ms   "
          f"(n={len(ordered)})")


def main() -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--count", type=int, default=200, help="calls per measurement")
    count = parser.parse_args().count
    with SimServer() as sim:
        client = wda.Client(sim.url)
        session = client.session(SETTINGS)
        client.source()  # warm caches: fonts, text widths

        def touch() -> None:
            # A change the next read must see: the screen is rebuilt on the next request.
            with sim.lock:
                sim.phone.changed()

        # The Airplane Mode switch's knob (the row-wide switch's centre is its label, which
        # toggles nothing): each tap really toggles it, so every tap changes state.
        switch = session(xpath="//XCUIElementTypeSwitch[@label='Airplane Mode']"
                               "/XCUIElementTypeSwitch").get(timeout=1).bounds.center
        report("source() xml, repeat", timed(count, client.source))
        report("source() xml, fresh", timed(count, client.source, touch))
        report("source(format=json), fresh", timed(count, lambda: client.source(format="json"),
                                                   touch))
        report("tap()", timed(count, lambda: session.tap(*switch)))
        report("screenshot(), repeat", timed(count, client.screenshot))
        report("screenshot(), fresh", timed(count, client.screenshot, touch))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
