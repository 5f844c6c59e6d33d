"""Side-effect checks: counts a harness probe took after setup (before the agent) and after
capture, compared. "Search for the note" must not create one; "create a note" must create
exactly one. A count that could not be read makes the check fail, with the reason. Pure.
"""

from __future__ import annotations

from phoneshell.checks.kind import Check, Finding, Need, Same, check_kind
from phoneshell.evidence import Evidence, ProbeReading
from phoneshell.params import Param

PROBE = Param("probe", "str", "The probe that counts, e.g. notes_titled, alarms, safari_tabs.",
              required=True)
ARG = Param("text", "str", "What the probe counts, e.g. the note title (probe-specific).")
BY = Param("by", "int", "How much the count must change (default 1).", minimum=1, default=1)


def _probe_need(check: Check) -> tuple[Need, ...]:
    return (Need("probe", check.text_of("probe"), check.text),)


def _what(check: Check) -> str:
    probe = check.text_of("probe")
    return f"{probe}({check.text!r})" if check.text else probe


def _counts(check: Check, evidence: Evidence) -> tuple[ProbeReading | None, str]:
    """The reading, or why the comparison cannot be made."""
    reading = evidence.probe(check.text_of("probe"), check.text)
    what = _what(check)
    if reading is None:
        return None, f"{what} was not counted for this attempt"
    if reading.before is None or reading.after is None:
        missing = "before the agent" if reading.before is None else "after capture"
        return None, f"{what} could not be counted {missing}: {reading.error or 'no reason'}"
    return reading, ""


def _compare(check: Check, evidence: Evidence, change: int) -> Finding:
    reading, problem = _counts(check, evidence)
    if reading is None or reading.before is None or reading.after is None:
        return Finding(False, problem, unproven=problem)
    what = _what(check)
    got = reading.after - reading.before
    return Finding(got == change, f"{what}: {reading.before} before the agent, {reading.after} "
                                  f"after (change {got:+d}, wanted {change:+d})")


@check_kind("count_unchanged", family="effect", params=(PROBE, ARG), negatable=False,
            implied_by=Same(), needs=_probe_need, probe_kind="count")
def count_unchanged(check: Check, evidence: Evidence) -> Finding:
    """Passes when the probe's count after capture equals its count before the agent acted (a
    search must not create what it searches for)."""
    return _compare(check, evidence, 0)


@check_kind("count_increased", family="effect", params=(PROBE, ARG, BY), negatable=False,
            implied_by=Same(), needs=_probe_need, probe_kind="count")
def count_increased(check: Check, evidence: Evidence) -> Finding:
    """Passes when the count grew by exactly `by` (default 1) between before and after."""
    return _compare(check, evidence, check.int_of("by"))


@check_kind("count_decreased", family="effect", params=(PROBE, ARG, BY), negatable=False,
            implied_by=Same(), needs=_probe_need, probe_kind="count")
def count_decreased(check: Check, evidence: Evidence) -> Finding:
    """Passes when the count fell by exactly `by` (default 1) between before and after."""
    return _compare(check, evidence, -check.int_of("by"))
