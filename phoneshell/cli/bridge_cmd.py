"""`phoneshell bridge`: run the logging WDA proxy in front of one phone until interrupted."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from phoneshell.runner.folder import check_runs_dir

TOKEN_ENV = "PHONESHELL_BRIDGE_TOKEN"


def add_parsers(commands: Any) -> None:
    """Register `bridge`."""
    p = commands.add_parser(
        "bridge", help="a WDA proxy that logs every launch, tap and keystroke to audit.jsonl",
        description="Forward the WebDriverAgent protocol to --wda and append every action to "
                    "RUNS/<run_id>/audit.jsonl (see docs/audit-log.md). Point any WDA client "
                    "at the printed URL instead of at WDA.")
    p.add_argument("--wda", required=True, metavar="URL",
                   help="the phone's WDA: http://HOST:8100 or http+usbmux://UDID:8100")
    p.add_argument("--listen", default="127.0.0.1:8200", metavar="HOST:PORT",
                   help="address to serve (default 127.0.0.1:8200; port 0 picks a free one)")
    p.add_argument("--runs", type=Path, default=Path("runs"), metavar="DIR",
                   help="where run folders and their audit.jsonl go (default: runs)")
    p.add_argument("--allow-remote", action="store_true",
                   help="permit a non-loopback --listen address (needs --token)")
    p.add_argument("--token", metavar="T",
                   help=f"require this token on every request (default: ${TOKEN_ENV}); "
                        f"clients use http://HOST:PORT/t/T or the X-Phoneshell-Token header")
    p.add_argument("--control-token", metavar="C",
                   help="the token the run-context routes need (default: "
                        "$PHONESHELL_BRIDGE_CONTROL_TOKEN); without one they are off. Never "
                        "give it to an agent")
    p.add_argument("--no-targets", action="store_true",
                   help="do not read the element under each tap (keys are always resolved)")
    p.add_argument("--fsync", action="store_true",
                   help="fsync every audit line (survives power loss, not just kill -9)")
    p.set_defaults(run=run_bridge)


def run_bridge(args: argparse.Namespace) -> int:
    """Serve until SIGINT or SIGTERM."""
    from bridge.serve import serve  # the bridge is its own room; load it only for this command

    check_runs_dir(args.runs)  # before it serves: an action it cannot log is refused
    return serve(args.wda, listen=args.listen, runs_dir=args.runs,
                 allow_remote=args.allow_remote, token=args.token or os.environ.get(TOKEN_ENV),
                 resolve_targets=not args.no_targets, fsync=args.fsync,
                 control_token=args.control_token)
