"""The run folder's lock holds whatever happens to run.lock, and nothing the harness opens in a
run folder follows a link planted there (red team 32)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from phoneshell.errors import RunError
from phoneshell.phones.lock import DeviceLock
from phoneshell.records import RunManifest
from phoneshell.runner.folder import writing
from phoneshell.runner.resume import refuse_contradictions
from phoneshell.seal import Sealer


def test_removing_run_lock_while_held_lets_no_second_writer_in(tmp_path: Path) -> None:
    held = writing(tmp_path / "R", "R")
    try:
        (tmp_path / "R" / "run.lock").unlink()  # a "stale lock" clean-up
        with pytest.raises(RunError, match="is being written by another phoneshell"):
            writing(tmp_path / "R", "R")
    finally:
        held.release()
    writing(tmp_path / "R", "R").release()  # free once released


def test_a_device_lock_file_replaced_between_open_and_flock_is_locked_as_it_now_is(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import phoneshell.phones.lock as lock

    real = lock.open_lock_file
    swapped: list[int] = []

    def open_then_replace(path: Path, *flags: int) -> int:
        fd = real(path, *flags)
        if not swapped:  # another process removes it and makes a new one meanwhile
            swapped.append(1)
            path.unlink()
            path.write_text("")
        return fd

    monkeypatch.setattr(lock, "open_lock_file", open_then_replace)
    taken = DeviceLock("phone", directory=tmp_path).acquire()
    try:
        monkeypatch.setattr(lock, "open_lock_file", real)
        with pytest.raises(RunError, match="is in use by"):
            DeviceLock("phone", directory=tmp_path).acquire()
    finally:
        taken.release()


def test_a_run_lock_link_is_never_followed(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious owner data")
    (tmp_path / "R").mkdir()
    (tmp_path / "R" / "run.lock").symlink_to(victim)
    with pytest.raises(RunError, match="never a link"):
        writing(tmp_path / "R", "R")
    assert victim.read_text() == "precious owner data"
    assert DeviceLock("run", directory=tmp_path / "R", lock_directory=True).holder() is None


def test_a_fifo_lock_file_is_refused_not_waited_on(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "phone.lock")
    with pytest.raises(RunError, match="not a regular file"):
        DeviceLock("phone", directory=tmp_path).acquire()


def manifest(**fields: object) -> RunManifest:
    base: dict[str, object] = dict(run_id="R", started_at=0.0, phoneshell_version="x",
                                   git_commit="", agent="null", paths=("environments",),
                                   task_globs=("settings.*",), repeat=1, devices=(), tasks=())
    return RunManifest(**{**base, **fields})  # type: ignore[arg-type]


def test_resume_options_are_compared_as_what_they_mean_not_as_text() -> None:
    recorded = manifest(agent="command:python3 agent.py  --fast")
    refuse_contradictions(recorded, agent=" command:python3 agent.py --fast",
                          task_globs=["settings.*", "settings.*"], paths=["./environments/"])
    with pytest.raises(RunError, match="--agent"):
        refuse_contradictions(recorded, agent="command:python3 agent.py --slow")
    refuse_contradictions(manifest(), agent=" null")


def test_a_sealer_never_resumes_a_run_with_no_seal_over_anything_recorded(
        tmp_path: Path) -> None:
    (tmp_path / "results.jsonl").write_text('{"forged": 1}\n')
    with pytest.raises(RunError, match="has no seal"):
        Sealer.resume(tmp_path, b"k" * 32, lambda: ("", 0, 0), manifest())
    (tmp_path / "results.jsonl").unlink()
    Sealer.resume(tmp_path, b"k" * 32, lambda: ("", 0, 0), manifest())  # nothing: a fresh start


def test_a_traceback_is_never_written_through_a_link_in_an_attempt_folder(
        tmp_path: Path) -> None:
    from phoneshell.runner.folder import write_note

    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    (tmp_path / "traceback.txt").symlink_to(victim)
    assert write_note(tmp_path / "traceback.txt", "Traceback ...") is False
    assert victim.read_text() == "precious"
    assert write_note(tmp_path / "other.txt", "Traceback ...") is True
