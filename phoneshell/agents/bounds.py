"""What a program agent may take of the disk that holds the run: its folder, the disk's free
bytes and files. An agent that filled the disk crashed the run and left no rows; this room
keeps that its own failure, and gives the disk back.

Its output is kept to a bound as it is read (`capped_output`); a copy a full disk refuses is its
failure too (`after`'s `unkept`). Its folder cannot be bounded as it is written without a file
system of its own, so it is watched: every `WATCH_S` while it runs and once more after, its size
and files against the limits, and the disk's free bytes and files against what its turn may take
(a file it holds open unlinked shows only there, and in its processes' open files). The bound is
relative to the free space at the start of the turn (after the run gave back what it kept of
earlier agents, `runner.disk_room`); a disk with less than the harness's own room is refused
before the agent starts, as the disk's fault (`DiskShort`). Over any limit, it is stopped, and
what it wrote is deleted. A confined turn (bubblewrap: it can write only its folder, a /tmp in
memory and files it holds open or mapped) is charged what its own writes show and what the
harness wrote because of it (`phoneshell.behalf`), and with several turns on one disk
(`--device sim:N`) never what the others' own writes show. Disk lost beyond them stops it under
its floor, and is settled once its processes are gone, one turn on a disk at a time: what comes
back then was its own (a file held where no name shows it) unless another turn's processes went
too (then nobody's; never what the harness deleted itself, `disk_share.given_back`); a loss that
stays is the machine's, and its attempt is not scored (`DiskShort`), never failed. The count and
the deletion go by `walk`: what the count cannot see is over the limits, and so is what the
take-back after its turn could not take back (`Sandbox.take_back`'s answer).
"""
from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path

from phoneshell import behalf
from phoneshell.agents import disk_said, strays, walk
from phoneshell.agents.disk_share import (
    BYTES,
    ENDED,
    FILES,
    FREED,
    SHARE_LOCK,
    WATCHED,
    WRITTEN,
    Share,
    delete_counted,
    ended,
    settling,
)
from phoneshell.agents.own_writes import counted, held_unlinked
from phoneshell.errors import RunError

FOLDER_MAX_BYTES = 1 << 30
"""The most an agent may write into its attempt folder (its scratch folder, stdout, stderr)."""
FOLDER_MAX_FILES = 100_000
FOLDER_MAX_APPARENT_BYTES = FOLDER_MAX_BYTES
"""The most its folder may hold by its files' sizes (`st_size`), which a sparse file sets far
past its blocks: a 1 TiB file of no blocks is within `FOLDER_MAX_BYTES` on the disk, and 1 TiB
to whoever copies or archives the run folder without sparse support (red team 143: RT143-2).
Looked at once its turn is over: such a file takes nothing of the disk while it runs."""
HARNESS_ROOM_BYTES = 32 << 20
"""The free space the harness keeps on the disk holding the run to record an attempt after the
agent's turn: its evidence and rows (a few MiB on a phone, less on the simulator) and the
agent's own kept output (`capped_output.OUTPUT_MAX_BYTES` twice at most). An agent's turn never
takes it; a disk with less free before the turn, once the run gave back what it keeps of earlier
agents (`runner.disk_room`), is not the agent's doing (`no_room`). A turn that took the disk to it
leaves the next one short only by the harness's own writes: what the turn took is given back."""
HARNESS_ROOM_FILES = 1_000
"""The files (inodes) the harness keeps free on the disk holding the run, as it keeps
`HARNESS_ROOM_BYTES`: an attempt's records are a few dozen files. An agent that made the disk's
last files (60,000 empty ones, under its folder's 100,000, on a disk with fewer free) left the
run unable to write its seal, with no row, again on every resume (red team 132)."""
ROOM_HINT = ("free some space on that disk (or give --runs a folder on another), "
             "then run it again")
WATCH_S = 1.0
SETTLE_S = 2.0
"""How long a confined turn's disk is watched, once its processes are gone, for what comes back
(blocks only a dead process held return as the kernel lets go of them)."""


def disk_free(path: Path) -> int:
    """Bytes free to an unprivileged writer on the file system holding `path`."""
    stats = os.statvfs(path)
    return stats.f_bavail * stats.f_frsize


def disk_free_files(path: Path) -> int | None:
    """Files (inodes) free to an unprivileged writer on the file system holding `path`; None
    where it counts none (`f_files` 0: btrfs and many network and FUSE file systems make
    them as they are needed), where a turn's files are bounded by `FOLDER_MAX_FILES` and the
    free bytes alone."""
    stats = os.statvfs(path)
    return stats.f_favail if stats.f_files else None


def _free(path: Path) -> tuple[int, int | None]:
    """The free bytes and files of the disk holding `path`, read at once."""
    stats = os.statvfs(path)
    return stats.f_bavail * stats.f_frsize, stats.f_favail if stats.f_files else None


class DiskShort(RunError):
    """The disk holding the run has less free than the harness's room (`HARNESS_ROOM_BYTES`),
    and not by the agent's doing: before its turn, or during a confined turn whose own writes
    do not explain it. The attempt is not scored."""


def no_room(folder: Path, free: int | None = None, files: int | None = None) -> str:
    """Why the disk holding `folder` has too little free for an agent's turn ("" when it has
    room): less than `HARNESS_ROOM_BYTES` or `HARNESS_ROOM_FILES`, before the agent did
    anything (`free`, `files`: its free bytes and files, when already read, after what the run
    could give back)."""
    if free is None:
        free, files = _free(folder)
    if free < HARNESS_ROOM_BYTES:
        return (f"the disk holding {folder} has {free / (1 << 20):.1f} MiB free, under the "
                f"{HARNESS_ROOM_BYTES >> 20} MiB the harness keeps to record an attempt, before "
                "the agent's turn (not the agent's doing)")
    if files is not None and files < HARNESS_ROOM_FILES:
        return (f"the disk holding {folder} has {files:,} files (inodes) free, under the "
                f"{HARNESS_ROOM_FILES:,} the harness keeps to record an attempt, before the "
                "agent's turn (not the agent's doing)")
    return ""


class DiskWatch:
    """The limits of one agent's turn on the disk: its folder, and the disk's free bytes and
    files (inodes), each a `Share`.

    Of each free at its start, the turn may take its folder's limit (`FOLDER_MAX_BYTES`,
    `FOLDER_MAX_FILES`), and never the harness's room (`HARNESS_ROOM_BYTES`,
    `HARNESS_ROOM_FILES`), wherever it writes: into its folder, a file it holds open unlinked,
    anywhere else it can reach on the disk. A confined turn can write nowhere else on the
    disk, so it is charged only for its own writes (its folder, the files it holds open
    unlinked), and disk lost that they and the other turns' own writes do not explain is the
    machine's: under the harness's room it stops the turn unscored (`DiskShort`), above it
    nothing. An unconfined turn is charged for what the disk lost since its start less what
    the other turns on that disk meanwhile were seen to write of their own: with one turn, the
    whole loss; with several phones' turns side by side, an agent that wrote little is never
    the one stopped when another fills the disk. What no turn's own files show (a file it
    wrote elsewhere on the disk, or something else on the machine) is charged to every
    unconfined turn running then: it could have written it, and nobody can tell whose it was.

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
        free, files = _free(folder)
        why = no_room(folder, free, files)
        if why:
            raise DiskShort(why, hint=ROOM_HINT)
        self.disk = os.stat(folder).st_dev
        self.root = 0
        self.behalf = behalf.key_of(folder)
        """Its attempt: what the harness writes because of its turn is its own (`behalf`)."""
        _, size, made = counted(folder, FOLDER_MAX_BYTES, FOLDER_MAX_FILES)
        with SHARE_LOCK:
            WATCHED.add(self)
            others, freed = WRITTEN.get(self.disk, [0, 0]), FREED.get(self.disk, [0, 0])
            self.shares = (
                Share(free, max(free - FOLDER_MAX_BYTES, HARNESS_ROOM_BYTES),
                       HARNESS_ROOM_BYTES, size + behalf.written(self.behalf), others[BYTES]),
                # a disk that counts no files: only the folder's limit bounds them
                Share(files, max(files - FOLDER_MAX_FILES, HARNESS_ROOM_FILES),
                       HARNESS_ROOM_FILES, made, others[FILES]) if files is not None else
                Share(1 << 62, (1 << 62) - FOLDER_MAX_FILES, 0, made, others[FILES]))
            for share, seen in zip(self.shares, freed, strict=True):
                share.own, share.seen_free, share.seen_freed = share.own_at_start, \
                    share.free_at_start, seen
                share.seen_others = share.others_at_start
        self.max_files = FOLDER_MAX_FILES if files is None else min(
            FOLDER_MAX_FILES, made + files - HARNESS_ROOM_FILES)
        """Its folder's files: its limit, or what it holds and may make of the disk's free."""
        self.suspect = False
        """A confined turn was stopped for disk lost that its own writes do not show."""
        self.settling = False
        """It holds its disk's `disk_share.settling` lock: the one turn on it settling."""
        self.gone = False
        """Its processes are gone (`after`)."""
        self.seen_ended = ended(self.disk)
        """The turns on its disk that had ended at its last look while its processes ran."""

    @property
    def free_at_start(self) -> int:
        return self.shares[BYTES].free_at_start

    def follow(self, root: int) -> None:
        """Count what the program `root` (and whatever is below it) holds open unlinked as its
        own."""
        self.root = root

    def _measure(self) -> str:
        """Count what the turn wrote of its own now, for every turn on its disk to read; why
        its folder is over its limits ("" when it is not)."""
        over, size, made = counted(self.folder, FOLDER_MAX_BYTES, self.max_files)
        if over and self.max_files < FOLDER_MAX_FILES and made > self.max_files:
            over += (f" (the disk holding the run had {self.shares[FILES].free_at_start:,} "
                     f"files free when its turn started, {HARNESS_ROOM_FILES:,} of them kept "
                     "by the harness)")
        held, unlinked = held_unlinked(self.root, self.disk)
        own = (size + held + behalf.written(self.behalf), made + unlinked)
        with SHARE_LOCK:
            written = WRITTEN.setdefault(self.disk, [0, 0])
            for axis, share in enumerate(self.shares):
                written[axis] += own[axis] - share.own
                share.own = own[axis]
        return over

    def _look(self) -> tuple[int, int]:
        """The disk's free bytes and files now, seen with the other turns' writes and the
        harness's deletions as of now (read while its processes run)."""
        free, files = _free(self.folder)
        now = (free, files if files is not None else self.shares[FILES].free_at_start)
        with SHARE_LOCK:
            others, freed = WRITTEN.get(self.disk, [0, 0]), FREED.get(self.disk, [0, 0])
            for axis, share in enumerate(self.shares):
                share.seen_free, share.seen_others = now[axis], others[axis] - share.took()
                share.seen_freed = freed[axis]
            self.seen_ended = ENDED.get(self.disk, 0)
        return now

    def _charged(self, axis: int, free: int) -> int:
        """What the disk lost since its start that the other turns' own writes do not show;
        confined, its own writes alone. The caller holds `SHARE_LOCK`."""
        share = self.shares[axis]
        if self.confined:
            return share.took()
        others = WRITTEN.get(self.disk, [0, 0])[axis] - share.others_at_start - share.took()
        return share.free_at_start - free - others

    def over(self) -> str:
        """Why the agent must be stopped for what it wrote ("" when it need not): its
        folder's limits (the more telling, when it wrote there), the disk's free bytes or
        files: under its floor, what it is charged (`_charged`) is over what it may take, or
        under the harness's room, it is charged the most of the turns running."""
        over = self._measure()
        now = self._look()
        under = [axis for axis, share in enumerate(self.shares) if now[axis] < share.floor]
        if over or not under:
            return over
        with SHARE_LOCK:
            beside = [w for w in WATCHED if w.disk == self.disk and w is not self]
        for other in beside:  # the others' writes as of now, not of their last look
            other._measure()
        if self.confined:
            return self._own_over(under[0], self._look())
        for axis in under:
            share, free = self.shares[axis], now[axis]
            with SHARE_LOCK:
                charged = self._charged(axis, free)
                most = all(charged >= w._charged(axis, free) for w in beside)
            if charged > share.may() or (free < share.room and most):
                return disk_said.filled(axis, share, free, share.free_at_start - free - charged)
        return ""

    def _own_over(self, axis: int, now: tuple[int, int]) -> str:
        """`over` for a confined turn under its floor: its own writes over what it may take fail
        it; loss that neither they nor the other turns' own writes show stops it, to be settled
        once its processes are gone (`after`): a file can hold blocks with no name, descriptor
        or mapping left to see. One turn on a disk settles at a time: this one waits, running,
        for the one settling, and is looked at again (with it gone, its loss may be too)."""
        share = self.shares[axis]
        if share.took() > share.may():
            return disk_said.took(axis, share, share.took(), now[axis], None)
        if share.took() + share.unseen() <= share.may():
            return ""  # the other turns' own writes took it: their watches stop them
        if not self.settling:
            self._settle()
            if _running(self.root):  # what comes back from this look on is its alone
                why = self.over()
                if not self.suspect:
                    self._settled()
                return why
        self.suspect = True
        return disk_said.stopped(axis, share, now)

    def _settle(self) -> None:
        """Wait for the turn settling on its disk, if any, and be the one settling
        (`disk_share.SETTLING`)."""
        settling(self.disk).acquire()
        self.settling = True

    def _settled(self) -> None:
        """No longer the turn settling on its disk."""
        if self.settling:
            self.settling = False
            settling(self.disk).release()

    def after(self, unkept: str) -> str:
        """Why the turn fails for what it wrote, with its processes gone (`_after`), or for the
        size its folder's files say they are (`apparent_over`); "" when it does not.

        Raises:
            DiskShort: as `_after`.
        """
        return self._after(unkept) or apparent_over(self.folder)

    def _after(self, unkept: str) -> str:
        """Why the turn fails for what it wrote, looked at once more with its processes gone
        ("" when it does not); `unkept`: why the disk refused a copy of its output.

        Confined, disk lost that neither its own nor the other turns' writes show is its own
        when it comes back as its processes go (what only they held; never what the harness
        deleted meanwhile, `disk_share.given_back`), and the machine's only when it stays:
        then, the disk short of the harness's room, or the turn stopped for it (`suspect`), it
        is not scored. It settles alone on its disk (`_settle`), and what came back while
        another turn's processes went too is charged to neither: it is not scored.
        A copy of its output refused is its failure unless the disk stays short.

        Raises:
            DiskShort: the loss stayed once its processes were gone, or what came back may be
                another turn's.
        """
        self.gone = True
        mine = ended(self.disk, 1)
        if not self.confined:
            return self.over() or unkept
        over = self._measure()
        for axis, share in enumerate(self.shares):
            if share.took() > share.may():
                return over or disk_said.took(axis, share, share.took(),
                                              _free(self.folder)[axis] or 0, None)
        if over:
            return over
        if not self.suspect and not self._short():
            return unkept  # nothing shows the machine took the disk it was refused
        if not self.settling:
            self._settle()
        alone, gained = mine == self.seen_ended + 1, [0, 0]
        deadline = time.monotonic() + SETTLE_S
        while True:
            back = self._back()
            gained = [max(had, now) for had, now in zip(gained, back, strict=True)]
            alone = alone and ended(self.disk) == mine and not self._others_going()
            for axis, share in enumerate(self.shares):
                if alone and share.took() + back[axis] > share.may():
                    return disk_said.took(axis, share, share.took() + back[axis],
                                          share.seen_free, back[axis])
            short = self._short()
            if (not short and not self.suspect) or time.monotonic() >= deadline:
                break
            time.sleep(0.05)
        if not alone and (short or self.suspect):
            raise DiskShort(disk_said.nobodys(str(self.folder), (gained[0], gained[1])),
                            hint=ROOM_HINT)
        if short or self.suspect:
            free, _ = _free(self.folder)
            self.short(free, unkept)
        return unkept

    def _others_going(self) -> bool:
        """Whether another turn on its disk has a program gone that its watch has not yet
        looked after (`after`): what that held comes back now."""
        with SHARE_LOCK:
            beside = [w for w in WATCHED if w.disk == self.disk and w is not self and not w.gone]
        return any(not _running(other.root) for other in beside)

    def _short(self) -> bool:
        """Whether the disk is short of the harness's room now, bytes or files."""
        free, files = _free(self.folder)
        return free < HARNESS_ROOM_BYTES or (files is not None and files < HARNESS_ROOM_FILES)

    def _back(self) -> tuple[int, int]:
        """What came back to the disk since the last look that could be its own (`Share.back`)."""
        free, files = _free(self.folder)
        with SHARE_LOCK:
            freed = FREED.get(self.disk, [0, 0])
        now = (free, files if files is not None else self.shares[FILES].seen_free)
        return (self.shares[BYTES].back(now[BYTES], freed[BYTES]),
                self.shares[FILES].back(now[FILES], freed[FILES]))

    def short(self, free: int, seen: str) -> None:
        """Stop a confined turn for the disk the machine took (`DiskShort`): `free` left once
        its processes were gone, `seen` what showed it ("" the watch).

        Raises:
            DiskShort: always.
        """
        share = self.shares[BYTES]
        raise DiskShort(disk_said.machines(
            str(self.folder), (share.free_at_start - free) / (1 << 20), free / (1 << 20),
            _free(self.folder)[FILES], seen, share.took() / (1 << 20), HARNESS_ROOM_BYTES,
            HARNESS_ROOM_FILES), hint=ROOM_HINT)

    def close(self) -> None:
        """After the turn (what was deleted of it, deleted): what it keeps stays counted as
        written, and it is no longer one of the turns on the disk."""
        try:
            self._measure()
        finally:
            with SHARE_LOCK:
                WATCHED.discard(self)
            self._settled()

    def __enter__(self) -> DiskWatch:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def apparent_over(folder: Path, max_bytes: int = FOLDER_MAX_APPARENT_BYTES) -> str:
    """Why the files of `folder` say they are larger than `max_bytes` in all ("" when they do
    not): a sparse file that takes no disk is as large as its size to any copy of the run."""
    place = walk.past_size(folder, max_bytes)
    if place is None:
        return ""
    return (f"its folder's files say they hold more than {max_bytes >> 20:,} MiB (at {place}), "
            "though they take less of the disk (a sparse file): any copy or archive of the run "
            "folder without sparse support would write all of it")


def _running(pid: int) -> bool:
    """Whether the process `pid` runs still (not gone, dead or exiting; 0: none followed)."""
    proc = strays.read(pid) if pid else None
    return not pid or (proc is not None and not proc.ending)


def wipe(scratch: Path) -> str:
    """Delete everything the agent wrote into its scratch folder (left empty), by open
    folder; what could not be deleted ("" when all was). What it gave back is counted as the
    harness's (`disk_share.given_back`): never what came back to another turn's disk."""
    troubles = delete_counted(scratch, kept=False)
    with contextlib.suppress(OSError):
        scratch.mkdir(parents=True, exist_ok=True)
    return walk.said(troubles) if troubles else ""


__all__ = ["FOLDER_MAX_APPARENT_BYTES", "FOLDER_MAX_BYTES", "FOLDER_MAX_FILES",
           "HARNESS_ROOM_BYTES", "HARNESS_ROOM_FILES",
           "ROOM_HINT", "SETTLE_S", "WATCH_S", "DiskShort", "DiskWatch", "disk_free",
           "apparent_over", "disk_free_files", "held_unlinked", "no_room", "wipe"]
