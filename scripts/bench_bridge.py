"""Time what the bridge adds: the same requests direct to the simulator and through the bridge.

In one process: a simulated iPhone, a bridge without tap-target resolution and one with it.
Each request opens a new connection, as facebook-wda does. Prints median and p99 latency of a
read (`GET /status`, `GET /source`) and of a logged action (`POST /wda/tap` on a harmless point,
the status bar), and what the bridge adds to each. Targets: added median <= 1 ms for a read
that shows nothing of the screen (`/status`), and <= 10 ms for a logged action: its one page
source read after the action (the chain of custody, the next tap's target) is parsed and
digested here, which on a real phone costs one request of 160-210 ms whatever the parsing.
A page source passing through is parsed too (what it shows is compared with what the log
vouches for).

    python scripts/bench_bridge.py [--requests 400]
"""

from __future__ import annotations

import argparse
import http.client
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

import wda

from bridge.audit_log import AuditWriter
from bridge.proxy import BridgeServer
from phoneshell.sim import SimServer

TAP = b'{"x": 300, "y": 6}'
"""A tap on the status bar of Settings: logged like any tap, changes nothing on screen."""


def timed(base: str, method: str, path: str, body: bytes | None) -> Callable[[], float]:
    """A function sending one request on a fresh connection and returning its latency (ms)."""
    netloc = urlsplit(base).netloc

    def once() -> float:
        started = time.perf_counter()
        conn = http.client.HTTPConnection(netloc, timeout=30)
        try:
            conn.request(method, path, body=body, headers={"Content-Type": "application/json"}
                         if body else {})
            response = conn.getresponse()
            response.read()
            if response.status != 200:
                raise SystemExit(f"{method} {base}{path} answered {response.status}")
        finally:
            conn.close()
        return (time.perf_counter() - started) * 1000

    return once


def measure(run: Callable[[], float], count: int) -> tuple[float, float]:
    """Median and p99 (ms) over `count` runs, after a warm-up."""
    for _ in range(max(10, count // 10)):
        run()
    samples = sorted(run() for _ in range(count))
    return statistics.median(samples), samples[min(len(samples) - 1, int(len(samples) * 0.99))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=400, help="timed requests per case")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, SimServer() as sim:
        writer = AuditWriter(Path(tmp))
        plain = BridgeServer(sim.url, runs_dir=Path(tmp), resolve_targets=False, writer=writer)
        aiming = BridgeServer(sim.url, runs_dir=Path(tmp), resolve_targets=True, writer=writer)
        with plain, aiming:
            sid = wda.Client(sim.url).session("com.apple.Preferences").session_id
            tap = f"/session/{sid}/wda/tap"
            cases = [
                ("read   GET /status", "GET", "/status", None, plain),
                ("read   GET /source", "GET", "/source", None, plain),
                ("action POST /wda/tap, no targets", "POST", tap, TAP, plain),
                ("action POST /wda/tap, with targets", "POST", tap, TAP, aiming),
            ]
            print(f"{'request':38} {'direct med/p99':>16} {'bridge med/p99':>16} "
                  f"{'added med/p99 (ms)':>20}")
            added: dict[str, tuple[float, float]] = {}
            for label, method, path, body, bridge in cases:
                direct = measure(timed(sim.url, method, path, body), args.requests)
                through = measure(timed(bridge.url, method, path, body), args.requests)
                added[label] = (through[0] - direct[0], through[1] - direct[1])
                print(f"{label:38} {direct[0]:7.2f}/{direct[1]:<8.2f} "
                      f"{through[0]:7.2f}/{through[1]:<8.2f} "
                      f"{added[label][0]:9.2f}/{added[label][1]:.2f}")
        writer.close()
    read = added["read   GET /status"][0]
    action = added["action POST /wda/tap, no targets"][0]
    resolve = added["action POST /wda/tap, with targets"][0] - action
    print(f"\nadded median: read {read:.2f} ms (target <= 1), logged action {action:.2f} ms "
          f"(target <= 10); tap target resolution costs {resolve:.2f} ms more")


if __name__ == "__main__":
    main()
