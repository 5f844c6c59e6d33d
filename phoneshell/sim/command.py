"""`phoneshell sim`: running a simulated iPhone until interrupted (its options are the CLI's,
`phoneshell.cli.sim_cmd`)."""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
import threading
from typing import BinaryIO, TextIO

from phoneshell.sim.facts import pick_seed
from phoneshell.sim.server import SimServer


def run(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    """Run `phoneshell sim` until interrupted; return the exit code.

    Raises:
        PhoneshellError: a bad fault name, an unreadable state file, or a port in use.
    """
    secret = SimServer.new_secret() if args.secret_path else None
    server = SimServer(args.host, args.port, args.state, args.fault, locale=args.locale,
                       secret=secret, latency=args.latency, seed=pick_seed(args.seed),
                       control_open=args.open_control or secret is not None).start()
    # SIGTERM (a process manager) and SIGINT (Ctrl-C, also when started in the background,
    # where it would be ignored) both stop cleanly, so the state file is written.
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: server.request_stop())
    if args.until_stdin_closes:
        threading.Thread(target=_stop_at_eof, args=(sys.stdin.buffer, server), daemon=True,
                         name="stdin lifeline").start()
    faults = ", ".join(server.faults.specs()) or "none"
    print(f"simulated iPhone (WebDriverAgent protocol) at {server.url}; faults: {faults}; "
          f"seed: {server.seed}; latency: {server.latency.profile}", file=out, flush=True)
    control = ("served under the secret path" if secret else "open to any local process "
               "(--open-control)" if args.open_control else "closed (--open-control opens them)")
    print(f"control routes that change the phone: {control}", file=out, flush=True)
    # A run on this simulator (`--device URL`) fails an attempt for every WDA request its
    # bridge did not send (`runner.around`): without a secret, anyone's requests count.
    wda = ("served only under the secret path in the URL above: only who holds that URL can "
           "reach the phone" if secret else "open to any local process (--secret-path serves "
           "them only under a secret URL): a run on this simulator fails an attempt for every "
           "WDA request its bridge did not send, so any local process can fail its attempts")
    print(f"WDA routes: {wda}", file=out, flush=True)
    print("press Ctrl-C to stop" + (f"; state is saved to {server.state_file}"
                                     if server.state_file else ""), file=out, flush=True)
    server.serve_forever()
    return 0


def _stop_at_eof(lifeline: BinaryIO, server: SimServer) -> None:
    """Stop `server` once `lifeline` closes: its other end is held by the process that started
    this one and by nothing else, and the kernel closes it when that process ends, however it
    ends (a SIGKILL runs no cleanup of its own). Works wherever pipes do (macOS too), unlike
    Linux's PR_SET_PDEATHSIG, which fires when the *thread* that started the child ends, not
    the process, and needs a prctl between fork and exec."""
    with contextlib.suppress(OSError, ValueError):
        while lifeline.read(1 << 12):
            pass  # nothing is ever written; whatever is, is not a command
    server.request_stop()
