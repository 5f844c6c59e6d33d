"""`phoneshell sim`: its options, and running a simulated iPhone until interrupted."""

from __future__ import annotations

import argparse
import signal
import sys
from typing import TextIO

from phoneshell.sim.latency import PROFILES
from phoneshell.sim.server import SimServer


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add `phoneshell sim`'s options to a parser."""
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to bind (default: %(default)s)")
    parser.add_argument("--port", type=int, default=8100,
                        help="port to bind (default: %(default)s)")
    parser.add_argument("--state", metavar="FILE",
                        help="load phone state from FILE at start (if present), save it on exit")
    parser.add_argument("--fault", action="append", default=[], metavar="NAME",
                        help="switch a fault on: locked, drop-writes, stale-session, "
                             "truncated-source[=BUNDLE], unreadable=BUNDLE, slow[=SECONDS], gone "
                             "(repeatable)")
    parser.add_argument("--locale", default=None, metavar="ID",
                        help="region format of every screen: en_US (default) or en_GB")
    parser.add_argument("--secret-path", action="store_true",
                        help="serve only under a random secret path, printed in the URL (how "
                             "phoneshell starts its own simulators: only who reads the URL can "
                             "drive it)")
    parser.add_argument("--latency", choices=("none", *PROFILES), default="none",
                        help="answer each WDA route as slowly as a real phone does "
                             "(docs/simulator.md#latency; default: %(default)s)")


def run(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    """Run `phoneshell sim` until interrupted; return the exit code.

    Raises:
        PhoneshellError: a bad fault name, an unreadable state file, or a port in use.
    """
    secret = SimServer.new_secret() if args.secret_path else None
    server = SimServer(args.host, args.port, args.state, args.fault, locale=args.locale,
                       secret=secret, latency=args.latency).start()
    # SIGTERM (a process manager) and SIGINT (Ctrl-C, also when started in the background,
    # where it would be ignored) both stop cleanly, so the state file is written.
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: server.request_stop())
    faults = ", ".join(server.faults.specs()) or "none"
    print(f"simulated iPhone (WebDriverAgent protocol) at {server.url}; faults: {faults}; "
          f"latency: {server.latency.profile}", file=out, flush=True)
    print("press Ctrl-C to stop" + (f"; state is saved to {server.state_file}"
                                     if server.state_file else ""), file=out, flush=True)
    server.serve_forever()
    return 0
