"""The per-device lock across processes: the second taker learns who holds it; death frees it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from phoneshell.errors import RunError
from phoneshell.phones.lock import DeviceLock, lock_dir

KEY = "00008150001a24e11e78801c"
HOLDER = """
import sys
from pathlib import Path
from phoneshell.phones.lock import DeviceLock
lock = DeviceLock(sys.argv[1], run_id=sys.argv[2], directory=Path(sys.argv[3]))
lock.acquire()
print("held", flush=True)
sys.stdin.read()  # hold the lock until the test closes stdin or kills this process
"""


@pytest.fixture
def holder(tmp_path: Path) -> Iterator[subprocess.Popen[str]]:
    """Another process holding the lock on KEY for run R-other."""
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, KEY, "R-other", str(tmp_path)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline() == "held\n"
        yield proc
    finally:
        proc.kill()
        proc.wait()
        for stream in (proc.stdin, proc.stdout):
            if stream is not None:
                stream.close()


def test_the_second_taker_is_told_who_holds_the_phone(holder: subprocess.Popen[str],
                                                      tmp_path: Path) -> None:
    mine = DeviceLock(KEY, "R-mine", directory=tmp_path)
    with pytest.raises(RunError) as caught:
        mine.acquire()
    assert f"device {KEY} is in use by pid {holder.pid} (run R-other, since " in str(caught.value)
    assert "two runs must never drive one phone" in caught.value.hint
    seen = mine.holder()
    assert seen is not None and (seen.pid, seen.run_id, seen.key) == (holder.pid, "R-other", KEY)
    assert not mine.held


def test_released_when_the_holder_exits(holder: subprocess.Popen[str], tmp_path: Path) -> None:
    assert holder.stdin is not None
    holder.stdin.close()  # the holder returns from its read and exits without releasing
    assert holder.wait() == 0
    with DeviceLock(KEY, "R-mine", directory=tmp_path) as mine:
        assert mine.held and mine.holder() is not None


def test_a_killed_holder_leaves_a_lock_that_is_taken_over(holder: subprocess.Popen[str],
                                                         tmp_path: Path) -> None:
    holder.kill()  # SIGKILL: no cleanup runs; the kernel drops the flock
    holder.wait()
    lock_file = tmp_path / f"{KEY}.lock"
    assert json.loads(lock_file.read_text())["pid"] == holder.pid  # stale contents remain
    mine = DeviceLock(KEY, "R-mine", directory=tmp_path, command="phoneshell run").acquire()
    try:
        written = json.loads(lock_file.read_text())
        assert (written["pid"], written["run_id"], written["command"]) == (
            os.getpid(), "R-mine", "phoneshell run")
    finally:
        mine.release()
    assert lock_file.read_text() == "" and mine.holder() is None


def test_two_locks_in_one_process_exclude_each_other_too(tmp_path: Path) -> None:
    first = DeviceLock(KEY, "R1", directory=tmp_path).acquire()
    try:
        with pytest.raises(RunError, match=rf"in use by pid {os.getpid()} \(run R1"):
            DeviceLock(KEY, "R2", directory=tmp_path).acquire()
        assert first.acquire() is first  # taking it again is a no-op
        with DeviceLock("127.0.0.1:8100", "R2", directory=tmp_path):  # another phone is free
            pass
    finally:
        first.release()
    with DeviceLock(KEY, "R2", directory=tmp_path):
        pass
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"{KEY}.lock", "127.0.0.1_8100.lock"]


def test_where_locks_live(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PHONESHELL_LOCK_DIR", raising=False)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path / "run"))
    assert lock_dir() == tmp_path / "run" / "phoneshell" / "locks"
    monkeypatch.delenv("XDG_RUNTIME_DIR")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert lock_dir() == tmp_path / "home" / ".cache" / "phoneshell" / "locks"
    monkeypatch.setenv("PHONESHELL_LOCK_DIR", str(tmp_path / "locks"))
    with DeviceLock(KEY, "R") as lock:
        assert lock.path == tmp_path / "locks" / f"{KEY}.lock"


def test_an_unwritable_lock_dir_is_a_run_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(RunError, match="cannot create the device lock"):
        DeviceLock(KEY, directory=blocker / "locks").acquire()
