"""Whether a count's change is items made or removed, or existing items changed. Pure.

A count of some of a collection (notes titled X) grows when a note is made, and also when an
existing one is renamed or overwritten into it: numbers alone cannot tell a new note from the
owner's edited one. The evidence holds, for a count that lists them, what each item counted
showed before the agent and after capture (`ProbeReading.rows_before`, `rows_after`), and the
count of the whole collection it is part of (`ProbeReading.whole`: every note). So a count that
grew by new items only has its whole grown by at least as much, and every item counted before
(in it, and in the whole) still shown as it was; one that fell by items removed only has its
whole fallen by as much, and nothing shown after that was not shown before. The count checks
(`effects`) fail on anything else, and the teardown deletes nothing by such a count
(`runner.counts.spared`).

An item has no id a screen shows, so "shown as it was" is what its row shows (a note's title,
date and first words): an edit that changes none of that is not seen. Rows fewer than their
count are the top of a list kept most recently edited first (Notes): an item edited or made
moves to the top and pushes the rest down, so the top screen is compared with that in mind.

Counts alone are never compared where rows were read before the agent: a collection read row
by row before and only counted after (a list that no longer adds up to its count, or runs on
past what the probe scrolls) is a reason (`rows_lost`), since an item deleted and another made
keeps the count. Without rows before, the counts are all there is to compare.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from phoneshell.evidence import Evidence, ProbeReading

__all__ = ["items_changed", "listing_changed", "whole_changed", "whole_reading"]

ITEMS = {"notes": ("note", "notes"), "reminders": ("reminder", "reminders"),
         "alarms": ("alarm", "alarms"), "world_clocks": ("city", "cities"),
         "contacts": ("contact", "contacts"), "events": ("event", "events")}
"""What one item of a collection is called, and more than one, by the probe that counts the
whole of it."""
EDIT_ORDERED = frozenset({"notes"})
"""Collections listed most recently edited first: an item that moved up was edited, even where
its row reads as before (a note whose edit lies below the line its row shows)."""


def _one(reading: ProbeReading) -> str:
    return ITEMS.get(reading.whole or reading.name, ("item", "items"))[0]


def rows_lost(reading: ProbeReading) -> str:
    """Why `reading` cannot be compared item by item though its rows were read before the
    agent: after, it was only counted ("" when its rows were read both times, or not before)."""
    if reading.rows_before is None or reading.rows_after is not None or reading.after is None:
        return ""
    many = ITEMS.get(reading.name, ("item", "items"))[1]
    return (f"the {many} could no longer be read row by row, only counted ({reading.after}), "
            "where each was read before the agent: what became of each cannot be told")


def _unshown(rows: Sequence[str], count: int, among: Sequence[str], among_count: int,
             ahead: int) -> str | None:
    """The first of `rows` (of `count` items) not among `among` (of `among_count`), as many
    times as it is listed, where `among` has `ahead` more items than `rows` that are not in it.
    Both lists whole: every row is looked for. Else both are the top of a list kept most
    recently edited first: the rows of `rows` that `ahead` items on top of `among` leave on its
    screen are looked for."""
    whole = len(rows) == count and len(among) == among_count
    looked = list(rows) if whole else list(rows[:max(0, len(among) - max(ahead, 0))])
    missing = Counter(looked) - Counter(among)
    return next((row for row in looked if missing[row]), None)


def _gone(reading: ProbeReading, ahead: int) -> str | None:
    """The first row counted before the agent that is not shown as it was after capture, where
    `ahead` items came on top (None: none, or the rows are not known)."""
    return _missing(reading, ahead, since=False)


def _new(reading: ProbeReading, gone: int) -> str | None:
    """The first row counted after capture that was not shown so before the agent, where
    `gone` items left the top (None: none, or the rows are not known)."""
    return _missing(reading, gone, since=True)


def _missing(reading: ProbeReading, ahead: int, since: bool) -> str | None:
    before, after = reading.rows_before, reading.rows_after
    if before is None or after is None or reading.before is None or reading.after is None:
        return None
    if since:
        return _unshown(after, reading.after, before, reading.before, ahead)
    return _unshown(before, reading.before, after, reading.after, ahead)


def whole_reading(evidence: Evidence, reading: ProbeReading) -> ProbeReading | None:
    """The evidence's count of the whole collection `reading` counts some of, if it has one."""
    return evidence.probe(reading.whole, "") if reading.whole else None


def whole_changed(whole: ProbeReading) -> str:
    """Why the whole collection's items counted before the agent are not all still there as
    they were after it ("" when they are, or its rows or counts are not known)."""
    if whole.before is None or whole.after is None:
        return ""
    if lost := rows_lost(whole):
        return f"{whole.name} as a whole: {lost}"
    gone = _gone(whole, max(0, whole.after - whole.before))
    if gone is None:
        return ""
    return (f"{gone!r}, one of the {whole.name} before the agent, is not shown as it was after "
            f"it: an existing {_one(whole)} was renamed, overwritten or deleted")


def items_changed(reading: ProbeReading, whole: ProbeReading | None) -> str:
    """Why the change of count `reading` is not items made (it grew) or removed (it fell)
    alone, or, unchanged, why it does not count the same items; "" when its rows and `whole`
    (the count of the whole it counts some of, `whole_reading`) show nothing else. A whole the
    reading names and that was not counted is a reason: what changed cannot be told then.
    Evidence that predates rows and wholes shows nothing, and grades as it did."""
    if reading.before is None or reading.after is None:
        return ""
    if lost := rows_lost(reading):
        return lost
    change, one = reading.after - reading.before, _one(reading)
    if change == 0:
        gone, new = _gone(reading, 0), _new(reading, 0)
        if gone is None and new is None:
            return _against_whole(reading, whole, 0) if reading.whole else ""
        shown = (f"{gone!r}, counted before the agent, is not shown as it was after it"
                 if gone is not None else f"{new!r} was not shown so before the agent")
        many = ITEMS.get(reading.whole or reading.name, ("item", "items"))[1]
        return (f"not the same {many}: {shown} (an existing {one} was edited, or replaced by "
                "another)")
    own = _gone(reading, change) if change > 0 else _new(reading, -change)
    if own is not None:
        return (f"{own!r}, counted before the agent, is not shown as it was after it: an "
                f"existing {one} was renamed, overwritten or deleted, not only new ones created"
                if change > 0 else
                f"{own!r}, counted after capture, was not shown so before the agent: an "
                f"existing {one} was renamed or overwritten, or one created, not only ones "
                "deleted")
    return _against_whole(reading, whole, change) if reading.whole else ""


def _against_whole(reading: ProbeReading, whole: ProbeReading | None, change: int) -> str:
    """Why the whole `reading` counts some of does not show its `change` as items made or
    removed alone ("" when it does)."""
    one = _one(reading)
    if whole is None or whole.before is None or whole.after is None:
        when = "before the agent" if whole is not None and whole.before is None else "after capture"
        why = ("was not counted" if whole is None
               else f"could not be counted {when}: {whole.error or 'no reason'}")
        done = "created" if change > 0 else "deleted" if change < 0 else "changed elsewhere"
        return (f"{reading.whole}, the whole it counts some of, {why}, so a {one} {done} "
                "cannot be told from an existing one changed" if change else
                f"{reading.whole}, the whole it counts some of, {why}, so whether the rest of "
                f"the {reading.whole} was left alone cannot be told")
    if lost := rows_lost(whole):
        return f"{whole.name} as a whole: {lost}"
    moved = whole.after - whole.before
    if change == 0:  # what was counted is the same: nothing else of the whole may have changed
        said = listing_changed(whole)
        return f"{whole.name} as a whole changed: {', '.join(said)}" if said else ""
    if change > 0 and moved < change:
        return (f"{whole.name} as a whole went from {whole.before} to {whole.after}: an existing "
                f"{one} was renamed or overwritten into one counted, or one there before is "
                "gone, not only new ones created")
    if change < 0 and moved > change:
        return (f"{whole.name} as a whole went from {whole.before} to {whole.after}: an existing "
                f"{one} was renamed or overwritten out of those counted, or one created, not "
                "only ones deleted")
    if change > 0:
        return whole_changed(whole)
    new = _new(whole, -moved)
    return (f"{new!r}, one of the {whole.name} after capture, was not shown so before the "
            f"agent: an existing {one} was renamed or overwritten, or one created, not only "
            "ones deleted") if new is not None else ""


def listing_changed(whole: ProbeReading) -> tuple[str, ...]:
    """What is gone from, or new in, a whole collection between its two readings, as far as
    its rows show (every row; or, fewer rows than the count, the top of a list kept most
    recently edited first): each a reason for a person, none when nothing is seen changed (or
    the counts are not known). Rows read before and not after are a reason (`rows_lost`):
    counts alone are not compared then."""
    if whole.before is None or whole.after is None:
        return ()
    one, many = ITEMS.get(whole.name, ("item", "items"))
    before, after = whole.rows_before, whole.rows_after
    said = ([f"the {many} went from {whole.before} to {whole.after}"]
            if whole.after != whole.before else [])
    if before is None or after is None:
        return (*said, *filter(None, [rows_lost(whole)]))
    if len(before) == whole.before and len(after) == whole.after:  # both whole: every row
        gone, new = Counter(before) - Counter(after), Counter(after) - Counter(before)
        said += [f"the {one} {row!r} is gone or changed" for row in gone.elements()]
        said += [f"{row!r} is new" for row in new.elements()]
        if not said and whole.name in EDIT_ORDERED and tuple(before) != tuple(after):
            up = next(a for a, b in zip(after, before, strict=True) if a != b)
            said.append(f"the {one} {up!r} moved up the list, which is kept most recently "
                        "edited first: it was edited")
        return tuple(said)
    moved = whole.after - whole.before
    lost, made = _gone(whole, max(0, moved)), _new(whole, max(0, -moved))
    said += [f"the {one} {lost!r} is gone or changed"] if lost is not None else []
    said += [f"{made!r} is new"] if made is not None else []
    return tuple(said)
