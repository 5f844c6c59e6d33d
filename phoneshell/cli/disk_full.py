"""What the CLI says when storage will not take a command's write (a full disk, a file-size limit,
an I/O error, a read-only mount: `errors.STORAGE`): the error, naming the file and the system's
word, and a hint that holds for what the command left behind. A run stopped before its run.json was written
recorded nothing, and `--resume` would refuse it ("run.json is missing"): it starts again, and
the folder it left (only its run.lock) is named to be removed. Never writes anything.
"""

from __future__ import annotations

import argparse
import errno
import io
from pathlib import Path, PurePath

from phoneshell.errors import DISK_FULL, REFUSED, STORAGE, PhoneshellError

NAMED_MAX = 3
"""How many left-behind run folders a hint names."""


WHY = {errno.EFBIG: "a file-size limit (`ulimit -f`, a CI's RLIMIT_FSIZE) is below what it "
                     "needed: raise it",
       errno.EIO: "its storage reported an I/O error: check the disk",
       errno.EROFS: "its file system is mounted read-only: give a folder that takes writes"}
"""What stands behind each storage errno but a full disk's, and what mends it."""


def unwritable(exc: OSError, args: argparse.Namespace) -> PhoneshellError:
    """The error for `exc` (one of `STORAGE`) met by the command `args` asked for: whatever it
    was writing (a run's folder, a report's page, an attack's record), named with the system's
    word, and the way on from what it left (every record is appended or replaced whole)."""
    exc.filename = exc.filename or written(exc)
    if exc.errno in DISK_FULL:
        return disk_full(exc, args)
    where = exc.filename or _runs(args) or "a file"
    return PhoneshellError(f"{where} could not be written: {exc.strerror}",
                           hint=f"{WHY.get(exc.errno or 0, 'mend the storage')}, then "
                                + (_after_run(args) if _runs(args) is not None
                                   else "run the command again"))


def written(exc: OSError) -> str | None:
    """The file `exc` was met writing, when the error does not name it (a `write` never does):
    the file open for writing, or the `path` being written, nearest where it was raised."""
    frames = []
    tb = exc.__traceback__
    while tb is not None:
        frames.append(tb.tb_frame.f_locals)
        tb = tb.tb_next
    for names in reversed(frames):
        for value in names.values():
            if isinstance(value, io.IOBase) and isinstance(getattr(value, "name", None), str) \
                    and not value.name.startswith("<") and _writing(value):
                return str(value.name)
        if isinstance(names.get("path"), PurePath):
            return str(names["path"])
    return None


def _writing(file: io.IOBase) -> bool:
    mode = str(getattr(file, "mode", ""))
    return any(m in mode for m in "wax+")


def _runs(args: argparse.Namespace) -> Path | None:
    """The runs folder of a `run` (its hint goes on from what it recorded); None otherwise."""
    runs: Path | None = getattr(args, "runs", None) if args.command == "run" else None
    return runs


def disk_full(exc: OSError, args: argparse.Namespace) -> PhoneshellError:
    """The error for `exc` (ENOSPC or EDQUOT) met by the command `args` asked for."""
    runs = _runs(args)
    where = (f" writing {exc.filename}" if exc.filename else
             f" holding {runs}" if runs is not None else "")
    hint = "free some space, then " + (_after_run(args) if runs is not None
                                       else "run the command again")
    return PhoneshellError(f"the disk is full{where}: {exc.strerror}", hint=hint)


def _after_run(args: argparse.Namespace) -> str:
    """What goes on from a run the disk stopped, as its folder says."""
    # imported here: every command reads this module's errnos, only a run stopped by a full
    # disk needs the run folder's (the runner's imports take most of a command's start)
    from phoneshell.runner.folder import MANIFEST
    from phoneshell.runner.lines import resume_command

    runs: Path = args.runs
    run_id = args.resume or args.run_id
    folders = [runs / run_id] if run_id else _left_here(runs)
    recorded = [f for f in folders if (f / MANIFEST).is_file()]
    if recorded:  # its run.json is there: what it recorded stays, and it goes on
        again = resume_command(runs, recorded[0].name, getattr(args, "device", None),
                               getattr(args, "sandbox", "auto"))
        return (f"`{again}` plays the rest (the attempts "
                "recorded so far stay)")
    left = [f for f in folders if f.is_dir()]
    if not left:
        return "start the run again: nothing of it was recorded"
    named = ", ".join(str(f) for f in left[:NAMED_MAX]) + (" ..." if len(left) > NAMED_MAX
                                                           else "")
    return (f"start the run again: it stopped before its run.json was written, so nothing of "
            f"it was recorded and --resume cannot go on from it; remove what it left ({named})")


def _left_here(runs: Path) -> list[Path]:
    """The run folders a run stopped by the disk may have left: every folder holding a run.lock
    and no run.json that no process is writing (a run.lock the full disk left empty gives its
    lock back, `DeviceLock.acquire`, and so does this process's own run before its error is
    said), none of which a resume could go on from."""
    from phoneshell.runner.folder import LOCK, MANIFEST, writer

    try:
        folders = sorted((f for f in runs.iterdir() if (f / LOCK).is_file()),
                         key=lambda f: f.stat().st_mtime, reverse=True)
    except OSError:
        return []
    # a run starting now holds its lock: not this one's
    return [f for f in folders if writer(f) is None and not (f / MANIFEST).exists()]


__all__ = ["DISK_FULL", "REFUSED", "STORAGE", "disk_full", "unwritable"]
