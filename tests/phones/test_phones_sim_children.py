"""`--device sim:N` starts each simulated iPhone in a child process: they end with the process
that started them, however it ends. Red team 74 found two still serving, orphaned, 11 minutes
after `phoneshell run --device sim:2` was killed with SIGKILL; each now stops when its stdin,
a pipe only the run holds, closes (`sim --until-stdin-closes`)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from raw_http import wait_until

ROOT = Path(__file__).resolve().parents[2]
HOLDER = ("import sys\n"
          "from phoneshell.phones.open import open_phones\n"
          "with open_phones('sim:2', 'orphans') as (handles, note):\n"
          "    print(' '.join(h.url for h in handles), flush=True)\n"
          "    sys.stdin.read()  # held until it is killed\n")
"""A run's phone set, held open: prints its simulators' URLs, then waits."""


def children(pid: int) -> list[int]:
    """The processes `pid` started that are still its children (Linux)."""
    found = []
    for entry in Path("/proc").iterdir():
        with contextlib.suppress(OSError, ValueError, IndexError):
            if entry.name.isdigit() and int(_stat(int(entry.name))[1]) == pid:
                found.append(int(entry.name))
    return found


def _stat(pid: int) -> list[str]:
    """State and parent of `pid`, from /proc (after the command's closing parenthesis)."""
    text = Path(f"/proc/{pid}/stat").read_text()
    return text[text.rindex(")") + 2:].split()[:2]


def gone(pid: int) -> bool:
    """Whether `pid` has ended (a zombie has: whoever adopted it has yet to reap it)."""
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # this process may be the subreaper that adopted it
    try:
        return _stat(pid)[0] == "Z"
    except (OSError, ValueError):
        return True


def serving(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/status", timeout=2):
            return True
    except urllib.error.HTTPError:
        return True  # it answered
    except OSError:
        return False


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_sim_n_phones_end_with_a_run_killed_by_sigkill() -> None:
    with subprocess.Popen([sys.executable, "-c", HOLDER], cwd=ROOT, stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, text=True) as holder:
        try:
            assert holder.stdout is not None
            urls = holder.stdout.readline().split()
            assert len(urls) == 2 and all(serving(url) for url in urls), urls
            sims = children(holder.pid)
            assert len(sims) == 2, sims
        finally:
            holder.send_signal(signal.SIGKILL)  # no cleanup of its own runs
    try:
        wait_until(lambda: all(gone(pid) for pid in sims) and not any(map(serving, urls)), 20.0)
    finally:
        for pid in sims:  # what outlived it is this test's to end
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
