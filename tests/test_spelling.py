"""Text is compared as a reader reads it, on both sides (red team 85): iOS writes `7 o’clock`, a
task file `7 o'clock`; a check of either spelling passes on a screen of either, and its
negation fails on it."""

from __future__ import annotations

from dataclasses import replace

import pytest
from sources import El, evidence

from phoneshell.checks import Check, grade_check
from phoneshell.evidence import DeviceRead, Evidence
from phoneshell.patterns import compile_pattern
from phoneshell.spelling import folded, plain, read_pattern

WHEEL = "PickerWheel"


@pytest.mark.parametrize(("one", "other"), [
    ("7 o’clock", "7 o'clock"), ("Don‘t", "Don't"), ("Donʼt", "Don't"),
    ("“Hi”", '"Hi"'), ("„Hallo“", '"Hallo"'), ("«Salut»", '"Salut"'), ("1–2", "1-2"),
    ("2 — 3", "2 - 3"), ("−5", "-5"), ("1\u00a0234", "1 234"), ("1\u202f234", "1 234"),
    ("Cafe\u0301", "Café"), ("ＮＩＭＢＵＳ", "NIMBUS"), ("ﬁle", "file"),
    ("NIM\u200bBUS", "NIMBUS"), ("\u200fשלום", "שלום"), ("soft\u00adware", "software"),
])
def test_every_shape_of_a_character_is_read_as_one(one: str, other: str) -> None:
    assert plain(one) == plain(other)
    assert folded(one) == folded(other)


def test_folded_ignores_case_and_spacing_and_plain_keeps_case() -> None:
    assert folded("  DON’T\u00a0 Panic ") == "don't panic"
    assert folded("STRASSE") == folded("straße")
    assert plain("DON’T") == "DON'T"


def test_a_patterns_quotes_and_dashes_are_read_alike_and_its_brackets_kept() -> None:
    assert read_pattern(compile_pattern("^7 o’clock$")).pattern == "^7 o'clock$"
    ascii_pattern = compile_pattern("^7 o'clock$")
    assert read_pattern(ascii_pattern) is ascii_pattern
    assert read_pattern(compile_pattern("（a）")).pattern == "（a）", "never NFKC: no group"


def _wheel(value: str) -> object:
    return evidence(El(type=WHEEL, value=value), El(type=WHEEL, value="30 minutes"))


def _graded(kind: str, text: str, shown: str, negate: bool = False) -> tuple[bool, str]:
    check = Check.make(kind, text, negate=negate, type=WHEEL)
    result = grade_check(check, _wheel(shown))  # type: ignore[arg-type]
    return result.passed, result.detail


@pytest.mark.parametrize("shown", ["7 o’clock", "7 o'clock", "7\u00a0o’clock"])
@pytest.mark.parametrize("written", ["7 o'clock", "7 o’clock", "7 O’CLOCK"])
def test_element_exists_reads_the_wheel_in_either_spelling(written: str, shown: str) -> None:
    passed, detail = _graded("element_exists", written, shown)
    assert passed, detail
    assert not _graded("element_exists", written, shown, negate=True)[0]


@pytest.mark.parametrize("shown", ["7 o’clock", "7 o'clock"])
@pytest.mark.parametrize("pattern", ["^7 o'clock$", "^7 o’clock$", "^7 o.clock$"])
def test_regex_on_screen_reads_the_wheel_in_either_spelling(pattern: str, shown: str) -> None:
    passed, detail = _graded("regex_on_screen", pattern, shown)
    assert passed, detail
    assert not _graded("regex_on_screen", pattern, shown, negate=True)[0]


def test_an_escape_in_a_pattern_means_what_it_says() -> None:
    """`\u2019` names one code point: it matches iOS's own spelling, not a straight quote."""
    assert _graded("regex_on_screen", r"^7 o\u2019clock$", "7 o’clock")[0]
    assert not _graded("regex_on_screen", r"^7 o\u2019clock$", "7 o'clock")[0]


def test_spelling_never_makes_another_value_match() -> None:
    assert not _graded("regex_on_screen", "^7 o'clock$", "17 o’clock")[0]
    assert not _graded("element_exists", "7 o'clock", "8 o’clock")[0]
    assert not _graded("regex_on_screen", "^7 o'clock$", "7 oclock")[0]


def _note(value: str) -> Evidence:
    return replace(evidence(), reads=(DeviceRead(probe="newest_note", arg="", value=value),))


@pytest.mark.parametrize(("pattern", "note", "passes"), [
    ("Don't forget .*", "Don\u2019t forget milk", True),  # iOS's smart punctuation types ’
    ("Don\u2019t forget .*", "Don't forget milk", True),
    ("Caf\u00e9 \\d+", "Cafe\u0301\u00a012", True),  # typed apart, a no-break space
    ("Don't forget", "Don\u2019t forget milk", False),  # still the whole value
    (r"Don\u2019t .*", "Don't forget", False),  # an escape names its one code point
])
def test_device_value_reads_the_value_in_either_spelling(pattern: str, note: str,
                                                         passes: bool) -> None:
    check = Check.make("device_value", pattern, probe="newest_note")
    result = grade_check(check, _note(note))
    assert result.passed is passes, result.detail
    negated = grade_check(Check.make("device_value", pattern, probe="newest_note", negate=True),
                          _note(note))
    assert negated.passed is not passes, negated.detail
