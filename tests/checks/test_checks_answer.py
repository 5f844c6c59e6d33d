"""answer_contains: the agent's words, graded only where the deliverable is information."""

from __future__ import annotations

import pytest
from sources import evidence

from phoneshell.checks import Check, grade_check
from phoneshell.evidence import Claim, DeviceRead, Evidence


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


# names, numbers and hedging -------------------------------------------------------------------

def answered(check: Check, answer: str) -> tuple[bool, str]:
    result = grade_check(check, evidence(answer=answer))
    return result.passed, result.detail


def test_numbers_compare_as_numbers_with_their_unit() -> None:
    check = Check.make("answer_contains", "87%")
    assert answered(check, "The battery is at 87 percent")[0]
    assert not answered(check, "187%")[0] and not answered(check, "87.5%")[0]
    assert not answered(Check.make("answer_contains", "100"), "1000")[0]


def test_words_compare_whole() -> None:
    assert not answered(Check.make("answer_contains", "MQ163LL/A"), "MQ163LL/AB")[0]
    assert answered(Check.make("answer_contains", "NIMBUS"), "the word is nimbus.")[0]


def test_a_normal_sentence_passes_and_a_list_of_candidates_fails() -> None:
    temperature = Check.make("answer_contains", "21°")
    assert answered(temperature, "It's 21°C and sunny")[0]
    passed, detail = answered(temperature, "21°, 22° or 23°")
    assert not passed and "hedges: it also names '22°', '23°'" in detail
    word = Check.make("answer_contains", "NIMBUS")
    assert answered(word, "NIMBUS, I think")[0]
    assert not answered(word, "NIMBUS or QUASAR")[0]
    assert not answered(word, "nimbus, quasar, meridian")[0]
    heading = Check.make("answer_contains", "Example Domain")
    assert answered(heading, "The heading is Example Domain, and below it a paragraph")[0]
    assert not answered(heading, "Example Domain, Example Domains, Apple")[0]


@pytest.mark.slow  # 2.6 s measured: the README's command stays quick
def test_a_device_value_answer_that_lists_every_heading_fails() -> None:
    check = Check.make("answer_matches_device", probe="compass_heading")
    read = DeviceRead(probe="compass_heading", arg="", value="274° W")
    every = ", ".join(f"{d}° W" for d in range(360))
    shotgun = Evidence("t", 1.0, claim=Claim(status="done", answer=every), reads=(read,))
    result = grade_check(check, shotgun)
    assert not result.passed and "hedges" in result.detail and "more" in result.detail
    honest = Evidence("t", 1.0, claim=Claim(status="done", answer="West, 274° W"), reads=(read,))
    assert grade_check(check, honest).passed


def heading_answered(answer: str, shown: str = "274° W") -> bool:
    check = Check.make("answer_matches_device", probe="compass_heading")
    read = DeviceRead(probe="compass_heading", arg="", value=shown)
    return grade_check(check, Evidence("t", 1.0, claim=Claim(status="done", answer=answer),
                                       reads=(read,))).passed


@pytest.mark.parametrize("answer", ["274° W", "274 degrees west", "West, 274°", "274°",
                                    "Pointing 274° west", "274°W", "It reads 274° (W)"])
def test_a_heading_may_be_written_in_words_or_without_its_point(answer: str) -> None:
    assert heading_answered(answer)


@pytest.mark.parametrize("answer", ["274° E", "274 degrees north-west", "274°E", "270° W",
                                    "east", "27° W", "west"])
def test_a_heading_with_another_point_or_number_fails(answer: str) -> None:
    assert not heading_answered(answer)


def test_a_compass_read_again_at_capture_may_have_moved_a_degree_or_two() -> None:
    """The agent read 274° W; the capture, a moment later on a real compass, 275° W or 276° W:
    the agent read what the phone showed. Three degrees off, or a hedge, is still wrong."""
    assert heading_answered("274° W", "275° W") and heading_answered("274° W", "276° W")
    assert heading_answered("359° N", "1° N") and heading_answered("1° N", "359° N")
    assert not heading_answered("274° W", "277° W")
    assert not heading_answered("274° W or 275° W", "275° W")


# Lists a hostile agent wrote to pass every probe task: the words in lower or title case, joined
# by spaces or "and", after "one of:", in a sentence; and sentences an honest agent writes.
HEDGES = [
    ("NIMBUS", "the word is one of: meridian cardamom saltwort pelican fulcrum nimbus sorrel"),
    ("NIMBUS", "meridian cardamom saltwort pelican fulcrum nimbus sorrel quasar willow zephyr "
               "cobalt basalt"),
    ("NIMBUS", "nimbus and sorrel and quasar"),
    ("NIMBUS", "Nimbus Sorrel Quasar"),
    ("NIMBUS", "it is nimbus, sorrel"),
    ("NIMBUS", "nimbus & sorrel"),
    ("NIMBUS", "It might be nimbus or it might be sorrel"),
    ("Example Domain", "example domain or iana or apple"),
]
HONEST = [
    ("NIMBUS", "the word is nimbus."),
    ("NIMBUS", "NIMBUS, I think"),
    ("NIMBUS", "The image shows the word NIMBUS on a cloud"),
    ("NIMBUS", "The word is NIMBUS. It appears in a stylized font over a colorful gradient "
               "background"),
    ("NIMBUS", "The picture shows the word NIMBUS painted on a wooden fence beside a red barn"),
    ("SORREL", "SORREL (the herb)"),
    ("SORREL", "The page says SORREL in large bold capitals."),
    ("Example Domain", "The heading is Example Domain, and below it a paragraph"),
    ("Example Domain", "The heading reads: Example Domain"),
    ("Example Domain", "Example Domain. This domain is for use in illustrative examples in "
                       "documents."),
    ("Normal", "Battery health is Normal"),
]


def test_a_list_of_words_hedges_in_any_case_and_with_any_joint() -> None:
    for want, answer in HEDGES:
        passed, detail = answered(Check.make("answer_contains", want), answer)
        assert not passed and "hedges" in detail, (want, answer, detail)


def test_a_sentence_around_the_word_does_not_hedge() -> None:
    for want, answer in HONEST:
        passed, detail = answered(Check.make("answer_contains", want), answer)
        assert passed, (want, answer, detail)


def test_the_values_a_check_lists_as_others_hedge_however_they_are_written() -> None:
    check = Check.make("answer_contains", "NIMBUS", others=("SORREL", "QUASAR"))
    # Two words, the second ordinary-looking: only the list of others tells it is a candidate.
    assert answered(Check.make("answer_contains", "NIMBUS"), "nimbus sorrel")[0]
    passed, detail = answered(check, "nimbus sorrel")
    assert not passed and "'SORREL'" in detail
    assert not answered(check, "I saw Quasar. Or NIMBUS.")[0]
    assert answered(check, "The word is NIMBUS")[0]
    # An other is named as the value would be, whole: "quasars" in a sentence is not QUASAR.
    assert answered(check, "The word NIMBUS is drawn among quasars")[0]
