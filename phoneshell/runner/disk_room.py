"""Room on the disk holding a run before an agent's turn: what the run itself, and the earlier
runs in its runs folder, keep of earlier agents (their scratch folders, their output) is given
back before the disk is called short. Never touches evidence, verdicts, rows, logs or seals, nor
an attempt still in play, nor a run another process is writing.

An agent's turn may take `bounds.FOLDER_MAX_BYTES` of the disk's free space and never the
harness's room (`bounds.HARNESS_ROOM_BYTES`); what it wrote within those is kept after it. Kept
without end, the run's own copies of earlier agents' files wore the disk down: a failing agent
that took the disk to just above the room left every later attempt of the run skipped as "not
the agent's doing" (the harness's own writes after its turn took the rest), and an honest agent
writing a little each attempt was failed, at the turn that crossed the floor, for space its
predecessors held. So before a turn, while the disk has less free than the turn may take (the
room plus the folder's limit, in bytes or in files: red team 132), the run gives back, oldest
attempt first, of its own attempts and those of every other run in the runs folder that no
process is writing (a run folder with
a `run.json`; an earlier run's kept scratch once left a later run's first agent 0 MiB, and it
failed): first every earlier agent's scratch folder (`attempts/*/*/agent/`,
`incomplete/*/agent/`, left empty), then the middle of its kept output (`agent.stdout`,
`agent.stderr` cut to their last `OUTPUT_TAIL_BYTES`: the claim line and a traceback's end are
there). Each attempt so treated
says what was given back and why in its `given-back.txt`. None of these files is sealed
(`seal.sealed_files`: evidence and verdict only), so a run verifies, reports, regrades and
resumes as before. What it gives back is counted as the harness's
(`disk_share.given_back`), never as what came back to a turn's disk. Only a disk still short
of the room after that is not the agent's doing (`no_room`): the run's own records, or
something else on the disk, took it.
"""

from __future__ import annotations

import contextlib
import os
import stat
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from phoneshell.agents import bounds, walk
from phoneshell.agents.disk_share import delete_counted, given_back
from phoneshell.records.layout import ATTEMPTS, INCOMPLETE, MANIFEST, SCRATCH
from phoneshell.runner.folder import write_note, writer

NOTE = "given-back.txt"
"""The note an attempt folder gets when the run gave back what it kept of its agent."""
OUTPUTS = (f"{SCRATCH}.stdout", f"{SCRATCH}.stderr")
"""An attempt folder's command-agent files: its scratch folder, its kept stdout and stderr."""
OUTPUT_TAIL_BYTES = 64 << 10
"""How much of the end of each of an earlier agent's outputs stays when they are given back."""

_IN_PLAY: dict[int, Path] = {}
"""Each rig's attempt in play (its folder), by the rig's id: a run on several phones plays
attempts side by side in one run folder, and another phone's agent's folder is never given
back under it."""
_IN_PLAY_LOCK = threading.Lock()


def wanted() -> int:
    """The free space an agent's turn may take, with the harness's room kept."""
    return bounds.HARNESS_ROOM_BYTES + bounds.FOLDER_MAX_BYTES


def wanted_files() -> int:
    """The free files (inodes) an agent's turn may make, with the harness's room kept."""
    return bounds.HARNESS_ROOM_FILES + bounds.FOLDER_MAX_FILES


def _short(free: int, files: int | None) -> bool:
    """Whether the disk has less free than a turn may take, bytes or files (None: it counts
    no files)."""
    return free < wanted() or (files is not None and files < wanted_files())


def make_room(run_dir: Path, folder: Path, whose: str, player: int) -> str:
    """Before the turn of the attempt in `folder` (`whose`: "TASK attempt N", played by the rig
    `player`), give back what the run keeps of earlier agents while the disk has less free than
    `wanted`; why the disk is still short of the harness's room ("" when it is not)."""
    # held throughout: a phone whose attempt starts meanwhile (its folder made, its turn not
    # yet begun) waits here before its turn, so nothing its agent writes is given back
    with _IN_PLAY_LOCK:
        _IN_PLAY[player] = folder
        free, files, given, gave = _give_back(run_dir, folder, whose,
                                              set(_IN_PLAY.values()))
    short = bounds.no_room(folder, free, files)
    if short and gave:
        short += (f", after the run gave back {given / (1 << 20):.1f} MiB it kept of earlier "
                  f"agents (their {NOTE})")
    return short


def _give_back(run_dir: Path, folder: Path, whose: str,
               playing: set[Path]) -> tuple[int, int | None, int, bool]:
    """Give back, oldest first, until the disk has `wanted` bytes and `wanted_files` files
    free (an agent that made the disk's last files, in bytes nothing, left every later turn
    short: red team 132): its free bytes and files then, the bytes that came back, and
    whether anything was given back."""
    free = start = bounds.disk_free(folder)
    files = bounds.disk_free_files(folder)
    given, gave = 0, False
    if not _short(free, files):
        return free, files, given, gave
    for scratch, earlier in _earlier(run_dir, playing):
        took, troubles = (_give_back_scratch(earlier) if scratch
                          else _give_back_outputs(earlier))
        now, files = bounds.disk_free(folder), bounds.disk_free_files(folder)
        if took or troubles:
            gave, given = True, given + max(0, now - free)
            turn = whose if earlier.is_relative_to(run_dir) else f"{whose} of run {run_dir.name}"
            _note(earlier, scratch, max(0, now - free), troubles, turn, start)
        free = now
        if not _short(free, files):
            break
    return free, files, given, gave


def _earlier(run_dir: Path, playing: set[Path]) -> Iterator[tuple[bool, Path]]:
    """What the run and the earlier runs beside it keep of earlier agents, in the order it is
    given back (True: a scratch folder, False: outputs): every scratch folder, then every
    output, each oldest attempt first. Nothing through a link, nothing of an attempt in play."""
    attempts = [f for run in (run_dir, *_runs_beside(run_dir))
                for f in (*_folders(run / ATTEMPTS, 2), *_folders(run / INCOMPLETE, 1))
                if f not in playing]
    attempts.sort(key=_captured_at)
    yield from ((True, f) for f in attempts)
    yield from ((False, f) for f in attempts)


def _runs_beside(run_dir: Path) -> list[Path]:
    """The other runs in the runs folder holding `run_dir` (a real folder with a `run.json`)
    that no process is writing now (`folder.writer`): an earlier run's kept agent files never
    counted against a later run's agents either (they were left 0 MiB and failed)."""
    return [run for run in _folders(run_dir.parent, 1)
            if run != run_dir and _is_file(run / MANIFEST) and writer(run) is None]


def _folders(top: Path, depth: int) -> list[Path]:
    """The real folders (no links) `depth` levels below `top`."""
    found = [top]
    for _ in range(depth):
        found = [entry for folder in found if _is_folder(folder)
                 for entry in _listed(folder)]
    return [f for f in found if _is_folder(f)]


def _listed(folder: Path) -> list[Path]:
    try:
        return sorted(folder.iterdir())
    except OSError:
        return []


def _is_folder(path: Path) -> bool:
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


def _is_file(path: Path) -> bool:
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def _captured_at(attempt: Path) -> float:
    """When the harness wrote `attempt`'s evidence (else its folder): never the agent's (its
    scratch folder is all it can write) nor this room's (its notes)."""
    for written in (attempt / "evidence", attempt):
        with contextlib.suppress(OSError):
            return os.lstat(written).st_mtime
    return time.time()


def _give_back_scratch(attempt: Path) -> tuple[bool, list[str]]:
    """Empty the agent's scratch folder of `attempt`: whether it held anything, and what could
    not be deleted."""
    scratch = attempt / SCRATCH
    if not _is_folder(scratch) or not _listed(scratch):
        return False, []
    return True, delete_counted(scratch, kept=True)


def _give_back_outputs(attempt: Path) -> tuple[bool, list[str]]:
    """Cut the agent's outputs of `attempt` to their ends: whether one was cut, and what could
    not be."""
    cut, troubles = False, []
    for name in OUTPUTS:
        try:
            cut = _keep_end(attempt / name) or cut
        except OSError as exc:
            troubles.append(f"{name}: cannot cut it ({exc.strerror or exc})")
    return cut, troubles


def _keep_end(path: Path) -> bool:
    """Keep only the last `OUTPUT_TAIL_BYTES` of the file at `path` (never through a link), said
    at its top; whether it was longer."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return False
    try:
        seen = os.fstat(fd)
        size = seen.st_size
        # one name only: a file linked in from elsewhere (an unconfined agent's doing) is not
        # the run's copy of an output, and is left whole
        if not stat.S_ISREG(seen.st_mode) or seen.st_nlink != 1 or \
                size <= 2 * OUTPUT_TAIL_BYTES:
            return False
        end = os.pread(fd, OUTPUT_TAIL_BYTES, size - OUTPUT_TAIL_BYTES)
        head = (f"[phoneshell: the first {size - len(end):,} bytes were given back to the disk "
                f"(see {NOTE}); the last {len(end):,} are kept]\n").encode()
        os.ftruncate(fd, 0)  # freed first: on a short disk the end is written into that room
        os.pwrite(fd, head + end, 0)
        # the harness's doing, never what came back to a turn's disk as its processes went
        given_back(seen.st_dev, max(0, seen.st_blocks * 512 - len(head + end)), 0,
                          kept=True)
        return True
    finally:
        os.close(fd)


def _note(attempt: Path, scratch: bool, freed: int, troubles: list[str], whose: str,
          free: int) -> None:
    """Say in `attempt`'s folder what was given back of its agent, and why."""
    what = ("its agent's scratch folder (agent/) was emptied" if scratch else
            f"its agent's outputs ({', '.join(OUTPUTS)}) were cut to their last "
            f"{OUTPUT_TAIL_BYTES >> 10} KiB each")
    left = f"; not all of it could be: {walk.said(troubles)}" if troubles else ""  # quoted
    write_note(attempt / NOTE, (
            f"{time.strftime('%Y-%m-%d %H:%M:%S')}: before the agent's turn of {whose}, "
            f"{what}, giving back {freed / (1 << 20):.1f} MiB{left}. The disk holding the run "
            f"had {free / (1 << 20):.1f} MiB free, less than the {wanted() >> 20:,} MiB a turn "
            f"may take of it with the harness's room (or fewer than {wanted_files():,} files); "
            "what the run keeps of an earlier agent never counts against the rig or a later "
            "agent. Nothing graded changed: the evidence and verdict are sealed, these files "
            "never were.\n"))


__all__ = ["NOTE", "OUTPUT_TAIL_BYTES", "make_room", "wanted", "wanted_files"]
