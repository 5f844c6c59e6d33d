"""Answers as people write them (red teams 94 and 92): a model number beside its row's title, a
number glued to Chinese, Japanese or Cyrillic words, a range whose unit is written once, times
with AM or PM glued or dotted and on the 24-hour clock, and what the reader leaves unread says
why. Each is graded by the task's own check kind on evidence alone, as an honest agent's and a
guessing agent's answer would be."""

from __future__ import annotations

import pytest

from phoneshell.checks import Check, grade_check
from phoneshell.evidence import Claim, DeviceRead, Evidence

SERIAL = "General > About > Model Number"
MODEL = "MQ163LL/A | A3256"
"""What the Model Number probe reads: the row's part number, then the one a tap shows."""


def on_device(probe: str, shown: str, answer: str, arg: str = "") -> tuple[bool, str]:
    """`answer` graded by `answer_matches_device` of `probe` (reading `arg`), the device
    showing `shown`."""
    check = Check.make("answer_matches_device", arg or None, probe=probe)
    read = DeviceRead(probe=probe, arg=arg, value=shown)
    result = grade_check(check, Evidence("t", 1.0, claim=Claim(status="done", answer=answer),
                                         reads=(read,)))
    return result.passed, result.detail


def answered(value: str, answer: str) -> tuple[bool, str]:
    """`answer` graded by `answer_contains` of `value`."""
    result = grade_check(Check.make("answer_contains", value),
                         Evidence("t", 1.0, claim=Claim(status="done", answer=answer)))
    return result.passed, result.detail


# A model number beside its row's title ------------------------------------------------------

@pytest.mark.parametrize("answer", [
    "Model Number, MQ163LL/A", "| Model Number | MQ163LL/A |", "Model Number MQ163LL/A",
    "Model Number — MQ163LL/A", "Model Number = MQ163LL/A", "Model Number: MQ163LL/A",
    "MQ163LL/A (Model Number)", "| Field | Value |\n|---|---|\n| Model Number | MQ163LL/A |",
    "Model Number MQ163LL/A (iPhone 17 Pro)", "General > About > Model Number, MQ163LL/A"])
def test_a_model_number_may_be_copied_with_its_rows_title(answer: str) -> None:
    passed, detail = on_device("settings_value", MODEL, answer, SERIAL)
    assert passed, detail


@pytest.mark.parametrize("answer", [
    "Model Number, MQ163LL/A or MQ173LL/A", "| Model Number | MQ163LL/A, MN2K3LL/A |",
    "MQ163LL/A/MQ173LL/A", "Model Number MQ163LL/A MQ183LL/A", "mq163ll/a mq173ll/a"])
def test_another_model_number_beside_it_still_hedges(answer: str) -> None:
    passed, detail = on_device("settings_value", MODEL, answer, SERIAL)
    assert not passed and "hedges" in detail, detail


def test_the_rows_title_is_no_candidate_for_a_value_in_words() -> None:
    """A value without a digit, read from a row: the row's own title beside it names nothing
    else, while two other words beside it still list candidates."""
    arg = "General > About > Model Name"
    assert on_device("settings_value", "iPhone Air", "Model Name, iPhone Air", arg)[0]
    assert on_device("settings_value", "iPhone Air", "| Model Name | iPhone Air |", arg)[0]
    passed, detail = on_device("settings_value", "iPhone Air", "iPhone Air, Pixel Galaxy", arg)
    assert not passed and "hedges" in detail, detail


@pytest.mark.parametrize(("value", "answer"), [
    ("iphone 17 pro", "iphone 17 pro iphone air iphone 17 pro max"),
    ("NIMBUS", "one of: nimbus sorrel quasar"), ("NIMBUS", "Nimbus Sorrel Quasar"),
    ("NIMBUS", "the word is one of: meridian cardamom saltwort nimbus"),
    ("Example Domain", "example domain or iana or apple"),
    ("Example Domain", "Example Domain, Example Domains, Apple"),
    ("256 GB", "64 GB, 128 GB, 256 GB, 512 GB, 1 TB"), ("$5", "$5 or $6"),
    ("MQ163LL/A", "MQ163LL/A or MQ173LL/A")])
def test_the_lists_the_docs_name_still_hedge(value: str, answer: str) -> None:
    passed, detail = answered(value, answer)
    assert not passed and "hedges" in detail, detail


# A number glued to words of a script that is not Latin --------------------------------------

@pytest.mark.parametrize(("probe", "shown", "answer"), [
    ("battery_level", "86%", "电量86%"), ("battery_level", "26%", "バッテリー残量は26%です"),
    ("battery_level", "87%", "Батарея87%"), ("battery_level", "87%", "बैटरी87%"),
    ("battery_level", "87%", "แบตเตอรี่87%"), ("battery_level", "87%", "البطارية٨٧٪"),
    ("weather_temperature", "57°", "气温57°"),
    ("weather_temperature", "57°", "現在の気温は57°です"),
    ("weather_temperature", "57°", "气温57度"), ("compass_heading", "274° W", "航向274°")])
def test_a_number_glued_to_words_of_another_script_is_a_number(probe: str, shown: str,
                                                               answer: str) -> None:
    passed, detail = on_device(probe, shown, answer)
    assert passed, detail


@pytest.mark.parametrize(("value", "answer"), [
    ("87%", "电量87%或88%"), ("57°", "气温57°或58°"), ("87%", "Батарея87%, 88%")])
def test_glued_numbers_are_candidates_too(value: str, answer: str) -> None:
    passed, detail = answered(value, answer)
    assert not passed and "hedges" in detail, detail


@pytest.mark.parametrize(("value", "answer"), [("274", "274W"), ("163", "MQ163LL"),
                                             ("87%", "87x%"), ("87%", "Battery87%")])
def test_a_number_glued_to_latin_letters_stays_a_words(value: str, answer: str) -> None:
    passed, detail = answered(value, answer)
    assert not passed and "part of the word" in detail, detail


# A range or a list whose unit is written once --------------------------------------------------

@pytest.mark.parametrize(("probe", "shown", "answer"), [
    ("compass_heading", "274° W", "272 to 276°"), ("compass_heading", "274° W", "272–276°"),
    ("compass_heading", "274° W", "272—276°"), ("compass_heading", "274° W", "272/276°"),
    ("compass_heading", "274° W", "272~276°"), ("compass_heading", "274° W", "274 to 276°"),
    ("compass_heading", "274° W", "270°–280°"), ("weather_temperature", "57°", "57, 58 or 59°"),
    ("weather_temperature", "21°", "20-22°C"), ("weather_temperature", "57°", "57–58°"),
    ("battery_level", "87%", "86-88%"), ("battery_level", "87%", "87 or 88 percent")])
def test_a_range_whose_unit_is_written_once_names_each_end(probe: str, shown: str,
                                                            answer: str) -> None:
    """Every number of it is a candidate of the measure: it hedges when it holds the value,
    and does not name it when it only spans it."""
    passed, detail = on_device(probe, shown, answer)
    assert not passed, detail
    assert "hedges" in detail or "wanted it to name" in detail, detail


def test_a_range_with_the_value_at_its_end_hedges_with_the_other_end() -> None:
    passed, detail = on_device("compass_heading", "274° W", "270 to 274°")
    assert not passed and "hedges: it also names '270'" in detail, detail


@pytest.mark.parametrize(("value", "answer", "passes"), [
    ("87%", "87, and it is 57° outside", False), ("$6", "5 items, $6", True),
    ("57°", "57°, updated 9:41 AM", True), ("57°", "57°F, feels like 55", False)])
def test_a_bare_number_not_joined_to_a_unit_keeps_none(value: str, answer: str,
                                                       passes: bool) -> None:
    """Only numbers joined as a range or a list share a unit: a bare number elsewhere in a
    sentence stays bare for naming ("87, and ... 57°" does not name 87%). For hedging, beside a
    value of degrees or percent every bare number is one (red team 100, RT100-1: the 55 of
    "57°F, feels like 55" is a second temperature); a count beside a sum of money stays one."""
    assert answered(value, answer)[0] == passes


# Times -------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("value", "answer"), [
    ("7:05 PM", "7:05pm"), ("7:05 PM", "7:05 p.m."), ("7:05 PM", "7:05 P.M."),
    ("7:05 PM", "19:05"), ("7:05 PM", "7:05 PM (19:05)"), ("9:41 AM", "9:41am"),
    ("9:41 AM", "09:41"), ("12:30 AM", "00:30"), ("12:30 PM", "12:30pm"), ("7:00 PM", "7pm"),
    ("19:05", "7:05 PM"), ("9:41", "9:41 AM"), ("9:41", "9:41 PM"), ("9:41", "09:41"),
    ("4:59", "4:59")])
def test_a_time_is_named_with_its_half_of_the_day_in_any_notation(value: str,
                                                                  answer: str) -> None:
    passed, detail = answered(value, answer)
    assert passed, detail


@pytest.mark.parametrize(("value", "answer", "why"), [
    ("7:05 PM", "7:05 AM/PM", "hedges"), ("7:05 PM", "7:05 am or pm", "hedges"),
    ("7:05 AM", "7:05 a.m./p.m.", "hedges"), ("7:00 PM", "7 AM/PM", "hedges"),
    ("7:05 PM", "7:05 PM or 8:05 PM", "hedges"), ("7:05 PM", "7:05 AM", "wanted it to name"),
    ("7:05 PM", "7:05", "without AM or PM"), ("9:41", "21:41", "wanted it to name"),
    ("12 am", "12 am, 13 am", "hedges")])
def test_a_time_in_both_halves_or_neither_does_not_name_one(value: str, answer: str,
                                                            why: str) -> None:
    passed, detail = answered(value, answer)
    assert not passed and why in detail, detail


# Other notations: read, or said to be unread ----------------------------------------------

@pytest.mark.parametrize(("value", "answer"), [
    ("1,234", "1’234"), ("1,234", "1'234"), ("-3°", "minus 3 degrees"), ("-3°", "3° below zero"),
    ("-3°", "3 below zero"), ("-3°", "Minus 3°C")])
def test_swiss_thousands_and_worded_negatives_are_read(value: str, answer: str) -> None:
    passed, detail = answered(value, answer)
    assert passed, detail


@pytest.mark.parametrize(("value", "answer"), [
    ("3°", "3° below zero"), ("3°", "minus 3 degrees"), ("1,234", "1.234"),
    ("1.234", "1,234")])
def test_a_point_is_a_decimal_point_and_below_zero_is_negative(value: str, answer: str) -> None:
    assert not answered(value, answer)[0]


@pytest.mark.parametrize(("value", "answer"), [
    ("57°", "fifty-seven degrees"), ("87%", "eighty-seven percent")])
def test_a_number_in_words_is_unread_and_the_detail_says_so(value: str, answer: str) -> None:
    passed, detail = answered(value, answer)
    assert not passed and "writes no number in digits" in detail, detail


# A word answered in a sentence that reports what was done (red team 97) --------------------

@pytest.mark.parametrize("value", ["CARDAMOM", "Example Domain"])
@pytest.mark.parametrize("written", [
    "I checked and it's {v}", "OK, it's {v}", "Okay, {v}", "Hi, it's {v}", "Well, {v}",
    "I opened the page and the word is {v}", "Loaded the page and it shows {v}",
    "Opened Safari and the heading reads {v}", "Visited the page and found {v}",
    "I visited the link and saw {v}", "The page loaded and shows {v}",
    "Navigated there, and the word is {v}", "Checked Safari; the word is {v}",
    "The page says {v} and nothing else", "Page visited successfully, word: {v}",
    '{{"answer": "{v}", "confidence": "high"}}', "'{v}'", "The word is ‘{v}’.",
    "In Safari the heading is {v}", "The Safari page shows {v}",
    "| Field | Value |\n|---|---|\n| Word | {v} |"])
def test_a_word_in_a_sentence_about_the_turn_is_named_once(value: str, written: str) -> None:
    passed, detail = answered(value, written.format(v=value))
    assert passed, detail


@pytest.mark.parametrize(("value", "answer"), [
    ("CARDAMOM", "OK, it's 'CARDAMOM' or 'LANTERN'"), ("CARDAMOM", "cardamom and lantern"),
    ("CARDAMOM", "I checked: cardamom, maybe lantern"),
    ("Example Domain", "In Safari the heading is Example Domain or Example Page"),
    ("Example Domain", "Okay, Example Domain, Apple"),
])
def test_the_same_sentences_with_a_second_value_still_hedge(value: str, answer: str) -> None:
    passed, detail = answered(value, answer)
    assert not passed and "hedges" in detail, detail
