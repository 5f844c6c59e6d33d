"""A run folder that cannot be written is the rig's fault, whatever the system said: a full disk
(ENOSPC, EDQUOT), a file-size limit (EFBIG: `ulimit -f`, a CI's RLIMIT_FSIZE), a read-only
remount (EROFS), an I/O error (EIO), a folder this user may no longer write (EACCES, EPERM).
The attempt in flight is not scored, with the system's word ("the run folder could not be
written: File too large"), and the run stops as for a locked phone (rows kept, the way on said):
every later attempt would meet the same folder. The bridge refusing an action because the audit
log could not be written is the same fault, whoever's action it was (`AuditWriter.unwritten`).

One exception keeps the full disk's older rule: a disk filled while an agent that can write to
it (a program's) had its turn may be its doing, and its bounds (`agents.bounds`) judge it as
before; a refusal there is its failure. Reads only; never writes anything.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from bridge.audit_log import AuditWriter
from phoneshell.errors import DISK_FULL, REFUSED, STORAGE, mend
from phoneshell.records import RecordError, read_bytes
from phoneshell.records.layout import ATTEMPTS, RESULTS, SCRATCH

REASON = "the run folder could not be written"
KEPT = ("every row written before it is kept, and --resume plays again what was not recorded "
        "(an attempt written after the last seal is set aside, not lost)")
"""What a run stopped by its folder outside an attempt kept, said after `said`'s reason, when
results.jsonl still holds every row the harness wrote (`kept`)."""
RESULTS_BYTES = 1 << 32
"""The most of results.jsonl read back to tell it whole (`kept.MAX_BYTES`'s bound)."""


def unwritten_error(exc: BaseException, run_dir: Path) -> OSError | None:
    """The OSError of writing the run folder in `exc` or what it was raised from (None when it
    is not one): one of `STORAGE`, or a refusal (`REFUSED`) naming a file in `run_dir` that is
    not in an agent's own folder (`agent/`: the agent can take its own files' permissions away,
    `chmod 0` before it exits, and a refusal there is its doing, never the rig's: red team 128)."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, OSError) and (seen.errno in STORAGE or (
                seen.errno in REFUSED and seen.filename is not None
                and _harness_file(Path(str(seen.filename)), run_dir))):
            return seen
        seen = seen.__cause__ or seen.__context__
    return None


def folder_error(exc: BaseException, run_dir: Path) -> OSError | None:
    """The OSError of writing the run folder outside any attempt in `exc` (None when it is not
    one): `unwritten_error`'s, or any naming a file the harness keeps there, whatever the
    system said (results.jsonl made a folder, `EISDIR`; a link in its place, `ELOOP`): only
    the harness writes those, so it is the folder that failed, never the harness's code."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, OSError) and seen.filename is not None \
                and _harness_file(Path(str(seen.filename)), run_dir):
            return seen
        seen = seen.__cause__ or seen.__context__
    return unwritten_error(exc, run_dir)


def _harness_file(path: Path, run_dir: Path) -> bool:
    """Whether `path` is in `run_dir` and not in an attempt's agent folder
    (`attempts/TASK/N/agent/...`), which its agent could write."""
    path, run_dir = path.absolute(), run_dir.absolute()
    if not path.is_relative_to(run_dir):
        return False
    parts = path.relative_to(run_dir).parts
    return not (len(parts) >= 4 and parts[0] == ATTEMPTS and parts[3] == SCRATCH)


def said(error: OSError | None) -> str:
    """The reason an attempt is not scored for `error` ("File too large", and the file when it
    is named)."""
    word = (error.strerror or str(error)) if error is not None else "an unknown error"
    where = f" ({error.filename})" if error is not None and error.filename else ""
    return f"{REASON}: {word}{where}"


def kept(run_dir: Path, written: bytes) -> str:
    """What a run stopped by its folder kept, said after `said`'s reason: `KEPT` only when
    results.jsonl holds exactly the rows the harness wrote (`written`, `Sealer.kept`); else
    what is wrong with it. An unconfined agent can delete or replace it in its turn, and the
    refused write may be its doing (a folder put in its place)."""
    path = run_dir / RESULTS
    try:
        found = read_bytes(path, RESULTS_BYTES) if path.exists() or path.is_symlink() \
            else None
    except RecordError as exc:
        return _not_kept(path, f"it cannot be read back: {exc}")
    if found is None:
        return _not_kept(path, "it is gone" if written else "it was never written")
    if found == written:
        return KEPT
    if found.startswith(written):  # a refused write's tail the file would not give back
        return f"{KEPT}; {path} holds bytes after them that are no row phoneshell wrote"
    return _not_kept(path, "it is not what phoneshell wrote there")


def _not_kept(path: Path, what: str) -> str:
    return (f"but {path} no longer holds the rows written before it ({what}: something other "
            "than phoneshell changed it, as an agent run with --sandbox none can), so "
            "--resume cannot go on from this folder: `phoneshell report` says what of the run "
            "still holds; run again in a folder only phoneshell writes")


def said_error(why: str) -> OSError | None:
    """The error of the run folder a reason in `said`'s words names ("the run folder could not
    be written: File too large (...)"), for its hint; None when `why` says no such error, or
    one no errno of `STORAGE` or `REFUSED` words."""
    _, found, rest = why.partition(f"{REASON}: ")
    if not found:
        return None
    for code in (*STORAGE, *REFUSED):
        if rest.startswith(os.strerror(code)):
            return OSError(code, os.strerror(code))
    return None


def mended(error: OSError | None) -> str:
    """The hint's first words for the run folder's `error`: what mends its storage
    (`errors.mend`), or a folder this user can write; never the phone's (`doctor`)."""
    if error is not None and error.errno in STORAGE:
        return f"{mend(error)} (the run folder cannot be written: no phone was at fault)"
    return "give --runs a folder this user can write (no phone was at fault)"


@dataclass
class LogWatch:
    """The audit log's lines that could not be written (`AuditWriter.unwritten`), counted at an
    attempt's start and around its agent's turn."""

    writer: AuditWriter
    run_id: str
    disk_user: bool
    """The agent can fill the disk itself (a program): a full disk met only in its turn is
    left to its bounds, as before."""
    start: int = 0
    turn: list[int] = field(default_factory=list)
    """The count when the agent's turn began and, once it ended, when it ended."""

    def __post_init__(self) -> None:
        self.start = self.writer.unwritten(self.run_id)[0]

    def mark_turn(self) -> None:
        """Note the count as the agent's turn begins, then as it ends."""
        self.turn.append(self.writer.unwritten(self.run_id)[0])

    def failed(self, exc: BaseException | None, run_dir: Path) -> str:
        """Why the attempt is not scored ("" when the folder was written whole): `exc` (what
        ended it, if anything) is an OSError writing `run_dir`, or lines of the log could not
        be written since the attempt began."""
        found = rigs_error(exc, run_dir, self.disk_user, len(self.turn) == 1) if exc else None
        if found is not None:
            return said(found)
        now, last = self.writer.unwritten(self.run_id)
        if now == self.start:
            return ""
        began, ended = (*self.turn, now, now)[:2]
        if last is not None and _agents(last, self.disk_user, now - self.start == ended - began):
            return ""
        return said(last)


def rigs_error(exc: BaseException, run_dir: Path, disk_user: bool,
               in_turn: bool) -> OSError | None:
    """The error writing `run_dir` in `exc` when it is the rig's (`unwritten_error`): always,
    but for a full disk met in the turn (`in_turn`) of an agent that could fill it
    (`disk_user`), which its bounds judge."""
    found = unwritten_error(exc, run_dir)
    return None if found is None or _agents(found, disk_user, in_turn) else found


def _agents(error: OSError, disk_user: bool, in_turn: bool) -> bool:
    """Whether `error` is left to the agent's bounds: a full disk met in the turn of an agent
    that could fill it."""
    return in_turn and disk_user and error.errno in DISK_FULL


__all__ = ["KEPT", "REASON", "LogWatch", "folder_error", "kept", "mended", "rigs_error", "said",
           "said_error", "unwritten_error"]
