"""`phoneshell sim` started on its own, as a person starts one for `--device URL`: one helper for
every test that needs the process and what it prints at start."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from cli_process import ROOT

LAST_START_LINE = "press Ctrl-C to stop"


@contextmanager
def standalone_sim(*args: str) -> Iterator[tuple[str, list[str]]]:
    """`phoneshell sim --port 0 ARGS` as a process, stopped on exit: its URL (with the secret
    path, when started with `--secret-path`) and the lines it printed at start, up to and with
    the one that says how to stop it."""
    child = subprocess.Popen([sys.executable, "-m", "phoneshell", "sim", "--port", "0", *args],
                             stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert child.stdout is not None
        said = [child.stdout.readline()]
        found = re.search(r"at (http://\S+);", said[0])
        assert found, f"the simulator printed no URL: {said[0]!r}"
        while said[-1] and not said[-1].startswith(LAST_START_LINE):
            said.append(child.stdout.readline())
        yield found.group(1), said
    finally:
        child.terminate()
        child.wait(10)
        if child.stdout:
            child.stdout.close()
