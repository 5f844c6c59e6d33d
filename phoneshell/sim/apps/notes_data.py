"""Notes' notes as its store keeps them: reading, seeding, saving, deleting and searching.

The store (`com.apple.mobilenotes`) holds `notes` and `deleted` (Recently Deleted), lists of
`{"id", "text", "modified"}` (and `days`, how many days ago a note not edited today was last
edited), plus the counters `next_id` and `clock`. A note's title is its first non-empty line, by
iOS's line breaks (not Python's: a vertical tab or U+001C breaks no line there). The clock is
frozen at 9:41, so `modified` is a counter, not a time: the most recently edited note is listed
first, and a note edited today shows the time where an older one shows its day, as on a phone.

A fresh phone's Notes is seeded with a few notes, one titled exactly "phoneshell benchmark" (the
suite's search task needs it to exist before any task creates one). The seed is *read* as the
default until the first change writes it, so drawing a screen never writes the store.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass

from phoneshell.sim.facts import WEEKDAYS, DeviceFacts
from phoneshell.sim.store import JSON, Store

BUNDLE_ID = "com.apple.mobilenotes"
SEED = (
    "phoneshell benchmark\nA saved note for Notes search to find.",
    "Groceries\nmilk\neggs\nbread\ncoffee",
    "Trip ideas\nLisbon in spring, Kyoto in autumn.",
    "Meeting notes\nAgenda: quarterly review, hiring, roadmap.",
)
"""The notes of a fresh phone, most recently edited first."""
SEED_DAYS = (1, 2, 5, 40)
"""How many days before the phone's date each seeded note was last edited."""
LINE_BREAKS = re.compile("\r\n|[\n\r\u0085\u2028\u2029]")
"""What ends a line in iOS's text (NSString's paragraph and line separators)."""
SPACE = " \t\n\x0b\x0c\r\u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006" \
        "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
"""What iOS trims from a line's ends (`whitespaceAndNewlineCharacterSet`): Python's strip also
takes U+001C to U+001F, which iOS keeps."""


def lines_of(text: str) -> list[str]:
    """The non-empty lines of a note's text, trimmed, by iOS's rules."""
    return [line.strip(SPACE) for line in LINE_BREAKS.split(text) if line.strip(SPACE)]


@dataclass(frozen=True)
class Note:
    """One note: its id, its whole text, and when it was last edited (a counter)."""

    id: int
    text: str
    modified: int
    days: int = 0
    """How many days before the phone's date it was last edited (0: today)."""

    @property
    def title(self) -> str:
        """The first non-empty line, as the list shows it ("New Note" while empty)."""
        return next(iter(lines_of(self.text)), "New Note")

    @property
    def preview(self) -> str:
        """The line after the title, as the list's second line shows it."""
        lines = lines_of(self.text)
        return lines[1] if len(lines) > 1 else "No additional text"

    def edited(self, facts: DeviceFacts) -> str:
        """When it was last edited, as the list shows it: the time today, "Yesterday", the
        weekday within a week, else the date in numbers."""
        if self.days <= 0:
            return facts.time_text
        if self.days == 1:
            return "Yesterday"
        day = facts.today - datetime.timedelta(days=self.days)
        if self.days < 7:
            return WEEKDAYS[day.weekday()]
        if facts.conventions.day_first:
            return f"{day.day:02d}/{day.month:02d}/{day.year}"
        return f"{day.month}/{day.day}/{day.year % 100:02d}"

    def matches(self, query: str) -> bool:
        """Whether search finds this note: the query is in its title or body (any case)."""
        return query.strip().lower() in self.text.lower()

    def to_json(self) -> dict[str, JSON]:
        """The note as the store keeps it."""
        kept: dict[str, JSON] = {"id": self.id, "text": self.text, "modified": self.modified}
        return {**kept, "days": self.days} if self.days else kept


def _seed() -> list[Note]:
    return [Note(i + 1, text, len(SEED) - i, days)
            for i, (text, days) in enumerate(zip(SEED, SEED_DAYS, strict=True))]


def _parse(raw: JSON) -> list[Note]:
    notes = []
    for item in raw if isinstance(raw, list) else []:
        if isinstance(item, dict):
            ident, text, modified = item.get("id"), item.get("text"), item.get("modified")
            days = item.get("days")
            if isinstance(ident, int) and isinstance(text, str):
                notes.append(Note(ident, text, modified if isinstance(modified, int) else 0,
                                  days if isinstance(days, int) else 0))
    return notes


def read(store: Store, folder: str = "notes") -> list[Note]:
    """The notes of a folder ("notes" or "deleted"), most recent first; writes nothing."""
    if folder == "notes" and "notes" not in store.data:
        return _seed()
    return sorted(_parse(store.data.get(folder)), key=lambda n: -n.modified)


def _write(store: Store, notes: list[Note], deleted: list[Note]) -> None:
    store.put("notes", [n.to_json() for n in notes])
    store.put("deleted", [n.to_json() for n in deleted])
    if "next_id" not in store.data:
        store.put("next_id", max((n.id for n in notes + deleted), default=0) + 1)
    if "clock" not in store.data:
        store.put("clock", max((n.modified for n in notes + deleted), default=0))


def save(store: Store, note_id: int | None, text: str) -> int:
    """Write a note's text (creating the note when `note_id` is None or gone); return its id."""
    notes, deleted = read(store), read(store, "deleted")
    _write(store, notes, deleted)
    clock = int(store.number("clock")) + 1
    store.put("clock", clock)
    if note_id is None or all(n.id != note_id for n in notes):
        note_id = int(store.number("next_id", 1))
        store.put("next_id", note_id + 1)
        notes.append(Note(note_id, text, clock))
    else:
        notes = [Note(n.id, text, clock) if n.id == note_id else n for n in notes]
    # Kept most recent first, as the list shows them (a run of typing saves once).
    _write(store, sorted(notes, key=lambda n: -n.modified), deleted)
    return note_id


def delete(store: Store, note_id: int) -> None:
    """Move a note to Recently Deleted."""
    notes, deleted = read(store), read(store, "deleted")
    gone = [n for n in notes if n.id == note_id]
    _write(store, [n for n in notes if n.id != note_id], gone + deleted)


def purge(store: Store, note_id: int) -> None:
    """Delete a note of Recently Deleted for good (its row's Delete there, as on iOS)."""
    _write(store, read(store), [n for n in read(store, "deleted") if n.id != note_id])


def purge_all(store: Store) -> None:
    """Empty Recently Deleted for good (its Delete All, confirmed)."""
    _write(store, read(store), [])


def recover(store: Store, note_id: int) -> None:
    """Move a note of Recently Deleted back to Notes (its context menu's Recover)."""
    notes, deleted = read(store), read(store, "deleted")
    back = [n for n in deleted if n.id == note_id]
    _write(store, sorted(notes + back, key=lambda n: -n.modified),
           [n for n in deleted if n.id != note_id])


def discard_if_empty(store: Store, note_id: int | None) -> None:
    """Drop a note left without text (Notes keeps no empty notes; not even in the bin)."""
    notes = read(store)
    if any(n.id == note_id and not n.text.strip() for n in notes):
        _write(store, [n for n in notes if n.id != note_id], read(store, "deleted"))
