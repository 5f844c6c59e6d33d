"""The seal: what it vouches for, and every way a run can stop matching it."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from phoneshell.records import (
    CHAIN_START,
    ResultRow,
    RunManifest,
    Teardown,
    chain_of,
    read_record,
    write_record,
)
from phoneshell.seal import KEY_ENV, Sealer, load_key, verify_evidence, verify_run


def row(task: str, attempt: int = 1) -> ResultRow:
    return ResultRow(run_id="R", task_id=task, attempt=attempt, agent="solution",
                     outcome="passed", passed=True, skipped=False, skip_reason="", checks=(),
                     claim=None, started_at=1.0, seconds=1.0, teardown=Teardown(ok=True))


def sealed_run(tmp_path: Path) -> tuple[Path, Sealer, RunManifest]:
    """A run folder of one attempt, sealed."""
    run = tmp_path / "R"
    evidence = run / "attempts" / "t" / "1" / "evidence"
    evidence.mkdir(parents=True)
    (evidence / "evidence.json").write_text("{}")
    (run / "attempts" / "t" / "1" / "verdict.json").write_text("{}")
    audit = b'{"a": 1}\n{"a": 2}\n'
    (run / "audit.jsonl").write_bytes(audit)
    # started now, as a run is: the run a seal is the latest of is its id and start time
    manifest = RunManifest(run_id="R", started_at=time.time(), phoneshell_version="0",
                           git_commit="", agent="solution", paths=(), task_globs=(), repeat=1,
                           devices=(), tasks=())
    sealer = Sealer(run, load_key(create=True), lambda: chain_of(audit))
    first = row("t")
    (run / "results.jsonl").write_text(first.to_json() + "\n")
    sealer.add_result(first)
    sealer.add_attempt(run / "attempts" / "t" / "1")
    return run, sealer, sealer.seal(manifest)


def test_a_sealed_run_verifies_and_its_evidence_is_found(tmp_path: Path) -> None:
    run, _, manifest = sealed_run(tmp_path)
    assert verify_run(run) == []
    assert manifest.seal is not None and {f.path for f in manifest.seal.files} == {
        "attempts/t/1/evidence/evidence.json", "attempts/t/1/verdict.json"}
    assert verify_evidence(run / "attempts" / "t" / "1" / "evidence") == (run, [])
    assert verify_evidence(tmp_path) == (None, [])  # not inside a run: nothing to check


@pytest.mark.parametrize(("edit", "says"), [
    (lambda run: (run / "audit.jsonl").write_text('{"a": 1}\n{"a": 3}\n'),
     "audit.jsonl: its first 2 line(s) are not the ones sealed"),
    (lambda run: (run / "audit.jsonl").write_text('{"a": 1}\n{"a": 2}\n{"a": 4}\n'),
     "audit.jsonl: 9 byte(s) (1 line(s)) were added after the last seal"),
    (lambda run: (run / "results.jsonl").write_text(row("t").model_copy(
        update={"seconds": 2.0}).to_json() + "\n"),
     "results.jsonl: its first 1 line(s) are not the ones sealed"),
    (lambda run: (run / "attempts" / "t" / "1" / "verdict.json").write_text('{"x": 1}'),
     "attempts/t/1/verdict.json: changed since it was sealed"),
    (lambda run: (run / "attempts" / "t" / "1" / "verdict.json").unlink(),
     "attempts/t/1/verdict.json: missing (it was sealed)"),
    (lambda run: (run / "attempts" / "t" / "1" / "evidence" / "extra.xml").write_text("<a/>"),
     "attempts/t/1/evidence/extra.xml: not sealed"),
])
def test_every_change_after_the_seal_is_named(tmp_path: Path, edit: object, says: str) -> None:
    run, _, _ = sealed_run(tmp_path)
    edit(run)  # type: ignore[operator]
    assert any(says in p for p in verify_run(run)), verify_run(run)


def test_run_json_is_signed_with_a_key_kept_elsewhere(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    run, _, manifest = sealed_run(tmp_path)
    write_record(run / "run.json", manifest.model_copy(update={"agent": "someone-else"}))
    assert verify_run(run) == [f"{run / 'run.json'}: changed since it was signed"]
    write_record(run / "run.json", manifest)
    monkeypatch.setenv(KEY_ENV, str(tmp_path / "another.key"))
    load_key(create=True)
    assert "was sealed with another key" in verify_run(run)[0]
    monkeypatch.setenv(KEY_ENV, str(tmp_path / "none.key"))
    assert verify_run(run)[0].startswith(f"no signing key at {tmp_path / 'none.key'}")


def test_a_try_moved_aside_is_sealed_where_it_now_is(tmp_path: Path) -> None:
    run, sealer, manifest = sealed_run(tmp_path)
    (run / "attempts" / "t" / "1").rename(run / "attempts" / "t" / "1.skipped-1")
    assert any("missing" in p for p in verify_run(run))
    sealer.moved(run / "attempts" / "t" / "1", run / "attempts" / "t" / "1.skipped-1")
    sealer.seal(manifest)
    assert verify_run(run) == []
    seal = read_record(run / "run.json", RunManifest).seal
    assert seal is not None and seal.logs[0].chain != CHAIN_START


def test_the_key_is_made_once_readable_by_its_owner_only(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, str(tmp_path / "keys" / "k"))
    key = load_key(create=True)
    assert load_key() == key and len(key) == 32
    assert (tmp_path / "keys" / "k").stat().st_mode & 0o777 == 0o600
