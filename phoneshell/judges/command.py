"""`command:CMD`: any program as a judge, so any judging method can be scored.

A judge's score is only worth what its answer key is kept from it: a red team's judge read
`phoneshell judge JUDGESET`'s command line from /proc, opened `labels.jsonl` and scored 100%.
So a command judge runs as a command agent does (`agents/sandbox.py`, the same `--sandbox`
choice): under bubblewrap by default, in PID, mount, IPC and UTS namespaces of its own, as
`nobody` when the harness is root, with the kernel's keyrings filtered, its processes held to
a `pids` cgroup and first to go when memory runs out. It sees the system, the Python, phoneshell's
package (less its task files, simulator and attack families), the files its command line names
and `PHONESHELL_SANDBOX_SHARE`; writable, only its scratch folder (its HOME) and its own /tmp.
Each item gets a fresh scratch folder holding a copy of the item (item.json, frames/) and
nothing else, and a command agent's PATH (the harness's Python's bin folder first, so `python`
is the one running phoneshell); the judgeset (its labels, the other items), the folders it was
built from (`hide`, once before the first item) and the harness's processes are out of sight,
even where they lie inside what the sandbox shows, and a command line naming a file in them is
refused.
`--sandbox none` (or a machine where no sandbox works, under `auto`) runs it unconfined, as
before: said at the start, recorded in judge.json and score.json, and every report of it says
its scores are not tamper-proof.

It gets the item on stdin as one JSON object:

    {"v": 1, "item": {...item.json...}, "folder": "/tmp/...", "frames": ["/tmp/.../00.png", ...],
     "sampled": [0, 5, ...], "long_edge": 600}

(`sampled`: the frames the baseline judge would show for --frames), and the same folder in
PHONESHELL_JUDGE_ITEM_DIR. It answers on stdout with a JSON object
`{"success": bool, "reasoning": str, ...}` (the last one wins). It runs as an agent's turn does
(`agents/turn.py`): a program that outlives --timeout-s, or writes past its folder's limits, is
stopped (the whole group, and what left it) and its item counts as unanswered; so does a
non-zero exit without an answer. What the harness saw of it besides (processes left running,
one outside its process limit, forks refused) is kept with its exchange (`raw`'s `harness`).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from phoneshell.agents import agent_user, programs, sandbox, sandbox_choice
from phoneshell.agents.command import harness_path
from phoneshell.agents.turn import Turn, run_turn
from phoneshell.errors import RunError
from phoneshell.judges.base import JUDGES, Judge, JudgeOptions, Reply, Shown
from phoneshell.judges.sources import JudgeError
from phoneshell.records import SandboxKind

SHELL = "/bin/sh"
ITEM_DIR = "PHONESHELL_JUDGE_ITEM_DIR"
OUTPUT_KEPT = 100_000
"""Characters of stdout (and of stderr) kept with the answer."""
ITEM = "item"
"""The item's copy inside the judge's scratch folder."""
SCRATCH, STDOUT, STDERR = "judge", "judge.stdout", "judge.stderr"
"""In each item's temporary folder: the judge's scratch folder (its HOME, all it can write) and,
beside it, its output as kept."""


def _readable(folder: Path) -> None:
    """The item's copy readable by the judge, whoever it runs as (`agent_user`), whatever the
    umask it was written under."""
    for top, _folders, files in os.walk(folder):  # links to folders are never walked into
        os.chmod(top, 0o755)
        for name in files:
            os.chmod(os.path.join(top, name), 0o644)


class CommandJudge:
    """Run a shell command line once per item, confined like a command agent."""

    prompt_sha256 = ""
    base_url = ""

    def __init__(self, command: str, options: JudgeOptions) -> None:
        self.command = command
        self.name = f"command:{command}"
        self.options = options
        self.box = sandbox_choice.choose(options.sandbox)  # named but not here: refused
        self.sandbox: SandboxKind = self.box.kind
        self.sandbox_note = self.box.note
        self.cwd = Path.cwd()
        self._can_start = False
        self._hidden = False
        """Whether `hide` ran: no item is judged before what it must not see is hidden."""

    def hide(self, hidden: Sequence[Path]) -> None:
        """Keep `hidden`, and the harness's secrets, from the program for every item: each
        share is looked through once, here.

        Raises:
            RunError: confined, and a share is one of them or lies inside one.
            JudgeError: confined, and the command line names a file among them.
        """
        self.box = self.box.hiding((), hidden)
        self._hidden = True
        named = self.box.named_secret(self.command, self.cwd)
        if named:
            raise JudgeError(f"the judge's command line names {named[0]}, inside the judgeset, "
                             "a folder it was built from or what the harness keeps from every "
                             f"scored program ({named[1]}): a judge never sees the labels, nor "
                             "anything there", hint="keep the judge's program and data outside "
                                                    "the judgeset and the runs")

    def _wrap(self, argv: list[str], scratch: Path) -> list[str]:
        return self.box.wrap(argv, self.command, scratch, self.cwd)

    def _check(self, env: dict[str, str], scratch: Path) -> None:
        """Refuse, once, a command line that cannot start where the judge runs (its programs
        looked for in the sandbox, as for an agent).

        Raises:
            JudgeError: it cannot start.
        """
        if self._can_start:
            return
        box = self.box
        try:
            why = programs.cannot_start(self.command, lambda a: self._wrap(a, scratch),
                                        env, box.confines, SHELL,
                                        box.needs(self.command, self.cwd), agent_user.who())
        except PermissionError as exc:
            why = f"the command could not start: {exc}"
        if why:
            raise JudgeError(why.replace("agent", "judge"),
                             hint="docs/judges.md says what a confined judge sees")
        self._can_start = True

    def judge(self, shown: Shown) -> Reply:
        """Run the command, confined, on a copy of the item; its stdout is the answer."""
        if not self._hidden:
            raise RuntimeError("CommandJudge.judge before hide(): the harness's secrets and "
                               "the judgeset would be in its sight")
        started = time.monotonic()
        with tempfile.TemporaryDirectory(prefix="phoneshell-judge-") as tmp:
            scratch = Path(tmp) / SCRATCH  # all it can write; its output goes beside it
            folder = scratch / ITEM
            shutil.copytree(shown.folder, folder)
            _readable(folder)
            frames = [str(folder / f.file) for f in shown.item.frames]
            given = json.dumps({"v": 1, "item": shown.item.to_plain(), "folder": str(folder),
                                "frames": frames, "sampled": shown.sampled,
                                "long_edge": self.options.long_edge})
            env = {**sandbox.environment(dict(os.environ), scratch, self.box.confines),
                   "PATH": harness_path(), ITEM_DIR: str(folder)}
            self._check(env, scratch)
            try:
                argv = self._wrap([SHELL, "-c", self.command], scratch)
            except PermissionError as exc:
                raise JudgeError(f"the command could not start: {exc}") from exc
            output = (Path(tmp) / STDOUT, Path(tmp) / STDERR)
            try:  # as an agent's turn: its output bounded, its folder watched, all of it stopped
                turn = run_turn(argv, env, self.box, scratch, output, self.options.timeout_s,
                                given.encode())
            except OSError as exc:
                output[1].write_text(f"cannot start {self.command!r}: {exc}")
                turn = Turn(127, timed_out=False, stopped="", said=())
            stdout, stderr = (_text(path) for path in output)
        raw: dict[str, object] = {"stdout": stdout[-OUTPUT_KEPT:], "stderr": stderr[-OUTPUT_KEPT:],
                                  "exit": turn.code}
        if turn.said or turn.notes:  # what the harness saw of it or did besides its answer,
            raw["harness"] = "; ".join((*turn.said, *turn.notes))  # kept with the exchange
        seconds = time.monotonic() - started
        count = len(frames)  # all of them: the program picks what to look at
        if turn.timed_out:
            return Reply(error=f"no answer within {self.options.timeout_s:g}s; the command was "
                               "stopped", seconds=seconds, raw=raw, frames_shown=count)
        if turn.stopped:
            return Reply(error=f"the command was stopped: {turn.stopped}", seconds=seconds,
                         raw=raw, frames_shown=count)
        if turn.code != 0 and not stdout.strip():
            return Reply(error=f"the command exited with status {turn.code}"
                               + (f": {stderr.strip()[-300:]}" if stderr.strip() else ""),
                         seconds=seconds, raw=raw, frames_shown=count)
        return Reply(text=stdout[-OUTPUT_KEPT:], seconds=seconds, raw=raw, frames_shown=count)


def _text(path: Path) -> str:
    """What the judge printed, as kept (`capped_output.OUTPUT_MAX_BYTES` at most, and the note)."""
    try:
        return path.read_bytes().decode("utf-8", "replace")
    except OSError:
        return ""


def _command(arg: str, options: JudgeOptions) -> Judge:
    if not arg.strip():
        raise RunError("the command judge needs a command line",
                       hint="--judge 'command:python my_judge.py' (see docs/judges.md)")
    return CommandJudge(arg, options)


JUDGES.register("command")(_command)
