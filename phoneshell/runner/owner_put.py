"""Putting the owner's alarms and World Clock's cities back as the run found them, after an
attempt whose agent changed them (`runner.owner`): an alarm deleted is saved again (same time,
name; its switch is turned after), one an agent saved is deleted, a switch turned is turned
back; a city deleted is added back, one added deleted. A calendar event or a contact an agent
added is deleted (`device.owned_delete`), so that no later attempt finds it as the owner's
(red team 141: an event titled "March" passed the month view's checks in every later attempt);
one deleted or edited cannot be written again (what its row does not show cannot be read). A
note or a reminder an agent added is deleted too, by its title in the app's search, where the
search finds no other of that title.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping

from phoneshell.device import run_probe, run_steps
from phoneshell.device.alarms import AlarmRow, alarm_label, alarm_on, delete_alarms, open_alarms
from phoneshell.device.cleanup import DELETERS, switch_alarms_back
from phoneshell.device.owned_delete import delete_contacts, delete_events
from phoneshell.device.phone import Phone
from phoneshell.device.world_clock import add_cities, delete_cities
from phoneshell.runner.rig import Rig
from phoneshell.tasks import Step

TIME = re.compile(r"(\d{1,2}):(\d{2})(?:\s?(AM|PM))?, ([^,]+)")
"""An alarm's row label that saving it again can give back: its time and name, no repeat
("9:41 AM, Owner wake"; on a 24-hour phone "09:41, Owner wake", hours 00 to 23, no period)."""


def _save_alarm(rig: Rig, text: str) -> None:
    """Save alarm `text` (an `alarm_text` row, `TIME`) as a person would: Add, the wheels (hour,
    minute and, on a 12-hour phone, AM/PM), its name, Save (its switch is turned after, with
    the others: `switch_alarms_back`)."""
    match = TIME.fullmatch(alarm_label(text))
    assert match is not None  # `_put_alarms` saves only these
    hour, minute, half, name = match.groups()
    step = Step("probe", "alarms")
    open_alarms(rig.phone, step)
    steps = [Step.tap_on("Add", "Button"),
             Step("set_picker", options=(("wheel", "o'clock"), ("value", f"{hour} o'clock"))),
             Step("set_picker", options=(("wheel", "minute"),
                                         ("value", f"{int(minute)} minute"
                                                   + ("" if int(minute) == 1 else "s"))))]
    if half:  # a 24-hour phone's sheet has no period wheel: its hours say it
        steps.append(Step("set_picker", options=(("wheel", "3"), ("value", half))))
    if name != "Alarm":  # the name a nameless alarm shows
        steps += [Step.tap_on("Label", "TextField"), Step("type", name)]
    run_steps(rig.phone, [*steps, Step.tap_on("Save", "Button")])


def _put_alarms(rig: Rig, was: tuple[str, ...], now: tuple[str, ...]) -> str:
    """Alarms back from `now` to `was`: those saved since deleted, those gone saved again, the
    switches turned back. An alarm gone that cannot be saved again as it was (it repeats) may
    be among those that are new, edited: then none of them is deleted."""
    by_label = Counter(map(alarm_label, was))
    gone = Counter(map(alarm_label, was)) - Counter(map(alarm_label, now))
    new = Counter(map(alarm_label, now)) - by_label
    again = [label for label in gone.elements() if TIME.fullmatch(label)]
    kept = len(again) < sum(gone.values())
    said = []
    if new and not kept:
        left = Counter(new)

        def wanted(row: AlarmRow) -> bool:
            return left[row.label] > 0

        def took(row: AlarmRow) -> None:
            left[row.label] -= 1

        delete_alarms(rig.phone, Step("probe", "alarms"), wanted, sum(new.values()), took)
        said.append(f"deleted {', '.join(map(repr, new.elements()))}")
    elif new:
        said.append(f"left {', '.join(map(repr, new.elements()))}: one may be the owner's, "
                    "edited, that cannot be saved again as it was")
    for label in again:
        _save_alarm(rig, next(row for row in was if alarm_label(row) == label))
        said.append(f"saved {label!r} again")
    turned = switch_alarms_back(rig.phone, was)
    said += [f"turned {label!r} back {'on' if alarm_on(_row(was, label)) else 'off'}"
             for label in turned]
    if kept:
        said.append("the alarm(s) " + ", ".join(repr(label) for label in gone.elements()
                                                if not TIME.fullmatch(label))
                    + " repeat, and cannot be saved again as they were")
    return "; ".join(said) or "nothing to put back"


def _row(rows: tuple[str, ...], label: str) -> str:
    return next((row for row in rows if alarm_label(row) == label), f"{label} | on")


def _put_cities(rig: Rig, was: tuple[str, ...], now: tuple[str, ...]) -> str:
    """World Clock's cities back from `now` to `was`: those added deleted, those gone added."""
    new = [city for city in now if city not in was]
    gone = [city for city in was if city not in now]
    step = Step("probe", "world_clocks")
    if new:
        delete_cities(rig.phone, step, new)
    if gone:
        add_cities(rig.phone, step, gone)
    return "; ".join(line for line in (
        f"deleted {', '.join(map(repr, new))}" if new else "",
        f"added back {', '.join(map(repr, gone))}" if gone else "") if line)


def _added(was: tuple[str, ...], now: tuple[str, ...], what: str) -> Counter[str] | str:
    """The rows of `now` beyond `was`, the ones an agent added; or why none is deleted: there
    are none (an owner's gone or edited only), or a row of `was` is gone, and an owner's item
    edited reads as one gone and one new, which is then not told from the agent's."""
    new = Counter(now) - Counter(was)
    if not new:
        return f"nothing puts a {what} back"
    if Counter(was) - Counter(now):
        return (f"left {', '.join(map(repr, new.elements()))}: an owner's {what} is gone or "
                "edited, and may be among them")
    return new


def _deleting_added(delete: Callable[[Phone, Iterable[str]], None], what: str,
                    ) -> Callable[[Rig, tuple[str, ...], tuple[str, ...]], str]:
    """A put-back that deletes the rows of `now` beyond `was` (by what they show, one each),
    unless a row of `was` is gone: an owner's item edited reads as one gone and one new, and
    the new one is then not told from the agent's, so none is deleted (the watch says what
    stays, and later attempts of the app are not scored: `OwnerWatch.planted`)."""
    def put(rig: Rig, was: tuple[str, ...], now: tuple[str, ...]) -> str:
        new = _added(was, now, what)
        if isinstance(new, str):
            return new
        delete(rig.phone, list(new.elements()))
        return f"deleted {', '.join(map(repr, new.elements()))}"
    return put


def _title(row: str) -> str:
    """A note's or a reminder's title, from its row in the whole ("Milk | Groceries",
    "completed: Renew car insurance")."""
    return row.split(" | ", 1)[0].removeprefix("completed: ").strip()


def _deleting_titled(probe: str, what: str,
                     ) -> Callable[[Rig, tuple[str, ...], tuple[str, ...]], str]:
    """A put-back that deletes the notes or reminders of `now` beyond `was`, by their title, in
    the app's search (`DELETERS` of `probe`), where the search finds exactly as many of that
    title as were added: then none of them is the owner's (the whole lists Notes' first screen
    only, so the owner's notes of the title are counted there, not looked for in the rows).
    None is deleted when an owner's is gone or edited (it may be among the new), nor those of
    a title the owner has too (which is whose cannot be told)."""
    def put(rig: Rig, was: tuple[str, ...], now: tuple[str, ...]) -> str:
        new = _added(was, now, what)
        if isinstance(new, str):
            return new
        said = []
        for title, added in Counter(map(_title, new.elements())).items():
            found = int(run_probe(rig.phone, probe, title)) if title else 0
            if found != added:
                said.append(f"left the {what}(s) titled {title!r}: the search finds {found} of "
                            f"that title, {added} new, so the owner's may be among them")
                continue
            DELETERS.lookup(probe)(rig.phone, Step("probe", probe), title, added)
            said.append(f"deleted {added} {what}(s) titled {title!r}")
        return "; ".join(said)
    return put


PUT_BACK: Mapping[str, Callable[[Rig, tuple[str, ...], tuple[str, ...]], str]] = {
    "alarms": _put_alarms, "world_clocks": _put_cities,
    "events": _deleting_added(delete_events, "event"),
    "contacts": _deleting_added(delete_contacts, "contact"),
    "notes": _deleting_titled("notes_titled", "note"),
    "reminders": _deleting_titled("reminders_titled", "reminder")}
"""How each collection the harness can put back is put back: what an agent added is deleted;
what it deleted or edited of the owner's is saved again only for alarms and cities (a note's
whole text, a reminder's details, a contact's phone and email, an event's end, place and notes
are not in its row)."""


__all__ = ["PUT_BACK", "TIME"]
