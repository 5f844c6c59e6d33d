"""Two programs' turns side by side, as `--device sim:N` runs them (each phone's attempt in a
thread of its own), through the turn API with real processes: one turn's stray sweep never
kills the other's program as it starts, and one's writes to the disk never stop the other,
which is charged only for what it wrote itself. Each moment that matters is made wide on
purpose (a program that waits for a file the test makes), and waited for with a deadline."""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from small_disk import small_disk

from phoneshell.agents import bounds, pids
from phoneshell.agents.sandbox import Sandbox
from phoneshell.agents.turn import Turn, run_turn

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux only")

WAIT = """import os, sys, time
mib, go = int(sys.argv[2]), os.path.join(sys.argv[1], "..", "..", sys.argv[3])
f = open(os.path.join(sys.argv[1], "mine"), "wb")
if sys.argv[4:] == ["unlinked"]:
    os.unlink(f.name)
try:
    for _ in range(mib):
        f.write(b"x" * (1 << 20)); f.flush()
except OSError:  # the disk is full
    pass
open(os.path.join(sys.argv[1], "written"), "w").close()
deadline = time.monotonic() + 60
while not os.path.exists(go) and time.monotonic() < deadline:
    time.sleep(0.01)
sys.exit(0 if os.path.exists(go) else 3)
"""
"""A program that writes MIB MiB into its folder (or as much as the disk takes; "unlinked": into
a file it unlinked, holding it open), says so, then waits for the file GO (beside its attempt
folder) and exits 0 (3: it never came)."""


def until(what: Callable[[], bool], why: str, deadline_s: float = 20.0) -> None:
    deadline = time.monotonic() + deadline_s
    while not what():
        assert time.monotonic() < deadline, f"timed out waiting for {why}"
        time.sleep(0.01)


class Phone:
    """One phone's turn in a thread of its own: a `WAIT` program in `top/<name>/agent`."""

    def __init__(self, top: Path, name: str, mib: int, go: str,
                 started: Callable[[], None] = lambda: None, how: str = "named") -> None:
        self.folder = top / name
        self.scratch = self.folder / "agent"
        self.scratch.mkdir(parents=True)
        self.born = threading.Event()
        self.turn: Turn | None = None
        argv = [sys.executable, "-c", WAIT, str(self.scratch), str(mib), go, how]

        def play() -> None:
            def begun() -> None:
                self.born.set()
                started()
            self.turn = run_turn(argv, dict(os.environ), Sandbox("none"), self.scratch,
                                 (self.folder / "out", self.folder / "err"), timeout_s=60,
                                 started=begun)

        self.thread = threading.Thread(target=play, daemon=True)
        self.thread.start()

    def wrote(self) -> bool:
        return (self.scratch / "written").exists()

    def done(self) -> Turn:
        self.thread.join(timeout=60)
        assert self.turn is not None, "its turn never ended"
        return self.turn


def test_a_sweep_never_kills_another_phones_program_as_it_starts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Red team 70 (2 in 86 attempts): phone 1's turn ended while phone 2's program was forked
    but not yet known as running, and phone 1's sweep killed it as its own stray. Here phone
    2's turn holds in that moment (its `started`, called as the program is born) until phone
    1's sweep is done. Where a pids cgroup tells programs apart (root on Linux), the moment is
    the few milliseconds before the program enters its own; without one (not root, macOS) it
    is all of it: so with none here."""
    monkeypatch.setattr(pids, "_PARENT", None)
    swept = threading.Event()
    first = Phone(tmp_path, "one", 0, "go1")
    until(first.born.is_set, "phone 1's program")
    second = Phone(tmp_path, "two", 0, "go2", started=lambda: swept.wait(timeout=20))
    until(second.born.is_set, "phone 2's program")
    (tmp_path / "go1").write_text("")  # phone 1's turn ends while phone 2's program is born
    ours = first.done()
    swept.set()
    (tmp_path / "go2").write_text("")
    theirs = second.done()
    assert theirs.code == 0 and not theirs.stopped, theirs
    assert not ours.said, ours.said  # it named nothing of phone 2's as its own


@pytest.fixture
def disk(tmp_path: Path) -> Iterator[Path]:
    """A 64 MiB disk: a turn may take what it has over the harness's 32 MiB."""
    with small_disk(tmp_path / "disk") as mounted:
        yield mounted


def test_a_turn_is_charged_only_for_its_own_writes_not_the_other_phones(
        disk: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A turn may take 16 MiB here. Phone 2's agent writes 4 MiB and waits; phone 1's,
    started after, writes 14 MiB, within what its turn may take. The disk lost 18 MiB in
    phone 2's turn, more than its 16: it was stopped as having filled the disk, for what
    phone 1 wrote."""
    monkeypatch.setattr(bounds, "FOLDER_MAX_BYTES", 16 << 20)
    second = Phone(disk, "two", 4, "go2")
    until(second.wrote, "phone 2's 4 MiB")
    first = Phone(disk, "one", 14, "go1")
    until(first.wrote, "phone 1's 14 MiB")
    (disk / "go2").write_text("")  # phone 2 ends with phone 1's writes on the disk
    theirs = second.done()
    assert theirs.code == 0 and not theirs.stopped, theirs
    assert (second.scratch / "mine").stat().st_size == 4 << 20  # kept: within its limits
    (disk / "go1").write_text("")
    ours = first.done()
    assert ours.code == 0 and not ours.stopped, ours


@pytest.mark.parametrize("how", ["named", "unlinked"])
def test_the_phone_that_fills_the_disk_is_stopped_never_the_one_beside_it(
        disk: Path, how: str) -> None:
    """Phone 1's agent fills the disk (a file in its folder, or one it unlinked and holds
    open, which only the free space and its open files show) while phone 2's (2 MiB) waits,
    and phone 2 ends then: phone 1 is stopped and what it wrote given back; phone 2 ends as
    it would alone."""
    second = Phone(disk, "two", 2, "go2")
    until(second.wrote, "phone 2's 2 MiB")
    first = Phone(disk, "one", 100, "go1", how=how)  # more than the disk holds
    until(first.wrote, "phone 1's filling the disk")
    (disk / "go2").write_text("")
    theirs = second.done()
    assert theirs.code == 0 and not theirs.stopped, theirs
    assert (second.scratch / "mine").stat().st_size == 2 << 20
    ours = first.done()
    assert "it filled the disk holding the run" in ours.stopped, ours
    assert bounds.disk_free(disk) > 48 << 20  # given back
