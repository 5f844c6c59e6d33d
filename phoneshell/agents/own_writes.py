"""What a program's turn wrote of its own on the disk: its folder (size and files, by `walk`) and
the files it holds open or mapped with no name left, which only the free space shows otherwise.
Read-only: never deletes (`bounds.wipe` does).
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

from phoneshell.agents import pids, walk


class _Over(Exception):
    """The count passed a limit: why."""


class _Count(walk.Visitor):
    """Every entry counts as a file, and every entry's blocks (a folder's too) as its size, up
    to the limits."""

    def __init__(self, max_bytes: int, max_files: int) -> None:
        super().__init__()
        self.max_bytes, self.max_files = max_bytes, max_files

    def start(self) -> None:
        super().start()
        self.files = self.size = 0

    def visit(self, folder: int, entry: os.DirEntry[str], place: str) -> bool:
        self.files += 1
        if self.files > self.max_files:
            raise _Over(f"it made more than {self.max_files:,} files in its folder")
        try:
            self.size += entry.stat(follow_symlinks=False).st_blocks * 512
            inside = entry.is_dir(follow_symlinks=False)
        except FileNotFoundError:
            return False  # gone since it was listed: nothing there to count
        except OSError as exc:
            self.troubles.append(f"{place}: cannot look at it ({exc.strerror or exc})")
            return False
        if self.size > self.max_bytes:
            raise _Over(f"it wrote more than {self.max_bytes >> 20:,} MiB into its folder")
        return inside


def counted(folder: Path, max_bytes: int, max_files: int) -> tuple[str, int, int]:
    """Why what is in `folder` is over the limits ("" when it is not), and the bytes and files
    the walk counted (up to a limit it passed). What the walk cannot count (a folder it cannot
    open or list, a tree that keeps moving under it) is over them: they hold for what it cannot
    see too."""
    count = _Count(max_bytes, max_files)
    try:
        troubles = walk.walk(folder, count)
    except _Over as over:
        return str(over), count.size, count.files
    except FileNotFoundError:
        return "", 0, 0  # no folder: nothing written
    except OSError as exc:
        troubles = [f"{folder}: cannot open it ({exc.strerror or exc})"]
    if troubles:
        return (f"the harness could not count all it wrote into its folder "
                f"({walk.said(troubles)}), which counts as over its limits"), count.size, \
            count.files
    return "", count.size, count.files


def held_unlinked(root: int, disk: int) -> tuple[int, int]:
    """The bytes and files (inodes) of the files on the disk `disk` (a device number) that the
    process `root` and those below it hold with no name left (unlinked), open or mapped: what
    only the free space shows otherwise. Each file once, however many hold it.

    A file mapped shared and then closed and unlinked is held by the mapping alone: no name,
    no descriptor, its blocks on the disk all the same (red team 81 filled a disk so). Its
    mapping is in /proc/PID/map_files, which root can stat as the file itself. Each such file
    is one of the disk's files too, however few its bytes: 4,800 empty files opened and unlinked
    were counted as nobody's, and an honest turn beside them was stopped and failed for them
    (red team 137)."""
    held: dict[int, int] = {}
    for pid in (root, *pids.below(root)) if root else ():
        for place in ("fd", "map_files"):
            for seen in _held(f"/proc/{pid}/{place}"):
                if stat.S_ISREG(seen.st_mode) and seen.st_nlink == 0 and seen.st_dev == disk:
                    held[seen.st_ino] = seen.st_blocks * 512
    return sum(held.values()), len(held)


def _held(folder: str) -> list[os.stat_result]:
    """What each link in a process's /proc `folder` (its fd/ or map_files/) leads to."""
    try:
        names = os.listdir(folder)
    except OSError:
        return []  # gone, or no /proc (macOS): only the free space shows it there
    found = []
    for name in names:
        try:
            found.append(os.stat(f"{folder}/{name}"))
        except OSError:
            continue
    return found
