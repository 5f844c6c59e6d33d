"""The trajectory file (`trajectory.jsonl` in a run folder): one line per screenshot the bridge
took during the agent's turn, tied to the audit seq of the action it followed.

Written by the bridge when trajectory capture is on (`--trajectory`), read by
`phoneshell judgeset`. Frames are PNG files beside it (`frames/`), scaled down to a long edge;
each line holds its frame's sha256, and a run's seal holds the hash chain over the lines, so
frames are sealed with them (`phoneshell.seal`).
"""

from __future__ import annotations

from typing import ClassVar, Literal

from phoneshell.records.base import Record

TRAJECTORY_VERSION = 1
TRAJECTORY_FILE = "trajectory.jsonl"
"""The file, in the run folder."""
FRAMES_DIR = "frames"
"""The folder of the frames, in the run folder."""

FrameKind = Literal["start", "action"]
"""`start`: the screen when the agent's turn began, before its first action; `action`: the
screen just after the action with this `seq` was answered."""


class TrajectoryFrame(Record):
    """One line of trajectory.jsonl: a screenshot of the agent's turn."""

    VERSION: ClassVar[int] = TRAJECTORY_VERSION
    VERSION_KEY: ClassVar[str] = "v"
    v: int = TRAJECTORY_VERSION
    """Format version (1)."""
    run_id: str
    """The run (its folder holds this file)."""
    task_id: str
    """The task of the attempt."""
    attempt: int
    """The attempt number."""
    kind: FrameKind
    """`start` (before the agent's first action) or `action` (after the action `seq`)."""
    seq: int
    """The audit seq of the action the frame follows; for `start`, the last seq the bridge had
    logged before the agent's turn (0 when none)."""
    t: float
    """Unix time the screenshot was taken."""
    foreground: str = ""
    """The app in front when it was taken ("" when WDA could not say)."""
    file: str = ""
    """The PNG, relative to the run folder (`frames/...`); "" when the screenshot failed."""
    sha256: str = ""
    """The sha256 of the PNG as the bridge wrote it ("" when there is no file)."""
    width: int = 0
    """Its width in pixels (0 when there is no file)."""
    height: int = 0
    """Its height in pixels."""
    error: str = ""
    """Why there is no file ("" when there is)."""
