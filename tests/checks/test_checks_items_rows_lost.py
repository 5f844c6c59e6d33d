"""Counts are never compared alone where rows were read before the agent (red team 60): a whole
read row by row before and only counted after is a change in itself, for the owner watch
(`listing_changed`) and for the count checks (`items_changed`); with no rows before, the counts
are all there is, and evidence that predates rows grades by the numbers as it did."""

from __future__ import annotations

from phoneshell.checks import Check, grade_check
from phoneshell.checks.items import items_changed, listing_changed, whole_changed
from phoneshell.evidence import Evidence, ProbeReading

DENTIST, MILK = "Call the dentist | Today, 10:00 AM", "Buy milk"
BEFORE = (DENTIST, "Renew passport", "completed: Renew car insurance")
LOST = "could no longer be read row by row, only counted (3)"


def reminders(rows_before: tuple[str, ...] | None, rows_after: tuple[str, ...] | None,
              ) -> ProbeReading:
    """The whole: 3 reminders before and after (one deleted and one made keeps the count)."""
    return ProbeReading(name="reminders", before=3, after=3, rows_before=rows_before,
                        rows_after=rows_after)


def titled(whole: ProbeReading) -> tuple[bool, str]:
    """count_unchanged of the reminders titled 'Renew passport', with `whole` beside it."""
    count = ProbeReading(name="reminders_titled", arg="Renew passport", before=1, after=1,
                         rows_before=("Renew passport",), rows_after=("Renew passport",),
                         whole="reminders")
    result = grade_check(Check.make("count_unchanged", "Renew passport",
                                    probe="reminders_titled"),
                         Evidence("t", 1.0, probes=(count, whole)))
    return result.passed, result.detail


def test_rows_read_before_and_only_counted_after_are_a_change() -> None:
    said = listing_changed(reminders(BEFORE, None))
    assert len(said) == 1 and LOST in said[0], said
    assert LOST in whole_changed(reminders(BEFORE, None))
    assert LOST in items_changed(reminders(BEFORE, None), None)


def test_a_count_check_fails_when_its_whole_lost_its_rows() -> None:
    passed, detail = titled(reminders(BEFORE, None))
    assert not passed
    assert detail.endswith(f"but reminders as a whole: the reminders {LOST}, where each was read "
                           "before the agent: what became of each cannot be told"), detail


def test_rows_read_both_times_say_what_changed_and_the_same_rows_nothing() -> None:
    swapped = (MILK, "Renew passport", "completed: Renew car insurance")
    assert listing_changed(reminders(BEFORE, swapped)) == (
        f"the reminder {DENTIST!r} is gone or changed", f"{MILK!r} is new")
    assert listing_changed(reminders(BEFORE, BEFORE)) == ()
    assert titled(reminders(BEFORE, BEFORE))[0]


def test_without_rows_before_the_counts_are_all_there_is() -> None:
    assert listing_changed(reminders(None, BEFORE)) == ()
    assert listing_changed(reminders(None, None)) == ()  # evidence that predates rows
    assert titled(reminders(None, None))[0]
