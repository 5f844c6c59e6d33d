"""Side-effect checks: counts before the agent and after capture, compared; unreadable fails."""

from __future__ import annotations

import pytest

from phoneshell.checks import Check, Need, grade_check
from phoneshell.checks.effects import not_at_start, starts_at_none, starts_with_some
from phoneshell.evidence import Evidence, ProbeReading

TITLE = "phoneshell benchmark"


def ev(before: int | None, after: int | None, error: str = "") -> Evidence:
    reading = ProbeReading(name="notes_titled", arg=TITLE, before=before, after=after, error=error)
    return Evidence("t", 1.0, probes=(reading,))


def grade(kind: str, evidence: Evidence, by: int = 0) -> tuple[bool, str]:
    counted = {"by": by} if by else {}  # `by` is a parameter of increases and decreases only
    result = grade_check(Check.make(kind, TITLE, probe="notes_titled", **counted), evidence)
    return result.passed, result.detail


@pytest.mark.parametrize("kind, before, after, by, passes", [
    ("count_unchanged", 1, 1, 0, True), ("count_unchanged", 1, 2, 0, False),
    ("count_increased", 1, 2, 0, True), ("count_increased", 1, 3, 0, False),
    ("count_increased", 1, 3, 2, True), ("count_increased", 1, 1, 0, False),
    ("count_decreased", 2, 1, 0, True), ("count_decreased", 2, 2, 0, False),
    ("count_decreased", 5, 2, 3, True),
])
def test_counts_compare_before_and_after(kind: str, before: int, after: int, by: int,
                                         passes: bool) -> None:
    passed, detail = grade(kind, ev(before, after), by)
    assert passed is passes
    assert f"{before} before the agent, {after} after" in detail


@pytest.mark.parametrize("kind", ["count_unchanged", "count_increased", "count_decreased"])
def test_an_unreadable_count_fails_with_the_reason(kind: str) -> None:
    passed, detail = grade(kind, ev(None, 1, "Notes did not open"))
    assert not passed and "could not be counted before the agent: Notes did not open" in detail
    passed, detail = grade(kind, Evidence("t", 1.0))
    assert not passed and "was not counted for this attempt" in detail


def test_a_count_above_none_before_the_agent_is_not_the_tasks_start_state() -> None:
    timers = Check.make("count_unchanged", probe="clock_timers", none_before=True)
    counted = Check.make("count_increased", TITLE, probe="notes_titled")  # no start state
    need = Need("probe", "clock_timers", "")
    assert starts_at_none((counted, timers, timers)) == (need,)
    assert not_at_start((counted, timers), {need: 2}.get) == ((need, 2),)
    assert not_at_start((counted, timers), {need: 0}.get) == ()
    assert not_at_start((counted, timers), {}.get) == ()  # not taken: a count check says why
    assert not_at_start((counted,), {Need("probe", "notes_titled", TITLE): 3}.get) == ()


def test_a_count_at_none_before_the_agent_is_not_the_start_of_a_task_that_needs_some() -> None:
    search = Check.make("count_unchanged", TITLE, probe="notes_titled", some_before=True)
    need = Need("probe", "notes_titled", TITLE)
    assert starts_with_some((search,)) == (need,) and starts_at_none((search,)) == ()
    assert not_at_start((search,), {need: 0}.get) == ((need, 0),)
    assert not_at_start((search,), {need: 2}.get) == ()
    assert not_at_start((search,), {}.get) == ()  # not taken: the count check says why
