"""Two phones' confined turns on one small disk (a 64 MiB tmpfs with 5,000 files, `small_disk`),
one honest, one holding what it made where no name shows it (red team 137): files it holds open
unlinked are its own files as well as its bytes, and what comes back to the disk as its processes
go is charged to it alone, never also to the honest turn beside it. At worst the honest attempt is
not scored (`DiskShort`); it is never failed."""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path

import pytest
from small_disk import small_disk

from phoneshell.agents import bounds
from phoneshell.agents.sandbox import Sandbox
from phoneshell.agents.turn import Turn, run_turn

pytestmark = [pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux only"),
              pytest.mark.slow]

HOLDS = """import array, os, resource, socket, sys, time
scratch, how = sys.argv[1], sys.argv[2]
resource.setrlimit(resource.RLIMIT_NOFILE, (6000, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
mine, theirs = socket.socketpair()
held = []
if how == "bytes":  # one unlinked file of 43 MiB, in flight on a socket
    fd = os.open(os.path.join(scratch, "big"), os.O_CREAT | os.O_RDWR)
    os.unlink(os.path.join(scratch, "big"))
    os.write(fd, b"x" * (43 << 20))
    mine.sendmsg([b"x"], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [fd]))])
    os.close(fd)
else:  # 4,750 empty files unlinked: held open, or in flight 250 a message
    for n in range(0, 4750, 250):
        fds = []
        for i in range(n, n + 250):
            path = os.path.join(scratch, str(i))
            fds.append(os.open(path, os.O_CREAT | os.O_RDWR))
            os.unlink(path)
        if how == "open":
            held += fds
            continue
        mine.sendmsg([b"x"], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", fds))])
        for fd in fds:
            os.close(fd)
time.sleep(30)
"""
"""Hold 4,750 unlinked files (`open`: open; `flight`: in flight on a socket) or 43 MiB (`bytes`)
that no name shows, then sleep."""
HONEST = "sleep 6"
"""Go on 6 seconds (its watch looks at the disk meanwhile), writing nothing."""


def _turn(folder: Path, box: Sandbox, argv: list[str], ended: list[Turn | Exception]) -> None:
    """A program's turn with its folder `folder` (`argv` given its scratch folder after its
    first word), what it ended as put in `ended` (its `DiskShort` too)."""
    scratch = folder / "agent"
    scratch.mkdir(parents=True)
    wrapped = box.wrap([argv[0], argv[1], argv[2], str(scratch), *argv[3:]], argv[0], scratch,
                       Path.cwd())
    try:
        ended.append(run_turn(wrapped, dict(os.environ), box, scratch,
                              (folder / "out", folder / "err"), timeout_s=60))
    except bounds.DiskShort as short:
        ended.append(short)


def _side_by_side(disk: Path, box: Sandbox, how: str) -> tuple[Turn | Exception, Turn]:
    """The honest turn and the holding one, side by side on `disk`: what each ended as."""
    honest: list[Turn | Exception] = []
    holder: list[Turn | Exception] = []
    one = threading.Thread(target=_turn, args=(disk / "two", box, ["/bin/sh", "-c", HONEST],
                                               honest))
    one.start()
    deadline = time.monotonic() + 20
    while not (disk / "two" / "agent").exists():
        assert time.monotonic() < deadline
        time.sleep(0.01)
    other = threading.Thread(target=_turn, args=(disk / "one", box,
                                                 [sys.executable, "-c", HOLDS, how], holder))
    other.start()
    one.join(timeout=90)
    other.join(timeout=90)
    (held,) = holder
    assert isinstance(held, Turn), held
    return honest[0], held


def _not_failed(honest: Turn | Exception) -> None:
    """Passed, or not scored: never stopped and failed for the neighbour's disk."""
    if isinstance(honest, Turn):
        assert honest.code == 0 and not honest.stopped, honest
    else:
        assert "not the agent's doing" in str(honest), honest


def test_files_held_open_unlinked_are_the_holders_files(tmp_path: Path, bwrap: Sandbox) -> None:
    """They were counted as nobody's: both turns were stopped and the honest one failed, "what
    came back once its processes were gone (4,800) took 4,802"."""
    with small_disk(tmp_path / "disk", files=5000) as disk:
        honest, held = _side_by_side(disk, bwrap, "open")
        assert "used up the files (inodes)" in held.stopped, held
        assert "came back" not in held.stopped, held  # counted as it ran, not found after
        assert isinstance(honest, Turn) and honest.code == 0 and not honest.stopped, honest


@pytest.mark.parametrize(("how", "says"), [("flight", "used up the files (inodes)"),
                                           ("bytes", "it filled the disk")])
def test_what_comes_back_as_one_turns_processes_go_is_charged_to_it_alone(
        tmp_path: Path, bwrap: Sandbox, how: str, says: str) -> None:
    """Held in flight on a socket, nothing names it: both turns were stopped to settle at once,
    and each took what the other's processes gave back (twice what the disk lost)."""
    with small_disk(tmp_path / "disk", files=5000) as disk:
        honest, held = _side_by_side(disk, bwrap, how)
        assert says in held.stopped and "came back" in held.stopped, held
        _not_failed(honest)
