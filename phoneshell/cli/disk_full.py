"""What the CLI says when storage will not take a command's write (a full disk, a file-size limit,
an I/O error, a read-only mount: `errors.STORAGE`): the error, naming the file and the system's
word, and a hint that holds for what the command left behind. A run stopped before its run.json
was written recorded nothing, and `--resume` would refuse it ("run.json is missing"): it starts
again, and the folder it left (only its run.lock) is named to be removed. Never writes anything.
"""

from __future__ import annotations

import argparse
import ast
import io
import sys
import tempfile
from pathlib import Path, PurePath

from phoneshell.errors import DISK_FULL, REFUSED, STORAGE, PhoneshellError, mend

NAMED_MAX = 3
"""How many left-behind run folders a hint names."""


def unwritable(exc: OSError, args: argparse.Namespace) -> PhoneshellError:
    """The error for `exc` (one of `STORAGE`) met by the command `args` asked for: whatever it
    was writing (a run's folder, a report's page, an attack's record), named with the system's
    word, and the way on from what it left (every record is appended or replaced whole)."""
    exc.filename = exc.filename or written(exc)
    if exc.errno in DISK_FULL:
        return disk_full(exc, args)
    where = exc.filename or _runs(args) or "a file"
    return PhoneshellError(f"{where} could not be written: {exc.strerror}",
                           hint=f"{mend(exc)}, then "
                                + (_after_run(args) if _runs(args) is not None
                                   else "run the command again"))


def no_temp_folder(exc: OSError, args: argparse.Namespace) -> PhoneshellError | None:
    """The error for `tempfile` finding no temporary folder that takes a write (None when `exc`
    is not that): its probe write's own error (a full disk, a file-size limit, a read-only
    mount, a folder not this user's) is swallowed and said as ENOENT, "No usable temporary
    directory found in [...]", which names no file and is no missing file at all."""
    module = sys.modules.get("tempfile")
    if module is None or not isinstance(exc, FileNotFoundError) or exc.filename is not None:
        return None
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is None or tb.tb_frame.f_code.co_filename != module.__file__:
        return None
    try:
        tried = [str(f) for f in ast.literal_eval(str(exc.strerror).partition(" found in ")[2])]
    except (SyntaxError, ValueError, TypeError):
        tried = []
    return _temp_refused(tried, args)


def _temp_refused(tried: list[str], args: argparse.Namespace) -> PhoneshellError:
    """The error for temporary folders `tried` that take no write (`no_temp_folder`)."""
    runs = _runs(args)
    return PhoneshellError(
        f"no temporary folder takes writes ({', '.join(tried) or 'TMPDIR, /tmp, /var/tmp'}): "
        "each is full, over a file-size limit, read-only or not this user's to write",
        hint=f"free some space in {tried[0] if tried else '/tmp'} (or raise `ulimit -f`), or "
             "set TMPDIR to a folder that takes writes, then "
             + (_after_run(args) if runs is not None else "run the command again"))


TEMP_PROBE_BYTES = 1 << 10
"""What `check_temp_folder` writes: more than `tempfile`'s own 4-byte probe, so a folder a
few bytes short of full is found too."""


def check_temp_folder(args: argparse.Namespace) -> None:
    """Refuse, before any phone, a command whose temporary folder takes no write: the folder
    `tempfile` picks, written `TEMP_PROBE_BYTES` and removed. Its first use may come inside an
    attempt (a sandbox's check, a program's scratch), where a refusal would be the attempt's.

    Raises:
        PhoneshellError: no temporary folder takes a write (`no_temp_folder`'s words).
    """
    folder = ""
    try:
        folder = tempfile.gettempdir()
        with tempfile.TemporaryFile(dir=folder) as probe:
            probe.write(bytes(TEMP_PROBE_BYTES))
            probe.flush()
    except OSError as exc:
        raise (no_temp_folder(exc, args) or _temp_refused([folder] if folder else [], args)
               ) from exc


def output_refused(exc: OSError, stream: str, target: str) -> PhoneshellError:
    """The error for the command's own output (`stream`: stdout or stderr, sent to `target`)
    refusing a write: nothing the command recorded was in it, so what it recorded is whole;
    only lines it printed were lost from there on."""
    where = f"{stream}, sent to {target}" if target else stream
    return PhoneshellError(
        f"the command's output ({where}) could not be written: {exc.strerror or exc}; what "
        "the command recorded is whole, only the lines it printed from there on were lost",
        hint=f"{mend(exc)}, or send the output where it can be written; a run's results are "
             "in its folder (`phoneshell report RUNS/RUN_ID` shows them)")


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
            name = getattr(value, "name", None) if isinstance(value, io.IOBase) else None
            if isinstance(name, str) and not name.startswith("<") and _writing(value):
                return name
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
    from phoneshell.records.layout import MANIFEST
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
    from phoneshell.records.layout import LOCK, MANIFEST
    from phoneshell.runner.folder import writer

    try:
        folders = sorted((f for f in runs.iterdir() if (f / LOCK).is_file()),
                         key=lambda f: f.stat().st_mtime, reverse=True)
    except OSError:
        return []
    # a run starting now holds its lock: not this one's
    return [f for f in folders if writer(f) is None and not (f / MANIFEST).exists()]


__all__ = ["DISK_FULL", "REFUSED", "STORAGE", "check_temp_folder", "disk_full", "no_temp_folder",
           "output_refused", "unwritable"]
