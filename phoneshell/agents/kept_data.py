"""What an agent leaves in its scratch folder is kept as data, never as a program: once its
turn is over, no file there can be run.

The folder is kept as the attempt's `agent/`, and its path is the one the agent was given
(`PHONESHELL_ATTEMPT_DIR`, the same inside the sandbox and out). A red team's agent left an
executable named `phoneshell` there and printed a CI command putting that folder first on PATH:
a later step of the job running `phoneshell report` would have run the agent's program, with
no sandbox around it. So every regular file's execute bits (and set-ID bits) are cleared after
the turn, through the one walk (`walk.walk`); folders keep theirs, to be entered. What cannot
be cleared is deleted, and said.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from phoneshell.agents import walk

RUNNABLE = stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH | stat.S_ISUID | stat.S_ISGID
"""The bits taken from every file the agent left."""


def not_runnable(scratch: Path) -> str:
    """Clear every file's execute and set-ID bits below `scratch`, with the agent's programs
    all gone; what could not be (each deleted) and why ("" when all was). It never raises."""
    try:
        troubles = walk.walk(scratch, _Clear())
    except FileNotFoundError:
        return ""
    except OSError as exc:
        troubles = [f"{scratch}: cannot open it ({exc.strerror or exc})"]
    if not troubles:
        return ""
    return f"some of what it left could not be made data, not programs ({walk.said(troubles)})"


class _Clear(walk.Visitor):
    def visit(self, folder: int, entry: os.DirEntry[str], place: str) -> bool:
        if entry.is_dir(follow_symlinks=False):
            return True
        if not entry.is_file(follow_symlinks=False):
            return False  # a link, a socket, a fifo: nothing to run
        why = _clear(folder, entry.name)
        if why:
            left = walk.delete_at(folder, entry.name, place)
            self.troubles.append(f"{place}: {why}; " + (
                "deleted" if not left else f"not all deleted: {walk.said(left)}"))
        return False


def _clear(folder: int, name: str) -> str:
    """Take the bits from one file (by name in an open folder), pinned by a descriptor that
    follows no link (Linux's O_PATH; elsewhere, macOS, a chmod that follows none); why not
    ("" when they are gone)."""
    if not hasattr(os, "O_PATH"):
        try:
            mode = os.stat(name, dir_fd=folder, follow_symlinks=False).st_mode
            if stat.S_ISREG(mode) and mode & RUNNABLE:
                os.chmod(name, stat.S_IMODE(mode) & ~RUNNABLE, dir_fd=folder,
                         follow_symlinks=False)
            return ""
        except FileNotFoundError:
            return ""
        except OSError as exc:
            return f"cannot clear its execute bits ({exc.strerror or exc})"
    try:
        pinned = os.open(name, os.O_PATH | os.O_NOFOLLOW, dir_fd=folder)
    except FileNotFoundError:
        return ""
    except OSError as exc:
        return f"cannot open it ({exc.strerror or exc})"
    try:
        mode = os.fstat(pinned).st_mode
        if stat.S_ISREG(mode) and mode & RUNNABLE:
            os.chmod(f"/proc/self/fd/{pinned}", stat.S_IMODE(mode) & ~RUNNABLE)
            if os.fstat(pinned).st_mode & RUNNABLE:
                return "its execute bits stayed"
        return ""
    except OSError as exc:
        return f"cannot clear its execute bits ({exc.strerror or exc})"
    finally:
        os.close(pinned)
