"""Reading audit.jsonl: strict per line, tolerant of a torn tail, intent joined with outcome."""

from __future__ import annotations

from phoneshell.audit import AuditEvent, actions, parse_audit

LINE = ('{{"v":1,"run_id":"r","task_id":"t","attempt":1,"phase":"agent","seq":{seq},"t":1.5,'
        '"kind":"tap","stage":"{stage}","params":{{"x":10,"y":20}},"app_before":"a",'
        '"app_after":"{after}","target":null,"ok":{ok},"error":""}}')


def line(seq: int, stage: str, ok: str = "null", after: str = "") -> str:
    return LINE.format(seq=seq, stage=stage, ok=ok, after=after)


def test_round_trip_of_one_event() -> None:
    text = line(1, "intent") + "\n"
    log = parse_audit(text)
    assert len(log.events) == 1 and log.torn_tail == "" and log.problems == ()
    assert parse_audit(log.events[0].to_json() + "\n").events == log.events


def test_torn_tail_is_reported_not_raised() -> None:
    text = line(1, "intent") + "\n" + line(1, "outcome", "true", "b")[:40]
    log = parse_audit(text)
    assert len(log.events) == 1 and log.torn_tail.startswith('{"v":1')


def test_whole_last_line_without_newline_is_kept() -> None:
    log = parse_audit(line(1, "intent") + "\n" + line(1, "outcome", "true", "b"))
    assert len(log.events) == 2 and log.torn_tail == ""


def test_bad_lines_are_problems_with_line_numbers() -> None:
    text = line(1, "intent") + "\nnot json\n" + line(2, "intent").replace('"tap"', '"poke"') + "\n"
    log = parse_audit(text, "x.jsonl")
    assert len(log.events) == 1
    assert log.problems[0].startswith("x.jsonl line 2: not JSON")
    assert "x.jsonl line 3" in log.problems[1] and "one of launch" in log.problems[1]


def test_actions_pair_by_seq_and_keep_missing_outcomes() -> None:
    log = parse_audit("\n".join([line(1, "intent"), line(1, "outcome", "true", "com.b"),
                                 line(2, "intent")]) + "\n")
    joined = actions(log.events)
    assert [(a.seq, a.ok, a.app_after, a.app_before) for a in joined] == [
        (1, True, "com.b", "a"), (2, None, "", "a")]
    assert "no outcome" in joined[1].describe() and "(10, 20)" in joined[1].describe()
    assert isinstance(log.events[0], AuditEvent)
