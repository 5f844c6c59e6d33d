"""The probe vocabulary: harness procedures that read a count or a value off the phone.

Side-effect checks name a count probe (compared before the agent and after capture); answer
checks name a value probe (read at capture). This module only says which probes exist and what
they read, so the loader can refuse an unknown or wrong-kind probe before a phone is touched;
the procedures themselves live in the device layer (phoneshell/device/probes.py and the
modules it names).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from phoneshell.registry import Registry

ProbeKind = Literal["count", "value"]


@dataclass(frozen=True)
class ProbeSpec:
    """A probe as task files see it."""

    name: str
    kind: ProbeKind
    """`count` (an integer, compared before/after) or `value` (a string, read at capture)."""
    doc: str
    """What it reads; `arg` is the check's `text`."""
    part_of: str = ""
    """The count probe that, taken with no text, counts the whole collection what this one
    counts belongs to: a note titled X is one of the notes (`notes`), an alarm labelled X one of
    the alarms (`alarms` itself). A filtered count that grows while its whole does not grew by
    an existing item changed into it, not by one made (`whole_of`). Empty: the count is its
    own whole and lists no rows to tell its items apart by (tabs, timers)."""


PROBES: Registry[ProbeSpec] = Registry("probe", "phoneshell schema --probes")


def _add(name: str, kind: ProbeKind, doc: str, part_of: str = "") -> None:
    PROBES.register(name)(ProbeSpec(name, kind, doc, part_of))


def whole_of(name: str, arg: str) -> tuple[str, str] | None:
    """The (probe, text) of the count of the whole collection that count `name`(`arg`) counts
    some of (`ProbeSpec.part_of`), or None when it counts the whole itself (or names no
    whole)."""
    whole = PROBES.lookup(name).part_of
    return (whole, "") if whole and (whole, "") != (name, arg) else None


_add("notes_titled", "count", "Notes whose title (first line) is `arg`, ignoring case, found with "
     "Notes' own search (up to one screen of results).", "notes")
_add("notes_containing", "count", "Notes whose title or text contains `arg`, ignoring case, "
     "found with Notes' own search (up to one screen of results).", "notes")
_add("notes", "count", "Every note in Notes' list: the count its toolbar shows (\"4 Notes\"), "
     "and the rows of its first screen, the most recently edited first.", "notes")
_add("reminders_titled", "count", "Reminders whose title is `arg`, ignoring case, completed or "
     "not, found with Reminders' search (up to one screen of results).", "reminders")
_add("open_reminders_titled", "count", "Reminders whose title is `arg`, ignoring case, that are "
     "not completed (a reminder ticked off never reminds), found with Reminders' search (up to "
     "one screen of results, completed ones included).", "reminders")
_add("reminders", "count", "Every reminder, completed or not (Reminders' search lists both): the "
     "counts of its All and Completed lists, and their rows.", "reminders")
_add("contacts", "count", "Every contact in Contacts' list, with its row (its name), scrolled "
     "through.", "contacts")
_add("events", "count", "Every event Calendar's search lists before anything is typed, each as "
     "its day's heading, its title and its time.", "events")
_add("safari_tabs", "count", "Open (not private) Safari tabs, as the tab overview counts them.")
_add("alarms", "count", "Alarms in Clock's Alarms list; with `arg`, only those whose row "
     "contains it (e.g. 7:30).", "alarms")
_add("clock_timers", "count", "Timers running or paused in Clock: a Pause or Resume button each "
     "on its Timers tab.")
_add("timer_dialled", "count", "1 when Clock's Timers tab shows its wheels at the duration `arg` "
     "(H:MM:SS, e.g. 0:05:00), else 0 (another duration, or a timer running in their place); "
     "its row is what the wheels read, for `restore_timer`.")
_add("stopwatch", "count", "1 when Clock's stopwatch is not at zero (running, or stopped with time "
     "on it), else 0.")
_add("world_clocks", "count", "Cities in Clock's World Clock list; with `arg`, only those whose "
     "name contains it.", "world_clocks")
_add("settings_value", "value", "The value of a Settings row by path, e.g. `General > About > "
     "Model Number` (read in both notations a tap on it shows: \"MQ163LL/A | A3256\").")
_add("battery_level", "value", "The charge Settings > Battery shows in the readout at its top "
     "(iOS 26), e.g. 87%.")
_add("weather_temperature", "value", "The temperature Weather shows for My Location on opening.")
_add("compass_heading", "value", "The heading Compass shows, e.g. 274° W.")
_add("newest_note", "value", "The whole text of the note edited last (the top of Notes' list, "
     "which Notes sorts by date edited), as its text view holds it.")
