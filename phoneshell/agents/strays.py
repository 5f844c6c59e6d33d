"""What a program agent leaves running after its turn: found and stopped, whoever it forked from.

A program agent runs in a process group and a session of its own, stopped whole when its turn
ends. A process can leave both (`setsid`) and its parent (a double fork), and then nothing sent to
the group reaches it: a red team's `--sandbox none` agent left one that waited for the run to end,
rewrote its failed row as passed and re-sealed the run. Three things stand against it on Linux:

* An unconfined agent runs in a PID namespace of its own where Linux allows (`pidns.py`): when
  its first process ends, the kernel kills everything in the namespace, however it forked.
* The harness makes itself a child subreaper (`prctl(PR_SET_CHILD_SUBREAPER)`) before it starts
  a program: a process orphaned anywhere below the harness is re-parented to the harness, not to
  init, and stays its descendant. What the harness adopts and what then dies is its to reap: a
  thread (`_reaper`) reaps, every `REAP_S`, each dead child of the harness that provably is no
  process it started itself (one in a session neither the harness's nor its own: the harness
  starts a process in its own session or a new one, and a process can only ever be in the session
  it was born in or one it made). Without it, a process that forks on and exits ("fork, parent
  exits, child goes on", a comet) leaves the harness a dead child a millisecond, and a turn's
  worth of them takes every pid the machine has.
* After each turn, `stop_strays` stops every descendant of the harness that is not the harness's
  own, then kills it: pass after pass, it stops (SIGSTOP: a stopped process cannot fork) each
  one it finds, reading the harness's own children first (the one place a comet is found alive:
  each generation is the harness's child as soon as its parent is gone), then what is below
  them and every process in a session one of them is in (wherever it was re-parented; a session
  id is a pid, used again only once the session is empty, and no process joins a session
  after its birth), and the whole process group of each of them that is the harness's child
  (a group stops at once, a fork in flight included), until a pass finds
  nothing still running; then it kills them all (SIGKILL), and looks again until `QUIET_PASSES`
  passes in a row find none (for `QUIET_S` too, once it stopped any), within `STOP_S`. The row
  names what it stopped, and says when something was still moving when the time ran out. A
  signal goes to a process by a pidfd taken after its start time was read again, never to a
  pid used again meanwhile.

Which are the harness's own: every process in the harness's session (the simulator in a process
of its own, a program's look-up: none of them is started in another session, and no process can
join a session it was not started in, so nothing an agent starts is ever in the harness's); the
programs still in their turn (another phone's agent: its tree, and whatever is in its session;
a program is started and registered as running under the lock a sweep holds while it reads and
kills, so no sweep sees one in between);
and what ran below the harness in another session before the turn began (`others`: a judge
command). A process an agent left behind that started a session of its own while another phone's
agent is mid-turn is stopped at the end of whichever turn comes first: nobody can tell whose it
was. In a bubblewrap sandbox nothing is ever found (the sandbox's processes die with it).

What no harness can hold: an unconfined agent is the user the harness runs as, and root is the
machine's. It can start a process nothing of the harness's is the ancestor of (through a
service, cron, ssh to localhost, another user's session), which outlives the run; docs/security.md
says what the harness does about what such a process writes.

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
from collections.abc import Callable, Collection
from dataclasses import dataclass, field

PR_SET_CHILD_SUBREAPER = 36
"""prctl(2): orphans below the calling process are re-parented to it (Linux 3.4)."""
GRACE_S = 0.3
"""How long a process found after a turn has to end by itself (a sandbox's last process, told
by the kernel that its parent died) before it is stopped and named."""
STOP_S = 3.0
"""How long the stopping goes on against processes that keep forking."""
QUIET_PASSES = 3
"""How many passes in a row must find nothing alive before the sweep is done."""
QUIET_S = 0.2
"""How long those passes must span too once the sweep stopped a process (an honest turn leaves
none alive: its sandbox's last processes are found dead, and cost no wait). A pass reads the
kernel's list of the harness's children while a comet's generations join and leave it, and may
skip the one alive (the list is exact only while nothing below forks or exits); a few passes in
a row can, on a loaded machine (CI, once), and the comet went on."""
REAP_S = 0.05
"""How often the harness reaps the dead children it adopted."""
NAME_CHARS = 80
PF_EXITING = 0x4
"""The kernel's flag (in /proc/PID/stat's 9th field) of a process that has begun to exit: set
before anything of it is let go, and never cleared."""
NAMED_MOST = 8
"""How many of the processes it stopped a row names (it counts them all)."""

Key = tuple[int, int]
"""A process by (pid, start time in clock ticks since boot): a pid used again is another key."""

_ADOPTING: list[bool] = []
_ADOPT_LOCK = threading.Lock()
_CHILDREN_LOCK = threading.Lock()
"""Held while a dead child of the harness is told apart and reaped, or a child of it signalled:
a pid read as the harness's child stays that process (alive or dead) until it is reaped."""


def adopt_orphans() -> bool:
    """Make the harness a child subreaper, once, with its reaper thread; whether it is one
    (Linux only)."""
    with _ADOPT_LOCK:
        if not _ADOPTING:
            _ADOPTING.append(_set_subreaper())
            if _ADOPTING[0]:
                threading.Thread(target=_reaper, name="phoneshell-reaper", daemon=True).start()
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
    flags: int = 0

    @property
    def key(self) -> Key:
        return self.pid, self.start

    @property
    def dead(self) -> bool:
        return self.state in "ZX"

    @property
    def ending(self) -> bool:
        """Dead, or exiting: on cgroup v1 the kernel moves an exiting process to the root
        cgroup (`cgroup_exit`) before it is a zombie, still in state R or D, a moment that lasts
        on a loaded machine; no process then has left its limit (red team 78)."""
        return self.dead or bool(self.flags & PF_EXITING)


def read(pid: int | str) -> _Proc | None:
    """The process `pid` now (None: gone)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            text = handle.read().decode("ascii", "replace")
    except OSError:
        return None
    return parse_stat(int(pid), text)


def parse_stat(pid: int, text: str) -> _Proc | None:
    """The process of a /proc/PID/stat line (None: not one)."""
    # "pid (comm) state ppid pgrp session tty tpgid flags(9th) ... starttime(22nd)": comm may
    # hold anything, so the fields are counted from its last closing parenthesis
    fields = text[text.rfind(")") + 2:].split()
    try:
        return _Proc(pid, int(fields[1]), int(fields[2]), int(fields[3]), fields[0],
                     int(fields[19]), int(fields[6]))
    except (IndexError, ValueError):
        return None


def _table() -> dict[int, _Proc]:
    """Every process /proc shows now ({} where there is no /proc)."""
    try:
        names = os.listdir("/proc")
    except OSError:
        return {}
    found = (read(name) for name in names if name.isdigit())
    return {proc.pid: proc for proc in found if proc is not None}


def _child_pids() -> list[int]:
    """The harness's children now, from each of its threads' `children` file (one read each:
    fast enough to find a process that forks on and exits every millisecond); from the whole
    table where the kernel has no such file."""
    me = os.getpid()
    try:
        threads = os.listdir(f"/proc/{me}/task")
    except OSError:
        threads = []
    pids: list[int] = []
    for tid in threads:
        try:
            with open(f"/proc/{me}/task/{tid}/children", "rb") as handle:
                pids += [int(word) for word in handle.read().split()]
        except FileNotFoundError:
            return [p.pid for p in _table().values() if p.ppid == me]
        except (OSError, ValueError):
            continue
    return pids


def _adopted(proc: _Proc, mine: int) -> bool:
    """Whether `proc`, a child of the harness, provably is not one the harness started (and so
    no `subprocess.Popen` waits for): it is in a session neither the harness's nor its own."""
    return proc.sid not in (mine, proc.pid)


def reap_adopted() -> int:
    """Reap each dead child of the harness that it adopted (`_adopted`); how many."""
    me, mine, reaped = os.getpid(), os.getsid(0), 0
    with _CHILDREN_LOCK:
        for pid in _child_pids():
            proc = read(pid)
            if proc is None or not proc.dead or proc.ppid != me or not _adopted(proc, mine):
                continue
            with contextlib.suppress(ChildProcessError, OSError):
                reaped += os.waitpid(pid, os.WNOHANG)[0] == pid
    return reaped


def _reaper() -> None:
    """The harness's reaper thread: it runs while the harness does, at once again while it
    finds the dead (a comet makes thousands a second)."""
    reaped = 0
    while True:
        time.sleep(REAP_S if not reaped else REAP_S / 20)
        reaped = 0
        with contextlib.suppress(Exception):  # a reaper that stops is a leak: it never does
            reaped = reap_adopted() if _a_child_died() else 0


def _a_child_died() -> bool:
    """Whether a child of the harness is dead and not yet reaped: one system call that reaps
    nothing. Most of the reaper's rounds find none, and need not read a file of /proc for each
    of the harness's threads (a test process with servers running holds dozens)."""
    try:
        return os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:  # no child at all
        return False


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


def _signal(proc: _Proc, sig: int) -> None:
    """Send `sig` to `proc` if that pid is still the process read (same start time)."""
    try:
        fd = os.pidfd_open(proc.pid)
    except (AttributeError, OSError):  # no pidfds (an old kernel): by pid
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(proc.pid, sig)
        return
    try:
        now = read(proc.pid)
        if now is not None and now.start == proc.start:
            signal.pidfd_send_signal(fd, sig)
    except (ProcessLookupError, PermissionError, OSError):
        pass
    finally:
        os.close(fd)


@dataclass
class _Pass:
    """What one sweep looks for, and what it has found so far."""

    before: Collection[Key]
    running: Collection[int]
    finished: int
    theirs: Callable[[int], bool] | None = None
    stopping: bool = False
    seen: dict[Key, _Proc] = field(default_factory=dict)
    frozen: set[int] = field(default_factory=set)
    """The process groups stopped whole (`_freeze`)."""
    groups_before: frozenset[int] | None = None
    """The process groups of what ran below the harness before the turn (`before`): never
    stopped whole (read when a group is first to be stopped)."""
    sessions: set[int] = field(default_factory=set)
    """The sessions of the strays found so far: a process in one is a stray wherever it is now.
    A comet's generations keep the session it made, and one was still forking 2 s after sweeps
    that read only the harness's children and what is below them had ended quiet (CI, twice)."""

    def own(self, proc: _Proc, mine: int) -> bool:
        return (proc.sid == mine or proc.key in self.before or proc.pid in self.running
                or proc.sid in self.running
                or (self.theirs is not None and self.theirs(proc.pid)))

    def look(self) -> list[_Proc]:
        """The descendants of the harness that are nobody's now (the `finished` program itself,
        the harness's to wait for, aside); stopped as found when `stopping`."""
        me, mine = os.getpid(), os.getsid(0)
        found: dict[Key, _Proc] = {}
        with _CHILDREN_LOCK:
            for pid in _child_pids():  # first, and stopped at once: a comet is alive only here
                proc = read(pid)
                if proc is not None and proc.ppid == me and not self.own(proc, mine):
                    self._found(proc, found)
            if found or self.seen:  # and what is below them, and what shares their sessions
                table = _table()
                below = _children(table)
                for child in below.get(me, ()):
                    if not self.own(child, mine):
                        for proc in _subtree(below, child):
                            self._found(proc, found)
                for proc in table.values():
                    if proc.sid in self.sessions and proc.pid != me and not self.own(proc, mine):
                        self._found(proc, found)
                self.sessions.update(p.sid for p in found.values() if not self.own(p, mine))
            self._reap(found.values(), me, mine)
        return [p for p in found.values() if p.pid != self.finished]

    def _found(self, proc: _Proc, found: dict[Key, _Proc]) -> None:
        if proc.key in found or proc.pid == self.finished:
            return
        found[proc.key] = proc
        if self.stopping and not proc.dead:
            _signal(proc, signal.SIGSTOP)
            self.seen.setdefault(proc.key, proc)
        if self.stopping:
            self._freeze(proc)

    def _freeze(self, proc: _Proc) -> None:
        """Stop the whole process group of `proc`, a stray that is the harness's child (alive,
        or dead and not yet reaped: its group cannot end, nor its id be used again, while the
        lock held keeps it so). A comet's generations all stay in its group, and the kernel
        stops a group at once, a fork in flight included (restarted after the stop, so no child
        slips out), where pass after pass on a loaded machine caught no generation alive (CI:
        the one named was the last, after its forking was over). Never the finished program's
        group (the harness waits for it), nor one of what ran before the turn."""
        group = proc.pgid
        if proc.ppid != os.getpid() or group in self.frozen or group == self.finished or group <= 1:
            return
        if self.groups_before is None:
            self.groups_before = frozenset(p.pgid for p in _table().values()
                                           if p.key in self.before)
        if group in self.groups_before:
            return
        self.frozen.add(group)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(group, signal.SIGSTOP)

    def _reap(self, procs: Collection[_Proc], me: int, mine: int) -> None:
        """Wait for those of `procs` that are the harness's dead children and either adopted or
        stopped by this sweep (a program the harness waits for itself is never taken from it)."""
        for proc in procs:
            if proc.ppid == me and proc.dead and (_adopted(proc, mine) or proc.key in self.seen):
                with contextlib.suppress(ChildProcessError, OSError):
                    os.waitpid(proc.pid, os.WNOHANG)


def name(pid: int) -> str:
    """A process as a row names it: "pid 4242 (python3 helper.py)"."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            words = handle.read(4 * NAME_CHARS).split(b"\0")
    except OSError:
        return f"pid {pid}"
    line = " ".join(w.decode("utf-8", "replace") for w in words if w)
    short = line if len(line) <= NAME_CHARS else line[:NAME_CHARS - 3] + "..."
    return f"pid {pid} ({short})" if short else f"pid {pid}"


@dataclass
class Swept:
    """What `stop_strays` stopped."""

    named: list[str] = field(default_factory=list)
    """The first `NAMED_MOST` of those outside the program's process group, named, e.g.
    "pid 4242 (python3 helper.py)"."""
    count: int = 0
    """How many processes outside its process group it stopped."""
    moving: int = 0
    """How many were still alive when `STOP_S` ran out (0: all of them are dead)."""
    outside: dict[int, str] = field(default_factory=dict)
    """Those of them `outside` said were outside the program's process limit, named, by
    pid."""

    def __bool__(self) -> bool:
        return bool(self.count or self.moving)


def stop_strays(before: Collection[Key] = (), running: Collection[int] = (),
                finished: int = 0, outside: Callable[[int], bool] | None = None,
                theirs: Callable[[int], bool] | None = None) -> Swept:
    """Stop, kill and reap every process below the harness that is nobody's (see the module
    docstring) once the program `finished` (its process group) ended its turn.

    Args:
        before: `others()` as taken before the turn.
        running: the process groups (and sessions) of the programs still in their turn.
        finished: the program whose turn ended (the harness waits for it itself).
        outside: whether a process (by pid) is outside the program's process limit.
        theirs: whether a process (by pid) belongs to another program still in its turn (in
            its process limit): never this one's stray, whoever its parent is now.
    """
    sweep = _Pass(before, running, finished, theirs)
    found = sweep.look()
    deadline = time.monotonic() + GRACE_S
    while any(not p.dead for p in found) and time.monotonic() < deadline:
        time.sleep(0.02)  # a sandbox's last process dies by itself: not the agent's doing
        found = sweep.look()
    sweep.stopping = True
    swept, quiet, killing = Swept(), 0, False
    counted: set[Key] = set()
    ended: set[Key] = set()
    deadline = time.monotonic() + STOP_S
    quiet_since = time.monotonic()
    while quiet < QUIET_PASSES or (swept.count and time.monotonic() - quiet_since < QUIET_S):
        looked = sweep.look()
        live = [p for p in looked if not p.dead]
        # A comet's generations each live a moment: most passes find only the one that just
        # exited, dead. A pass that finds one not seen before is no quiet pass: something is
        # still forking, and the next pass may catch its child alive.
        fresh = [p for p in looked if p.dead and p.key not in ended]
        ended.update(p.key for p in fresh)
        for proc in live:
            now = read(proc.pid)
            if now is None or now.ending or now.start != proc.start:
                continue  # it ended by itself before the stop reached it: the next is named
            if proc.pgid != finished and proc.key not in counted:
                counted.add(proc.key)
                swept.count += 1
                called = name(proc.pid)
                if len(swept.named) < NAMED_MOST:
                    swept.named.append(called)
                if outside is not None and outside(proc.pid) and len(swept.outside) < NAMED_MOST:
                    swept.outside[proc.pid] = called
        quiet = 0 if live or fresh else quiet + 1
        if not quiet:
            quiet_since = time.monotonic()
        out_of_time = time.monotonic() > deadline
        if live and (out_of_time or killing or all(_stopped(p) for p in live)):
            killing = True  # all of them stopped: none can fork any more, so all are killed
            for proc in live:
                _signal(proc, signal.SIGKILL)
        if out_of_time:
            time.sleep(0.05)
            swept.moving = sum(not p.dead for p in sweep.look())
            break
        if not live:
            time.sleep(0.005)
    return swept


def _stopped(proc: _Proc) -> bool:
    now = read(proc.pid)
    return now is None or now.start != proc.start or now.state in "TtZX"
