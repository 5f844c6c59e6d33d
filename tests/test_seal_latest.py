"""A seal proves a state of a run is authentic; the record beside the key says which state is the
latest: a folder put back to an earlier seal (rolled back) or copied and sealed on apart (forked)
is refused, a copy verified where no record of its run is kept is not, and runs sealed before
seals were numbered still verify."""

from __future__ import annotations

import hashlib
import hmac
import json
import shutil
from pathlib import Path

import pytest
from test_seal import row, sealed_run

from phoneshell.errors import RunError
from phoneshell.records import RunManifest, chain_of, read_record
from phoneshell.seal import KEY_ENV, Sealer, key_path, load_key, verify_run


def second_attempt(run: Path, sealer: Sealer, manifest: RunManifest) -> RunManifest:
    """The run's next attempt recorded and sealed, as the runner does."""
    folder = run / "attempts" / "t" / "2"
    (folder / "evidence").mkdir(parents=True)
    (folder / "verdict.json").write_text('{"passed": false}')
    line = row("t", 2)
    with (run / "results.jsonl").open("a") as out:
        out.write(line.to_json() + "\n")
    sealer.add_result(line)
    sealer.add_attempt(folder)
    return sealer.seal(manifest)


def resumed(run: Path) -> Sealer:
    """A Sealer going on from the folder, as `--resume` makes it (refusing as it does)."""
    audit = (run / "audit.jsonl").read_bytes()
    return Sealer.resume(run, load_key(), lambda: chain_of(audit),
                         read_record(run / "run.json", RunManifest))


def test_a_folder_put_back_to_an_earlier_seal_is_refused(tmp_path: Path) -> None:
    run, sealer, first = sealed_run(tmp_path)
    snapshot = tmp_path / "snapshot"
    shutil.copytree(run, snapshot)  # taken mid-run, while it held seal 1
    later = second_attempt(run, sealer, first)  # the failure the rollback would hide
    assert first.seal is not None and later.seal is not None
    assert (first.seal.sequence, later.seal.sequence) == (1, 2)
    assert verify_run(run) == []
    shutil.rmtree(run)
    shutil.copytree(snapshot, run)  # put back: every file as seal 1 has it, no key needed
    problems = verify_run(run)
    assert problems == [
        "run.json holds seal 1 of run R, but this machine sealed the run up to seal 2: the "
        "folder was rolled back to an earlier state, so what the run recorded after it is "
        "missing or replaced"]
    with pytest.raises(RunError, match="cannot be continued from .*rolled back"):
        resumed(run)
    # the snapshot itself (another folder): the same, and says where the latest seal was made
    assert f"up to seal 2, in '{run}'" in verify_run(snapshot)[0]


def test_two_copies_sealed_on_apart_are_both_refused_as_forked(tmp_path: Path) -> None:
    run, _, first = sealed_run(tmp_path)
    copy = tmp_path / "copy" / "R"
    shutil.copytree(run, copy)
    said: list[str] = []
    one, other = resumed(run), resumed(copy)  # both hold the latest seal: both may go on
    other.say = said.append
    second_attempt(run, one, first)
    assert verify_run(run) == []  # the first to seal is the run's latest, so far
    second_attempt(copy, other, first)  # sealed from seal 1 after seal 2 was made: a fork
    assert said == [f"WARNING: seal 2 was made in '{copy}' from seal 1, after seal 2 was made "
                    f"in '{run}'"]
    for folder in (run, copy):
        (problem,) = verify_run(folder)
        assert problem.startswith("run R was forked (copies of it were sealed apart: ")
        assert problem.endswith("no copy of it is trusted on this machine")
        with pytest.raises(RunError, match="was forked"):
            resumed(folder)


def test_another_seal_of_the_latest_number_is_refused_as_forked(tmp_path: Path) -> None:
    """Two copies sealed from one state whose record was lost between them (a crash between
    run.json and the record): the copy whose seal is not the one recorded is a fork."""
    run, _, first = sealed_run(tmp_path)
    copy = tmp_path / "copy" / "R"
    shutil.copytree(run, copy)
    records = key_path().with_name(key_path().name + ".latest")
    saved = {p.name: p.read_bytes() for p in records.iterdir()}
    second_attempt(copy, resumed(copy), first)
    for name, data in saved.items():  # the record as it was before the copy's seal
        (records / name).write_bytes(data)
    second_attempt(run, resumed(run), first)
    assert verify_run(run) == []
    assert verify_run(copy) == [
        f"run.json holds a seal 2 of run R other than the one this machine made, in '{run}': "
        "the run was copied and sealed apart (forked), so neither copy is the run"]


def test_a_copy_where_no_record_of_its_run_is_kept_verifies_and_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run, _, _ = sealed_run(tmp_path)
    elsewhere = tmp_path / "elsewhere" / "run-signing.key"  # the key copied, no records
    elsewhere.parent.mkdir()
    shutil.copyfile(key_path(), elsewhere)
    monkeypatch.setenv(KEY_ENV, str(elsewhere))
    assert verify_run(run) == []  # this machine cannot tell; it claims nothing either way
    sealer = resumed(run)
    assert second_attempt(run, sealer, read_record(run / "run.json", RunManifest)).seal
    assert verify_run(run) == []
    kept = [p.suffix for p in (tmp_path / "elsewhere" / "run-signing.key.latest").iterdir()]
    assert set(kept) == {".json"} and len(kept) >= 2  # from now on, this machine keeps the
    # run's latest seal: under the run, and under the folder it was sealed in


def test_a_run_sealed_before_seals_were_numbered_still_verifies(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run, _, sealed = sealed_run(tmp_path)
    old = sealed.to_plain()
    del old["seal"]["sequence"]  # run.json as the harness wrote it before, signed its way
    old["seal"]["signature"] = ""
    text = json.dumps(old, sort_keys=True, separators=(",", ":"))
    old["seal"]["signature"] = hmac.new(load_key(), text.encode(), hashlib.sha256).hexdigest()
    (run / "run.json").write_text(json.dumps(old))
    manifest = read_record(run / "run.json", RunManifest)
    assert manifest.seal is not None and manifest.seal.sequence == 0
    # this machine made seal 1 of the run after that state: put back, it is rolled back
    assert verify_run(run)[0].startswith("run.json holds seal 0 of run R, but this machine "
                                         "sealed the run up to seal 1")
    elsewhere = tmp_path / "elsewhere" / "k"  # where no record of it is kept: as it always was
    elsewhere.parent.mkdir()
    shutil.copyfile(key_path(), elsewhere)
    monkeypatch.setenv(KEY_ENV, str(elsewhere))
    assert verify_run(run) == []
    assert second_attempt(run, resumed(run), manifest).seal.sequence == 1  # numbered on
    assert verify_run(run) == []
