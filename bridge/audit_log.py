"""Append audit events to `<runs>/<run_id>/audit.jsonl`: one writer per runs folder per process.

Every bridge of a process (one per phone) shares the writer of its runs folder, so one run's
file has one `seq` counter, strictly increasing, continued after the highest seq already in the
file. Each line is one `os.write` on an `O_APPEND` descriptor: after `kill -9` a line is either
wholly in the file or not at all, because the kernel owns the bytes once the call returns. That
is durability against a dying process, not against power loss: that needs `fsync=True` (one
fsync per line). Never forwards anything and never talks HTTP.

A long-lived bridge sees many runs, so descriptors are not kept for the life of the process: at
most `MAX_OPEN_FILES` run files stay open (the least recently written is closed past that), and
a file nothing has written to for `IDLE_CLOSE_S` is closed too (`close_idle`, which a serving
bridge calls as it polls). A closed file is reopened on the next write; its seq continues from
memory, and from the file itself when it changed while closed.

Every line is bounded (`AuditEvent.bounded`: what the phone or a client chose is kept short),
and so is an agent's turn (`shares.py`: `open_share` gives it `AGENT_LOG_BYTES` of the log, and
the line past it is refused, `ShareSpent`, with one line saying so written in its place), so
that no agent can make a log too big to read.

The writer also keeps, in memory, what it wrote: the hash chain over the file's lines (the
run's seal records its head, `phoneshell.records.seal`) and where each of its lines lies. So
`verify` can tell the lines it wrote from lines someone else put in the file (an agent with
the run folder in reach): only its own are ever graded. A file changed while the writer had it
closed is never taken into the chain: the seal then shows the change. One file's bytes (the
open, the single write, the chain, the reading back) are `run_file.py`'s; which lines are
written, under which seq and share, and how many files stay open are this module's.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from pathlib import Path

from bridge.context import RunContext
from bridge.custody import Break
from bridge.run_file import RunFile, Verified, append_line, close_fd, open_fd, read_ours
from bridge.shares import AGENT_LOG_BYTES, Share, Shares, ShareSpent
from bridge.shares import HINT as SHARE_HINT
from phoneshell.errors import BridgeError
from phoneshell.records import (
    AUDIT_VERSION,
    LOG_SHARE,
    ActionKind,
    AuditEvent,
    Scalar,
    Target,
)

AUDIT_FILE = "audit.jsonl"
MAX_OPEN_FILES = 8
"""Run files a writer keeps open at once; past that the least recently written is closed."""
IDLE_CLOSE_S = 60.0
"""A run file nothing has written to for this long is closed (reopened on the next write)."""


class AuditWriteError(BridgeError):
    """The audit log could not be written: the action it was for must not reach the phone."""


class AuditWriter:
    """Writes the audit lines of every run under one runs folder.

    Args:
        runs_dir: the folder holding one folder per run.
        fsync: fsync after every line (survives power loss; costs a disk flush per line).
        max_open_files: run files kept open at once (least recently written closed first).
        idle_close_s: close a run file after this long without a write.
    """

    def __init__(self, runs_dir: Path, fsync: bool = False,
                 max_open_files: int = MAX_OPEN_FILES,
                 idle_close_s: float = IDLE_CLOSE_S) -> None:
        self.runs_dir = runs_dir
        self.fsync = fsync
        self.max_open_files = max(1, max_open_files)
        self.idle_close_s = idle_close_s
        self._files: dict[str, RunFile] = {}
        self._recent: OrderedDict[str, RunFile] = OrderedDict()
        """Runs whose file may be open, least recently written first."""
        self.shares = Shares()
        """What each agent's turn may write (`shares.py`)."""
        self._unwritten: dict[str, tuple[int, OSError | None]] = {}
        """Per run: how many lines could not be written, and why the last could not."""
        self._lock = threading.Lock()

    def path_for(self, run_id: str) -> Path:
        """Where a run's audit log lives."""
        return self.runs_dir / run_id / AUDIT_FILE

    def _run_file(self, run_id: str) -> RunFile:
        with self._lock:
            found = self._files.get(run_id)
            if found is None:
                found = self._files[run_id] = RunFile(run_id, self.path_for(run_id),
                                                       threading.Lock())
            return found

    def open_runs(self) -> tuple[str, ...]:
        """The runs whose file is open right now."""
        with self._lock:
            runs = list(self._files.values())
        return tuple(run.run_id for run in runs if run.fd is not None)

    def _used(self, run: RunFile) -> None:
        """Note a write to `run`, then close what is past the limit or idle. Holds no run lock."""
        now = time.monotonic()
        with self._lock:
            run.used_at = now
            self._recent[run.run_id] = run
            self._recent.move_to_end(run.run_id)
            stale = self._take_stale(now)
        self._close_runs(stale)

    def _take_stale(self, now: float) -> list[RunFile]:
        """Remove from `_recent` the runs past the limit or idle. Caller holds self._lock."""
        stale: list[RunFile] = []
        while self._recent:
            oldest = next(iter(self._recent.values()))
            if (len(self._recent) <= self.max_open_files
                    and now - oldest.used_at < self.idle_close_s):
                break
            del self._recent[oldest.run_id]
            stale.append(oldest)
        return stale

    def _close_runs(self, runs: list[RunFile]) -> None:
        # Each under its own lock, taken while holding no other: a write in progress finishes
        # first, and one that comes after simply reopens the file.
        for run in runs:
            with run.lock:
                close_fd(run)

    def close_idle(self) -> None:
        """Close the files nothing has written to for `idle_close_s`."""
        with self._lock:
            stale = self._take_stale(time.monotonic())
        self._close_runs(stale)

    def _write(self, run: RunFile, line: str) -> None:
        """Append one line with a single write (`run_file.append_line`). Caller holds run.lock.
        """
        try:
            append_line(run, line.encode("utf-8"), self.fsync)
        except OSError as exc:
            # Reopen (and reread) next time: the file may have been fixed or replaced.
            close_fd(run, failed=True)
            self._failed(run, exc)
            raise AuditWriteError(f"cannot write the audit log {run.path}: "
                                  f"{exc.strerror or exc}",
                                  hint="free disk space or fix the permissions of the runs "
                                       "folder; actions are refused until the log can be "
                                       "written") from exc

    def _failed(self, run: RunFile, exc: OSError) -> None:
        """Count a line of `run`'s that could not be written (`unwritten`)."""
        exc.filename = exc.filename or str(run.path)  # a write never names its file
        with self._lock:
            count, _ = self._unwritten.get(run.run_id, (0, None))
            self._unwritten[run.run_id] = (count + 1, exc)

    def unwritten(self, run_id: str) -> tuple[int, OSError | None]:
        """How many of a run's lines this writer could not write so far (each refused its
        action, or lost its outcome or custody line), and the error of the last (None before
        any): the run's folder could not be written, whoever's request the line was for. A
        runner holds the count at an attempt's end against its start's (`runner.unwritten`)."""
        with self._lock:
            return self._unwritten.get(run_id, (0, None))

    def write_intent(self, context: RunContext, kind: ActionKind,
                     params: Mapping[str, Scalar], app_before: str,
                     target: Target | None, screen_before: str = "",
                     field: Target | None = None) -> AuditEvent:
        """Take the run's next seq and append the intent line (`field`: a keyboard tap's
        focused field); return the event written.

        Raises:
            AuditWriteError: the line could not be written whole (the action must not go
                ahead).
        """
        return self._append_new(context, lambda seq: AuditEvent(
            v=AUDIT_VERSION, run_id=context.run_id, task_id=context.task_id,
            attempt=context.attempt, phase=context.phase, seq=seq, t=time.time(), kind=kind,
            stage="intent", params=dict(params), app_before=app_before, target=target,
            screen_before=screen_before, field=field).bounded())

    def write_refusal(self, context: RunContext, kind: ActionKind,
                      params: Mapping[str, Scalar], reason: str, target: Target | None = None,
                      app_before: str = "") -> AuditEvent:
        """Append a `refused` line: a request that was not forwarded, and why (with what it
        was aimed at, when the refusal was for that).

        Raises:
            AuditWriteError: the line could not be written.
        """
        return self._append_new(context, lambda seq: AuditEvent(
            v=AUDIT_VERSION, run_id=context.run_id, task_id=context.task_id,
            attempt=context.attempt, phase=context.phase, seq=seq, t=time.time(), kind=kind,
            stage="refused", params=dict(params), app_before=app_before, target=target,
            ok=False, error=reason).bounded())

    def write_custody(self, context: RunContext, found: Break, via: str) -> AuditEvent:
        """Append a `custody` line: the phone changed with no logged action to explain it.

        Raises:
            AuditWriteError: the line could not be written.
        """
        return self._append_new(context, lambda seq: AuditEvent(
            v=AUDIT_VERSION, run_id=context.run_id, task_id=context.task_id,
            attempt=context.attempt, phase=context.phase, seq=seq, t=time.time(), kind="other",
            stage="custody", params={"via": via}, app_before=found.was_app,
            app_after=found.seen_app, screen_before=found.was_screen,
            screen_after=found.seen_screen, error=found.describe()).bounded())

    def _append_new(self, context: RunContext, make: Callable[[int], AuditEvent],
                    spare: bool = False) -> AuditEvent:
        """Append the line `make` builds with the run's next seq, if the agent's share of the
        log (when the line is its) has room for it.

        Args:
            spare: the line is the harness's own word on a share: never counted in it.

        Raises:
            ShareSpent: it has not; nothing was written but, the first time, the line that says
                so.
        """
        run = self._run_file(context.run_id)
        try:
            with run.lock:
                self._open_for_seq(run)
                event = make(run.next_seq)
                line = event.to_json()
                spent = None if spare else self.shares.admit(context, len(line) + 1)
                if spent is not None:
                    self._write(run, self._spent_line(event, spent, run.next_seq).to_json())
                    run.next_seq += 1
                    raise ShareSpent(spent.describe(), hint=SHARE_HINT)
                self._write(run, line)
                run.next_seq += 1
        finally:
            self._used(run)  # whatever happened, an open descriptor is counted and closed in turn
        return event

    @staticmethod
    def _spent_line(over: AuditEvent, share: Share, seq: int) -> AuditEvent:
        """The line written in place of the first one past an agent's share."""
        return AuditEvent(
            v=AUDIT_VERSION, run_id=over.run_id, task_id=over.task_id, attempt=over.attempt,
            phase=over.phase, seq=seq, t=time.time(), kind="other", stage="refused",
            params={"via": LOG_SHARE, "lines": share.lines, "bytes": share.used},
            app_before=over.app_before, ok=False, error=share.describe())

    def open_share(self, context: RunContext, limit: int = AGENT_LOG_BYTES) -> None:
        """Give the agent's turn of `context`'s attempt `limit` bytes of the log, from now."""
        self.shares.open(context, limit)

    def close_share(self, context: RunContext) -> Share | None:
        """At the end of the agent's turn: when its share ran out, write how many of its lines
        were refused since (one line, `params.dropped`); return the share (None: it had none).

        Raises:
            AuditWriteError: the line could not be written.
        """
        found = self.shares.of(context)
        if found is None or not found.dropped:
            return found
        self._append_new(context, lambda seq: AuditEvent(
            v=AUDIT_VERSION, run_id=context.run_id, task_id=context.task_id,
            attempt=context.attempt, phase="agent", seq=seq, t=time.time(), kind="other",
            stage="refused", params={"via": LOG_SHARE, "dropped": found.dropped}, ok=False,
            error=f"{found.dropped:,} more line(s) of the agent's were refused after its share "
                  "of the audit log was used up, and not logged"), spare=True)
        return found

    def _open_for_seq(self, run: RunFile) -> None:
        """Open the file before taking a seq, so an existing file's seq is continued."""
        try:
            open_fd(run, self.fsync)
        except OSError as exc:
            self._failed(run, exc)
            raise AuditWriteError(f"cannot open the audit log {run.path}: {exc.strerror or exc}",
                              hint="fix the runs folder (--runs) so the bridge can write "
                                   "there") from exc

    def write_outcome(self, intent: AuditEvent, app_after: str, ok: bool,
                      error: str, screen_after: str = "",
                      answered_t: float | None = None) -> AuditEvent:
        """Append the outcome line of an action, under its intent's seq; `answered_t` when WDA
        answered, if that was before now (the read after was put off).

        Raises:
            AuditWriteError: the line could not be written.
        """
        event = AuditEvent(
            v=intent.v, run_id=intent.run_id, task_id=intent.task_id, attempt=intent.attempt,
            phase=intent.phase, seq=intent.seq, t=time.time(), kind=intent.kind,
            stage="outcome", params=intent.params, app_before=intent.app_before,
            app_after=app_after, screen_before=intent.screen_before, screen_after=screen_after,
            ok=ok, error=error, answered_t=answered_t).bounded()
        run = self._run_file(intent.run_id)
        try:
            with run.lock:
                line = event.to_json()
                self._write(run, line)
                if intent.phase == "agent":  # it reached the phone: written, share or not
                    self.shares.count((intent.run_id, intent.task_id, intent.attempt),
                                      len(line) + 1)
        finally:
            self._used(run)
        return event

    def chain_state(self, run_id: str) -> tuple[str, int, int]:
        """The chain head, line count and end offset of a run's log as this writer wrote it
        (what the run's seal records)."""
        run = self._run_file(run_id)
        with run.lock:
            if not run.opened and run.path.exists():
                open_fd(run, self.fsync)
            return run.chain, run.lines, run.end

    def verify(self, run_id: str, start: int) -> Verified:
        """A run's log from byte `start`: the lines this writer wrote, and any it did not.

        Raises:
            AuditWriteError: the log cannot be read back.
        """
        run = self._run_file(run_id)
        try:
            return read_ours(run, start)
        except OSError as exc:
            raise AuditWriteError(f"cannot read back the audit log: {exc}") from exc

    def close(self) -> None:
        """Close every open file (the writer reopens on the next write)."""
        with self._lock:
            runs = list(self._files.values())
            self._recent.clear()
        self._close_runs(runs)


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
