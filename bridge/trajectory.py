"""Trajectory capture: a screenshot at the start of the agent's turn and after each of its
actions, scaled down and tied to the action's audit seq (`--trajectory`).

Only the agent's actions get a frame (setup, probes and capture are the harness's). A frame is
the bridge's own read, made while it holds the action lock (the recorder calls `after` after the
outcome line, the proxy calls `start` when the phase becomes `agent`), so no action can slip
between the screen and the seq it is tied to; it goes to the phone's WDA directly, never through
the agent's URL, and it is a screenshot, which tells custody nothing (only page sources are
compared). It costs one `GET /screenshot` per action and never fails an action: a screenshot
that cannot be taken or kept is a line with its error.

Frames go to `<runs>/<run_id>/frames/`, lines to `<runs>/<run_id>/trajectory.jsonl`. Each line
holds its frame's sha256, and the writer keeps the hash chain over the lines it wrote, in
memory: the run's seal records that head (`phoneshell.seal`), so a frame or line changed after
the run shows when the run is verified. One `Trajectory` serves every bridge of a run, as one
audit writer does.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import logging
import os
import secrets
import threading
import time
from collections.abc import Callable
from pathlib import Path

from bridge.context import RunContext
from phoneshell.errors import BridgeError
from phoneshell.frames import DEFAULT_LONG_EDGE, FrameError, scale_png
from phoneshell.records import (
    FRAMES_DIR,
    TRAJECTORY_FILE,
    AuditEvent,
    FrameKind,
    RecordError,
    TrajectoryFrame,
    chain_of,
    chain_step,
    read_bytes,
)

log = logging.getLogger("bridge")

SCREENSHOT_ROUTE = "/screenshot"
MAX_TRAJECTORY_BYTES = 1 << 32
"""The largest trajectory.jsonl a writer rereads to continue its chain (4 GiB)."""
OPEN_FLAGS = os.O_WRONLY | os.O_CLOEXEC | os.O_NOFOLLOW
"""A frame or log swapped for a symlink must not send what is written somewhere else."""

Read = Callable[[str], object]
"""The bridge's own read of a WDA route (the recorder's, so it is counted as one)."""


class Trajectory:
    """Writes the frames of agent turns for every run under one runs folder.

    Args:
        runs_dir: the folder holding one folder per run.
        long_edge: frames are scaled so their longer side is at most this many pixels.
    """

    def __init__(self, runs_dir: Path, long_edge: int = DEFAULT_LONG_EDGE) -> None:
        self.runs_dir = runs_dir
        self.long_edge = long_edge
        self._chains: dict[str, tuple[str, int, int, bytes]] = {}
        """Run id -> (chain head, lines, end offset, unfinished last line) of its file."""
        self._lock = threading.Lock()

    def start(self, read: Read, context: RunContext, last_seq: int) -> None:
        """The screen as the agent's turn begins (call when the phase becomes `agent`, holding
        the action lock).

        Its foreground is left unread: the first action's `app_before` says it.
        """
        if context.scoped and context.phase == "agent":
            self._take(read, context, "start", last_seq, "")

    def after(self, read: Read, context: RunContext, intent: AuditEvent, app_after: str) -> None:
        """The screen after an agent action was answered (the recorder's hook)."""
        if context.scoped and context.phase == "agent":
            self._take(read, context, "action", intent.seq, app_after)

    def _take(self, read: Read, context: RunContext, kind: FrameKind, seq: int,
              foreground: str) -> None:
        taken = time.time()
        name, digest, error, width, height = "", "", "", 0, 0
        try:
            value = read(SCREENSHOT_ROUTE)
            if not isinstance(value, str):
                raise FrameError(f"WDA's {SCREENSHOT_ROUTE} gave no base64 image")
            scaled = scale_png(base64.b64decode(value), self.long_edge)
            # start frames share the seq of the action before them: a random tail keeps
            # each name unique without a counter shared between processes
            name = (f"{FRAMES_DIR}/{seq:06d}.png" if kind == "action"
                    else f"{FRAMES_DIR}/start-{seq:06d}-{secrets.token_hex(3)}.png")
            self._keep(self.runs_dir / context.run_id, name, scaled.png)
            digest = hashlib.sha256(scaled.png).hexdigest()
            width, height = scaled.width, scaled.height
        except (BridgeError, FrameError, binascii.Error, OSError) as exc:
            name, error = "", f"no screenshot: {exc}"[:300]
            log.debug("trajectory frame after #%d: %s", seq, error)
        frame = TrajectoryFrame(run_id=context.run_id, task_id=context.task_id,
                                attempt=context.attempt, kind=kind, seq=seq, t=taken,
                                foreground=foreground, file=name, sha256=digest, width=width,
                                height=height, error=error)
        try:
            self._append(frame)
        except (OSError, RecordError) as exc:  # the action already happened: only logged
            log.error("trajectory line for #%d not written: %s", seq, exc)

    @staticmethod
    def _keep(folder: Path, name: str, png: bytes) -> None:
        """Write a frame to a new file (never over one that is there, never through a link)."""
        (folder / FRAMES_DIR).mkdir(parents=True, exist_ok=True)
        fd = os.open(folder / name, OPEN_FLAGS | os.O_CREAT | os.O_EXCL, 0o644)
        try:
            os.write(fd, png)
        finally:
            os.close(fd)

    def _append(self, frame: TrajectoryFrame) -> None:
        """Append a line with one write, and carry the run's chain over it."""
        path = self.runs_dir / frame.run_id / TRAJECTORY_FILE
        text = frame.to_json().encode("utf-8")
        with self._lock:
            head, lines, _, torn = self._state(frame.run_id, path)
            data = (b"\n" if torn else b"") + text + b"\n"
            fd = os.open(path, OPEN_FLAGS | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                written = os.write(fd, data)
                after = os.lseek(fd, 0, os.SEEK_CUR)  # O_APPEND: just past what was written
            finally:
                os.close(fd)
            # what the file gained after its complete lines: each newline ends a chained line
            # (the torn one first, if any); the rest is unfinished, mended by the next write
            *complete, rest = (torn + data[:written]).split(b"\n")
            for line in complete:
                head, lines = chain_step(head, line), lines + 1
            self._chains[frame.run_id] = (head, lines, after - len(rest), rest)
            if written != len(data):
                raise OSError(28, f"only {written} of {len(data)} bytes written")

    def _state(self, run_id: str, path: Path) -> tuple[str, int, int, bytes]:
        """A run's chain; on first use, that of the file as it is (a resumed run's, verified
        against its seal before the run went on). Caller holds the lock."""
        known = self._chains.get(run_id)
        if known is None:
            data = read_bytes(path, MAX_TRAJECTORY_BYTES) if path.is_file() else b""
            head, lines, end = chain_of(data)
            known = self._chains[run_id] = (head, lines, end, data[end:])
        return known

    def chain_state(self, run_id: str) -> tuple[str, int, int]:
        """The chain head, line count and end offset of a run's trajectory.jsonl as this writer
        wrote it (what the run's seal records)."""
        path = self.runs_dir / run_id / TRAJECTORY_FILE
        with self._lock:
            head, lines, end, _ = self._state(run_id, path)
        return head, lines, end
