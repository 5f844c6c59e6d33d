"""Run one bridge as a foreground process until SIGINT or SIGTERM (`phoneshell bridge`).

The first line on stdout is `listening on http://HOST:PORT`, flushed, so a parent process can
wait for it and read the port when `--listen` asked for port 0. The control token (which the
context routes need) comes from `PHONESHELL_BRIDGE_CONTROL_TOKEN` in the bridge's own
environment when the caller passes none: set it for this process only, never where the agent
runs.
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path
from types import FrameType
from typing import TextIO

from bridge.custody import Custody
from bridge.proxy import DEFAULT_SETTLE_S, BridgeServer
from bridge.upstream import SIM_STATUS_KEYS, Upstream
from phoneshell.awake import until
from phoneshell.errors import BridgeError

CONTROL_TOKEN_ENV = "PHONESHELL_BRIDGE_CONTROL_TOKEN"


STATUS_TIMEOUT_S = 10.0
"""How long the bridge waits at its start for the phone's `/status` (to tell the simulator)."""


def parse_listen(listen: str) -> tuple[str, int]:
    """Split `HOST:PORT` (or `[v6]:PORT`, or a bare `PORT` on loopback).

    Raises:
        BridgeError: not a host and port.
    """
    host, sep, port = listen.rpartition(":")
    if not sep:
        host, port = "127.0.0.1", listen
    try:
        number = int(port)
    except ValueError:
        number = -1
    if not 0 <= number <= 65535 or not host:
        raise BridgeError(f"bad --listen {listen!r}: want HOST:PORT, e.g. 127.0.0.1:8200")
    return host.strip("[]"), number


def is_simulated(wda_url: str) -> bool:
    """Whether `wda_url` is phoneshell's simulated iPhone, by its `/status` (`SIM_STATUS_KEYS`:
    no real WDA says it). A phone that does not answer now is taken for a real one: its actions
    then wait for it to settle, which is never wrong, only slower."""
    try:
        reply = Upstream(wda_url).send("GET", "/status", None, {}, timeout_s=STATUS_TIMEOUT_S)
    except BridgeError:
        return False
    value = reply.json_value()
    return isinstance(value, dict) and value.get(SIM_STATUS_KEYS[0]) == "phoneshell"


def serve(wda_url: str, listen: str = "127.0.0.1:8200", runs_dir: Path = Path("runs"),
          allow_remote: bool = False, token: str | None = None, resolve_targets: bool = True,
          fsync: bool = False, out: TextIO = sys.stdout,
          control_token: str | None = None) -> int:
    """Serve a bridge until SIGINT or SIGTERM; return the exit code (0).

    Args:
        control_token: what the context routes need (default: $PHONESHELL_BRIDGE_CONTROL_TOKEN;
            with neither, the context routes are refused).

    Raises:
        BridgeError: a bad listen address, a refused remote bind, a control token equal to the
            token, or a bad WDA URL.
    """
    host, port = parse_listen(listen)
    stopping: list[int] = []

    def stop(signum: int, frame: FrameType | None) -> None:
        # a plain list, no lock: the handler runs on the main thread between two of its
        # instructions, maybe while that holds the lock an `Event.set` would wait for forever
        stopping.append(signum)

    simulated = is_simulated(wda_url)
    custody = Custody(settle_s=0.0, screens_static=True) if simulated else None
    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    bridge = BridgeServer(wda_url, host=host, port=port, runs_dir=runs_dir,
                          resolve_targets=resolve_targets, token=token,
                          allow_remote=allow_remote, fsync=fsync,
                          control_token=control_token or os.environ.get(CONTROL_TOKEN_ENV),
                          custody=custody)
    try:
        with bridge:
            shown = bridge.base_url  # never print the token
            print(f"listening on {shown}", file=out, flush=True)
            print("phone: phoneshell's simulated iPhone (its effects show at once: no settling "
                  "wait)" if simulated else f"phone: a real phone, as far as the bridge knows "
                  f"(an agent's action waits until {DEFAULT_SETTLE_S:g} s after the last one's "
                  "answer, for its screen to settle)", file=out, flush=True)
            print(f"forwarding to {wda_url}; audit logs under {runs_dir}/<run_id>/audit.jsonl",
                  file=out, flush=True)
            routes = ("need the control token" if bridge.control_token else
                      f"off (no control token: --control-token or {CONTROL_TOKEN_ENV})")
            print(f"context routes: {routes}", file=out, flush=True)
            until(lambda: bool(stopping))  # in slices: a signal another thread took
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        bridge.writer.close()
    return 0
