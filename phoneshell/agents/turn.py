"""One turn of a scored program (a `command:` agent, a `command:` judge): how it is started,
watched and stopped, in one place, so whatever runs such a program gets every guarantee at once.
Never reads what the program answered: its callers do.

* It starts in a process group of its own, in a `pids` cgroup of its own (`pids.py`, watched for
  a process that leaves it), first to go when memory runs out (`first_to_go`).
* Its stdout and stderr are kept to their start and end (`capped_output.CappedOutput`); its
  folder is watched while it runs and looked at once more after (`bounds.DiskWatch`): over its
  limits, it is stopped and what it wrote into its scratch folder is deleted.
* At its deadline, when its folder is over its limits, or when its caller cuts it off, it is
  stopped; whatever the end, so is everything it started: its process group (SIGTERM, then
  SIGKILL), what left the group (`strays.py`) and what is left in its cgroup. A process leaving
  with turns in flight stops them at exit (`stop_running`).
* What the harness saw of it besides its answer (processes left behind, a process outside its
  cgroup, forks refused) comes back as lines to say (`Turn.said`); what the harness did to its
  folder after it (`give_back`) as notes, never its error (`Turn.notes`).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from phoneshell.agents import bounds, capped_output, kept_data, pidns, pids, strays
from phoneshell.agents.base import ended_early
from phoneshell.agents.sandbox import Sandbox

SHELL = "/bin/sh"
GRACE_S = 2.0
"""How long a stopped program has to exit after SIGTERM before SIGKILL."""
OOM_SCORE_ADJ = "/proc/self/oom_score_adj"
"""Where Linux takes how readily the kernel's out-of-memory killer picks a process (-1000 to
1000), inherited by what the process starts; raising it needs no privilege, lowering it does."""

_RUNNING: set[int] = set()
"""The process groups of the programs running now, for `stop_running` (any thread's)."""
_RUNNING_LOCK = threading.Lock()
"""Held while a program is started and registered, and while a turn's sweep reads `_RUNNING`
and stops what it found (`strays.stop_strays`): a sweep never sees a program between the two."""


def stop_running() -> None:
    """SIGKILL every program's process group still running: the process is leaving with
    turns in flight (a second Ctrl-C), and an unconfined program left behind would go on
    acting on the phone. Registered to run at exit."""
    with _RUNNING_LOCK:
        groups = list(_RUNNING)
    for pgid in groups:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, signal.SIGKILL)
    if strays.adopting():
        strays.stop_strays()  # and whatever left their groups


atexit.register(stop_running)


def first_to_go(argv: list[str]) -> list[str]:
    """`argv` run with the out-of-memory killer's score at its highest (1000): a program that
    takes the machine's memory is what the kernel stops first, never the harness (which would
    leave the attempt, and every later one, not scored). Set before the sandbox starts, so its
    programs start with it and, every capability dropped, cannot lower it. Where Linux has no
    such file (macOS), the command runs as given."""
    if not Path(OOM_SCORE_ADJ).exists():
        return argv
    return [SHELL, "-c", f'echo 1000 > {OOM_SCORE_ADJ} 2>/dev/null; exec "$@"', SHELL, *argv]


@dataclass(frozen=True)
class Turn:
    """How a program's turn ended, as the harness saw it."""

    code: int
    """Its exit status (negative: the signal that killed it)."""
    timed_out: bool
    """It ran out of time and was stopped."""
    stopped: str
    """Why it was stopped for what it wrote, or because its caller cut it off ("" when it was
    not); what it wrote into its scratch folder is deleted then (said here)."""
    said: tuple[str, ...]
    """What else the harness saw of it, to be said beside its answer."""
    notes: tuple[str, ...] = ()
    """What the harness did to its folder after its turn (links removed, what it had locked
    opened: `give_back`): said as the harness's notes, never as its error (an honest agent's
    venv has a link to an absolute path too)."""


def run_turn(argv: list[str], env: Mapping[str, str], box: Sandbox, scratch: Path,
             output: tuple[Path, Path], timeout_s: float, given: bytes | None = None,
             cut_off: Callable[[], str] = lambda: "",
             started: Callable[[], None] = lambda: None,
             stdout_seen: Callable[[bytes], None] = lambda chunk: None) -> Turn:
    """Run `argv` (already wrapped in its sandbox) to its end or its deadline.

    Args:
        box: the sandbox it runs in (its scratch folder is taken back from it after).
        scratch: its writable folder, inside the folder holding `output`, which is watched.
        output: where its stdout and stderr are kept.
        given: what it reads on stdin (nothing: /dev/null).
        cut_off: why its turn must end now ("" while it need not), asked as its folder is.
        started: called once it has started.
        stdout_seen: given its whole stdout as it is read, before the kept copy leaves any out
            (`capped_output.CappedOutput`): its caller follows what it answers there.

    Raises:
        OSError: it could not be started.
    """
    # what it keeps stays counted as its own writes once it is gone (`DiskWatch.close`)
    # confined by bubblewrap, it can write nowhere else on the disk: loss its own writes do not
    # explain is the machine's (`DiskWatch`); sandbox-exec lets it write the shared /tmp
    with bounds.DiskWatch(output[0].parent, confined=box.kind == "bwrap") as watch:
        strays.adopt_orphans()  # what it leaves behind stays below the harness, to be stopped
        limit = pids.Limit()  # however many it forks, the harness keeps pids for its threads
        process, before = _start(first_to_go(limit.wrap(argv)), env, given is not None, limit)
        assert process.stdout is not None and process.stderr is not None
        outputs = [capped_output.CappedOutput(process.stdout, output[0], stdout_seen),
                   capped_output.CappedOutput(process.stderr, output[1])]
        watch.follow(process.pid)  # a file it holds open unlinked is its too
        started()
        feed = None
        if process.stdin is not None:  # one that reads none of it blocks only this thread
            feed = threading.Thread(target=_feed, args=(process.stdin, given or b""),
                                    daemon=True)
            feed.start()
        limit.watch(process.pid)  # for a process that leaves its cgroup
        timed_out, stopped = False, ""
        try:
            code, timed_out, stopped = _watch(process, timeout_s, watch, cut_off)
        finally:
            _stop_group(process)  # the program and anything it left running
            # the sweep reads what runs and kills under the lock a program is born under: no
            # program of another phone is ever between its birth and being known as running
            with _RUNNING_LOCK:
                _RUNNING.discard(process.pid)
                left = strays.stop_strays(before, set(_RUNNING), process.pid,  # and outside
                                          limit.outside, limit.anothers)  # its group too
            refused = limit.close()  # and whatever is left in its cgroup
            for kept in outputs:
                kept.finish()
            if feed is not None:
                feed.join()
            # nothing of it is left to write there, and all of it is the harness's to read
            taken = box.take_back(scratch)
            untaken = "; ".join(filter(None, (taken.untaken, kept_data.not_runnable(scratch))))
        # looked at once more with it gone: what it wrote just before too, and what came back
        # to the disk as it went; a copy of its output the disk refused is its failure too
        # (never the run's crash), unless the disk stays short with it gone (`DiskShort`)
        over = untaken or watch.after(capped_output.unkept(outputs))
        # stopped to see what comes back: what came back says why it was (or raised)
        stopped = over if watch.suspect and over else stopped or over
        if timed_out or stopped:
            code = process.wait()
        if over:
            wiped = bounds.wipe(scratch)  # the disk back for the run's rows; kept: its output
            stopped += (f"; what it wrote into its folder was deleted, but for {wiped}" if wiped
                        else "; what it wrote into its folder was deleted")
    # a copy of its output the rig refused (`ulimit -f`, EIO, a read-only disk) is the rig's:
    # raised for the run to stop on (`runner.unwritten`), never its failure (red team 132)
    capped_output.refused(outputs)
    said = _said(left, output[1], limit, refused) + capped_output.cut(outputs)
    return Turn(code, timed_out, stopped, said,
                (taken.given,) if taken.given else ())


def _said(left: strays.Swept, stderr: Path, limit: pids.Limit, refused: int,
          ) -> tuple[str, ...]:
    """What the harness saw of a program besides its answer (`Turn.said`)."""
    escaped = {**limit.left, **left.outside}
    said = (_left_line(left) if left else "",
            "it left process(es) running in its PID namespace when its command line "
            "ended; the kernel killed them with it" if pidns.left_behind(stderr) else "",
            f"it left its process limit (its cgroup): {', '.join(escaped.values())}"
            if escaped else "",
            f"it reached its limit of {pids.PIDS_MAX:,} processes and threads at once "
            f"({refused:,} fork(s) refused)" if refused else "")
    return tuple(s for s in said if s)


def _start(argv: list[str], env: Mapping[str, str], stdin: bool, limit: pids.Limit,
           ) -> tuple[subprocess.Popen[bytes], frozenset[strays.Key]]:
    """Start the program, known as running (`_RUNNING`) from before it exists: its birth and its
    registration happen under the lock every sweep holds (with several phones, another
    phone's sweep once took an agent forked but not yet registered for a stray, and killed it);
    and what else ran below the harness just before it (`strays.others`), read under that lock
    too, so no other program is half-born in it."""
    with _RUNNING_LOCK:
        before = strays.others()
        try:
            process = subprocess.Popen(
                argv, stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(env),
                start_new_session=True)
        except OSError:
            limit.close()
            raise
        _RUNNING.add(process.pid)  # start_new_session: the group is named after it
    return process, before


def _feed(pipe: IO[bytes], data: bytes) -> None:
    """Write `data` to the program's stdin and close it (it may read none of it, or die)."""
    with contextlib.suppress(OSError), pipe:
        pipe.write(data)


def _stop_group(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM the program's process group, then SIGKILL whatever is still there after the
    grace time."""
    pgid = process.pid  # start_new_session: the group is named after the program
    try:
        os.killpg(pgid, signal.SIGTERM)
    except ProcessLookupError:
        return  # nothing left
    deadline = time.monotonic() + GRACE_S
    while time.monotonic() < deadline:
        process.poll()  # reap the program itself, or its zombie keeps the group alive
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pgid, signal.SIGKILL)


def _left_line(left: strays.Swept) -> str:
    """What is said of the processes a program left running outside its process group."""
    more = f" and {left.count - len(left.named)} more" if left.count > len(left.named) else ""
    line = (f"it left {left.count} process(es) running after its turn, outside its process "
            f"group; killed: {', '.join(left.named)}{more}")
    if left.moving:
        line += (f"; {left.moving} of them still alive when the harness stopped trying "
                 f"({strays.STOP_S:g}s): they may outlive the run")
    return line


def _watch(process: subprocess.Popen[bytes], timeout_s: float, watch: bounds.DiskWatch,
           cut_off: Callable[[], str]) -> tuple[int, bool, str]:
    """Wait for the program, looking at what it wrote and at its access every
    `bounds.WATCH_S`: its exit code (0 when it was cut short), whether it ran out of time, and
    why it was stopped for what it wrote or because its access to the phone ended ("" when it
    was not)."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            return process.wait(timeout=min(bounds.WATCH_S,
                                            max(0.0, deadline - time.monotonic()))), False, ""
        except subprocess.TimeoutExpired:
            if time.monotonic() >= deadline:
                return 0, True, ""
        ended = cut_off()
        if ended:  # nothing it sends reaches the phone now: waiting out its time helps nobody
            return 0, False, ended_early(ended)
        over = watch.over()
        if over:
            return 0, False, over
