"""One run's audit file on disk: opened for appending without following a symlink, continuing
the seq and hash chain of what is already there; one line per write, whole or not at all
(`records.append_whole`: a torn tail a crash left is mended by the next); and, read back, which
lines are the ones this process wrote. Raises only `OSError`: `audit_log.py` says what it means
to the bridge.
"""

from __future__ import annotations

import hashlib
import os
import stat
import threading
from bisect import bisect_left, insort
from dataclasses import dataclass, field
from pathlib import Path

from phoneshell.records import (
    CHAIN_START,
    AuditEvent,
    RecordError,
    append_whole,
    chain_step,
    parse_lines,
    read_bytes,
)

MAX_LOG_BYTES = 1 << 32
"""The largest audit log a writer rereads to continue its seq (4 GiB)."""


@dataclass
class RunFile:
    """One run's log, open or not (mutable; guarded by its own lock, `used_at` by the writer's)."""

    run_id: str
    path: Path
    lock: threading.Lock
    fd: int | None = None
    next_seq: int = 1
    newline_owed: bool = False
    """The file ends mid-line (a torn write): start the next write with a newline."""
    closed_as: tuple[int, int] | None = None
    """(inode, size) of the file when this writer closed it: if it is still so on reopening,
    nobody else wrote to it, and it need not be read again to continue seq."""
    used_at: float = 0.0
    """`time.monotonic()` of the last write."""
    opened: bool = False
    """This writer has opened the file before (a change it finds later is not its own)."""
    chain: str = CHAIN_START
    """The hash chain over the file's lines as this writer knows them."""
    lines: int = 0
    """Lines in the chain."""
    end: int = 0
    """The byte offset just past the last chained line."""
    torn: bytes = b""
    """The unfinished last line (no newline yet): the next write completes it."""
    ours: dict[int, bytes] = field(default_factory=dict)
    """Byte offset -> sha256 of each line this writer wrote."""
    offsets: list[int] = field(default_factory=list)
    """The keys of `ours` in order: an attempt's stretch is found by bisection, not by reading
    every line of a run of thousands of attempts (an attack's)."""


@dataclass(frozen=True)
class Verified:
    """A stretch of a run's audit log as checked against what the writer wrote."""

    events: tuple[AuditEvent, ...]
    """The lines the writer wrote, in file order."""
    forged: tuple[str, ...]
    """Lines it did not write (or wrote and cannot find), each described."""


def _digest(line: bytes) -> bytes:
    return hashlib.sha256(line).digest()


def _reread(path: Path) -> tuple[int, bytes, str, int, int]:
    """What an existing regular file holds: the highest seq, its unfinished last line, and the
    chain head, line count and end offset of its complete lines.

    Read with the one JSONL reader: a torn tail or a line that is not an event carries no seq
    to trust, and only whole events count.
    """
    try:
        data = read_bytes(path, MAX_LOG_BYTES)
    except RecordError as exc:
        raise OSError(f"cannot reread {path} to continue its seq: {exc}") from exc
    log = parse_lines(data, AuditEvent, str(path))
    head, lines, end = CHAIN_START, 0, 0
    for line in data[:data.rfind(b"\n") + 1].split(b"\n")[:-1]:
        head, lines = chain_step(head, line), lines + 1
    end = data.rfind(b"\n") + 1
    return max((e.seq for e in log), default=0), data[end:], head, lines, end


def close_fd(run: RunFile, failed: bool = False) -> None:
    """Close a run's descriptor, noting what the file was like. Caller holds run.lock."""
    if run.fd is None:
        return
    try:
        info = os.fstat(run.fd)
        run.closed_as = (None if failed or not stat.S_ISREG(info.st_mode)
                         else (info.st_ino, info.st_size))
    except OSError:
        run.closed_as = None
    os.close(run.fd)
    run.fd = None


def open_fd(run: RunFile, fsync: bool) -> int:
    """Open (or reopen) a run's file for appending; continue its seq. Caller holds run.lock."""
    if run.fd is not None:
        return run.fd
    created = not run.path.exists()
    run.path.parent.mkdir(parents=True, exist_ok=True)
    # O_NOFOLLOW: a log swapped for a symlink must not send the next line somewhere else.
    fd = os.open(run.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC
                 | os.O_NOFOLLOW, 0o644)
    try:
        info = os.fstat(fd)
        unchanged = run.closed_as == (info.st_ino, info.st_size)
        if stat.S_ISREG(info.st_mode) and not created and not unchanged:
            highest, torn, head, lines, end = _reread(run.path)
            run.next_seq = max(run.next_seq, highest + 1)
            run.newline_owed = run.newline_owed or bool(torn)
            if not run.opened:  # written before this writer: it starts the chain
                run.chain, run.lines, run.end, run.torn = head, lines, end, torn
        run.opened = True
        if created and fsync:  # the new directory entry must survive power loss too
            dir_fd = os.open(run.path.parent, os.O_RDONLY)
            try:
                os.fsync(dir_fd)
            finally:
                os.close(dir_fd)
    except OSError:
        os.close(fd)
        raise
    run.fd = fd
    return fd


def append_line(run: RunFile, text: bytes, fsync: bool) -> None:
    """Append one line with a single write, into the chain and the lines that are ours.
    Caller holds run.lock.

    Raises:
        OSError: the file could not be opened, or took only part of the line.
    """
    fd = open_fd(run, fsync)
    mend = run.newline_owed
    data = (b"\n" if mend else b"") + text + b"\n"
    append_whole(fd, data)  # whole, or the file as it was: a refused line leaves no torn tail
    end = os.lseek(fd, 0, os.SEEK_CUR)  # O_APPEND: just past what was written
    if mend:  # the newline completed an unfinished line: it is a line of the file now
        run.chain, run.lines = chain_step(run.chain, run.torn), run.lines + 1
    run.chain, run.lines, run.end = chain_step(run.chain, text), run.lines + 1, end
    at = end - len(text) - 1
    if at not in run.ours:  # in order: a truncated file's next lines start before the last
        insort(run.offsets, at)
    run.ours[at] = _digest(text)
    run.newline_owed, run.torn = False, b""
    if fsync:
        os.fsync(fd)


def read_ours(run: RunFile, start: int) -> Verified:
    """A run's log from byte `start`: the lines this writer wrote, and any it did not.

    Raises:
        OSError: the log cannot be read back.
    """
    with run.lock:  # no line of this writer's lands between the read and the record of it
        ours = {off: run.ours[off] for off in run.offsets[bisect_left(run.offsets, start):]}
        try:
            data = read_bytes(run.path, MAX_LOG_BYTES, start) if run.path.exists() else b""
        except RecordError as exc:
            raise OSError(str(exc)) from exc
    events: list[AuditEvent] = []
    forged: list[str] = []
    offset = start
    for line in data.split(b"\n")[:-1]:
        if ours.pop(offset, None) == _digest(line):
            events.append(AuditEvent.parse(line, f"{run.path} at byte {offset}"))
        elif line.strip():
            forged.append(f"byte {offset}: {line[:120].decode('utf-8', 'replace')!r}")
        offset += len(line) + 1
    forged += [f"byte {off}: a line the bridge wrote there is gone" for off in sorted(ours)]
    return Verified(tuple(events), tuple(forged))
