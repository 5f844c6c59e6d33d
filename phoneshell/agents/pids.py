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
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import time
from pathlib import Path

PIDS_MAX = 4096
"""The most processes and threads one program may hold at once: far above what an agent's
model client, browser or test run needs, far below the machine's pid space (32,768 by
default), which the harness's own threads need too."""
ROOTS = (Path("/sys/fs/cgroup/unified"), Path("/sys/fs/cgroup"), Path("/sys/fs/cgroup/pids"))
"""Where a `pids` controller may be mounted: cgroup v2 (in a hybrid layout, or alone), or v1."""
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
        if self.group is None:
            return 0
        refused = self.refused()
        deadline = time.monotonic() + 2.0
        while True:
            left = self._members()
            for pid in left:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            with contextlib.suppress(OSError):
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
