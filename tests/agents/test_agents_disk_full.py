"""A scored program that fills the disk holding its folder, on a real small disk: its turn is
stopped and failed, what it wrote is deleted and the disk given back, however little the disk
had free when it started (the watch is always on, its bound taken from the free space at the
start); a copy of its output the disk refuses is its failure, never a crash of the harness's
thread; and a disk short of the harness's room before the turn is refused as the disk's fault."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from small_disk import ballast, small_disk

from phoneshell.agents import bounds, capped_output
from phoneshell.agents.sandbox import Sandbox
from phoneshell.agents.turn import run_turn
from phoneshell.errors import RunError

FILL = ('dd if=/dev/zero of="$1/fill" bs=1M count=2000 2>/dev/null; '
        'echo "{\\"status\\": \\"done\\"}"')


@pytest.fixture
def disk(tmp_path: Path) -> Iterator[Path]:
    with small_disk(tmp_path / "disk") as mounted:
        yield mounted


def turn(folder: Path, script: str) -> tuple[str, Path]:
    """Run `script` as a program's turn with its folder on the disk: why it was stopped, and
    its scratch folder."""
    scratch = folder / "agent"
    scratch.mkdir(parents=True)
    done = run_turn(["/bin/sh", "-c", script, "sh", str(scratch)], dict(os.environ),
                    Sandbox("none"), scratch, (folder / "out", folder / "err"), timeout_s=60)
    return done.stopped, scratch


def test_a_program_filling_a_disk_that_started_small_is_stopped_and_it_is_given_back(
        disk: Path) -> None:
    """The disk has 64 MiB, under the old fixed reserve (512 MiB), which left it unwatched."""
    stopped, scratch = turn(disk / "attempt", FILL)
    assert "it filled the disk holding the run" in stopped, stopped
    assert "deleted" in stopped and not any(scratch.iterdir())
    assert bounds.disk_free(disk) > (48 << 20)  # given back: the harness can write its rows


def test_a_program_that_fills_the_disk_then_frees_it_still_fails_for_its_lost_output(
        disk: Path) -> None:
    """Full while it printed, free again when it exits: only its output, refused, shows it."""
    script = ('dd if=/dev/zero of="$1/fill" bs=1M count=2000 2>/dev/null; '
              'head -c 300000 /dev/zero | tr "\\0" x; rm "$1/fill"')
    stopped, _ = turn(disk / "attempt", script)
    # (a watch that looked in the moment it was full says that instead: failed all the same)
    assert "could not be kept" in stopped or "it filled the disk" in stopped, stopped


def test_an_output_copy_the_disk_refuses_ends_the_copy_not_the_thread(disk: Path) -> None:
    ballast(disk, 0)
    read, write = os.pipe()
    crashed: list[BaseException | None] = []
    hook, threading.excepthook = threading.excepthook, lambda a: crashed.append(a.exc_value)
    try:
        kept = capped_output.CappedOutput(os.fdopen(read, "rb"), disk / "agent.stdout")
        os.write(write, b"its last words\n" * 1000)
        os.close(write)
        kept.finish()
    finally:
        threading.excepthook = hook
    assert not crashed
    assert "agent.stdout could not be kept" in kept.unkept and "No space left" in kept.unkept


def test_a_disk_short_of_the_harness_room_before_the_turn_is_refused_naming_it(
        disk: Path) -> None:
    ballast(disk, bounds.HARNESS_ROOM_BYTES // 2)
    (disk / "attempt").mkdir()
    assert "not the agent's doing" in bounds.no_room(disk / "attempt")
    with pytest.raises(RunError, match=str(disk / "attempt")):
        bounds.DiskWatch(disk / "attempt")
