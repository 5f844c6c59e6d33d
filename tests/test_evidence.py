"""The evidence folder: round trip, strict reading, and the flags grading relies on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sources import El, evidence, source

from phoneshell.audit import AuditEvent
from phoneshell.errors import EvidenceError
from phoneshell.evidence import (
    Capture,
    Claim,
    DeviceRead,
    Evidence,
    Foreground,
    ProbeReading,
    load_evidence,
    save_evidence,
)


def event(seq: int, stage: str, phase: str = "agent", **kw: object) -> AuditEvent:
    return AuditEvent(v=2, run_id="r1", task_id="t", attempt=1, phase=phase, seq=seq, t=1.0 + seq,
                      kind="launch", stage=stage, params={"bundle_id": "com.apple.Maps"},
                      **kw)  # type: ignore[arg-type]


def full_evidence() -> Evidence:
    return Evidence(
        task_id="settings.about.reach", captured_at=1700000000.5,
        foreground=Foreground(bundle_id="com.apple.Preferences", name="Settings", pid=312),
        captures=(Capture("final", source(El(label="Model Number")), 1.0),
                  Capture("scroll", source(El(label="Serial Number")), 2.0)),
        claim=Claim(status="done", answer="MQ163LL/A", summary="Opened About"),
        probes=(ProbeReading(name="notes_titled", arg="x", before=0, after=1),),
        reads=(DeviceRead(probe="settings_value", arg="General > About > Model Number",
                          value="MQ163LL/A"),),
        events=(event(1, "intent", app_before="com.apple.springboard"),
                event(1, "outcome", ok=True, app_after="com.apple.Maps")), audited=True,
        flags=frozenset({"unsettled"}), screenshot_png=b"\x89PNG fake")


def test_round_trip_keeps_everything(tmp_path: Path) -> None:
    original = full_evidence()
    save_evidence(original, tmp_path / "ev")
    loaded = load_evidence(tmp_path / "ev")
    assert loaded == original  # every field compares, sources by their XML text
    assert loaded.final is not None and loaded.final.source.find("Model Number")
    assert [c.role for c in loaded.captures] == ["final", "scroll"]
    assert (tmp_path / "ev" / "sources" / "00-final.xml").exists()


def test_agent_actions_join_intent_and_outcome() -> None:
    ev = Evidence("t", 1.0, events=(event(1, "intent", phase="setup"), event(2, "intent"),
                                    event(2, "outcome", ok=True, app_after="com.apple.Maps"),
                                    event(3, "intent")))
    acts = ev.agent_actions()
    assert [(a.seq, a.ok, a.app_after) for a in acts] == [(2, True, "com.apple.Maps"),
                                                          (3, None, "")]


def test_flags_derived_from_the_sources() -> None:
    assert evidence(final="<cut").all_flags() >= {"source_truncated", "screen_unreadable"}
    assert "screen_unreadable" in Evidence("t", 1.0).all_flags()
    assert evidence(El(label="x")).all_flags() == frozenset()


def manifest(tmp_path: Path) -> Path:
    save_evidence(full_evidence(), tmp_path)
    return tmp_path / "evidence.json"


@pytest.mark.parametrize("change, message", [
    (lambda m: m.update(version=9), "version 9 is not supported"),
    (lambda m: m.pop("task_id"), "missing field 'task_id'"),
    (lambda m: m.update(extra=1), "unknown field 'extra'"),
    (lambda m: m.update(flags=["sleepy"]), "field 'flags.0': Input should be 'unsettled'"),
    (lambda m: m["claim"].update(status="maybe"),
     "field 'claim.status': Input should be 'done', 'gave_up' or 'failed'"),
    (lambda m: m["sources"][0].update(file="../../etc/passwd"), "points outside"),
    (lambda m: m["sources"][0].update(file="sources/99-final.xml"), "which is missing"),
    (lambda m: m["probes"][0].update(before="one"),
     "field 'probes.0.before': Input should be a valid integer"),
])
def test_bad_manifests_are_refused_with_the_reason(tmp_path: Path, change: object,
                                                  message: str) -> None:
    path = manifest(tmp_path)
    data = json.loads(path.read_text())
    change(data)  # type: ignore[operator]
    path.write_text(json.dumps(data))
    with pytest.raises(EvidenceError) as caught:
        load_evidence(tmp_path)
    assert message in str(caught.value)


def test_missing_folder_and_broken_json(tmp_path: Path) -> None:
    with pytest.raises(EvidenceError, match="evidence.json is missing"):
        load_evidence(tmp_path / "nothing")
    (tmp_path / "evidence.json").write_text("{not json")
    with pytest.raises(EvidenceError, match="evidence.json: not valid JSON"):
        load_evidence(tmp_path)


def test_a_torn_audit_tail_is_flagged_not_fatal(tmp_path: Path) -> None:
    save_evidence(full_evidence(), tmp_path)
    with (tmp_path / "audit.jsonl").open("a") as log:
        log.write('{"v": 2, "run_id": "r1", "se')
    loaded = load_evidence(tmp_path)
    assert "audit_torn" in loaded.flags and len(loaded.events) == 2
