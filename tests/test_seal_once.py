"""The seal and resume paths do each piece of work once: the key's mode is read once a seal,
and a resume checks once that its folder holds the run's latest seal (the refusals themselves
are tested in test_seal_latest.py and test_seal_folder.py)."""

from __future__ import annotations

import contextlib
import json
import os
import resource
import shutil
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_seal import row, sealed_run
from test_seal_latest import second_attempt

from phoneshell.errors import RunError
from phoneshell.records import chain_of
from phoneshell.seal import Sealer, key_path, load_key, refuse_stale, verify_run


def test_a_seal_reads_the_key_s_mode_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run, sealer, manifest = sealed_run(tmp_path)
    key, real_stat, seen = str(key_path()), os.stat, []

    def stat(path: str | os.PathLike[str], *args: Any, **kwargs: Any) -> os.stat_result:
        if os.fspath(path) == key:
            seen.append(path)
        return real_stat(path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", stat)  # the os call counted, never replaced
    line = row("t", 2)
    with (run / "results.jsonl").open("a") as out:
        out.write(line.to_json() + "\n")
    sealer.add_result(line)
    assert sealer.seal(manifest).seal is not None
    assert len(seen) == 1


@contextlib.contextmanager
def files_capped_at(size: int) -> Iterator[None]:
    """Every file this process writes stops at `size` bytes (RLIMIT_FSIZE): the kernel refuses
    the rest (EFBIG), as a full disk refuses it (ENOSPC), with no code of ours replaced."""
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    was = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write refused, not a killed process
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, was)


def records_of(run: Path) -> dict[str, bytes]:
    """This machine's records of the latest seal made in `run` (other tests write others)."""
    records = key_path().with_name(key_path().name + ".latest")
    return {p.name: p.read_bytes() for p in records.glob("*.json")
            if json.loads(p.read_bytes())["folder"] == str(run)}


def test_a_run_json_that_cannot_be_written_is_said_once_and_loses_nothing(
        tmp_path: Path) -> None:
    run, sealer, manifest = sealed_run(tmp_path)
    before = (run / "run.json").read_bytes(), records_of(run)
    with files_capped_at(64), pytest.raises(RunError) as refused:
        sealer.seal(manifest)
    assert str(refused.value).startswith(
        f"{run / 'run.json'}: cannot write seal 2 of run R (File too large): run.json is left "
        "as it was, and so is this machine's record of the run's latest seal")
    assert refused.value.hint and "phoneshell run --resume R" in refused.value.hint
    after = (run / "run.json").read_bytes(), records_of(run)
    assert after == before and verify_run(run) == []  # seal 1, whole, and still the latest
    assert len(before[1]) == 2  # under the run, and under its folder
    resealed = sealer.seal(manifest).seal  # the next seal follows seal 1
    assert resealed is not None and resealed.sequence == 2
    assert verify_run(run) == []


def test_a_proof_of_another_state_is_checked_again(tmp_path: Path) -> None:
    """The proof a resume hands on is of one run.json in one folder: a folder rolled back since,
    or a copy, is checked (and refused) as if no proof were given."""
    run, sealer, first = sealed_run(tmp_path)
    snapshot = tmp_path / "snapshot"
    shutil.copytree(run, snapshot)
    later = second_attempt(run, sealer, first)
    proof = refuse_stale(run, later, load_key())
    assert proof.holds(run, later) and not proof.holds(snapshot, later)
    shutil.rmtree(run)
    shutil.copytree(snapshot, run)  # put back: seal 1
    audit = (run / "audit.jsonl").read_bytes()
    for folder in (run, snapshot):
        with pytest.raises(RunError, match="rolled back"):
            Sealer.resume(folder, load_key(), lambda: chain_of(audit), first, checked=proof)
    assert "rolled back" in verify_run(run, checked=proof)[0]
