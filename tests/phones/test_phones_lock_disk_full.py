"""A lock whose holder cannot be written (a real full disk: a 64 MiB tmpfs, `small_disk`) is not
taken: the error names the lock file and keeps ENOSPC, nothing stays held, so the same process
takes it once there is room (a retry, a resume), and the empty file it left names no holder."""

from __future__ import annotations

import errno
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from small_disk import ballast, small_disk

from phoneshell.phones.lock import DeviceLock
from phoneshell.records.layout import LOCK
from phoneshell.runner.folder import writer, writing


@pytest.fixture
def full_disk(tmp_path: Path) -> Iterator[Path]:
    with small_disk(tmp_path / "disk") as mounted:
        ballast(mounted, 0)
        yield mounted


def test_a_device_lock_the_full_disk_refused_is_not_held_and_is_taken_once_there_is_room(
        full_disk: Path) -> None:
    lock = DeviceLock("http://127.0.0.1:8100", "R", directory=full_disk)
    with pytest.raises(OSError) as refused:
        lock.acquire()
    assert refused.value.errno == errno.ENOSPC
    assert refused.value.filename == str(lock.path) and "was not taken" in str(refused.value)
    assert not lock.held
    assert DeviceLock(lock.key, directory=full_disk).holder() is None  # empty: nobody's
    os.unlink(full_disk / "ballast")
    again = DeviceLock(lock.key, "R", directory=full_disk).acquire()  # was: in use by itself
    try:
        holder = DeviceLock(lock.key, directory=full_disk).holder()
        assert holder is not None and holder.pid == os.getpid() and holder.run_id == "R"
    finally:
        again.release()


def test_a_run_folder_lock_the_full_disk_refused_is_not_held_and_a_resume_here_takes_it(
        full_disk: Path) -> None:
    run_dir = full_disk / "R"
    with pytest.raises(OSError) as refused:
        writing(run_dir, "R")
    assert refused.value.errno == errno.ENOSPC and refused.value.filename == str(run_dir / LOCK)
    assert writer(run_dir) is None  # its empty run.lock is no foreign holder
    os.unlink(full_disk / "ballast")
    lock = writing(run_dir, "R")  # was: 'is being written by another phoneshell' (itself)
    try:
        holder = writer(run_dir)
        assert holder is not None and holder.pid == os.getpid()
    finally:
        lock.release()
