"""Options several commands share (`--device`, `--trajectory`), and how long commands report
progress."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

DEVICE_HELP = ("`sim` (a simulated iPhone started here), `sim:N` (N of them, work shared out; "
               "`sim:auto`: two a core), "
               "a WDA URL, a USB phone's udid, or `all` connected phones")


def add_device_option(parser: argparse.ArgumentParser, default: str = "sim") -> None:
    """Add `--device`, the same for every command that drives phones."""
    parser.add_argument("--device", metavar="sim|sim:N|sim:auto|URL|UDID|all",
                        help=f"{DEVICE_HELP}; default: {default}")


LATENCIES = ("none", "iphone")
"""The simulator's latency profiles (`phoneshell.sim.latency`), named here so that building
the parser does not import the simulator."""


def add_latency_option(parser: argparse.ArgumentParser) -> None:
    """Add `--latency`, which slows simulated iPhones to a real phone's pace (None when not
    given: a resume goes on at the run's own)."""
    parser.add_argument("--latency", choices=LATENCIES, default=None,
                        help="with --device sim or sim:N: answer each WDA route as slowly as "
                             "a real iPhone does (docs/simulator.md#latency); default: none, "
                             "or with --resume the run's (recorded in run.json)")


def add_trajectory_option(parser: argparse.ArgumentParser) -> None:
    """Add `--trajectory`, the same for every command that plays attempts (run, swap, attack)."""
    parser.add_argument("--trajectory", action="store_true",
                        help="keep a screenshot of the start of each agent turn and of the "
                             "screen after each agent action, for judges (`phoneshell "
                             "judgeset`); costs a WDA screenshot per action")


def progress_printer(to_stderr: bool) -> Callable[[str], None]:
    """Print progress lines as they come: on stderr when stdout is for a program (JSON)."""
    stream = sys.stderr if to_stderr else sys.stdout

    def progress(line: str) -> None:
        print(line, file=stream, flush=True)

    return progress
