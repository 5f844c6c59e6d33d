"""The harness's copy of a program agent's stdout and stderr: read from the pipes it writes,
kept to a hard bound however fast it prints, and never a crash of the run.

Only so much of each is kept (`OUTPUT_MAX_BYTES`: its start and its end), and never more than a
quarter of the rig's file-size limit (`size_limit.under_limit`: what a program prints never
makes the copy meet the limit, whose EFBIG is the rig's; a copy cut to it says so, `cut`); its
last claim line is followed as it is read, wherever it falls (`CappedOutput`'s `seen`). A copy a
full disk refuses is its failure (`unkept`, which `bounds.DiskWatch.after` judges with what it
wrote), never a crash of the run; one refused for anything else (the rig's file-size limit, an
I/O error) is the rig's (`OutputRefused`: `runner.unwritten` stops the run). It writes nothing
but the copy.
"""
from __future__ import annotations

import os
import select
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import IO

from phoneshell.agents.bounds import ROOM_HINT
from phoneshell.agents.size_limit import file_size_limit, limit_text, under_limit
from phoneshell.errors import DISK_FULL, RunError

OUTPUT_MAX_BYTES = 8 << 20
"""How much of each of its stdout and stderr is kept: the first and the last half of it."""
READ_CHUNK = 1 << 16
DRAIN_S = 1.0
"""How long the pipes are read after the program is gone (what it left may write on)."""


class CappedOutput:
    """Copy one of a program's output pipes into a file, keeping its first and last
    `max_bytes / 2` bytes (`OUTPUT_MAX_BYTES`, or less under the file-size limit) and saying
    how much was left out between them. A file the disk refuses (full, by the program or
    anything else in its turn) ends the copy, not the run: the pipe is still read to its end,
    and why it was not kept is `unkept`.

    Args:
        pipe: the read end (the program holds the write end).
        path: the file it goes to.
        seen: given every piece read, in order, before anything is left out (or refused by
            the disk): what must hold for the whole output, such as its last claim line
            (`environment.ClaimLines`), is followed there, never in the kept copy.
    """

    def __init__(self, pipe: IO[bytes], path: Path,
                 seen: Callable[[bytes], None] = lambda chunk: None) -> None:
        self.pipe, self.path, self.seen = pipe, path, seen
        self.max_bytes = under_limit(OUTPUT_MAX_BYTES)
        """How much of it is kept: its cap, or a quarter of the rig's file-size limit."""
        self.dropped = 0
        """Bytes of it left out (between its kept start and end), once the copy is done."""
        self.unkept = ""
        """Why its output could not all be kept ("" when it was), once the copy is done: a
        full disk, which its turn may have filled."""
        self.refused: OSError | None = None
        """The rig's refusal of the copy (a file-size limit, an I/O error, a read-only disk,
        the file's permissions: anything but a full disk), never the agent's doing: the
        agent cannot set the harness's limits (red team 132)."""
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._copy, daemon=True,
                                       name=f"agent output {path.name}")
        self.thread.start()

    def _copy(self) -> None:
        try:
            with self.path.open("wb") as out:
                self._keep(out)
        except OSError as exc:  # the disk refused it: whatever else it prints is read, unkept
            if exc.errno in DISK_FULL:
                self.unkept = f"its {self.path.name} could not be kept ({exc.strerror or exc})"
            else:
                self.refused = OSError(exc.errno, exc.strerror, str(self.path))
            self._keep(None)
        finally:
            self.pipe.close()

    def _keep(self, out: IO[bytes] | None) -> None:
        """Read the pipe to its end (or until given up on), writing what is kept to `out`
        (None: only read)."""
        half = self.max_bytes // 2
        head = 0
        tail: deque[bytes] = deque()
        kept_tail = dropped = 0
        fd = self.pipe.fileno()
        given_up = float("inf")
        while time.monotonic() < given_up:
            # Asked before the wait, not after: a wait that found nothing before the program
            # wrote its last words and exited says nothing of them, and under load this
            # thread can sit on such an answer past the exit (they were lost then).
            gone = self.stop.is_set()
            if gone and given_up == float("inf"):
                given_up = time.monotonic() + DRAIN_S
            ready, _, _ = select.select([fd], [], [], 0.2)
            if not ready:
                if gone:
                    break  # what still holds the pipe open was left behind: not waited for
                continue
            chunk = os.read(fd, READ_CHUNK)
            if not chunk:
                break
            self.seen(chunk)
            if out is None:
                continue
            if head < half:
                room = chunk[:half - head]
                out.write(room)
                head += len(room)
                chunk = chunk[len(room):]
            if chunk:
                tail.append(chunk)
                kept_tail += len(chunk)
                while kept_tail - len(tail[0]) >= half:
                    dropped += len(tail[0])
                    kept_tail -= len(tail.popleft())
        if out is None:
            return
        if kept_tail > half:  # the oldest chunk cut to fit, whatever size the reads were
            dropped += kept_tail - half
            tail[0] = tail[0][kept_tail - half:]
        self.dropped = dropped
        if dropped:
            out.write(f"\n[phoneshell: {dropped:,} bytes left out here; "
                      f"{limit_text(self.max_bytes)} of output are kept]\n".encode())
        out.writelines(tail)

    def finish(self) -> None:
        """Wait for the copy once the program is gone: what is in the pipe is read, then a
        pipe still held open by something the program left is given up on."""
        self.stop.set()
        self.thread.join()


def cut(outputs: list[CappedOutput]) -> tuple[str, ...]:
    """What was left out of each copy kept smaller than `OUTPUT_MAX_BYTES` for the rig's
    file-size limit, to be said in its row: graded as cut, as at the cap (its claim is followed
    over the whole of it, `seen`)."""
    return tuple(
        f"its {o.path.name} was cut to {limit_text(o.max_bytes)} ({o.dropped:,} bytes left out), "
        f"a quarter of the rig's file-size limit of {limit_text(file_size_limit() or 0)}"
        for o in outputs if o.dropped and o.max_bytes < OUTPUT_MAX_BYTES)


def unkept(outputs: list[CappedOutput]) -> str:
    """Why the program's output could not be kept ("" when it all was): the disk was full
    during its turn, which is its failure, as filling the disk is (`DiskWatch.after` judges)."""
    return "; ".join(o.unkept for o in outputs if o.unkept)


class OutputRefused(RunError):
    """The rig refused the harness's copy of a program's output for anything but a full disk
    (`CappedOutput.refused`, the OSError it is raised from): the run folder's fault, which
    `runner.unwritten` finds there (not scored, the run stops); never a program that could not
    start, as a bare OSError from its turn would read."""


def refused(outputs: list[CappedOutput]) -> None:
    """Raise the rig's refusal of a copy of the program's output (`CappedOutput.refused`).

    Raises:
        OutputRefused: a copy was refused for anything but a full disk.
    """
    for output in outputs:
        if output.refused is not None:
            raise OutputRefused(f"the harness's copy of the program's output was refused: "
                                f"{output.refused.strerror} ({output.refused.filename})",
                                hint=ROOM_HINT) from output.refused


__all__ = ["DRAIN_S", "OUTPUT_MAX_BYTES", "READ_CHUNK", "CappedOutput", "OutputRefused", "cut",
           "refused", "unkept"]
