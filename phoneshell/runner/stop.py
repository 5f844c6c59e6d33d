"""Stop signals: SIGTERM and SIGHUP stop a process the way Ctrl-C does, and a record being
written is written whole, whatever signal comes meanwhile.

An orchestrator stops a process with SIGTERM (a CI job's timeout, `timeout`, systemd, docker
stop) or SIGHUP (the terminal closed); left to their defaults they end it at once, with no
teardown, no row for the attempt in flight and no seal over what was written last. Under
`stop_signals()` each raises `Stopped`, a `KeyboardInterrupt`, where Ctrl-C raises its own: one
path for all three (`runner.run`, `runner.attempt`, the CLI). Inside `recording()` (a results
row appended and sealed) a signal is held and raised once the record is whole. Inside
`tidying()` (a clean-up that protects the phone: an attempt's teardown, the run's last tidy-up)
the FIRST stop is held until the clean-up ends, and only a second one cuts it short.

Signals reach Python only on the main thread, so only there is anything held or raised; a
signal the process was started ignoring (`nohup` ignores SIGHUP) stays ignored. A main thread
that waits for other threads' work waits in slices (`phoneshell.awake`), or it may sleep
through a stop.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


class Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP, taken as Ctrl-C is; `name` says which."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


def stopped_by(exc: BaseException) -> str:
    """What stopped the process, for a row's reason: "Ctrl-C", "SIGTERM" or "SIGHUP"."""
    return exc.name if isinstance(exc, Stopped) else "Ctrl-C"


def stopped_line(exc: BaseException) -> str:
    """How a message opens for it: "interrupted" (Ctrl-C) or "stopped by SIGTERM"."""
    return f"stopped by {exc.name}" if isinstance(exc, Stopped) else "interrupted"


_held: list[tuple[KeyboardInterrupt, bool]] = []
"""Signals that came inside `recording()`, to raise when it ends (and whether each was the
process's first stop)."""
_depth = [0]
"""How deep the main thread is in `recording()`."""


_tidy = [0]
"""How deep the main thread is in `tidying()`."""
_tidy_held: list[KeyboardInterrupt] = []
"""The first stop that came inside `tidying()`, for it to hand on when the clean-up is done."""

_last: list[str] = []
"""The signal raised last (`again`)."""


def again() -> KeyboardInterrupt:
    """The stop raised last, raised again (an attempt caught it, recorded it, and the run now
    stops): `Stopped` for SIGTERM or SIGHUP, else Ctrl-C's own."""
    return Stopped(_last[-1]) if _last and _last[-1] != "SIGINT" else KeyboardInterrupt()


def _raise(signum: int, frame: FrameType | None) -> None:
    name = signal.Signals(signum).name
    exc = KeyboardInterrupt() if signum == signal.SIGINT else Stopped(name)
    first = not _last
    _last[:] = [name]
    if _depth[0]:
        _held.append((exc, first))
        return
    if _tidy[0] and first:  # a clean-up is not cut short by the first stop: it is held
        _tidy_held.append(exc)
        return
    raise exc


@contextmanager
def stop_signals() -> Iterator[None]:
    """Take SIGTERM and SIGHUP as Ctrl-C (and every one of the three held by `recording`),
    then put the handlers back. A no-op off the main thread."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    saved = {sig: signal.getsignal(sig) for sig in STOP_SIGNALS}
    for sig, handler in saved.items():
        if handler != signal.SIG_IGN:
            signal.signal(sig, _raise)
    try:
        yield
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)
        _last.clear()
        _tidy_held.clear()


class Tidying:
    """What came during a `tidying()` clean-up: `held` is the first stop, held until it ended."""

    def __init__(self) -> None:
        self.held: KeyboardInterrupt | None = None


@contextmanager
def tidying() -> Iterator[Tidying]:
    """A clean-up that protects the phone (a teardown, the run's tidy-up): the first stop signal
    that comes meanwhile is held, and handed over in `Tidying.held` when it ends (the caller
    records it, then stops); a second one (or one after a stop already came) raises at once,
    cutting it short. A no-op off the main thread (signals reach only the main thread)."""
    done = Tidying()
    if threading.current_thread() is not threading.main_thread():
        yield done
        return
    _tidy[0] += 1
    try:
        yield done
    finally:
        _tidy[0] -= 1
        if not _tidy[0] and _tidy_held:
            done.held = _tidy_held.pop()
            _tidy_held.clear()


def waiting() -> KeyboardInterrupt | None:
    """The first stop held by the `tidying()` the main thread is in, when one came (None when
    none did): work that would go on after it (the next phone's set-up) can end early."""
    return _tidy_held[-1] if _tidy[0] and _tidy_held else None


@contextmanager
def recording() -> Iterator[None]:
    """Hold stop signals while a record is written (a row appended, the run sealed), and raise
    the first once it is whole, so a stop never leaves a row the seal does not cover."""
    if threading.current_thread() is not threading.main_thread():
        yield  # a signal interrupts the main thread, never this one
        return
    _depth[0] += 1
    try:
        yield
    finally:
        _depth[0] -= 1
        held = [] if _depth[0] else _held[:2]
        if not _depth[0]:
            _held.clear()
    if held and held[0][1] and _tidy[0] and not _tidy_held:
        _tidy_held.append(held.pop(0)[0])  # the first stop, in a clean-up: held there
    if held:
        raise held[0][0]
