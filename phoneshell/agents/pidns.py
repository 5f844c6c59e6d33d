"""An unconfined agent's PID namespace of its own: when its turn's first process ends, the kernel
kills every process in it, however they forked.

A `--sandbox none` agent can leave a process that never stays one process (fork, parent exits,
child goes on): a sweep that reads /proc and then kills by pid finds it gone each time, and it
outlives the run (`strays.py`). In a PID namespace no such race exists: when the namespace's
first process (its init) ends, the kernel kills all the others and no process can fork into it
again. So where Linux allows, an unconfined agent's command line runs under
`unshare --pid --fork --kill-child` (util-linux): as root as is, otherwise with a user namespace
of its own that maps the user to itself (`--user --map-current-user`, where the kernel lets
unprivileged users make one). `--kill-child` kills the init when `unshare` dies (a SIGKILL to the
program's group at its deadline). The init is a shell (`INIT`) that runs the command line, hands
it a SIGTERM sent to the group (a namespace's init ignores a signal it has no handler for, so a
program run as init would miss the harness's polite stop), reaps what is orphaned inside, and
exits with the command line's status.

What it does not change: the agent sees the machine's /proc (its own pid is 1, the others keep
theirs), its files and its user. What it cannot hold: a process in a child PID namespace cannot
enter its parent's (setns refuses it), but an unconfined agent (root above all) can still have a
process started outside it by something it can reach (a service manager, cron, ssh to
localhost, a debugger attached to another process of the user's), which outlives the run
(docs/security.md). Where no namespace can be made (no `unshare`, macOS, user namespaces
refused), the agent runs without one and the harness's sweeps (`strays.py`) are all there is.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from pathlib import Path

SHELL = "/bin/sh"
LEFT = "phoneshell: the agent left processes running in its PID namespace; killed with it"
"""What the init writes last on the agent's stderr when its command line ended with other
processes still in the namespace (stopped first, so none writes after it)."""
INIT = ('exec 3<&0\n'
        '"$@" <&3 3<&- & child=$!\n'
        'exec 3<&-\n'
        "trap 'got=1; kill -TERM \"$child\" 2>/dev/null' TERM\n"
        'while :; do got=0; wait "$child"; code=$?; [ "$got" = 1 ] || break; done\n'
        f'kill -STOP -1 2>/dev/null && echo "{LEFT}" >&2\n'
        'exit "$code"')
"""The namespace's init: the command line in the background, given the init's stdin (a shell
without job control gives a background command /dev/null, and a judge reads its item there); a
SIGTERM handed on to it; its status as the init's (a shell waiting reaps every child it has,
the orphans among them); when it ends, what is left in the namespace is stopped (`kill -1` from
a namespace's init reaches every other process in it, and only those) and said (`LEFT`), and
dies with the init."""
PROBE_TIMEOUT_S = 20.0


def _candidates(unshare: str) -> list[list[str]]:
    pid = [unshare, "--pid", "--fork", "--kill-child"]
    if os.geteuid() == 0:
        return [pid]
    return [[unshare, "--user", "--map-current-user", *pid[1:]]]


@functools.lru_cache(maxsize=1)
def _prefix() -> tuple[tuple[str, ...], str]:
    """The command line that makes the namespace, and "" or why there is none here."""
    if not sys.platform.startswith("linux"):
        return (), f"no PID namespaces on {sys.platform}"
    unshare = shutil.which("unshare")
    if unshare is None:
        return (), "unshare (util-linux) is not installed"
    why = ""
    for prefix in _candidates(unshare):
        try:
            done = subprocess.run([*prefix, SHELL, "-c", 'test "$$" = 1'], capture_output=True,
                                  text=True, timeout=PROBE_TIMEOUT_S, stdin=subprocess.DEVNULL)
        except (OSError, subprocess.SubprocessError) as exc:
            why = f"unshare could not run ({exc})"
            continue
        if done.returncode == 0:
            return tuple(prefix), ""
        why = f"unshare fails here: {done.stderr.strip()[:200] or done.returncode}"
    return (), why


def unavailable() -> str:
    """"" when an unconfined agent gets a PID namespace here, else why not."""
    return _prefix()[1]


def wrap(argv: list[str]) -> list[str]:
    """`argv` run as the init's child in a PID namespace of its own; unchanged where none can be
    made (`available`)."""
    prefix, why = _prefix()
    if why:
        return list(argv)
    return [*prefix, SHELL, "-c", INIT, "init", *argv]


def left_behind(stderr: Path) -> bool:
    """Whether the init said (`LEFT`, the last line of the agent's stderr) that the command
    line left processes in its namespace."""
    try:
        with stderr.open("rb") as handle:
            handle.seek(max(handle.seek(0, os.SEEK_END) - 4 * len(LEFT), 0))
            tail = handle.read().decode("utf-8", "replace")
    except OSError:
        return False
    lines = tail.strip().splitlines()
    return bool(lines) and lines[-1] == LEFT
