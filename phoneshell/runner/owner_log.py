"""What an agent's log tells of the owner's Clock, contacts and calendar events (`runner.owner`).

Clock keeps alarms and cities on tabs of their own: whether an agent may have changed either is
read off the pages its actions were on (`acted_in_clock`), and an owner's alarm opened and saved
from Edit Alarm is told by the log (`saved_from_edit`).

A row of Contacts' list shows a contact's name only, and a row of Calendar's search an event's
day, title and time: a phone number, an email, an event's notes or place changed there read the
same after. So two things are read off the log, as for an alarm opened and saved
(`saved_from_edit`):

- whether the agent may have changed the collection at all (`acted_on`), which decides whether
  it is read again after the attempt: only taps (plain ones, not holds) on elements that save
  or delete nothing, and typing into a search field, are left out; a tap on a button that saves
  or deletes (`CHANGES`), any other gesture, typing elsewhere, an action whose target the log
  does not name, a change in the app no logged action explains, or a URL, has it read. An agent
  that only searched Contacts, or moved between Calendar's days, costs no read.
- whether it opened one of the owner's items (an action on the element that shows it: a
  contact's row, an event's title) and then pressed a button that saves or deletes
  (`CHANGES`), before going back (`opened_and_changed`): that fails the attempt whatever the
  list reads after, as an alarm's Edit Alarm saved does.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from phoneshell.device.alarms import alarm_label
from phoneshell.device.owned import CALENDAR, CONTACTS
from phoneshell.device.probes import CLOCK
from phoneshell.records import AuditEvent

APPS: Mapping[str, str] = {"contacts": CONTACTS, "events": CALENDAR}
"""The collections this module reads the log for, and the app each lives in."""
CHANGES: Mapping[str, frozenset[str]] = {
    "contacts": frozenset({"Done", "Delete Contact"}),
    "events": frozenset({"Done", "Add", "Delete Event"})}
"""The buttons whose tap saves or deletes: an edit page's Done (New Event's Add) and a
confirmed delete."""
UNSEEN = {"contacts": "its phone, email or company",
          "events": "its end, place, notes or alerts"}
"""What a row of the collection does not show."""
PLAIN = frozenset({"tap", "click"})
"""A tap's gestures that only press (a hold opens a menu; a double tap, a force touch...)."""


def _pressed(event: AuditEvent, labels: frozenset[str]) -> bool:
    """Whether `event` is a plain tap on a button (not a key) labelled one of `labels`."""
    target = event.target
    return (event.kind == "tap" and target is not None and not target.keyboard
            and target.label in labels)


def acted_on(name: str, events: Iterable[AuditEvent]) -> bool:
    """Whether the agent may have changed collection `name` (one of `APPS`), by its log: see the
    module's docstring."""
    app, changes = APPS[name], CHANGES[name]
    for event in events:
        if event.stage == "custody" and app in (event.app_before, event.app_after):
            return True
        if event.phase != "agent" or event.stage != "intent":
            continue
        if event.app_before != app:
            if event.kind == "open_url":
                return True  # what a URL opened in the app may show no action of the log
            continue
        if event.kind in ("launch", "activate"):
            continue
        target = event.target
        if target is None or target.keyboard:
            return True
        if event.kind == "tap" and event.params.get("gesture", "tap") in PLAIN \
                and target.label not in changes:
            continue
        if event.kind == "type" and target.type.endswith("SearchField"):
            continue
        return True
    return False


def _shown(name: str, row: str) -> str:
    """What an element that opens the item of `row` is labelled: a contact's name; an event's
    title (its row reads "day | title | time")."""
    parts = row.split(" | ")
    return parts[1] if name == "events" and len(parts) == 3 else row


def opened_and_changed(name: str, events: Iterable[AuditEvent], rows: Iterable[str],
                       ) -> tuple[str, str]:
    """The owner's item of collection `name` (one of `rows`, as `Listed` reads them) that the
    agent opened and then saved or deleted, and the button that did it (("", "") when none).
    An item is opened by any action on an element labelled as it shows (in Calendar's week
    view, "Tue 9: Title"); going back (a BackButton) or discarding closes it."""
    owned = {_shown(name, row) for row in rows}
    app, changes = APPS[name], CHANGES[name]
    opened = ""
    for event in events:
        target = event.target
        if event.phase != "agent" or event.stage != "intent" or event.app_before != app \
                or target is None:
            continue
        label = target.label if target.label in owned or name != "events" \
            else target.label.split(": ", 1)[-1]
        if label in owned and not target.keyboard and target.label not in changes:
            opened = label
        elif opened and _pressed(event, changes):
            return opened, target.label
        elif target.name == "BackButton" or target.label == "Discard Changes":
            opened = ""
    return "", ""


def blame(name: str, item: str, button: str) -> str:
    """Why an attempt whose agent opened the owner's `item` and pressed `button` fails."""
    one = name[:-1]
    return (f"the owner's {name} changed: the {one} {item!r} was opened and {button!r} pressed "
            f"(its edit page saved, or a delete confirmed), and what its row does not show "
            f"({UNSEEN[name]}) may have changed")


CLOCK_TABS = frozenset({"World Clock", "Alarms", "Stopwatch", "Timers"})
"""Clock's tab bar: a tap on one changes which list shows, never what a list holds."""
STOPWATCH = frozenset({"Start", "Stop", "Lap", "Reset"})
"""The Stopwatch's buttons, on the one tab of Clock with no navigation bar (so no page)."""
APART = {"alarms": frozenset({"World Clock", "Timers"}),
         "world_clocks": frozenset({"Alarms", "Add Alarm", "Edit Alarm", "Timers"})}
"""Clock's pages, by their navigation bar's title, on which nothing done changes a collection
(Clock keeps alarms and cities on tabs of their own)."""


def acted_in_clock(name: str, events: tuple[AuditEvent, ...]) -> bool:
    """Whether the agent may have changed Clock's collection `name`: any of its actions with
    Clock in front but a launch, a tap on the tab bar, or one on a page of Clock that holds
    nothing of `name` (`APART`, by the page the bridge logged) or a Stopwatch button; or a change
    in Clock no logged action explains (a custody line), or a URL that opened Clock."""
    for event in events:
        if event.stage == "custody" and CLOCK in (event.app_before, event.app_after):
            return True
        if event.phase != "agent" or event.stage != "intent":
            continue
        if event.app_before != CLOCK:
            if event.kind == "open_url":
                return True  # what a URL opened in Clock may show no action of the log
            continue
        target = event.target
        safe = event.kind in ("launch", "activate") or target is not None and (
            target.page in APART[name]
            or (event.kind == "tap" and target.type.endswith("Button")
                and (target.label in CLOCK_TABS or not target.page and target.label in STOPWATCH)))
        if not safe:
            return True
    return False


def saved_from_edit(events: Iterable[AuditEvent], rows: Iterable[str]) -> str:
    """The owner's alarm (one of `rows`, as `Listed` reads them) whose Edit Alarm sheet the
    agent opened, by a tap on its row, and saved ("" when none): what its row does not show
    (its sound, snooze, repeat) may have changed, which no read of the list can tell."""
    owned = {alarm_label(row) for row in rows}
    opened = ""
    for event in events:
        target = event.target
        if event.phase != "agent" or event.stage != "intent" or event.app_before != CLOCK \
                or event.kind != "tap" or target is None:
            continue
        if target.label in owned and target.page != "Edit Alarm":
            opened = target.label  # a row of the owner's alarm: in edit mode, it opens it
        elif target.page == "Edit Alarm" and target.label == "Save" and opened:
            return opened
        elif target.page not in ("Edit Alarm", "Repeat", "Label", "Sound", "Snooze"):
            opened = ""
    return ""


__all__ = ["APART", "APPS", "CHANGES", "acted_in_clock", "acted_on", "blame",
           "opened_and_changed", "saved_from_edit"]
