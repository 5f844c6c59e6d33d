"""Trajectory capture: a screenshot at the start of the agent's turn and after each of its
actions, scaled down and tied to the action's audit seq (`--trajectory`).

Only the agent's actions get a frame (setup, probes and capture are the harness's). A frame is
the bridge's own read, made while it holds the action lock (the recorder calls `after` after the
outcome line, the proxy calls `start` when the phase becomes `agent`), so no action can slip
between the screen and the seq it is tied to; it goes to the phone's WDA directly, never through
the agent's URL, and it is a screenshot, which tells custody nothing (only page sources are
compared). It costs one `GET /screenshot` per action and never fails an action: a screenshot
WDA refuses is asked again for `FRAME_PATIENCE_S` (`phoneshell.patience`: a real phone fails
one now and then), and one that still cannot be taken or kept is a line with its error; the
first of a turn is said on the bridge's log too, as a warning the run prints (red team 105: a
turn's failed screenshots were said nowhere, and the capture's then failed the honest finish;
the capture now asks the home screen for one before it blames anyone: `runner.endstate`).

An agent's turn keeps at most its task's `max_steps` plus `FRAMES_SLACK` frames (`allow`): an
agent tapping an empty spot in a loop made the bridge keep a frame a tap, outside its folder,
until the disk was full (red team 81, 739 frames). Past the bound, its actions are still logged,
their frames are not kept, and one line of the trajectory says so. What a turn's frames and
lines take is charged to it (`phoneshell.behalf`), as what it writes itself is.

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
from bridge.upstream import ForwardError
from phoneshell.behalf import Key, charge
from phoneshell.errors import BridgeError
from phoneshell.frames import DEFAULT_LONG_EDGE, FrameError, scale_png
from phoneshell.patience import patiently
from phoneshell.records import (
    FRAMES_DIR,
    TRAJECTORY_FILE,
    AuditEvent,
    FrameKind,
    RecordError,
    TrajectoryFrame,
    append_whole,
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

FRAMES_SLACK = 25
"""Frames an agent's turn keeps beyond its task's `max_steps`: its start frame, its client's
housekeeping (facebook-wda opens a session before its first step, some clients one a step)."""
FRAME_PATIENCE_S = 1.0
"""How long a screenshot WDA refused is asked again for a frame: the agent's next action waits
for it (the frame is taken under the action lock), so less than the harness's own capture."""
FRAMES_DEFAULT = 50
"""Frames a turn keeps when no budget was given (`allow`): the default budget (25) plus slack."""

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
        self._frames: dict[Key, tuple[int, int]] = {}
        """Attempt -> (frames its turn asked for, frames it may keep)."""
        self._failed: dict[Key, int] = {}
        """Attempt -> the frames of its turn WDA took no screenshot for."""
        self._lock = threading.Lock()

    def allow(self, context: RunContext, max_steps: int) -> None:
        """Let the agent's turn of `context`'s attempt keep `max_steps` + `FRAMES_SLACK` frames
        (call as it is granted the phone)."""
        key = _key(context)
        with self._lock:
            self._frames[key] = (self._frames.get(key, (0, 0))[0], max_steps + FRAMES_SLACK)

    def _counted(self, context: RunContext) -> tuple[int, int]:
        """Count a frame of `context`'s turn: how many it asked for with this one, and may keep."""
        key = _key(context)
        with self._lock:
            asked, may = self._frames.get(key, (0, FRAMES_DEFAULT))
            self._frames[key] = (asked + 1, may)
        return asked + 1, may

    def start(self, read: Read, context: RunContext, last_seq: int) -> None:
        """The screen as the agent's turn begins (call when the phase becomes `agent`, holding
        the action lock).

        Its foreground is left unread: the first action's `app_before` says it.
        """
        if context.scoped and context.phase == "agent":
            with self._lock:  # a turn begins (a retried attempt's too): it has kept no frame
                self._frames[_key(context)] = (0, FRAMES_DEFAULT)
                self._failed[_key(context)] = 0
            self._take(read, context, "start", last_seq, "")

    def after(self, read: Read, context: RunContext, intent: AuditEvent, app_after: str) -> None:
        """The screen after an agent action was answered (the recorder's hook)."""
        if context.scoped and context.phase == "agent":
            self._take(read, context, "action", intent.seq, app_after)

    def _take(self, read: Read, context: RunContext, kind: FrameKind, seq: int,
              foreground: str) -> None:
        taken = time.time()
        name, digest, error, width, height = "", "", "", 0, 0
        asked, may = self._counted(context)
        if asked > may + 1:
            return  # in the audit log alone, as the line at the bound said
        if asked > may:  # no screenshot taken: the line alone
            error = (f"not kept: frames past this turn's {may} (its task's max_steps plus "
                     f"{FRAMES_SLACK}, or {FRAMES_DEFAULT} with no budget) are not kept; this "
                     "action and those after it are in the audit log alone")
        else:
            name, digest, width, height, error = self._shot(read, context, kind, seq)
        frame = TrajectoryFrame(run_id=context.run_id, task_id=context.task_id,
                                attempt=context.attempt, kind=kind, seq=seq, t=taken,
                                foreground=foreground, file=name, sha256=digest, width=width,
                                height=height, error=error)
        try:
            self._append(frame)
        except (OSError, RecordError) as exc:  # the action already happened: only logged
            log.error("trajectory line for #%d not written: %s", seq, exc)

    def _shot(self, read: Read, context: RunContext, kind: FrameKind,
              seq: int) -> tuple[str, str, int, int, str]:
        """Take and keep one frame: its file, sha256, width, height, and why there is none."""
        try:
            value = patiently(lambda: read(SCREENSHOT_ROUTE), FRAME_PATIENCE_S, (BridgeError,),
                              (ForwardError,))
            if not isinstance(value, str):
                raise FrameError(f"WDA's {SCREENSHOT_ROUTE} gave no base64 image")
            scaled = scale_png(base64.b64decode(value), self.long_edge)
            # start frames share the seq of the action before them: a random tail keeps
            # each name unique without a counter shared between processes
            name = (f"{FRAMES_DIR}/{seq:06d}.png" if kind == "action"
                    else f"{FRAMES_DIR}/start-{seq:06d}-{secrets.token_hex(3)}.png")
            self._keep(self.runs_dir / context.run_id, name, scaled.png)
            charge(_key(context), len(scaled.png))  # the turn's doing
            digest = hashlib.sha256(scaled.png).hexdigest()
            width, height = scaled.width, scaled.height
        except (BridgeError, FrameError, binascii.Error, OSError) as exc:
            error = f"no screenshot: {exc}"[:300]
            self._say_failed(context, seq, error)
            return "", "", 0, 0, error
        return name, digest, width, height, ""

    def _say_failed(self, context: RunContext, seq: int, error: str) -> None:
        """Log a frame without a screenshot: the first of a turn as a warning, later ones for
        debugging only (a phone whose screenshots broke would else say so at every action)."""
        key = _key(context)
        with self._lock:
            self._failed[key] = failed = self._failed.get(key, 0) + 1
        if failed == 1:
            log.warning("trajectory: %s attempt %d: the frame after #%d has %s; frames without "
                        "a screenshot are lines with their error in %s", context.task_id,
                        context.attempt, seq, error, TRAJECTORY_FILE)
        else:
            log.debug("trajectory frame after #%d: %s", seq, error)

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
            try:  # whole, or the file as it was (`append_whole`): no torn line of ours
                append_whole(fd, data)
                after = os.lseek(fd, 0, os.SEEK_CUR)  # O_APPEND: just past what was written
            finally:
                os.close(fd)
            # each newline ends a chained line (a torn one a crash left first, if any)
            charge((frame.run_id, frame.task_id, frame.attempt), len(data))
            *complete, rest = (torn + data).split(b"\n")
            for line in complete:
                head, lines = chain_step(head, line), lines + 1
            self._chains[frame.run_id] = (head, lines, after - len(rest), rest)

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


def _key(context: RunContext) -> Key:
    """The attempt a frame of `context` belongs to."""
    return context.run_id, context.task_id, context.attempt
