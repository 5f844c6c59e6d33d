"""Trajectory capture: a screenshot at the start of the agent's turn and after each of its
actions, scaled down and tied to the action's audit seq (`--trajectory`).

Only the agent's actions get a frame (setup, probes and capture are the harness's). The frame is
taken inside the recorder's turn, after the outcome line, so it shows the phone as this action
left it and before the next one. It costs one `GET /screenshot` per action (the foreground is the
outcome's own read), and never fails an action: a screenshot that cannot be taken is a line with
its error. Frames go to `<runs>/<run_id>/frames/`, lines to `<runs>/<run_id>/trajectory.jsonl`.
"""

from __future__ import annotations

import base64
import binascii
import logging
import secrets
import threading
import time
from pathlib import Path

from bridge.context import RunContext
from bridge.upstream import Upstream
from phoneshell.errors import BridgeError
from phoneshell.frames import DEFAULT_LONG_EDGE, FrameError, scale_png
from phoneshell.records import AuditEvent, FrameKind, TrajectoryFrame, append_line

log = logging.getLogger("bridge")

TRAJECTORY_FILE = "trajectory.jsonl"
FRAMES_DIR = "frames"
SCREENSHOT_ROUTE = "/screenshot"


class Trajectory:
    """Writes the frames of agent turns for every run under one runs folder.

    Args:
        upstream: the phone's WDA, to take screenshots from.
        runs_dir: the folder holding one folder per run.
        long_edge: frames are scaled so their longer side is at most this many pixels.
    """

    def __init__(self, upstream: Upstream, runs_dir: Path,
                 long_edge: int = DEFAULT_LONG_EDGE) -> None:
        self.upstream = upstream
        self.runs_dir = runs_dir
        self.long_edge = long_edge
        self.frames_taken = 0
        self._lock = threading.Lock()

    def start(self, context: RunContext, last_seq: int) -> None:
        """The screen as the agent's turn begins (call when the phase becomes `agent`).

        Its foreground is left unread: the first action's `app_before` says it, and a read here
        would move the recorder's last known foreground, which capture compares against.
        """
        if context.scoped and context.phase == "agent":
            self._take(context, "start", last_seq, "")

    def after(self, context: RunContext, intent: AuditEvent, app_after: str) -> None:
        """The screen after an agent action was answered (the recorder's hook)."""
        if context.scoped and context.phase == "agent":
            self._take(context, "action", intent.seq, app_after)

    def _take(self, context: RunContext, kind: FrameKind, seq: int, foreground: str) -> None:
        taken = time.time()
        name, error, width, height = "", "", 0, 0
        try:
            value = self.upstream.read(SCREENSHOT_ROUTE)
            if not isinstance(value, str):
                raise FrameError(f"WDA's {SCREENSHOT_ROUTE} gave no base64 image")
            scaled = scale_png(base64.b64decode(value), self.long_edge)
            # start frames share the seq of the action before them: a random tail keeps
            # each name unique without a counter shared between processes
            name = (f"{FRAMES_DIR}/{seq:06d}.png" if kind == "action"
                    else f"{FRAMES_DIR}/start-{seq:06d}-{secrets.token_hex(3)}.png")
            folder = self.runs_dir / context.run_id
            (folder / FRAMES_DIR).mkdir(parents=True, exist_ok=True)
            (folder / name).write_bytes(scaled.png)
            width, height = scaled.width, scaled.height
        except (BridgeError, FrameError, binascii.Error, OSError) as exc:
            name, error = "", f"no screenshot: {exc}"[:300]
            log.debug("trajectory frame after #%d: %s", seq, error)
        frame = TrajectoryFrame(run_id=context.run_id, task_id=context.task_id,
                                attempt=context.attempt, kind=kind, seq=seq, t=taken,
                                foreground=foreground, file=name, width=width, height=height,
                                error=error)
        try:
            with self._lock:
                append_line(self.runs_dir / context.run_id / TRAJECTORY_FILE, frame, fsync=False)
                self.frames_taken += 1
        except OSError as exc:  # the action already happened: a lost frame is only logged
            log.error("trajectory line for #%d not written: %s", seq, exc)
