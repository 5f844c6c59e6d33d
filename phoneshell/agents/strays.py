"""What a program agent leaves running after its turn: found and stopped, whoever it forked from.

A program agent runs in a process group and a session of its own, stopped whole when its turn
ends. A process can leave both (`setsid`) and its parent (a double fork), and then nothing sent to
the group reaches it: a red team's `--sandbox none` agent left one that waited for the run to end,
rewrote its failed row as passed and re-sealed the run. So on Linux the harness makes itself a
child subreaper (`prctl(PR_SET_CHILD_SUBREAPER)`) before it starts a program: a process orphaned
anywhere below the harness is re-parented to the harness, not to init, and stays its descendant,
however it forked. After each turn, `stop_strays` kills every descendant of the harness that is
not the harness's own, and reaps it; the row says what it killed.

Which are the harness's own: every process in the harness's session (the simulator in a process
of its own, a program's look-up: none of them is started in another session, and no process can
join a session it was not started in, so nothing an agent starts is ever in the harness's); the
programs still in their turn (another phone's agent: its tree, and whatever is in its session);
and what ran below the harness in another session before the turn began (`others`: a judge
command). A process an agent left behind that started a session of its own while another phone's
agent is mid-turn is stopped at the end of whichever turn comes first: nobody can tell whose it
was. In a bubblewrap sandbox nothing is ever found (the sandbox's processes die with it).

On macOS there is no subreaper: an orphan goes to launchd, out of the harness's sight, and only
the process group is stopped (docs/security.md).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import threading
import time
from collections.abc import Collection
from dataclasses import dataclass

PR_SET_CHILD_SUBREAPER = 36
"""prctl(2): orphans below the calling process are re-parented to it (Linux 3.4)."""
GRACE_S = 0.3
"""How long a process found after a turn has to end by itself (a sandbox's last process, told
by the kernel that its parent died) before it is killed and named."""
STOP_S = 3.0
"""How long the killing goes on against a process that keeps forking."""
NAME_CHARS = 80

Key = tuple[int, int]
"""A process by (pid, start time in clock ticks since boot): a pid used again is another key."""

_ADOPTING: list[bool] = []
_ADOPT_LOCK = threading.Lock()


def adopt_orphans() -> bool:
    """Make the harness a child subreaper, once; whether it is one (Linux only)."""
    with _ADOPT_LOCK:
        if not _ADOPTING:
            _ADOPTING.append(_set_subreaper())
        return _ADOPTING[0]


def adopting() -> bool:
    """Whether the harness made itself a subreaper (a program agent ran in it)."""
    with _ADOPT_LOCK:
        return bool(_ADOPTING and _ADOPTING[0])


def _set_subreaper() -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


@dataclass(frozen=True)
class _Proc:
    pid: int
    ppid: int
    pgid: int
    sid: int
    state: str
    start: int

    @property
    def key(self) -> Key:
        return self.pid, self.start


def _table() -> dict[int, _Proc]:
    """Every process /proc shows now ({} where there is no /proc)."""
    table: dict[int, _Proc] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return table
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as handle:
                text = handle.read().decode("ascii", "replace")
        except OSError:
            continue  # gone meanwhile
        # "pid (comm) state ppid pgrp session ... starttime(22nd)": comm may hold anything
        fields = text[text.rfind(")") + 2:].split()
        try:
            table[int(name)] = _Proc(int(name), int(fields[1]), int(fields[2]), int(fields[3]),
                                     fields[0], int(fields[19]))
        except (IndexError, ValueError):
            continue
    return table


def _children(table: dict[int, _Proc]) -> dict[int, list[_Proc]]:
    below: dict[int, list[_Proc]] = {}
    for proc in table.values():
        below.setdefault(proc.ppid, []).append(proc)
    return below


def _subtree(below: dict[int, list[_Proc]], root: _Proc) -> list[_Proc]:
    found, todo = [], [root]
    while todo:
        proc = todo.pop()
        found.append(proc)
        todo.extend(below.get(proc.pid, ()))
    return found


def others() -> frozenset[Key]:
    """The harness's children outside its session now: taken before a turn, they are not that
    turn's to stop."""
    table, me = _table(), os.getpid()
    mine = os.getsid(0)
    return frozenset(p.key for p in table.values() if p.ppid == me and p.sid != mine)


def _strays(before: Collection[Key], running: Collection[int], finished: int) -> list[_Proc]:
    """The descendants of the harness that are nobody's now (the `finished` program itself,
    the harness's to wait for, aside)."""
    table, me = _table(), os.getpid()
    mine = os.getsid(0)
    below = _children(table)
    found: list[_Proc] = []
    for child in below.get(me, ()):
        if (child.sid == mine or child.key in before or child.pid in running
                or child.sid in running):
            continue
        found += [p for p in _subtree(below, child) if p.pid != finished]
    return found


def _reap(procs: Collection[_Proc], finished: int) -> None:
    """Wait for those of `procs` that are the harness's children and dead (only they: a
    program the harness waits for itself is never taken from it)."""
    me = os.getpid()
    for proc in procs:
        if proc.ppid == me and proc.state in "ZX" and proc.pid != finished:
            with contextlib.suppress(ChildProcessError, OSError):
                os.waitpid(proc.pid, os.WNOHANG)


def _name(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            words = handle.read(4 * NAME_CHARS).split(b"\0")
    except OSError:
        return f"pid {pid}"
    line = " ".join(w.decode("utf-8", "replace") for w in words if w)
    short = line if len(line) <= NAME_CHARS else line[:NAME_CHARS - 3] + "..."
    return f"pid {pid} ({short})" if short else f"pid {pid}"


def stop_strays(before: Collection[Key] = (), running: Collection[int] = (),
                finished: int = 0) -> list[str]:
    """Kill and reap every process below the harness that is nobody's (see the module
    docstring) once the program `finished` (its process group) ended its turn; name those that
    had left its process group, e.g. "pid 4242 (python3 helper.py)".

    Args:
        before: `others()` as taken before the turn.
        running: the process groups (and sessions) of the programs still in their turn.
        finished: the program whose turn ended (the harness waits for it itself).
    """
    found = _strays(before, running, finished)
    deadline = time.monotonic() + GRACE_S
    while any(p.state not in "ZX" for p in found) and time.monotonic() < deadline:
        _reap(found, finished)
        time.sleep(0.02)  # a sandbox's last process dies by itself: not the agent's doing
        found = _strays(before, running, finished)
    named: dict[int, str] = {}
    deadline = time.monotonic() + STOP_S
    while True:
        live = [p for p in found if p.state not in "ZX"]
        _reap(found, finished)
        if not live or time.monotonic() > deadline:
            break
        for proc in live:
            if proc.pid not in named and proc.pgid != finished:
                named[proc.pid] = _name(proc.pid)
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(proc.pid, signal.SIGKILL)
        time.sleep(0.01)
        found = _strays(before, running, finished)
    return list(named.values())
