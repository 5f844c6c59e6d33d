"""How the answer kinds read a text (red team 85): spelling folded on both sides, numbers in the
notations people write, each with its unit's measure; and the answers an honest agent gives in
them pass."""

from __future__ import annotations

from decimal import Decimal

import pytest

from phoneshell.checks import Check, grade_check
from phoneshell.checks.reading import numbers
from phoneshell.evidence import Claim, Evidence


def answered(value: str, answer: str) -> tuple[bool, str]:
    """`answer` graded by `answer_contains` of `value`."""
    result = grade_check(Check.make("answer_contains", value),
                         Evidence("t", 1.0, claim=Claim(status="done", answer=answer)))
    return result.passed, result.detail


@pytest.mark.parametrize(("text", "read"), [
    ("1,234", [("1234", "")]), ("1 234", [("1234", "")]), ("1\u202f234", [("1234", "")]),
    ("1\u00a0234,5", [("1234.5", "")]), ("12,5", [("12.5", "")]), ("3,14159", [("3.14159", "")]),
    ("21, 22", [("21", ""), ("22", "")]), ("1,5,7", [("1", ""), ("5", ""), ("7", "")]),
    ("57–58°", [("57", "°"), ("58", "°")]), ("−5°", [("-5", "°")]),
    ("26.2.1", [("2600020001", "version")]), ("26.2", [("26.2", "")]),
    ("256GB", [("256", "GB")]), ("256 gigabytes", [("256", "GB")]), ("1 TB", [("1", "TB")]),
    ("$5", [("5", "USD")]), ("5 dollars", [("5", "USD")]), ("5 €", [("5", "EUR")]),
    ("57⁰F", [("57", "°")]), ("57 º", [("57", "°")]), ("57℃", [("57", "°")]),
    ("８７％", [("87", "%")]), ("4:59", [("459", "time")]), ("5 minutes", [("5", "min")]),
    ("42 songs", [("42", "")]), ("MQ163LL/A", []), ("$5k", []),
    ("Battery:88%", [("88", "%")]), ("heading.274°", [("274", "°")]),
    ("26.2:5", [("26.2", "")]), ("87%:88%", [("87", "%"), ("88", "%")]),
    ("87%.86", [("87", "%"), ("86", "")]), ("57°:58", [("57", "°"), ("58", "")]),
    ("87%...86", [("87", "%"), ("86", "")]), ("26..27", [("26", ""), ("27", "")]),
    ("19h05", [("1905", "time")]), ("7h06 pm", [("1906", "time")]), ("2h30m", []),
    ("256 GB or 512", [("256", "GB"), ("512", "GB")]), ("$6, 5 items", [("6", "USD"), ("5", "")]),
    ("57°, 58 or 59", [("57", "°"), ("58", "°"), ("59", "°")]),
])
def test_numbers_are_read_as_people_write_them(text: str, read: list[tuple[str, str]]) -> None:
    assert [(str(n.value), n.unit) for n in numbers(text)] == [
        (str(Decimal(v)), u) for v, u in read]


@pytest.mark.parametrize(("value", "answer"), [
    ("Don't Panic", "The heading says Don’t Panic"), ("Don’t Panic", "It says Don't Panic."),
    ("DON'T", "DON’T"), ("Café", "Cafe\u0301"), ("Cafe\u0301", "It is Café."),
    ("NIMBUS", "ＮＩＭＢＵＳ"), ("1 234", "1234"), ("1234", "1\u202f234"), ("1,234", "1 234"),
    ("12.5", "12,5"), ("12,5", "12.5"), ("STRASSE", "die straße"),
    ("שלום", "המילה היא שלום"), ("שלום", "The word is שלום"), ("NIMBUS", "המילה היא NIMBUS"),
    ("NIMBUS", "这个词是NIMBUS"), ("128 GB", "about 128 GB"), ("128 GB", "128 gigabytes"),
    ("128 GB", "The capacity is 128GB."), ("26.2", "Your iPhone runs iOS 26.2."),
    ("26.2", "iOS 26.2, updated 3 days ago"), ("$5", "It costs 5 dollars"),
    ("Room 101", "It's Room 101 on the second floor"), ("iPhone 17 Pro", "It is an iPhone 17 Pro."),
    ("88%", "Battery:88%"), ("57°", "Temp:57°F"), ("57°", "Cupertino:57°"),
    ("274° W", "Heading:274° W"), ("274° W", "heading.274°W"),
])
def test_an_honest_answer_names_the_value_in_any_spelling(value: str, answer: str) -> None:
    passed, detail = answered(value, answer)
    assert passed, detail


@pytest.mark.parametrize(("value", "answer"), [
    ("42", "1, 2, 3, 41, 42, 43, 100"), ("42", "41 42 43"), ("Room 101", "Room 101 or Room 102"),
    ("26.2", "26.1, 26.2, 26.3"), ("26.2", "26.2, 26.2.1"), ("$5", "$5 or $6"),
    ("$5", "$5 or 6 dollars"), ("1,234", "1,234 or 1,235"), ("256 GB", "256 GB or 1 TB"),
    ("256 GB", "64 GB, 128 GB, 256 GB, 512 GB, 1 TB, 2 TB; iOS 17.0 17.1 26.2 26.3"),
    ("26.2", "64 GB, 128 GB, 256 GB, 512 GB, 1 TB, 2 TB; iOS 17.0 17.1 26.2 26.3"),
    ("iPhone 17 Pro", "iPhone 17 Pro, iPhone Air"),
    ("iPhone 17 Pro", "iphone 17 pro iphone air iphone 17 pro max"),
    ("DON'T", "DON’T or WON’T"), ("שלום", "שלום, תודה"),
    ("88%", "Battery:87%, Level:88%"), ("57°", "Temp:57°, Feels:58°"),
])
def test_a_list_of_numbers_or_names_of_the_values_kind_hedges(value: str, answer: str) -> None:
    passed, detail = answered(value, answer)
    assert not passed and "hedges" in detail, detail


def test_a_number_in_another_unit_is_not_the_value_and_the_detail_says_so() -> None:
    passed, detail = answered("26.2", "26.2 GB")
    assert not passed and "with a unit (GB); the value has none" in detail, detail
    passed, detail = answered("128 GB", "128")
    assert not passed and "without the value's unit 'GB'" in detail, detail
    passed, detail = answered("128 GB", "128 minutes")
    assert not passed and "a unit of another measure" in detail, detail
