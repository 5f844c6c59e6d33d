"""`command:CMD`: any program as a judge, so any judging method can be scored.

For each item the program runs under `/bin/sh -c` in its own process group, in the current
folder (as `command:` agents do), and is handed a fresh folder holding a copy of the item
(item.json, frames/) and nothing else: nothing it is given leads to the labels. It gets the item
on stdin as one JSON object:

    {"v": 1, "item": {...item.json...}, "folder": "/tmp/...", "frames": ["/tmp/.../00.png", ...],
     "sampled": [0, 5, ...], "long_edge": 600}

(`sampled`: the frames the baseline judge would show for --frames), and the same folder in
PHONESHELL_JUDGE_ITEM_DIR. It answers on stdout with a JSON object
`{"success": bool, "reasoning": str, ...}` (the last one wins). A program that outlives
--timeout-s is stopped (the whole group) and its item counts as unanswered; so does a non-zero
exit without an answer.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from phoneshell.errors import RunError
from phoneshell.judges.base import JUDGES, Judge, JudgeOptions, Reply, Shown

SHELL = "/bin/sh"
ITEM_DIR = "PHONESHELL_JUDGE_ITEM_DIR"
OUTPUT_KEPT = 100_000
"""Characters of stdout (and of stderr) kept with the answer."""


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    """Stop the program and whatever it left running (it has its own process group)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)


class CommandJudge:
    """Run a shell command line once per item."""

    prompt_sha256 = ""
    base_url = ""

    def __init__(self, command: str, options: JudgeOptions) -> None:
        self.command = command
        self.name = f"command:{command}"
        self.options = options

    def judge(self, shown: Shown) -> Reply:
        """Run the command on a copy of the item; its stdout is the answer."""
        started = time.monotonic()
        with tempfile.TemporaryDirectory(prefix="phoneshell-judge-") as tmp:
            folder = Path(tmp) / "item"
            shutil.copytree(shown.folder, folder)
            frames = [str(folder / f.file) for f in shown.item.frames]
            given = json.dumps({"v": 1, "item": shown.item.to_plain(), "folder": str(folder),
                                "frames": frames, "sampled": shown.sampled,
                                "long_edge": self.options.long_edge})
            try:
                process = subprocess.Popen(
                    [SHELL, "-c", self.command], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE, start_new_session=True,
                    env={**os.environ, ITEM_DIR: str(folder)})
            except OSError as exc:
                return Reply(error=f"cannot start {self.command!r}: {exc}")
            try:
                out, err = process.communicate(given.encode(), timeout=self.options.timeout_s)
                timed_out = False
            except subprocess.TimeoutExpired:
                _kill_group(process)
                out, err = process.communicate()
                timed_out = True
            finally:
                _kill_group(process)  # nothing it started outlives its item
        stdout = out.decode("utf-8", "replace")
        stderr = err.decode("utf-8", "replace")
        raw: dict[str, object] = {"stdout": stdout[-OUTPUT_KEPT:], "stderr": stderr[-OUTPUT_KEPT:],
                                  "exit": process.returncode}
        seconds = time.monotonic() - started
        count = len(frames)  # all of them: the program picks what to look at
        if timed_out:
            return Reply(error=f"no answer within {self.options.timeout_s:g}s; the command was "
                               "stopped", seconds=seconds, raw=raw, frames_shown=count)
        if process.returncode != 0 and not stdout.strip():
            return Reply(error=f"the command exited with status {process.returncode}"
                               + (f": {stderr.strip()[-300:]}" if stderr.strip() else ""),
                         seconds=seconds, raw=raw, frames_shown=count)
        return Reply(text=stdout[-OUTPUT_KEPT:], seconds=seconds, raw=raw, frames_shown=count)


def _command(arg: str, options: JudgeOptions) -> Judge:
    if not arg.strip():
        raise RunError("the command judge needs a command line",
                       hint="--judge 'command:python my_judge.py' (see docs/judges.md)")
    return CommandJudge(arg, options)


JUDGES.register("command")(_command)
