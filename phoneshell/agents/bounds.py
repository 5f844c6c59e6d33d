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
the agent starts, as the disk's fault, not the agent's (`DiskShort`). That start comes after the
run has given
back what it kept of earlier agents (`runner.disk_room`): what an agent wrote within its limits
is kept after its turn, and never counts against the rig or a later agent. Over any of them, it
is stopped, and what it wrote is deleted. A confined turn (bubblewrap: it can write only its
folder, a /tmp in memory and files it holds open or mapped) is charged what its own writes show
and what the harness wrote because of it (`phoneshell.behalf`: trajectory frames, audit lines).
Disk lost beyond them stops it under its floor, and is settled once its processes are gone: what
comes back then was its own (a file held where no name shows it); only a loss that stays is the
machine's, and its attempt is not scored (`DiskShort`), never failed. The count and the deletion
go by `walk` (by open folder, however deep, wide or long-named the tree): what the count cannot
see is over the
limits, and so is what the take-back after its turn could not take back
(`Sandbox.take_back`'s answer: `agent_user.take_back` and `give_back`, which the turn adds).
"""
from __future__ import annotations

import contextlib
import os
import select
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import IO

from phoneshell import behalf
from phoneshell.agents import walk
from phoneshell.agents.own_writes import counted, held_unlinked
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
ROOM_HINT = ("free some space on that disk (or give --runs a folder on another), "
             "then run it again")
WATCH_S = 1.0
SETTLE_S = 2.0
"""How long a confined turn's disk is watched, once its processes are gone, for what comes back
(blocks only a dead process held return as the kernel lets go of them)."""
READ_CHUNK = 1 << 16
DRAIN_S = 1.0
"""How long the pipes are read after the program is gone (what it left may write on)."""


def disk_free(path: Path) -> int:
    """Bytes free to an unprivileged writer on the file system holding `path`."""
    stats = os.statvfs(path)
    return stats.f_bavail * stats.f_frsize


class DiskShort(RunError):
    """The disk holding the run has less free than the harness's room (`HARNESS_ROOM_BYTES`),
    and not by the agent's doing: before its turn, or during a confined turn whose own writes
    do not explain it. The attempt is not scored."""


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
    disk. A confined turn can write nowhere else on the disk, so it is charged only for its
    own writes (its folder, the files it holds open unlinked), and disk lost that they do not
    explain is the machine's: under the harness's room it stops the turn unscored
    (`DiskShort`), above it nothing. An unconfined turn is charged for what the disk lost since
    its start less what the other turns on that disk meanwhile were seen to write of their own:
    with one turn, the whole loss; with several phones' turns side by side, an agent that wrote
    little is never the one stopped when another fills the disk. What no turn's own files show
    (a file it wrote elsewhere on the disk, or something else on the machine) is charged to
    every unconfined turn running then: it could have written it, and nobody can tell whose it
    was.

    Args:
        folder: the attempt folder (its scratch folder, stdout and stderr inside).
        confined: the program can write only its folder, a /tmp in memory and files it holds
            open (bubblewrap: `Sandbox.kind` "bwrap"; macOS's sandbox-exec lets it write the
            disk's shared /tmp).

    Raises:
        DiskShort: the disk holds less than the harness's room already (`no_room`).
    """

    def __init__(self, folder: Path, confined: bool = False) -> None:
        self.folder, self.confined = folder, confined
        self.free_at_start = disk_free(folder)
        why = no_room(folder, self.free_at_start)
        if why:
            raise DiskShort(why, hint=ROOM_HINT)
        self.floor = max(self.free_at_start - FOLDER_MAX_BYTES, HARNESS_ROOM_BYTES)
        """Below this much free, the agent is stopped: what it took is its allowance."""
        self.disk = os.stat(folder).st_dev
        self.root = 0
        self.behalf = behalf.key_of(folder)
        """Its attempt: what the harness writes because of its turn is its own (`behalf`)."""
        self.own = self.own_at_start = (counted(folder, FOLDER_MAX_BYTES, FOLDER_MAX_FILES)[1]
                                        + behalf.written(self.behalf))
        self.seen_free = self.free_at_start
        """The free space at the last look while its processes ran."""
        self.suspect = False
        """A confined turn was stopped for disk lost that its own writes do not show."""
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
        over, size = counted(self.folder, FOLDER_MAX_BYTES, FOLDER_MAX_FILES)
        own = size + held_unlinked(self.root, self.disk) + behalf.written(self.behalf)
        with _SHARE_LOCK:
            _WRITTEN[self.disk] = _WRITTEN.get(self.disk, 0) + own - self.own
            self.own = own
        return over

    def _charged(self, free: int) -> int:
        """What the disk lost since its start that the other turns' own writes do not show;
        confined, its own writes alone. The caller holds `_SHARE_LOCK`."""
        if self.confined:
            return self.own - self.own_at_start
        others = (_WRITTEN.get(self.disk, 0) - self.others_at_start
                  - (self.own - self.own_at_start))
        return self.free_at_start - free - others

    def over(self) -> str:
        """Why the agent must be stopped for what it wrote ("" when it need not): its
        folder's limits (the more telling, when it wrote there), the disk's free space: under
        its floor, what it is charged (`_charged`) is over what it may take, or under the
        harness's room, it is charged the most of the turns running."""
        over = self._measure()
        free = self.seen_free = disk_free(self.folder)
        if over or free >= self.floor:
            return over
        if self.confined:
            return self._own_over(free)
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
                f"(it may take {(self.free_at_start - self.floor) >> 20:,} MiB, and is "
                f"stopped below {self.floor >> 20:,} MiB free{also})")

    def _own_over(self, free: int) -> str:
        """`over` for a confined turn under its floor: its own writes over what it may take fail
        it; loss they do not show stops it, to be settled once its processes are gone
        (`after`): a file can hold blocks with no name, descriptor or mapping left to see."""
        own, may = self.own - self.own_at_start, self.free_at_start - self.floor
        if own > may:
            return self._took(own, free, "")
        self.suspect = True
        return (f"the disk holding the run fell to {free / (1 << 20):.1f} MiB free in its turn "
                f"(it is stopped below {self.floor >> 20:,} MiB), more than its own writes show; "
                "it was stopped to see what comes back once its processes are gone")

    def _took(self, own: int, free: int, back: str) -> str:
        """Why a confined turn that took `own` bytes, more than it may, failed (`back`: what
        came back once its processes were gone, said)."""
        return (f"it filled the disk holding the run: its folder, the files it holds open or "
                f"mapped{back} took {own / (1 << 20):,.1f} MiB in its turn (it may take "
                f"{(self.free_at_start - self.floor) >> 20:,} MiB; {free / (1 << 20):.1f} MiB "
                f"free of the {self.free_at_start / (1 << 20):.1f} MiB there were when it "
                "started)")

    def after(self, unkept: str) -> str:
        """Why the turn fails for what it wrote, looked at once more with its processes gone
        ("" when it does not); `unkept`: why the disk refused a copy of its output.

        Confined, disk lost that its own writes do not show is its own when it comes back as
        its processes go (what only they held), and the machine's only when it stays: then,
        the disk short of the harness's room, or the turn stopped for it (`suspect`), it is not
        scored. A copy of its output refused is its failure unless the disk stays short.

        Raises:
            DiskShort: the loss stayed once its processes were gone.
        """
        if not self.confined:
            return self.over() or unkept
        over = self._measure()
        own, may = self.own - self.own_at_start, self.free_at_start - self.floor
        free = disk_free(self.folder)
        if over or own > may:
            return over or self._took(own, free, "")
        if not self.suspect and free >= HARNESS_ROOM_BYTES:
            return unkept  # nothing shows the machine took the disk it was refused
        unseen = max(0, self.free_at_start - self.seen_free - own)
        deadline = time.monotonic() + SETTLE_S
        while own + min(max(0, free - self.seen_free), unseen) <= may and \
                time.monotonic() < deadline:
            time.sleep(0.05)
            free = disk_free(self.folder)
        back = min(max(0, free - self.seen_free), unseen)
        if own + back > may:
            return self._took(own + back, free, (
                f" and what came back to the disk once its processes were gone "
                f"({back / (1 << 20):,.1f} MiB, held where no name showed it)"))
        self.short(free, unkept)
        return ""  # never reached: `short` raises

    def short(self, free: int, seen: str) -> None:
        """Stop a confined turn for the disk the machine took (`DiskShort`): `free` left once
        its processes were gone, `seen` what showed it ("" the watch).

        Raises:
            DiskShort: always.
        """
        own = (self.own - self.own_at_start) / (1 << 20)
        lost = (self.free_at_start - free) / (1 << 20)
        raise DiskShort(
            f"the disk holding {self.folder} lost {lost:,.1f} MiB during the agent's turn"
            f"{f' ({seen})' if seen else ''}, down to {free / (1 << 20):.1f} MiB free (the "
            f"harness keeps {HARNESS_ROOM_BYTES >> 20} MiB to record an attempt), by writes "
            f"that are not the agent's: it ran confined, its folder, the files it holds open or "
            f"mapped and what the harness wrote for it took {own:,.1f} MiB, and the loss stayed "
            "once its processes were gone (not the agent's doing)", hint=ROOM_HINT)

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
           "SETTLE_S", "WATCH_S", "CappedOutput", "DiskShort", "DiskWatch", "disk_free",
           "held_unlinked", "no_room", "unkept", "wipe"]
