"""Records: one strict, versioned reader for every file, and one policy for a cut-off JSONL tail."""

from __future__ import annotations

import os
import threading
from dataclasses import replace
from pathlib import Path

import pytest

from phoneshell.audit import Action, actions, parse_audit, read_audit
from phoneshell.records import (
    ELEMENT_MAX,
    TEXT_MAX,
    AttackReport,
    AttackResult,
    AuditEvent,
    RecordError,
    ResultRow,
    RunManifest,
    Target,
    append_line,
    chain_of,
    chain_of_chunks,
    read_lines,
    read_record,
    scan_lines,
    shortened,
    write_text_atomic,
)

LINE = ('{{"v":2,"run_id":"r","task_id":"t","attempt":1,"phase":"agent","seq":{seq},"t":1.5,'
        '"kind":"tap","stage":"{stage}","params":{{"x":10,"y":20}},"app_before":"a",'
        '"app_after":"{after}","target":null,"ok":{ok},"error":""}}')


def line(seq: int, stage: str, ok: str = "null", after: str = "") -> str:
    return LINE.format(seq=seq, stage=stage, ok=ok, after=after)


def test_round_trip_of_one_event() -> None:
    log = parse_audit(line(1, "intent") + "\n")
    assert len(log.records) == 1 and log.torn == "" and log.problems == ()
    assert parse_audit(log.records[0].to_json() + "\n").records == log.records
    assert isinstance(log.records[0], AuditEvent)


def test_a_line_without_its_newline_is_torn_even_when_it_parses() -> None:
    # One policy for every JSONL file: the newline commits a record, so a writer that died
    # before writing it never recorded that line, whatever the bytes happen to be.
    whole = parse_audit(line(1, "intent") + "\n" + line(1, "outcome", "true", "b"))
    assert len(whole.records) == 1 and whole.torn.endswith("}")
    cut = parse_audit(line(1, "intent") + "\n" + line(1, "outcome", "true", "b")[:40])
    assert len(cut.records) == 1 and cut.torn.startswith('{"v":2')


def test_bad_lines_are_problems_with_line_numbers() -> None:
    text = line(1, "intent") + "\nnot json\n" + line(2, "intent").replace('"tap"', '"poke"') + "\n"
    log = parse_audit(text, "x.jsonl")
    assert len(log.records) == 1
    assert log.problems[0].startswith("x.jsonl line 2: not valid JSON")
    assert log.problems[1].startswith("x.jsonl line 3: field 'kind'") and "'launch'" in \
        log.problems[1]


@pytest.mark.parametrize(("change", "says"), [
    (lambda t: t.replace('"v":2', '"v":1'), "version 1 is not supported"),
    (lambda t: t.replace('"v":2,', ""), "missing field 'v'"),
    (lambda t: t.replace('"seq":1', '"seq":"1"'), "field 'seq'"),
    (lambda t: t.replace('"seq":1', '"seq":true'), "field 'seq'"),
    (lambda t: t.replace('"error":""', '"error":"","extra":1'), "unknown field 'extra'"),
])
def test_records_are_read_strictly(change: object, says: str) -> None:
    text = change(line(1, "intent"))  # type: ignore[operator]
    with pytest.raises(RecordError, match=says):
        AuditEvent.parse(text, "audit.jsonl line 1")


def test_actions_pair_by_seq_and_keep_missing_outcomes() -> None:
    log = parse_audit("\n".join([line(1, "intent"), line(1, "outcome", "true", "com.b"),
                                 line(2, "intent")]) + "\n")
    joined = actions(log.records)
    assert [(a.seq, a.ok, a.app_after, a.app_before) for a in joined] == [
        (1, True, "com.b", "a"), (2, None, "", "a")]
    assert "no outcome" in joined[1].describe() and "(10, 20)" in joined[1].describe()


def test_deep_nesting_is_a_problem_not_a_crash(tmp_path: Path) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    log = parse_audit(line(1, "intent") + "\n" + deep + "\n")
    assert len(log.records) == 1 and "line 2" in log.problems[0]
    (tmp_path / "run.json").write_text('{"version": 1, "x": ' + deep + "}")
    with pytest.raises(RecordError, match="run.json"):
        read_record(tmp_path / "run.json", RunManifest)


def test_only_regular_files_under_the_limit_are_read(tmp_path: Path) -> None:
    fifo = tmp_path / "results.jsonl"
    os.mkfifo(fifo)
    writer = threading.Timer(5.0, lambda: open(fifo, "w").close())  # unblocks a hung reader
    writer.start()
    try:
        with pytest.raises(RecordError, match="not a regular file"):
            read_lines(fifo, ResultRow)
    finally:
        writer.cancel()
    folder = tmp_path / "evidence.json"
    folder.mkdir()  # Python refused to wrap its descriptor, naming the number: "Is a directory: 3"
    with pytest.raises(RecordError, match=r"evidence.json: not a regular file") as refused:
        read_record(folder, RunManifest)
    assert "Errno" not in str(refused.value)
    big = tmp_path / "run.json"
    big.write_text("{" + " " * 2000 + "}")
    with pytest.raises(RecordError, match="over the limit of 1,000"):
        read_record(big, RunManifest, limit=1000)


def test_an_event_keeps_what_the_phone_or_a_client_chose_short() -> None:
    typed = "t" * TEXT_MAX  # a request types at most 1,000 characters: never shortened
    event = AuditEvent.parse(line(1, "intent"), "test").model_copy(update={
        "params": {"text": typed, "url": "u" * 50_000, "x": 10},
        "target": Target(type="XCUIElementTypeTextView", label="Note", value="v" * 400_000),
        "app_before": "a" * 5000, "error": "e" * 9000})
    short = event.bounded()
    assert short.params["text"] == typed and short.params["x"] == 10
    assert short.target is not None and short.target.label == "Note"
    for text, limit in ((short.params["url"], TEXT_MAX), (short.target.value, ELEMENT_MAX),
                        (short.app_before, ELEMENT_MAX), (short.error, TEXT_MAX)):
        assert isinstance(text, str) and len(text) == limit and " characters, sha256 " in text
    assert short.target.value.startswith("v" * 900) and "400,000 characters" in short.target.value
    assert len(short.to_json()) < 9000 and short.bounded() == short
    assert AuditEvent.parse(line(1, "intent"), "test").bounded() == AuditEvent.parse(
        line(1, "intent"), "test")  # an event that holds nothing long is left as it is
    # shortened alike exactly when alike: equality still tells two fields apart
    assert shortened("x" * 5000, 100) == shortened("x" * 5000, 100)
    assert shortened("x" * 5000, 100) != shortened("x" * 4999 + "y", 100)


def test_a_log_is_read_a_line_at_a_time_whatever_its_size(tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    long = AuditEvent.parse(line(2, "intent"), "t").model_copy(update={
        "target": Target(type="XCUIElementTypeTextView", value="x" * 300_000)}).to_json()
    path.write_text(line(1, "intent") + "\n" + long + "\n" + line(3, "intent") + "\n"
                    + "{" + " " * 40 + "\n" + line(4, "intent")[:20])
    scan = scan_lines(path, AuditEvent, line_limit=100_000)
    assert [e.seq for e in scan] == [1, 3]
    assert scan.problems[0].endswith(f"line 2: {len(long):,} bytes is over the limit of "
                                     "100,000 for one line; not read")
    assert "line 4: not valid JSON" in scan.problems[1] and scan.torn == line(4, "intent")[:20]
    log = read_audit(path)  # 1 MiB a line: the long one is read, and kept short
    assert [e.seq for e in log] == [1, 2, 3] and len(log.problems) == 1
    assert log.records[1].target is not None and len(log.records[1].target.value) == ELEMENT_MAX


def test_a_log_is_chained_a_chunk_at_a_time_as_it_is_whole() -> None:
    data = b"".join(line(n, "intent").encode() + b"\n" for n in range(1, 6)) + b"torn"
    for upto in (0, 1, 300, len(data) - 10, len(data), len(data) + 5):
        for size in (1, 7, 4096):
            chunks = [data[i:i + size] for i in range(0, len(data), size)]
            assert chain_of_chunks(chunks, upto) == (
                chain_of(data[:upto]), max(0, len(data) - upto), data[upto:].count(b"\n"))


def test_an_append_after_a_torn_tail_starts_a_new_line(tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    path.write_text(line(1, "intent") + "\n" + line(1, "outcome")[:30])
    event = AuditEvent.parse(line(2, "intent"), "test")
    append_line(path, event)
    log = read_lines(path, AuditEvent)
    assert [e.seq for e in log] == [1, 2] and len(log.problems) == 1 and log.torn == ""


def test_records_are_never_written_through_a_link_planted_in_a_run_folder(
        tmp_path: Path) -> None:
    """An earlier unconfined agent or another user may plant links where a run writes: the
    harness (often root) refuses them, and what they point at is never touched."""
    victim = tmp_path / "owner.txt"
    victim.write_text("the owner's")
    results = tmp_path / "results.jsonl"
    results.symlink_to(victim)
    with pytest.raises(OSError):
        append_line(results, AuditEvent.parse(line(1, "intent"), "test"))
    run_json = tmp_path / "run.json"
    run_json.with_name(f".run.json.{os.getpid()}.tmp").symlink_to(victim)
    with pytest.raises(OSError):
        write_text_atomic(run_json, "{}")
    os.mkfifo(tmp_path / "audit.jsonl")
    with pytest.raises(OSError, match="not a regular file"):
        append_line(tmp_path / "audit.jsonl", AuditEvent.parse(line(1, "intent"), "test"))
    assert victim.read_text() == "the owner's" and not run_json.exists()


def test_a_failed_atomic_write_keeps_the_old_file_and_leaves_no_temporary(tmp_path: Path) -> None:
    """A write that fails part-way (a full disk; here text the encoder refuses) leaves the old
    file whole and no `.tmp` beside it for the next reader or a full disk to keep."""
    run_json = tmp_path / "run.json"
    run_json.write_text("{}")
    with pytest.raises(UnicodeEncodeError):
        write_text_atomic(run_json, "half \ud800 written")
    assert run_json.read_text() == "{}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.json"]


def test_an_attack_that_passed_without_being_compatible_breaks_its_task() -> None:
    row = {"task": "t", "instruction": "do x", "family": "echo", "attack": "echo:note:x",
           "finish": ["open_app: Notes"], "passed": True, "evidence": "attempts/t/1/evidence"}
    result = AttackResult.of(row, "attack")
    assert result.scored and result.breaks
    assert not AttackResult.of({**row, "compatible": True, "reason": "it is the task"},
                               "attack").breaks
    with pytest.raises(RecordError, match="cannot have passed"):
        AttackResult.of({**row, "skip_reason": "setup failed"}, "attack")
    report = AttackReport(tasks=1, families=("echo",), attacks=(result,), finishes=1,
                          replays=1, seconds=0.5, evidence="runs/a")
    again = AttackReport.parse(report.to_json(), "report")
    assert again == report and again.broken == (result,)
    with pytest.raises(RecordError, match="family"):
        AttackResult.of({**row, "family": "guess"}, "attack")


def test_a_tap_on_an_unnamed_element_says_what_it_touched() -> None:
    unnamed = Action(30, "agent", "tap", 1.0, {}, "com.apple.Preferences",
                     "com.apple.Preferences", Target(type="XCUIElementTypeCell", page="General"),
                     True, "")
    assert unnamed.describe() == "#30 agent tap an unnamed Cell on page 'General' ok"
    named = replace(unnamed, target=Target(type="XCUIElementTypeButton", label="Wi-Fi"))
    assert named.describe() == "#30 agent tap 'Wi-Fi' ok"
    untyped = replace(unnamed, target=Target(type=""))
    assert untyped.describe() == "#30 agent tap an unnamed element ok"
