"""Each doubt `unwatched` names about the audit log fails every absence check that reads the log,
at the check itself, not only the verdict (red team 82: `if "acted_outside_bridge" in flags:`
made `if False:` survived 942 tests, as `grade.distrust` still failed the attempt while every
per-check result printed pass). An absence is proven only by a log that shows every action:
never_opened, settings_unchanged, a count of a collection with a way back (`brought`), and the
negated form of every negatable path check. Each case passes on the same log without the doubt,
so the doubt alone fails it; the doubts are read off `unwatched` and the path kinds off the
registry, so a new one without a case here fails."""

from __future__ import annotations

import ast
import inspect
from collections.abc import Callable
from dataclasses import replace

import pytest
from audit_logs import CALC, SAFARI, SB, act, log, tgt

from phoneshell.checks import CHECKS, Check, grade_check
from phoneshell.checks.path import unwatched
from phoneshell.evidence import Evidence, ProbeReading
from phoneshell.records import Flag

PLAYED = [act(1, "launch", SB, CALC, bundle_id=CALC),
          act(2, "tap", CALC, CALC, target=tgt("XCUIElementTypeButton", "4"))]
"""What the agent did: opened Calculator and tapped 4. Nothing any case looks for."""
DOUBTS: dict[str, tuple[Callable[[], Evidence], str]] = {
    "no log": (lambda: log(audited=False), "no audit log was recorded"),
    "audit_torn": (lambda: log(*PLAYED, flags=frozenset({"audit_torn"})), "torn line"),
    "acted_outside_bridge": (lambda: log(*PLAYED, flags=frozenset({"acted_outside_bridge"})),
                             "outside the bridge"),
}
"""Evidence carrying each doubt (its log is `PLAYED` but where there is none), and the words
of the doubt every failed check must give."""


def _notes_counted(evidence: Evidence) -> Evidence:
    """`evidence` with a count of notes titled X grown by one, and all notes with it: Notes
    has a way back (Recently Deleted), so the log must show none was taken."""
    return replace(evidence, probes=(
        ProbeReading(name="notes_titled", arg="x", before=1, after=2, whole="notes"),
        ProbeReading(name="notes", before=4, after=5)))


ABSENCES: dict[str, tuple[Check, Callable[[Evidence], Evidence]]] = {
    "never_opened": (Check.make("never_opened", app=SAFARI), lambda e: e),
    "settings_unchanged": (Check.make("settings_unchanged"), lambda e: e),
    "count_increased": (Check.make("count_increased", "x", probe="notes_titled"),
                        _notes_counted),
    "not opened_in_order": (Check.make("opened_in_order", negate=True, apps=(SAFARI,)),
                            lambda e: e),
    "not typed_into": (Check.make("typed_into", "hello", negate=True), lambda e: e),
    "not tapped": (Check.make("tapped", "General", negate=True), lambda e: e),
    "not visited": (Check.make("visited", negate=True, url="example.com"), lambda e: e),
    # an app never opened: a direct launch the log shows disproves a Spotlight opening whole
    "not opened_via_spotlight": (Check.make("opened_via_spotlight", negate=True, app=SAFARI),
                                 lambda e: e),
}
"""Each absence check that reads the log, and what it needs in the evidence besides."""


def _flags_unwatched_names() -> set[str]:
    """The flags `unwatched` tests (`"audit_torn" in flags`), read from its source."""
    return {node.left.value for node in ast.walk(ast.parse(inspect.getsource(unwatched)))
            if isinstance(node, ast.Compare) and isinstance(node.ops[0], ast.In)
            and isinstance(node.left, ast.Constant)}


def test_every_doubt_and_every_negatable_path_kind_has_a_case() -> None:
    assert _flags_unwatched_names() | {"no log"} == set(DOUBTS)
    assert set(Flag.__args__) >= _flags_unwatched_names()  # type: ignore[attr-defined]
    negatable = {f"not {name}" for name in CHECKS.names()
                 if CHECKS.lookup(name).family == "path" and CHECKS.lookup(name).negatable}
    assert negatable <= set(ABSENCES), "a negated path check proves an absence from the log"


@pytest.mark.parametrize("absence", sorted(ABSENCES))
def test_the_absence_passes_on_the_whole_log(absence: str) -> None:
    check, add = ABSENCES[absence]
    evidence = add(log(*PLAYED))
    assert unwatched(evidence) == ""
    result = grade_check(check, evidence)
    assert result.passed, result.detail


@pytest.mark.parametrize("doubt", sorted(DOUBTS))
@pytest.mark.parametrize("absence", sorted(ABSENCES))
def test_the_doubt_fails_the_absence_itself(absence: str, doubt: str) -> None:
    check, add = ABSENCES[absence]
    evidence, words = DOUBTS[doubt]
    result = grade_check(check, add(evidence()))
    assert not result.passed, result.detail
    assert words in result.detail, result.detail
