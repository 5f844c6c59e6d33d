"""Append audit events to `<runs>/<run_id>/audit.jsonl`: one writer per runs folder per process.

Every bridge of a process (one per phone) shares the writer of its runs folder, so one run's
file has one `seq` counter, strictly increasing, continued after the highest seq already in the
file. Each line is one `os.write` on an `O_APPEND` descriptor: after `kill -9` a line is either
wholly in the file or not at all, because the kernel owns the bytes once the call returns. That
is durability against a dying process, not against power loss: that needs `fsync=True` (one
fsync per line). Never forwards anything and never talks HTTP.
"""

from __future__ import annotations

import json
import os
import stat
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from bridge.context import RunContext
from phoneshell.audit import AUDIT_VERSION, ActionKind, AuditEvent, Target
from phoneshell.errors import BridgeError
from phoneshell.records import Scalar

AUDIT_FILE = "audit.jsonl"


class AuditWriteError(BridgeError):
    """The audit log could not be written: the action it was for must not reach the phone."""


@dataclass
class _RunFile:
    """One run's open log (mutable; guarded by its own lock)."""

    path: Path
    lock: threading.Lock
    fd: int | None = None
    next_seq: int = 1
    newline_owed: bool = False
    """The file ends mid-line (a torn write): start the next write with a newline."""


def _last_seq(path: Path) -> tuple[int, bool]:
    """The highest seq in an existing regular file, and whether its last line is unfinished."""
    data = path.read_bytes()
    highest = 0
    for line in data.split(b"\n"):
        try:
            seq = json.loads(line).get("seq") if line.strip() else None
        except (ValueError, AttributeError):
            continue  # a torn or foreign line carries no seq we can trust
        if isinstance(seq, int) and not isinstance(seq, bool):
            highest = max(highest, seq)
    return highest, bool(data) and not data.endswith(b"\n")


class AuditWriter:
    """Writes the audit lines of every run under one runs folder.

    Args:
        runs_dir: the folder holding one folder per run.
        fsync: fsync after every line (survives power loss; costs a disk flush per line).
    """

    def __init__(self, runs_dir: Path, fsync: bool = False) -> None:
        self.runs_dir = runs_dir
        self.fsync = fsync
        self._files: dict[str, _RunFile] = {}
        self._lock = threading.Lock()

    def path_for(self, run_id: str) -> Path:
        """Where a run's audit log lives."""
        return self.runs_dir / run_id / AUDIT_FILE

    def _run_file(self, run_id: str) -> _RunFile:
        with self._lock:
            found = self._files.get(run_id)
            if found is None:
                found = self._files[run_id] = _RunFile(self.path_for(run_id), threading.Lock())
            return found

    def _open(self, run: _RunFile) -> int:
        """Open (or reopen) a run's file for appending; continue its seq. Caller holds run.lock."""
        if run.fd is not None:
            return run.fd
        created = not run.path.exists()
        run.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(run.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            if stat.S_ISREG(os.fstat(fd).st_mode) and not created:
                highest, torn = _last_seq(run.path)
                run.next_seq = max(run.next_seq, highest + 1)
                run.newline_owed = run.newline_owed or torn
            if created and self.fsync:  # the new directory entry must survive power loss too
                dir_fd = os.open(run.path.parent, os.O_RDONLY)
                try:
                    os.fsync(dir_fd)
                finally:
                    os.close(dir_fd)
        except OSError:
            os.close(fd)
            raise
        run.fd = fd
        return fd

    def _write(self, run: _RunFile, line: str) -> None:
        """Append one line with a single write. Caller holds run.lock."""
        data = (("\n" if run.newline_owed else "") + line + "\n").encode("utf-8")
        try:
            fd = self._open(run)
            written = os.write(fd, data)
            if written != len(data):  # a full disk can take part of a line: mend it next time
                run.newline_owed = True
                raise OSError(28, f"only {written} of {len(data)} bytes written")
            run.newline_owed = False
            if self.fsync:
                os.fsync(fd)
        except OSError as exc:
            if run.fd is not None:  # reopen next time: the file may have been fixed or replaced
                os.close(run.fd)
                run.fd = None
            raise AuditWriteError(f"cannot write the audit log {run.path}: "
                              f"{exc.strerror or exc}",
                              hint="free disk space or fix the permissions of the runs folder; "
                                   "actions are refused until the log can be written") from exc

    def write_intent(self, context: RunContext, kind: ActionKind,
                     params: Mapping[str, Scalar], app_before: str,
                     target: Target | None) -> AuditEvent:
        """Take the run's next seq and append the intent line; return the event written.

        Raises:
            AuditWriteError: the line could not be written whole (the action must not go
                ahead).
        """
        run = self._run_file(context.run_id)
        with run.lock:
            self._open_for_seq(run)
            event = AuditEvent(
                v=AUDIT_VERSION, run_id=context.run_id, task_id=context.task_id,
                attempt=context.attempt, phase=context.phase, seq=run.next_seq, t=time.time(),
                kind=kind, stage="intent", params=dict(params), app_before=app_before,
                target=target)
            self._write(run, event.to_json())
            run.next_seq += 1
        return event

    def _open_for_seq(self, run: _RunFile) -> None:
        """Open the file before taking a seq, so an existing file's seq is continued."""
        try:
            self._open(run)
        except OSError as exc:
            raise AuditWriteError(f"cannot open the audit log {run.path}: {exc.strerror or exc}",
                              hint="fix the runs folder (--runs) so the bridge can write "
                                   "there") from exc

    def write_outcome(self, intent: AuditEvent, app_after: str, ok: bool,
                      error: str) -> AuditEvent:
        """Append the outcome line of an action, under its intent's seq.

        Raises:
            AuditWriteError: the line could not be written.
        """
        event = AuditEvent(
            v=intent.v, run_id=intent.run_id, task_id=intent.task_id, attempt=intent.attempt,
            phase=intent.phase, seq=intent.seq, t=time.time(), kind=intent.kind,
            stage="outcome", params=intent.params, app_before=intent.app_before,
            app_after=app_after, ok=ok, error=error)
        run = self._run_file(intent.run_id)
        with run.lock:
            self._write(run, event.to_json())
        return event

    def close(self) -> None:
        """Close every open file (the writer reopens on the next write)."""
        with self._lock:
            runs = list(self._files.values())
        for run in runs:
            with run.lock:
                if run.fd is not None:
                    os.close(run.fd)
                    run.fd = None


_SHARED: dict[Path, AuditWriter] = {}
_SHARED_LOCK = threading.Lock()


def shared_writer(runs_dir: Path, fsync: bool = False) -> AuditWriter:
    """The process's writer for a runs folder, created on first use.

    Bridges of one process share it so that a run's seq stays one sequence. Asking for fsync
    turns it on for every bridge sharing the folder: durability is never silently weakened.
    """
    key = runs_dir.resolve()
    with _SHARED_LOCK:
        writer = _SHARED.get(key)
        if writer is None:
            writer = _SHARED[key] = AuditWriter(runs_dir, fsync)
        writer.fsync = writer.fsync or fsync
        return writer
