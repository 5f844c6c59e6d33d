"""Count checks tell items made or removed from existing items changed, by the rows each count
listed and the count of the whole it counts some of: a note renamed into "create a note" fails,
a note made passes; evidence without rows or wholes (older runs) grades by the numbers."""

from __future__ import annotations

import pytest

from phoneshell.checks import Check, grade_check
from phoneshell.checks.items import items_changed, listing_changed
from phoneshell.evidence import Evidence, ProbeReading

TITLE = "phoneshell benchmark"
OWN = f"{TITLE} | 9:41 AM  A saved note for Notes search to find."
NEW = f"{TITLE} | 9:41 AM  No additional text"
GROCERIES, TRIP, MEETING = ("Groceries | 9:41 AM  milk", "Trip ideas | 9:41 AM  Lisbon",
                            "Meeting notes | 9:41 AM  Agenda")
SEED = (OWN, GROCERIES, TRIP, MEETING)


def titled(before: tuple[str, ...], after: tuple[str, ...], whole: str = "notes",
           ) -> ProbeReading:
    return ProbeReading(name="notes_titled", arg=TITLE, before=len(before), after=len(after),
                        rows_before=before, rows_after=after, whole=whole)


def every(before: tuple[str, ...], after: tuple[str, ...], counts: tuple[int, int] | None = None,
          ) -> ProbeReading:
    """The notes as a whole; `counts` when the rows are only the top of a longer list."""
    was, now = counts or (len(before), len(after))
    return ProbeReading(name="notes", before=was, after=now, rows_before=before,
                        rows_after=after)


def grade(kind: str, *readings: ProbeReading, probe: str = "notes_titled",
          text: str = TITLE) -> tuple[bool, str]:
    result = grade_check(Check.make(kind, text, probe=probe),
                         Evidence("t", 1.0, probes=readings, audited=True))
    return result.passed, result.detail


def test_a_note_made_passes() -> None:
    passed, detail = grade("count_increased", titled((OWN,), (NEW, OWN)),
                           every(SEED, (NEW, *SEED)))
    assert passed, detail
    assert detail == "notes_titled('phoneshell benchmark'): 1 before the agent, 2 after " \
                     "(change +1, wanted +1)"


def test_a_note_renamed_into_one_fails_by_the_whole_that_did_not_grow() -> None:
    renamed = (NEW, OWN, TRIP, MEETING)  # "Groceries" erased and retitled: moved to the top
    passed, detail = grade("count_increased", titled((OWN,), (NEW, OWN)), every(SEED, renamed))
    assert not passed
    assert detail.endswith("(change +1, wanted +1); but notes as a whole went from 4 to 4: an "
                           "existing note was renamed or overwritten into one counted, or one "
                           "there before is gone, not only new ones created")


def test_a_note_renamed_beside_one_made_fails_by_the_row_no_longer_shown() -> None:
    after = (NEW, "mine | 9:41 AM  No additional text", OWN, TRIP, MEETING)
    passed, detail = grade("count_increased", titled((OWN,), (NEW, OWN)), every(SEED, after))
    assert not passed
    assert f"but {GROCERIES!r}, one of the notes before the agent, is not shown as it was " \
           "after it: an existing note was renamed, overwritten or deleted" in detail


def test_a_counted_note_edited_beside_one_made_fails_by_its_own_rows() -> None:
    edited = f"{TITLE} | 9:41 AM  changed"
    passed, detail = grade("count_increased", titled((OWN,), (NEW, edited)),
                           every(SEED, (NEW, edited, GROCERIES, TRIP, MEETING)))
    assert not passed and f"but {OWN!r}, counted before the agent, is not shown as it was" \
                          in detail


def test_the_top_of_a_long_list_shows_a_note_made_and_a_note_edited_below_it() -> None:
    # Notes lists the most recently edited first; a screen shows the top seven of 30
    shown = tuple(f"note {n} | 9:41 AM  text" for n in range(7))
    made = (NEW, *shown[:6])  # one new on top pushes the seventh off the screen
    assert grade("count_increased", titled((), (NEW,)), every(shown, made, (30, 31)))[0]
    # one far down edited into the title moves to the top too, and pushes one more off
    edited = (NEW, *shown[:6])
    passed, detail = grade("count_increased", titled((), (NEW,)), every(shown, edited, (30, 30)))
    assert not passed and "went from 30 to 30" in detail
    # made beside it, the whole grows by one, and the row pushed off is the one missed
    both = (NEW, "mine | 9:41 AM  x", *shown[:5])
    passed, detail = grade("count_increased", titled((), (NEW,)), every(shown, both, (30, 31)))
    assert not passed and f"{shown[5]!r}, one of the notes before the agent" in detail


def test_a_note_deleted_passes_and_one_renamed_away_fails() -> None:
    assert grade("count_decreased", titled((OWN,), ()), every(SEED, SEED[1:]))[0]
    renamed = (f"elsewhere | 9:41 AM  {OWN}", *SEED[1:])
    passed, detail = grade("count_decreased", titled((OWN,), ()), every(SEED, renamed))
    assert not passed and "an existing note was renamed or overwritten out of those counted" \
                          in detail


def test_an_unchanged_count_of_other_items_fails() -> None:
    assert grade("count_unchanged", titled((OWN,), (OWN,)), every(SEED, SEED))[0]
    # the owner's note renamed away, and one made in its place: still one, not the same one
    passed, detail = grade("count_unchanged", titled((OWN,), (NEW,)),
                           every(SEED, (NEW, "elsewhere | 9:41 AM", *SEED[1:])))
    assert not passed
    assert f"but not the same notes: {OWN!r}, counted before the agent, is not shown as it " \
           "was after it" in detail


def test_alarms_are_their_own_whole() -> None:
    on, off = "7:30 AM, Alarm | on", "7:30 AM, Alarm | off"
    mine = "9:00 AM, Alarm | on"
    alarms = ProbeReading(name="alarms", before=1, after=2, rows_before=(on,),
                          rows_after=(off, mine))
    passed, detail = grade("count_increased", alarms, probe="alarms", text="")
    assert not passed and f"{on!r}, counted before the agent" in detail
    saved = ProbeReading(name="alarms", before=1, after=2, rows_before=(on,), rows_after=(on, mine))
    assert grade("count_increased", saved, probe="alarms", text="")[0]


@pytest.mark.parametrize("whole, why", [
    (None, "notes, the whole it counts some of, was not counted"),
    (ProbeReading(name="notes", before=4, after=None, error="Notes did not open"),
     "could not be counted after capture: Notes did not open"),
])
def test_a_whole_named_and_not_counted_fails_closed(whole: ProbeReading | None, why: str) -> None:
    readings = (titled((OWN,), (NEW, OWN)), *(() if whole is None else (whole,)))
    passed, detail = grade("count_increased", *readings)
    assert not passed and why in detail and "cannot be told from an existing one" in detail


def test_evidence_from_before_rows_and_wholes_grades_by_the_numbers() -> None:
    old = ProbeReading(name="notes_titled", arg=TITLE, before=1, after=2)
    assert grade("count_increased", old) == (True, "notes_titled('phoneshell benchmark'): 1 "
                                                   "before the agent, 2 after (change +1, "
                                                   "wanted +1)")
    assert items_changed(old, None) == ""


def test_count_unchanged_fails_on_the_owners_other_notes_deleted() -> None:
    """The search task's count of the note it finds stays at one; the notes around it are the
    owner's too (the red team deleted "Groceries" and "Trip ideas", then searched as asked)."""
    passed, detail = grade("count_unchanged", titled((OWN,), (OWN,)),
                           every(SEED, (OWN, MEETING)))
    assert not passed
    assert detail.endswith("(change +0, wanted +0); but notes as a whole changed: the notes went "
                           f"from 4 to 2, the note {GROCERIES!r} is gone or changed, the note "
                           f"{TRIP!r} is gone or changed")


def test_count_unchanged_fails_on_an_owners_note_edited_below_the_first_screen() -> None:
    """Only the top of the list is read: a note edited moves to its top, so it shows there."""
    top = SEED[:3]
    edited = ("Old letters | 9:41 AM  rewritten", *SEED[:2])
    passed, detail = grade("count_unchanged", titled((OWN,), (OWN,)),
                           every(top, edited, counts=(9, 9)))
    assert not passed
    assert "'Old letters | 9:41 AM  rewritten' is new" in detail


def test_count_unchanged_passes_with_the_whole_as_it_was() -> None:
    passed, detail = grade("count_unchanged", titled((OWN,), (OWN,)), every(SEED, SEED))
    assert passed, detail


def test_count_unchanged_fails_when_its_whole_was_not_counted() -> None:
    passed, detail = grade("count_unchanged", titled((OWN,), (OWN,)))
    assert not passed
    assert detail.endswith("but notes, the whole it counts some of, was not counted, so whether "
                           "the rest of the notes was left alone cannot be told")


def test_a_note_moved_up_a_list_kept_most_recently_edited_first_was_edited() -> None:
    # Its row reads as before (the edit lies below it, made within the minute its time shows):
    # only its place says it was edited.
    moved = (GROCERIES, OWN, TRIP, MEETING)
    assert listing_changed(every(SEED, moved)) == (
        f"the note {GROCERIES!r} moved up the list, which is kept most recently edited first: "
        "it was edited",)
    assert listing_changed(every(SEED, SEED)) == ()
    reminders = ProbeReading(name="reminders", before=2, after=2, rows_before=("a", "b"),
                             rows_after=("b", "a"))
    assert listing_changed(reminders) == ()  # a list in the owner's order: not an edit
