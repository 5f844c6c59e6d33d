"""`phoneshell sim`: serve the simulated iPhone (a WebDriverAgent-protocol server) until stopped.

Its options are defined here, so that building the CLI's parser (which `phoneshell finish` does
too, in an agent's sandbox, where the simulator is hidden) never imports the simulator."""

from __future__ import annotations

import argparse
from typing import Any

from phoneshell.cli.options import LATENCIES


def add_parsers(commands: Any) -> None:
    """Register `sim`."""
    p = commands.add_parser("sim", help="serve a simulated iPhone that speaks WebDriverAgent")
    add_arguments(p)
    p.set_defaults(run=run_sim)


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
                             "truncated-source[=BUNDLE], unreadable=BUNDLE, "
                             "screenshot-fails[=BUNDLE], hiccups=N, drag-hiccups=N, "
                             "slow[=SECONDS], gone (repeatable)")
    parser.add_argument("--locale", default=None, metavar="ID",
                        help="region format of every screen: en_US (default) or en_GB")
    parser.add_argument("--secret-path", action="store_true",
                        help="serve only under a random secret path, printed in the URL (how "
                             "phoneshell starts its own simulators: only who reads the URL can "
                             "drive it)")
    parser.add_argument("--open-control", action="store_true",
                        help="serve the control routes that change the phone (POST "
                             "/phoneshell/sim/faults, reset, save, clock, notify) to whoever "
                             "reaches the port; closed by default, so an agent in a run on "
                             "this simulator cannot switch a fault (docs/simulator.md)")
    parser.add_argument("--seed", type=int, default=None, metavar="N",
                        help="which phone: its model and serial numbers, battery, heading and "
                             "temperature are drawn from N; 0 is the reference phone "
                             "(default: $PHONESHELL_SIM_SEED, else a fresh one, printed)")
    parser.add_argument("--until-stdin-closes", action="store_true",
                        help="stop when standard input closes (how a run's --device sim:N "
                             "phones end with the run, however it ends, SIGKILL included)")
    parser.add_argument("--latency", choices=LATENCIES, default="none",
                        help="answer each WDA route as slowly as a real phone does "
                             "(docs/simulator.md#latency; default: %(default)s)")


def run_sim(args: argparse.Namespace) -> int:
    """Serve until SIGINT/SIGTERM."""
    from phoneshell.sim import run

    return run(args)
