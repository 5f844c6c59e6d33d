"""What a resume sets aside before a run goes on: what the run wrote after its last seal (a run
killed mid-way: the end of a log, the folder of an attempt with no row), moved to `incomplete/`,
never graded, and recorded in run.json in the same step as the move (`set_aside`).

Every check that can refuse the resume comes before anything is moved: a run.json without a
seal over a folder that records something (`seal.recorded_unsealed`), a signature that does not
hold, a seal that is not the latest this machine made of the run (`seal.refuse_stale`: a folder
rolled back, or a copy sealed on apart; made once by the resume, which hands its proof on). The
move and its record are one step, with stop signals
held (`stop.recording`): a resume refused or stopped after it never loses what it moved. Nothing
here follows a link: a log, the `incomplete/` folder or an attempt folder replaced with one is
refused, never written through. Names read from the folder are shown `named` (a task folder
named with a newline draws no line of its own).
"""

from __future__ import annotations

import contextlib
import os
import stat
import time
from collections.abc import Callable
from pathlib import Path

from phoneshell.errors import RunError
from phoneshell.records import RecordError, RunManifest, chain_of
from phoneshell.records.layout import ATTEMPTS, INCOMPLETE, MANIFEST, RESULTS
from phoneshell.runner import stop
from phoneshell.runner.folder import read_results
from phoneshell.seal import (
    MAX_SEALED_BYTES,
    Fresh,
    recorded_unsealed,
    refuse_stale,
    reseal,
    signed_by,
    verify_run,
)
from phoneshell.untrusted import named

Progress = Callable[[str], None]

__all__ = ["set_aside"]


def set_aside(run_dir: Path, recorded: RunManifest, key: bytes, progress: Progress,
              checked: Fresh | None = None) -> Fresh:
    """Move aside what the run wrote after its last seal, record it in run.json (sealed anew:
    its signature was checked just before) in the same step, say so, and return run.json as it
    now is, with the proof that it is the run's latest seal; then refuse a run whose sealed
    record does not hold. `checked`: the proof the resume took of `recorded` at its start
    (`refuse_stale`), which is not checked again.

    Raises:
        RunError: run.json has no seal yet the folder records something; its signature does
            not hold; its seal is not the run's latest; or the run does not match its seal
            (nothing is moved before the first three are checked).
    """
    if recorded.seal is None:
        found = recorded_unsealed(run_dir)
        if found:
            raise RunError(f"run {recorded.run_id} has no seal in {named(run_dir / MANIFEST)}, "
                           f"but its folder records something ({'; '.join(found)}): nothing "
                           "vouches for it, so it cannot be continued (a resume would seal it)",
                           hint="start a new run; `phoneshell report` refuses this one too")
        # emptied back to before the run's first seal, or another run's folder
        return refuse_stale(run_dir, recorded, key, checked)
    if not signed_by(recorded, key):
        raise RunError(f"run {recorded.run_id} does not match its seal, so it cannot be "
                       f"continued: {'; '.join(verify_run(run_dir)[:3])}",
                       hint="start a new run; `phoneshell report` says what changed")
    fresh: Fresh | None = refuse_stale(run_dir, recorded, key, checked)
    into = run_dir / INCOMPLETE
    with stop.recording():  # the moves and their record are one step
        aside = [*_unsealed_tails(run_dir, recorded, into),
                 *(f"attempt {moved}" for moved in _incomplete_attempts(run_dir, into))]
        if aside:
            recorded, fresh = reseal(run_dir, recorded.model_copy(update={
                "set_aside": (*recorded.set_aside, *aside)}), key, progress)
    if aside:
        progress(f"the run stopped before it sealed what it wrote last; set aside in "
                 f"{INCOMPLETE}/, never graded: {'; '.join(aside)} (its attempts are "
                 "played again)")
    if fresh is None:  # the new seal was not recorded as the run's latest (a fork found)
        fresh = refuse_stale(run_dir, recorded, key)
    problems = verify_run(run_dir, checked=fresh)
    if problems:
        raise RunError(f"run {recorded.run_id} does not match its seal, so it cannot be "
                       "continued: " + "; ".join(problems[:3]),
                       hint="start a new run; `phoneshell report` says what changed")
    return fresh


def _own_folder(path: Path) -> Path:
    """`path`, a folder made here if missing, never a link (what is moved there would land
    wherever it points).

    Raises:
        RunError: it is a link or not a folder.
    """
    with contextlib.suppress(FileExistsError):  # a link to a folder
        path.mkdir(exist_ok=True)
    info = os.lstat(path)
    if not stat.S_ISDIR(info.st_mode):
        raise RunError(f"{named(path)} is a link or not a folder: nothing is moved into it",
                       hint="remove it; a run folder's incomplete/ is phoneshell's own")
    return path


def _unsealed_tails(run_dir: Path, manifest: RunManifest, into: Path) -> list[str]:
    """Cut each log back to what the seal holds, moving what followed into `into`. A log whose
    sealed part does not hold is left as it is (verification refuses the run then)."""
    assert manifest.seal is not None
    moved: list[str] = []
    for log in manifest.seal.logs:
        path = run_dir / log.path
        try:
            fd = os.open(path, os.O_RDWR | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
        except FileNotFoundError:
            continue
        except OSError as exc:  # a link (ELOOP), a folder...: never written through
            raise RunError(f"{named(path)}: cannot open it ({exc.strerror or exc}; a log is a "
                           "regular file, never a link)", hint="start a new run") from exc
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_SEALED_BYTES:
                raise RunError(f"{named(path)} is not a regular file of a sealed size",
                               hint="start a new run")
            with os.fdopen(os.dup(fd), "rb") as handle:
                data = handle.read()
            if len(data) <= log.bytes or chain_of(data[:log.bytes]) != (
                    log.chain, log.lines, log.bytes):
                continue
            tail = _own_folder(into) / f"{log.path}.{int(time.time())}.tail"
            out = os.open(tail, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
                          | os.O_CLOEXEC, 0o644)
            try:
                os.write(out, data[log.bytes:])
            finally:
                os.close(out)
            os.ftruncate(fd, log.bytes)
            os.fsync(fd)
        finally:
            os.close(fd)
        lines = data[log.bytes:].count(b"\n")
        moved.append(f"{log.path}: {lines} line(s) after the last seal")
    return moved


def _incomplete_attempts(run_dir: Path, into: Path) -> list[str]:
    """Move the folder of every attempt that has no results row into `into`, and name each: a
    run stopped in the middle of an attempt left its evidence half written and never sealed;
    the attempt is played again, in a fresh folder. Nothing there was graded.

    Raises:
        RunError: results.jsonl cannot be read.
    """
    try:
        rows = read_results(run_dir / RESULTS)
    except RecordError as exc:
        raise RunError(str(exc), hint="results.jsonl is damaged; start a new run") from exc
    recorded = {(r.task_id, str(r.attempt)) for r in rows}
    attempts = run_dir / ATTEMPTS
    moved: list[str] = []
    folders = sorted(attempts.glob("*/*")) if attempts.is_dir() else []
    for folder in folders:
        # a number: an attempt's own folder (a skipped try's, moved aside before it ran
        # again, is named "2.skipped-1" and stays where its seal has it)
        if folder.is_symlink() or not folder.is_dir() or not folder.name.isdigit() or \
                (folder.parent.name, folder.name) in recorded:
            continue
        target = _own_folder(into) / f"{folder.parent.name}-{folder.name}-{int(time.time())}"
        folder.rename(target)
        moved.append(named(f"{folder.parent.name}/{folder.name}"))
    return moved
