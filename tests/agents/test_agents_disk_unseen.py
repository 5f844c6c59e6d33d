"""Disk a confined turn holds where no name shows it is its own (red team 81): on a real small
disk, a program confined by bubblewrap maps a file of its folder shared, closes and unlinks it,
and fills the mapping (no name, no descriptor); or sends a descriptor of a file it filled to
itself over a socket and closes and unlinks it (no name, no descriptor, no mapping). Neither is
'not the agent's doing': the first is counted as a mapped file, the second comes back to the
disk once its processes are gone, and is charged then."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from small_disk import small_disk

from phoneshell.agents import bounds
from phoneshell.agents.sandbox import Sandbox
from phoneshell.agents.turn import Turn, run_turn

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux only")

MAPS = """import ctypes, os, sys, time
libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                      ctypes.c_int, ctypes.c_long]
size, path = 24 << 20, os.path.join(sys.argv[1], "blob")
fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
os.ftruncate(fd, size)
addr = libc.mmap(None, size, 3, 1, fd, 0)  # read and write, shared
os.close(fd)
os.unlink(path)
ctypes.memset(addr, 0x78, size)
time.sleep(20)
"""
"""Fill 24 MiB through a shared mapping of a file with no name and no descriptor left (libc's
mmap: Python's keeps a descriptor)."""

SENDS = """import os, socket, sys, time
path = os.path.join(sys.argv[1], "blob")
with open(path, "wb") as out:
    out.write(b"x" * (24 << 20))
fd = os.open(path, os.O_RDONLY)
mine, theirs = socket.socketpair()
socket.send_fds(mine, [b"x"], [fd])  # in flight, never received: the socket holds the file
os.close(fd)
os.unlink(path)
time.sleep(20)
"""
"""Fill 24 MiB into a file held only by a descriptor in flight on a socket."""


@pytest.fixture
def disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A 64 MiB disk on which a turn may take 16 MiB (the harness keeps 32)."""
    monkeypatch.setattr(bounds, "FOLDER_MAX_BYTES", 16 << 20)
    with small_disk(tmp_path / "disk") as mounted:
        yield mounted


def turn(disk: Path, box: Sandbox, program: str) -> Turn:
    """A Python program's turn with its folder on the disk (its scratch folder its argument)."""
    folder = disk / "attempt"
    scratch = folder / "agent"
    scratch.mkdir(parents=True)
    argv = box.wrap([sys.executable, "-c", program, str(scratch)], "python", scratch, Path.cwd())
    return run_turn(argv, dict(os.environ), box, scratch, (folder / "out", folder / "err"),
                    timeout_s=60)


def test_a_file_held_by_a_mapping_alone_is_counted_as_its_own(disk: Path,
                                                              bwrap: Sandbox) -> None:
    """It read 0.0 MiB before, and a disk it took past its allowance was not its doing."""
    done = turn(disk, bwrap, MAPS)
    assert "it filled the disk holding the run" in done.stopped, done
    assert "came back" not in done.stopped, done  # counted as it ran, not found after
    assert "took 24." in done.stopped, done


def test_disk_that_comes_back_as_its_processes_go_is_charged_to_it(disk: Path,
                                                                  bwrap: Sandbox) -> None:
    """Past its allowance by blocks nothing names, it is stopped, and what came back once its
    processes were gone was its own: it filled the disk (it ran on, then, unstopped)."""
    done = turn(disk, bwrap, SENDS)
    assert "it filled the disk holding the run" in done.stopped, done
    assert "what came back to the disk once its processes were gone" in done.stopped, done
    assert bounds.disk_free(disk) > 60 << 20  # and it came back
