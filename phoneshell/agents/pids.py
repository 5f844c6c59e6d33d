"""A limit on how many processes and threads one program agent may have at once.

Without one, a program (or a coding agent's shell) that forks without end takes every pid the
machine has: the harness then cannot start a thread, its bridge and simulator stop answering,
and every attempt after it is lost. RLIMIT_NPROC does not bind root, and counts the user's
processes, not the program's; a `pids` cgroup counts exactly what the program and everything it
starts hold, threads included, whoever it runs as.

So on Linux, where the harness can make one (root, or a delegated cgroup), each program's turn
gets a cgroup of its own under the `pids` controller (cgroup v2's unified hierarchy when it
offers the controller, else v1's `pids` hierarchy) with `pids.max` set to `PIDS_MAX`. The program
enters it before it runs: a shell moves itself in and then becomes the program (`wrap`), so
nothing it forks is ever outside. A fork past the limit fails (EAGAIN), inside the program only;
after the turn whatever is left in the cgroup is killed, the cgroup is removed, and the row says
how many forks were refused. Where no cgroup can be made (not root, macOS), programs run without
a process limit and the run says so once (`available`).

A limit kept by a kernel object the limited process can write is no limit against it: an
unconfined agent running as root can write its pid into another cgroup's `cgroup.procs` (the
hierarchy's root) and leave its limit, and then nothing bounds what it forks (a bubblewrap
sandbox shows no /sys and drops every capability: there it cannot). That cannot be prevented
here, only seen: while the turn runs, `watch` looks every `WATCH_S` at every process below the
program (in its PID namespace, `pidns.py`, that is all of them) for one whose cgroup is not the
turn's or below it, and after the turn the sweep (`strays.py`) asks of each process it stops
(`outside`); the row says "it left its process limit" and names them. Both take a process to
have left only when two looks in a row find it outside, the same process, alive and not exiting
(`Limit._look`): on cgroup v1 the kernel moves every exiting process to the root cgroup before
it is a zombie, so a program killed at its timeout on a loaded machine was once named as having
left (red team 78). A process that leaves and ends between two looks is not seen.

In a bubblewrap sandbox the program cannot leave (no /sys, no capabilities, never root): the
looks are made there all the same, for one found outside would mean the sandbox failed, and
they cost a read of /proc per process; as they judge no exiting process, an honest program is
never named.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import threading
import time
from pathlib import Path

from phoneshell.agents import strays

PIDS_MAX = 4096
"""The most processes and threads one program may hold at once: far above what an agent's
model client, browser or test run needs, far below the machine's pid space (32,768 by
default), which the harness's own threads need too."""
ROOTS = (Path("/sys/fs/cgroup/unified"), Path("/sys/fs/cgroup"), Path("/sys/fs/cgroup/pids"))
"""Where a `pids` controller may be mounted: cgroup v2 (in a hybrid layout, or alone), or v1."""
WATCH_S = 0.1
"""How often a running program's processes are looked at for one outside its cgroup."""
NAMED_MOST = 8
PARENT = "phoneshell-agents"
"""The cgroup that holds the programs' own, one per turn."""
SHELL = "/bin/sh"


def _root() -> Path | None:
    """The first hierarchy here with the `pids` controller that the harness can write, with
    its folder for the programs made; None when there is none."""
    for root in ROOTS:
        v2 = root / "cgroup.controllers"
        if v2.exists():
            try:
                if "pids" not in v2.read_text().split():
                    continue
            except OSError:
                continue
        elif not (root / "pids.max").exists() and not (root / "tasks").exists() \
                or "pids" not in root.name:
            continue
        parent = root / PARENT
        try:
            parent.mkdir(exist_ok=True)
            if v2.exists():  # v2: the parent hands the controller down to its children
                (parent / "cgroup.subtree_control").write_text("+pids")
            return parent
        except OSError:
            continue
    return None


_PARENT: Path | None | bool = False
"""The programs' parent cgroup, once looked for (False: not yet)."""
_LIVE: set[str] = set()
"""The cgroups (as /proc/PID/cgroup names them) of the turns running now, on any phone."""
_LIVE_LOCK = threading.Lock()


def _where(pid: int) -> str | None:
    """The cgroup `pid` is in, in the `pids` hierarchy the limits are made in, as
    /proc/PID/cgroup says it (None: gone, or not said)."""
    parent = _parent()
    if parent is None:
        return None
    v2 = (parent.parent / "cgroup.controllers").exists()
    try:
        with open(f"/proc/{pid}/cgroup", encoding="utf-8", errors="replace") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return None
    for line in lines:
        number, _, rest = line.partition(":")
        controllers, _, path = rest.partition(":")
        if (v2 and number == "0" and not controllers) or \
                (not v2 and "pids" in controllers.split(",")):
            return path
    return None


def _parent() -> Path | None:
    global _PARENT
    if _PARENT is False:
        _PARENT = _root()
    return _PARENT if isinstance(_PARENT, Path) else None


def available() -> bool:
    """Whether programs get a process limit on this machine."""
    return _parent() is not None


class Limit:
    """One program's cgroup: `wrap` its command line, then `close` after its turn.

    Args:
        most: `pids.max` (default `PIDS_MAX`).
    """

    def __init__(self, most: int | None = None) -> None:
        self.group: Path | None = None
        self.path = ""
        """The cgroup as /proc/PID/cgroup names it ("" where there is none)."""
        self.left: dict[int, str] = {}
        """The processes seen outside it while the turn ran, named, by pid."""
        self._done = threading.Event()
        self._watcher: threading.Thread | None = None
        # everything `close` and the rest read is set above: where there is no cgroup (not
        # root, no pids controller, macOS) the limit is simply absent, never a crash
        parent = _parent()
        if parent is None:
            return
        group = parent / f"turn-{os.getpid()}-{secrets.token_hex(4)}"
        try:
            group.mkdir()
            (group / "pids.max").write_text(str(most or PIDS_MAX))
        except OSError:
            with contextlib.suppress(OSError):
                group.rmdir()
            return
        self.group = group
        self.path = "/" + group.relative_to(group.parent.parent).as_posix()
        with _LIVE_LOCK:
            _LIVE.add(self.path)

    def anothers(self, pid: int) -> bool:
        """Whether the process `pid` is in the cgroup of another program whose turn runs now
        (on another phone): that program's, not a stray of this one's, whatever its parent
        (a sandbox whose outer process died hands its inner ones to the harness)."""
        if self.group is None:
            return False
        where = _where(pid)
        if where is None or where == self.path or where.startswith(self.path + "/"):
            return False
        with _LIVE_LOCK:
            return any(where == live or where.startswith(live + "/") for live in _LIVE)

    def outside(self, pid: int) -> bool:
        """Whether the process `pid` left this cgroup (and its children): seen outside on two
        looks in a row (`_look`), the same process both times, alive and not exiting. False
        where there is no cgroup, or the process is gone."""
        first = self._look(pid)
        return first is not None and self._look(pid) == first

    def _look(self, pid: int) -> strays.Key | None:
        """The process `pid` (its pid and start time) when it is outside this cgroup, read
        between two reads of /proc/PID/stat that find it the same process, alive and not
        exiting (None otherwise). The flag of an exiting process is set before the kernel takes
        it out of its cgroup and never cleared: found unset after the cgroup read, the process
        was not exiting at that read, so where it was then is where it went."""
        if self.group is None:
            return None
        before = strays.read(pid)
        if before is None or before.ending:
            return None
        where = _where(pid)
        if where is None or where == self.path or where.startswith(self.path + "/"):
            return None
        after = strays.read(pid)
        if after is None or after.ending or after.key != before.key:
            return None
        return after.key

    def watch(self, root: int) -> None:
        """Look at every process below `root` (the program) every `WATCH_S` until `close`, and
        keep those found outside the cgroup (`left`)."""
        if self.group is None or self._watcher is not None:
            return
        self._watcher = threading.Thread(target=self._watch, args=(root,), daemon=True,
                                         name="phoneshell-pids-watch")
        self._watcher.start()

    def _watch(self, root: int) -> None:
        """A process is taken to have left only when seen outside on two looks in a row, a
        `WATCH_S` apart, the same process both times (its pid and start time), below the
        program each time, alive and not exiting (`_look`): a pid read as a child that exits,
        and is given to another program's process between the two reads of /proc, is no
        escape (the machine reuses pids within seconds where programs fork fast), nor a process
        the kernel took out of its cgroup as it exits."""
        suspects: set[strays.Key] = set()
        while not self._done.wait(WATCH_S):
            seen: set[strays.Key] = set()
            for pid in below(root):
                if pid in self.left or len(self.left) >= NAMED_MOST:
                    continue
                key = self._look(pid)
                if key is None or pid not in below(root):
                    continue
                if key in suspects:
                    self.left[pid] = strays.name(pid) or "?"
                seen.add(key)
            suspects = seen

    def wrap(self, argv: list[str]) -> list[str]:
        """`argv` run inside the cgroup: a shell moves itself in, then becomes `argv` (so
        nothing starts outside it). Unchanged where there is no cgroup."""
        if self.group is None:
            return argv
        procs = self.group / "cgroup.procs"
        return [SHELL, "-c", 'echo $$ > "$0" && exec "$@"', str(procs), *argv]

    def refused(self) -> int:
        """How many forks the limit refused so far (0 where there is none)."""
        if self.group is None:
            return 0
        try:
            for line in (self.group / "pids.events").read_text().splitlines():
                key, _, value = line.partition(" ")
                if key == "max":
                    return int(value)
        except (OSError, ValueError):
            pass
        return 0

    def close(self) -> int:
        """Kill whatever is still in the cgroup and remove it; how many forks it refused."""
        self._done.set()
        if self._watcher is not None:
            self._watcher.join()
        if self.group is None:
            return 0
        with _LIVE_LOCK:
            _LIVE.discard(self.path)
        refused = self.refused()
        deadline = time.monotonic() + 2.0
        while True:
            left = self._members()
            for pid in left:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            with contextlib.suppress(OSError):
                for inner in sorted(self.group.glob("**/"), key=lambda p: -len(p.parts)):
                    if inner != self.group:  # cgroups the program made inside its own
                        inner.rmdir()
                self.group.rmdir()
                break
            if time.monotonic() > deadline:
                break  # a process the kernel has not let go of yet: the folder stays, empty
            time.sleep(0.02)
        self.group = None
        return refused

    def _members(self) -> list[int]:
        assert self.group is not None
        try:
            return [int(p) for p in (self.group / "cgroup.procs").read_text().split()]
        except (OSError, ValueError):
            return []


def below(root: int) -> list[int]:
    """The processes below `root` now (its children, theirs...), from /proc's `children` files."""
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        try:
            threads = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in threads:
            try:
                with open(f"/proc/{pid}/task/{tid}/children", "rb") as handle:
                    kids = [int(word) for word in handle.read().split()]
            except (OSError, ValueError):
                continue
            found += kids
            todo += kids
    return found
