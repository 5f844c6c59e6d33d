"""What the run gives back of earlier agents before a turn (`runner.disk_room`), on a disk made
short by the turn's allowance (`bounds.FOLDER_MAX_BYTES` set past any disk): their scratch
folders and the middle of their output, never what is sealed, never an attempt another phone
has in play, never through a link; and nothing at all while the disk has room."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from phoneshell.agents import bounds
from phoneshell.runner.disk_room import NOTE, OUTPUT_TAIL_BYTES, make_room
from phoneshell.runner.folder import writing


def _attempt(run: Path, task: str, n: str, scratch: bytes = b"x" * 4096,
             output: bytes = b"") -> Path:
    folder = run / "attempts" / task / n
    (folder / "agent").mkdir(parents=True)
    (folder / "agent" / "cache.bin").write_bytes(scratch)
    (folder / "evidence").mkdir()
    (folder / "evidence" / "final.xml").write_text("<sealed/>")
    (folder / "verdict.json").write_text("{}")
    (folder / "agent.stdout").write_bytes(output)
    return folder


@pytest.fixture
def short(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every disk is short of what a turn may take."""
    monkeypatch.setattr(bounds, "FOLDER_MAX_BYTES", 1 << 60)


@pytest.mark.usefixtures("short")
def test_earlier_agents_files_are_given_back_and_said_never_what_is_sealed(
        tmp_path: Path) -> None:
    loud = b"a" * (3 * OUTPUT_TAIL_BYTES) + b'\n{"status": "done"}\n'
    earlier = _attempt(tmp_path, "t", "1", output=loud)
    skipped = _attempt(tmp_path, "t", "2.skipped-1")
    aside = tmp_path / "incomplete" / "t-3-1700000000"
    (aside / "agent").mkdir(parents=True)
    (aside / "agent" / "half").write_bytes(b"y" * 4096)
    now = tmp_path / "attempts" / "t" / "2"
    (now / "agent").mkdir(parents=True)
    (now / "agent" / "mine").write_text("in play")

    assert make_room(tmp_path, now, "t attempt 2", player=1) == ""
    for folder in (earlier, skipped, aside):
        assert not any((folder / "agent").iterdir()), folder
        assert "t attempt 2" in (folder / NOTE).read_text()
    out = (earlier / "agent.stdout").read_bytes()
    assert out.startswith(b"[phoneshell: the first ") and out.endswith(b'{"status": "done"}\n')
    assert len(out) < OUTPUT_TAIL_BYTES + 200
    assert (earlier / "evidence" / "final.xml").read_text() == "<sealed/>"
    assert (earlier / "verdict.json").read_text() == "{}"
    assert (now / "agent" / "mine").read_text() == "in play"


@pytest.mark.usefixtures("short")
def test_an_attempt_another_phone_has_in_play_is_never_given_back(tmp_path: Path) -> None:
    """A run on two phones plays two attempts side by side in one folder."""
    other = _attempt(tmp_path, "t", "1")
    make_room(tmp_path, other, "t attempt 1", player=1)  # phone 1's turn starts
    mine = tmp_path / "attempts" / "u" / "1"
    mine.mkdir(parents=True)
    make_room(tmp_path, mine, "u attempt 1", player=2)
    assert (other / "agent" / "cache.bin").exists()  # phone 1's agent is still at it
    following = tmp_path / "attempts" / "t" / "2"
    following.mkdir()
    make_room(tmp_path, following, "t attempt 2", player=1)  # phone 1 is done with it
    assert not (other / "agent" / "cache.bin").exists()


@pytest.mark.usefixtures("short")
def test_nothing_is_given_back_through_a_link(tmp_path: Path) -> None:
    """An unconfined agent could have put links where the run keeps its files."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep").write_bytes(b"k" * 4096)
    long = outside / "long.log"
    long.write_bytes(b"l" * (3 * OUTPUT_TAIL_BYTES))
    run = tmp_path / "run"
    linked = run / "attempts" / "t" / "1"
    linked.mkdir(parents=True)
    (linked / "agent").symlink_to(outside)
    (linked / "agent.stdout").symlink_to(long)
    os.link(long, linked / "agent.stderr")  # a second name of a file elsewhere
    (run / "attempts" / "u").symlink_to(outside, target_is_directory=True)
    now = run / "attempts" / "t" / "2"
    now.mkdir()
    make_room(run, now, "t attempt 2", player=1)
    assert (outside / "keep").stat().st_size == 4096
    assert long.stat().st_size == 3 * OUTPUT_TAIL_BYTES


def test_a_disk_with_room_for_the_turn_keeps_every_earlier_agents_files(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bounds, "FOLDER_MAX_BYTES", 0)
    monkeypatch.setattr(bounds, "HARNESS_ROOM_BYTES", 0)
    earlier = _attempt(tmp_path, "t", "1", output=b"o" * (3 * OUTPUT_TAIL_BYTES))
    now = tmp_path / "attempts" / "t" / "2"
    now.mkdir()
    assert make_room(tmp_path, now, "t attempt 2", player=1) == ""
    assert (earlier / "agent" / "cache.bin").exists() and not (earlier / NOTE).exists()
    assert (earlier / "agent.stdout").stat().st_size == 3 * OUTPUT_TAIL_BYTES


def test_a_disk_still_short_after_giving_back_says_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bounds, "HARNESS_ROOM_BYTES", 1 << 60)
    _attempt(tmp_path, "t", "1")
    now = tmp_path / "attempts" / "t" / "2"
    now.mkdir()
    short = make_room(tmp_path, now, "t attempt 2", player=1)
    assert "not the agent's doing" in short and f"earlier agents (their {NOTE})" in short


@pytest.mark.usefixtures("short")
def test_what_earlier_runs_beside_it_kept_of_their_agents_is_given_back_never_the_rest(
        tmp_path: Path) -> None:
    """An earlier run's kept scratch left a later run's first agent 0 MiB (red team 70): the
    runs folder's other runs give back their agents' files too, and nothing else of theirs;
    a folder that is no run, and a run another process is writing, are left alone."""
    loud = b"a" * (3 * OUTPUT_TAIL_BYTES) + b'\n{"status": "done"}\n'
    earlier = _attempt(tmp_path / "R1", "t", "1", output=loud)
    (tmp_path / "R1" / "run.json").write_text('{"sealed": "as it was"}')
    (tmp_path / "R1" / "audit.jsonl").write_text("kept\n")
    no_run = _attempt(tmp_path / "notes", "t", "1")
    written = _attempt(tmp_path / "R3", "t", "1")
    (tmp_path / "R3" / "run.json").write_text("{}")
    now = tmp_path / "R2" / "attempts" / "t" / "1"
    now.mkdir(parents=True)
    with writing(tmp_path / "R3", "R3"):  # R3 is being written (by this process, here)
        assert make_room(tmp_path / "R2", now, "t attempt 1", player=1) == ""
    assert not any((earlier / "agent").iterdir())
    assert "t attempt 1 of run R2" in (earlier / NOTE).read_text()
    out = (earlier / "agent.stdout").read_bytes()
    assert out.startswith(b"[phoneshell: the first ") and out.endswith(b'{"status": "done"}\n')
    assert (earlier / "evidence" / "final.xml").read_text() == "<sealed/>"
    assert (earlier / "verdict.json").read_text() == "{}"
    assert (tmp_path / "R1" / "run.json").read_text() == '{"sealed": "as it was"}'
    assert (tmp_path / "R1" / "audit.jsonl").read_text() == "kept\n"
    for left in (no_run, written):
        assert (left / "agent" / "cache.bin").exists() and not (left / NOTE).exists(), left
