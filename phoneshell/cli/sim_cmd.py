"""`phoneshell sim`: serve the simulated iPhone (a WebDriverAgent-protocol server) until stopped."""

from __future__ import annotations

import argparse
from typing import Any


def add_parsers(commands: Any) -> None:
    """Register `sim`."""
    from phoneshell.sim import add_arguments

    p = commands.add_parser("sim", help="serve a simulated iPhone that speaks WebDriverAgent")
    add_arguments(p)
    p.set_defaults(run=run_sim)


def run_sim(args: argparse.Namespace) -> int:
    """Serve until SIGINT/SIGTERM."""
    from phoneshell.sim import run

    return run(args)
