"""answer_contains: the agent's words, graded only where the deliverable is information."""

from __future__ import annotations

from sources import evidence

from phoneshell.checks import Check, grade_check
from phoneshell.evidence import Claim, Evidence


def answer_check(text: str, negate: bool = False) -> Check:
    return Check.make("answer_contains", text, negate=negate)


def test_answer_contains_ignores_case_and_space() -> None:
    result = grade_check(answer_check("  MERIDIAN "), evidence(answer="The word is meridian."))
    assert result.passed and "meridian" in result.detail


def test_answer_contains_fails_on_another_word() -> None:
    result = grade_check(answer_check("MERIDIAN"), evidence(answer="It says NIMBUS"))
    assert not result.passed and "NIMBUS" in result.detail


def test_answer_contains_reads_the_whole_answer() -> None:
    long_answer = "x" * 5000 + " MERIDIAN"
    assert grade_check(answer_check("meridian"), evidence(answer=long_answer)).passed


def test_answer_contains_never_reads_the_summary() -> None:
    ev = Evidence("t", 1.0, claim=Claim(status="done", answer="", summary="the word was MERIDIAN"))
    result = grade_check(answer_check("MERIDIAN"), ev)
    assert not result.passed and "answer is empty" in result.detail and "summary" in result.detail


def test_answer_contains_fails_without_a_claim() -> None:
    result = grade_check(answer_check("MERIDIAN"), evidence())
    assert not result.passed and "no claim" in result.detail


def test_negated_answer_contains() -> None:
    assert grade_check(answer_check("NIMBUS", True), evidence(answer="MERIDIAN")).passed
    assert not grade_check(answer_check("NIMBUS", True), evidence(answer="nimbus")).passed
    unproven = grade_check(answer_check("NIMBUS", True), evidence())
    assert not unproven.passed and "absence unproven" in unproven.detail


def device_check() -> Check:
    return Check.make("answer_matches_device", "General > About > Model Number",
                      probe="settings_value")


def with_read(answer: str | None, value: str | None, error: str = "") -> Evidence:
    from phoneshell.evidence import DeviceRead
    claim = Claim(status="done", answer=answer) if answer is not None else None
    read = DeviceRead(probe="settings_value", arg="General > About > Model Number", value=value,
                      error=error)
    return Evidence("t", 1.0, claim=claim, reads=(read,))


def test_answer_matches_the_value_the_device_shows() -> None:
    result = grade_check(device_check(), with_read("It is mq163ll/a.", "MQ163LL/A"))
    assert result.passed and "the device shows General > About > Model Number = 'MQ163LL/A'" \
        in result.detail


def test_answer_with_another_phones_value_fails() -> None:
    assert not grade_check(device_check(), with_read("A3256LL/A", "MQ163LL/A")).passed
    assert not grade_check(device_check(), with_read("", "MQ163LL/A")).passed


def test_an_unread_device_value_fails_with_the_reason() -> None:
    result = grade_check(device_check(), with_read("MQ163LL/A", None, "About did not open"))
    assert not result.passed and "About did not open" in result.detail
    assert not grade_check(device_check(), Evidence("t", 1.0)).passed


def test_a_negated_device_match_fails_closed_when_the_value_was_not_read() -> None:
    negated = Check.make("answer_matches_device", "General > About > Model Number",
                    probe="settings_value", negate=True)
    assert grade_check(negated, with_read("A3256LL/A", "MQ163LL/A")).passed
    assert not grade_check(negated, with_read("MQ163LL/A", "MQ163LL/A")).passed
    unread = grade_check(negated, with_read("A3256LL/A", None, "About did not open"))
    assert not unread.passed and "absence unproven" in unread.detail
    assert "About did not open" in unread.detail
