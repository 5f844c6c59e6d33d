"""The latest seal of a run is kept under its folder too: a folder that held a sealed run and now
holds an unsealed run.json (which vouches for nothing it says, its start time included) or
another run is refused, while a run of the same id in another folder, a copy elsewhere and a run
made anew where one was removed are not (red team 45). A record that cannot be read is a check
not made, said as such, never blamed on the folder; and the records are readable as the key is."""

from __future__ import annotations

import json
import os
import shutil
import stat
from pathlib import Path

import pytest
from test_seal import sealed_run
from test_seal_latest import resumed

from phoneshell.errors import RunError
from phoneshell.records import RunManifest, read_record
from phoneshell.runner.aside import set_aside
from phoneshell.seal import (
    KEY_ENV,
    Unchecked,
    key_path,
    load_key,
    refuse_stale,
    verify_run,
)
from phoneshell.seal_refusal import require_verified


def unsealed_anew(run: Path, **fields: object) -> None:
    """What an adversary with the folder alone can do: run.json with no seal (nothing signs
    it), its start time moved (so the run's own record is not found) and any field changed,
    and everything the run recorded removed."""
    manifest = json.loads((run / "run.json").read_text())
    manifest.update(seal=None, started_at=manifest["started_at"] + 1, **fields)
    (run / "run.json").write_text(json.dumps(manifest))
    for name in ("attempts", "results.jsonl", "audit.jsonl"):
        path = run / name
        shutil.rmtree(path) if path.is_dir() else path.unlink()


def test_an_unsealed_run_json_where_a_sealed_run_was_is_refused(tmp_path: Path) -> None:
    run, _, _ = sealed_run(tmp_path)
    unsealed_anew(run, agent="solution")
    problems = verify_run(run)
    assert problems[0].endswith("run.json has no seal: the run sealed no attempt")
    assert problems[1].startswith("this folder held run R begun at ")
    assert "which this machine sealed up to seal 1 in it; its run.json now holds no seal of " \
           "run R begun at " in problems[1]
    assert problems[1].endswith("the folder was put back or replaced, so what the run it held "
                                "recorded is missing or replaced")
    said: list[str] = []
    with pytest.raises(RunError, match="cannot be continued from .*this folder held run R"):
        set_aside(run, read_record(run / "run.json", RunManifest), load_key(), said.append)
    (run / "audit.jsonl").write_bytes(b"")
    with pytest.raises(RunError, match="this folder held run R"):
        resumed(run)  # the Sealer itself refuses to sign it
    assert not (run / "results.jsonl").exists() and said == []  # nothing written or moved


def test_another_run_put_in_a_folder_that_held_a_run_is_refused(tmp_path: Path) -> None:
    run, _, _ = sealed_run(tmp_path / "a")
    other, _, _ = sealed_run(tmp_path / "b")  # run R again, in another folder: its own run
    assert verify_run(run) == [] and verify_run(other) == []
    copy = tmp_path / "c" / "R"
    shutil.copytree(run, copy)  # a copy elsewhere is judged by its run's record: it holds it
    assert verify_run(copy) == []
    shutil.rmtree(run)
    shutil.copytree(other, run)  # run b (signed, whole) put where run a was
    (problem,) = verify_run(run)
    assert problem.startswith("this folder held run R begun at ")
    assert "its run.json now holds seal 1 of run R begun at " in problem
    assert verify_run(other) == []


def test_a_run_made_anew_where_one_was_removed_verifies(tmp_path: Path) -> None:
    run, _, _ = sealed_run(tmp_path)
    shutil.rmtree(run)
    again, sealer, _ = sealed_run(tmp_path)  # the same id, the same folder: its first seal
    assert again == run and verify_run(run) == []
    assert resumed(run).previous is not None  # and it goes on


def test_a_record_that_cannot_be_read_is_a_check_not_made(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run, _, manifest = sealed_run(tmp_path)
    key = tmp_path / "key" / "run-signing.key"  # the key as another user may read it: the
    key.parent.mkdir()  # records beside it are out of reach (here: a link, never followed)
    shutil.copyfile(key_path(), key)
    (tmp_path / "records").mkdir()
    (tmp_path / "key" / "run-signing.key.latest").symlink_to(tmp_path / "records")
    monkeypatch.setenv(KEY_ENV, str(key))
    (line,) = verify_run(run)
    assert isinstance(line, Unchecked)
    assert line.startswith("could not check that run.json holds the latest seal of run R: "
                           "this machine's record of it cannot be read (")
    warned: list[str] = []
    require_verified(run, [line], unverified=False, warn=warned.append, anyway="")  # no refusal
    assert warned == [f"{run}: {line}"]
    with pytest.raises(RunError, match="could not check") as refused:
        refuse_stale(run, manifest, load_key())  # a resume seals on: it must know
    assert "resume it as a user who can read" in (refused.value.hint or "")
    with pytest.raises(RunError, match="does not match its seal: R/x: missing"):
        require_verified(run, [line, "R/x: missing"], unverified=False, warn=warned.append,
                         anyway="")


@pytest.mark.parametrize(("key_mode", "folder_mode", "file_mode"),
                         [(0o600, 0o700, 0o600), (0o640, 0o750, 0o640), (0o644, 0o755, 0o644)])
def test_the_records_are_readable_by_whoever_may_read_the_key(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, key_mode: int, folder_mode: int,
        file_mode: int) -> None:
    key = tmp_path / "key" / "k"
    key.parent.mkdir()
    shutil.copyfile(key_path(), key)
    os.chmod(key, key_mode)
    monkeypatch.setenv(KEY_ENV, str(key))
    sealed_run(tmp_path)
    records = tmp_path / "key" / "k.latest"
    assert stat.S_IMODE(records.stat().st_mode) == folder_mode
    assert {stat.S_IMODE(p.stat().st_mode) for p in records.iterdir()} == {file_mode}
