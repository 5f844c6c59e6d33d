"""The path checks read what the log names as a reader reads it (`spelling.folded`), as the state
and answer checks read the screen (tests/test_spelling.py): iOS writes "Oxford American Writer’s
Thesaurus" (U+2019), a task file "Writer's", and an agent types either. Played through the real
bridge to the simulated iPhone with facebook-wda; the checks read the log the bridge wrote."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import wda
from bridge_tests.bridge_rig import Rig, runner_bridge

from phoneshell.checks import Check, grade_check
from phoneshell.evidence import Evidence
from phoneshell.sim import SimServer
from phoneshell.xcui import NOTES, SETTINGS

THESAURUS = "Oxford American Writer\u2019s Thesaurus"
"""A row of Settings > General > Dictionary, spelled as iOS spells it."""


@pytest.fixture
def rig(sim: SimServer, tmp_path: Path) -> Iterator[Rig]:
    with runner_bridge(sim, tmp_path) as found:
        yield found


def _graded(rig: Rig, kind: str, text: str, negate: bool = False,
            **options: object) -> tuple[bool, str]:
    evidence = Evidence("t", 1.0, events=tuple(rig.events("R")), audited=True)
    check = Check.make(kind, text, negate=negate, **options)  # type: ignore[arg-type]
    result = grade_check(check, evidence)
    return result.passed, result.detail


@pytest.mark.parametrize(("written", "options"), [
    ("Writer's Thesaurus", {}),
    ("OXFORD AMERICAN WRITER'S THESAURUS", {"whole": True, "type": "Cell"}),
    ("Writer\u02bcs", {"page": "dictionary"}),  # a modifier letter apostrophe, as some type it
])
def test_a_tap_on_a_curly_label_is_named_by_a_straight_check(
        rig: Rig, written: str, options: dict[str, object]) -> None:
    session = wda.Client(rig.bridge.url).session(SETTINGS)
    session(label="General").get(timeout=5).click()
    session(label="Dictionary").get(timeout=5).click()
    session(className="Cell", label=THESAURUS).get(timeout=5).click()
    passed, detail = _graded(rig, "tapped", written, **options)
    assert passed, detail
    passed, detail = _graded(rig, "tapped", written, negate=True, **options)
    assert not passed and detail.startswith("unexpectedly present"), detail


@pytest.mark.parametrize(("typed", "written"), [
    ("Don\u2019t forget", "don't forget"),  # iOS's smart punctuation types ’ for '
    ("Don't forget", "DON\u2019T FORGET"),
    ("Cafe\u0301\u00a0list", "café list"),  # an accent typed apart, a no-break space
])
def test_typing_is_read_in_either_spelling(rig: Rig, typed: str, written: str) -> None:
    session = wda.Client(rig.bridge.url).session(NOTES)
    session(label="New Note", className="Button").get(timeout=5).click()
    session.send_keys(typed)
    for options in ({}, {"whole": True}, {"into": "TEXTVIEW"}):
        passed, detail = _graded(rig, "typed_into", written, app=NOTES, **options)
        assert passed, (options, detail)
        passed, detail = _graded(rig, "typed_into", written, negate=True, app=NOTES, **options)
        assert not passed and detail.startswith("unexpectedly present"), (options, detail)
