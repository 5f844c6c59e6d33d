"""A pattern is refused at load when it matches the empty string as the checks search with it
(red team 94): `regex_on_screen` and `device_value` also search `plain` text with the pattern's
read form (`spelling.read_pattern`), which drops invisible characters, so `(\u200b)` (a
zero-width space, as an author copies it from a label) is `()` there and would pass every
screen."""

from __future__ import annotations

import textwrap

import pytest

from phoneshell.tasks import parse_task

TASK = """\
id: demo.read
name: Demo
app: com.apple.Preferences
instruction: Open Settings.
setup:
  - terminate: com.apple.Preferences
checks:
  - kind: CHECK
"""


def problems_of(check: str) -> list[str]:
    task, problems = parse_task(textwrap.dedent(TASK.replace("CHECK", check)), "demo.yaml")
    return [str(p) for p in problems if p.severity == "error"]


@pytest.mark.parametrize("check", [
    'regex_on_screen\n    text: "(\\u200b)"', 'regex_on_screen\n    text: "\\u200e"',
    'regex_on_screen\n    text: "x?\\u200b"', "regex_on_screen\n    text: \"[‘’]?\\u200b\"",
    'device_value\n    probe: newest_note\n    text: "(?:\\u00ad)+"'])
def test_a_pattern_empty_once_read_is_refused_at_its_line(check: str) -> None:
    found = problems_of(check)
    text_line = 8 + check.count("\n")  # the line of `text`, the check's last
    assert len(found) == 1 and found[0].startswith(f"demo.yaml:{text_line}:"), found
    assert "matches the empty string, once read as the screen's text is read" in found[0]


@pytest.mark.parametrize("check", [
    'regex_on_screen\n    text: "Wi\\u2011Fi"', 'regex_on_screen\n    text: "a\\u200bb"',
    "regex_on_screen\n    text: \"7 o’clock\""])
def test_a_pattern_that_still_needs_a_character_once_read_loads(check: str) -> None:
    assert problems_of(check) == []
