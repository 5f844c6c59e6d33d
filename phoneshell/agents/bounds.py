"""What a program agent may take of the disk that holds the run: its output, its folder, the
disk's free space. An agent that filled the disk crashed the run and left no rows; this room
keeps that its own failure, and gives the disk back.

Its stdout and stderr come through pipes the harness reads, and only so much of each is kept
(its start and its end; its last claim line is followed as it is read, wherever it falls): a
hard bound, however fast it prints; a
copy the disk refuses is its failure too (`CappedOutput.unkept`), never a crash of the run. Its
folder (its files) cannot be bounded as it is written without a file system of its own, so it is
watched: every `WATCH_S` while it runs and once more after, its size and file count against the
limits, and the disk's free space against what its turn may take of it (a file it holds open
after unlinking it shows only there, and in its processes' open files). With several turns on
one disk at once (`--device sim:N`), a turn is charged only what the disk lost that the other
turns' own writes do not show (`DiskWatch`). The watch is always on: its bound is relative to the
free space at the start of the turn, so a disk that starts nearly full is watched all the more
closely, and one with less than the harness's own room (`HARNESS_ROOM_BYTES`) is refused before
the agent starts, as the disk's fault, not the agent's. That start comes after the run has given
back what it kept of earlier agents (`runner.disk_room`): what an agent wrote within its limits
is kept after its turn, and never counts against the rig or a later agent. Over any of them, it
is stopped, and what it wrote is deleted. The count and the deletion go by `walk` (by open
folder, however deep, wide or long-named the tree): what the count cannot see is over the
limits, and so is what the take-back after its turn could not take back
(`agent_user.take_back`'s answer, which the command agent adds).
"""
from __future__ import annotations

import contextlib
import os
import select
import stat
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import IO

from phoneshell.agents import pids, walk
from phoneshell.errors import RunError

FOLDER_MAX_BYTES = 1 << 30
"""The most an agent may write into its attempt folder (its scratch folder, stdout, stderr)."""
FOLDER_MAX_FILES = 100_000
OUTPUT_MAX_BYTES = 8 << 20
"""How much of each of its stdout and stderr is kept: the first and the last half of it."""
HARNESS_ROOM_BYTES = 32 << 20
"""The free space the harness keeps on the disk holding the run to record an attempt after the
agent's turn: its evidence and rows (a few MiB on a phone, less on the simulator) and the
agent's own kept output (`OUTPUT_MAX_BYTES` twice at most). An agent's turn never takes it; a
disk with less free before the turn, once the run gave back what it keeps of earlier agents
(`runner.disk_room`), is not the agent's doing (`no_room`). A turn that took the disk to it
leaves the next one short only by the harness's own writes: what the turn took is given back."""
WATCH_S = 1.0
READ_CHUNK = 1 << 16
DRAIN_S = 1.0
"""How long the pipes are read after the program is gone (what it left may write on)."""


def disk_free(path: Path) -> int:
    """Bytes free to an unprivileged writer on the file system holding `path`."""
    stats = os.statvfs(path)
    return stats.f_bavail * stats.f_frsize


class _Over(Exception):
    """The count passed a limit: why."""


class _Count(walk.Visitor):
    """Every entry counts as a file, and every entry's blocks (a folder's too) as its size."""

    def start(self) -> None:
        super().start()
        self.files = self.size = 0

    def visit(self, folder: int, entry: os.DirEntry[str], place: str) -> bool:
        self.files += 1
        if self.files > FOLDER_MAX_FILES:
            raise _Over(f"it made more than {FOLDER_MAX_FILES:,} files in its folder")
        try:
            self.size += entry.stat(follow_symlinks=False).st_blocks * 512
            inside = entry.is_dir(follow_symlinks=False)
        except FileNotFoundError:
            return False  # gone since it was listed: nothing there to count
        except OSError as exc:
            self.troubles.append(f"{place}: cannot look at it ({exc.strerror or exc})")
            return False
        if self.size > FOLDER_MAX_BYTES:
            raise _Over(f"it wrote more than {FOLDER_MAX_BYTES >> 20:,} MiB into its folder")
        return inside


def written(folder: Path) -> str:
    """Why what is in `folder` is too much ("" when it is not). What the walk cannot count
    (a folder it cannot open or list, a tree that keeps moving under it) is too much: the
    limits hold for what it cannot see too."""
    return _counted(folder)[0]


def _counted(folder: Path) -> tuple[str, int]:
    """`written`'s answer, and the bytes the walk counted (up to a limit it passed)."""
    count = _Count()
    try:
        troubles = walk.walk(folder, count)
    except _Over as over:
        return str(over), count.size
    except FileNotFoundError:
        return "", 0  # no folder: nothing written
    except OSError as exc:
        troubles = [f"{folder}: cannot open it ({exc.strerror or exc})"]
    if troubles:
        return (f"the harness could not count all it wrote into its folder "
                f"({walk.said(troubles)}), which counts as over its limits"), count.size
    return "", count.size


def no_room(folder: Path, free: int | None = None) -> str:
    """Why the disk holding `folder` has too little free space for an agent's turn ("" when
    it has room): less than `HARNESS_ROOM_BYTES`, before the agent did anything (`free`: its
    free space, when already read, after what the run could give back)."""
    free = disk_free(folder) if free is None else free
    if free >= HARNESS_ROOM_BYTES:
        return ""
    return (f"the disk holding {folder} has {free / (1 << 20):.1f} MiB free, under the "
            f"{HARNESS_ROOM_BYTES >> 20} MiB the harness keeps to record an attempt, before "
            "the agent's turn (not the agent's doing)")


def held_unlinked(root: int, disk: int) -> int:
    """The bytes of the files on the disk `disk` (a device number) that the process `root`
    and those below it hold open with no name left (unlinked): what only the free space
    shows otherwise. Each file once, however many hold it."""
    held: dict[int, int] = {}
    for pid in (root, *pids.below(root)) if root else ():
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue  # gone, or no /proc (macOS): only the free space shows it there
        for fd in fds:
            try:
                seen = os.stat(f"/proc/{pid}/fd/{fd}")
            except OSError:
                continue
            if stat.S_ISREG(seen.st_mode) and seen.st_nlink == 0 and seen.st_dev == disk:
                held[seen.st_ino] = seen.st_blocks * 512
    return sum(held.values())


_SHARE_LOCK = threading.Lock()
_WATCHED: set[DiskWatch] = set()
"""The turns watched now, on every disk (several phones' agents, a command judge)."""
_WRITTEN: dict[int, int] = {}
"""By disk (device number): the net bytes every turn on it was seen to write of its own, as
last measured, from the harness's start (what a turn wrote and was given back goes back)."""


class DiskWatch:
    """The limits of one agent's turn on the disk: its folder, and the disk's free space.

    Of the free space at its start, the turn may take its folder's limit
    (`FOLDER_MAX_BYTES`), and never the harness's room (`HARNESS_ROOM_BYTES`), wherever it
    writes: into its folder, a file it holds open unlinked, anywhere else it can reach on the
    disk. It is charged for what the disk lost since its start less what the other turns on
    that disk meanwhile were seen to write of their own (their folders, the files they hold
    open unlinked): with one turn, the whole loss; with several phones' turns side by side, an
    agent that wrote little is never the one stopped when another fills the disk. What no
    turn's own files show (a file written elsewhere on the disk, something else on the machine)
    is charged to every turn running then: nobody can tell whose it was.

    Args:
        folder: the attempt folder (its scratch folder, stdout and stderr inside).

    Raises:
        RunError: the disk holds less than the harness's room already (`no_room`).
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.free_at_start = disk_free(folder)
        why = no_room(folder, self.free_at_start)
        if why:
            raise RunError(why, hint="free some space on that disk (or give --runs a folder "
                                     "on another), then run it again")
        self.floor = max(self.free_at_start - FOLDER_MAX_BYTES, HARNESS_ROOM_BYTES)
        """Below this much free, the agent is stopped: what it took is its allowance."""
        self.disk = os.stat(folder).st_dev
        self.root = 0
        self.own = self.own_at_start = _counted(folder)[1]
        with _SHARE_LOCK:
            _WATCHED.add(self)
            self.others_at_start = _WRITTEN.get(self.disk, 0)

    def follow(self, root: int) -> None:
        """Count what the program `root` (and whatever is below it) holds open unlinked as its
        own."""
        self.root = root

    def _measure(self) -> str:
        """Count what the turn wrote of its own now, for every turn on its disk to read; why
        its folder is over its limits ("" when it is not)."""
        over, size = _counted(self.folder)
        own = size + held_unlinked(self.root, self.disk)
        with _SHARE_LOCK:
            _WRITTEN[self.disk] = _WRITTEN.get(self.disk, 0) + own - self.own
            self.own = own
        return over

    def _charged(self, free: int) -> int:
        """What the disk lost since its start that the other turns' own writes do not show.
        The caller holds `_SHARE_LOCK`."""
        others = (_WRITTEN.get(self.disk, 0) - self.others_at_start
                  - (self.own - self.own_at_start))
        return self.free_at_start - free - others

    def over(self) -> str:
        """Why the agent must be stopped for what it wrote ("" when it need not): its
        folder's limits (the more telling, when it wrote there), the disk's free space: under
        its floor, what it is charged (`_charged`) is over what it may take, or under the
        harness's room, it is charged the most of the turns running."""
        over = self._measure()
        free = disk_free(self.folder)
        if over or free >= self.floor:
            return over
        with _SHARE_LOCK:
            beside = [w for w in _WATCHED if w.disk == self.disk and w is not self]
        for other in beside:  # the others' writes as of now, not of their last look
            other._measure()
        with _SHARE_LOCK:
            charged = self._charged(free)
            most = all(charged >= w._charged(free) for w in beside)
        if charged <= self.free_at_start - self.floor and not (
                free < HARNESS_ROOM_BYTES and most):
            return ""
        by_others = self.free_at_start - free - charged
        also = (f"; {by_others / (1 << 20):,.1f} MiB of what it lost were written by the other "
                "turns beside it" if by_others >= (1 << 20) else "")
        return (f"it filled the disk holding the run: {free / (1 << 20):.1f} MiB free of the "
                f"{self.free_at_start / (1 << 20):.1f} MiB there were when its turn started "
                f"(it may take {(self.free_at_start - self.floor) >> 20:,} MiB; the harness "
                f"keeps {self.floor >> 20:,} MiB{also})")

    def close(self) -> None:
        """After the turn (what was deleted of it, deleted): what it keeps stays counted as
        written, and it is no longer one of the turns on the disk."""
        try:
            self._measure()
        finally:
            with _SHARE_LOCK:
                _WATCHED.discard(self)

    def __enter__(self) -> DiskWatch:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def wipe(scratch: Path) -> str:
    """Delete everything the agent wrote into its scratch folder (left empty), by open
    folder; what could not be deleted ("" when all was)."""
    troubles = walk.delete(scratch)
    with contextlib.suppress(OSError):
        scratch.mkdir(parents=True, exist_ok=True)
    return walk.said(troubles) if troubles else ""


class CappedOutput:
    """Copy one of a program's output pipes into a file, keeping its first and last
    `OUTPUT_MAX_BYTES / 2` bytes and saying how much was left out between them. A file the
    disk refuses (full, by the program or anything else in its turn) ends the copy, not the
    run: the pipe is still read to its end, and why it was not kept is `unkept`.

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
        self.unkept = ""
        """Why its output could not all be kept ("" when it was), once the copy is done."""
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._copy, daemon=True,
                                       name=f"agent output {path.name}")
        self.thread.start()

    def _copy(self) -> None:
        try:
            with self.path.open("wb") as out:
                self._keep(out)
        except OSError as exc:  # the disk refused it: whatever else it prints is read, unkept
            self.unkept = f"its {self.path.name} could not be kept ({exc.strerror or exc})"
            self._keep(None)
        finally:
            self.pipe.close()

    def _keep(self, out: IO[bytes] | None) -> None:
        """Read the pipe to its end (or until given up on), writing what is kept to `out`
        (None: only read)."""
        half = OUTPUT_MAX_BYTES // 2
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
        if dropped:
            out.write(f"\n[phoneshell: {dropped:,} bytes left out here; "
                      f"{OUTPUT_MAX_BYTES >> 20} MiB of output are kept]\n".encode())
        out.writelines(tail)

    def finish(self) -> None:
        """Wait for the copy once the program is gone: what is in the pipe is read, then a
        pipe still held open by something the program left is given up on."""
        self.stop.set()
        self.thread.join()


def unkept(outputs: list[CappedOutput]) -> str:
    """Why the program's output could not be kept ("" when it all was): the disk refused it
    during its turn, which is its failure, as filling the disk is."""
    return "; ".join(o.unkept for o in outputs if o.unkept)


__all__ = ["FOLDER_MAX_BYTES", "FOLDER_MAX_FILES", "HARNESS_ROOM_BYTES", "OUTPUT_MAX_BYTES",
           "WATCH_S", "CappedOutput", "DiskWatch", "disk_free", "held_unlinked", "no_room",
           "unkept", "wipe", "written"]
