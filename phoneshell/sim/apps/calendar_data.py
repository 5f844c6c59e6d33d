"""Calendar's events as its store keeps them: reading, seeding, saving and deleting.

The store (`com.apple.mobilecal`) holds `events`, a list of `{"id", "days", "hour", "title"}`
(`days`: days from the phone's frozen date; `hour`: when it starts, each lasting an hour), and
the counter `next_id`. A fresh phone holds `SEED`; the seed is *read* as the default until the
first change writes it, so drawing a screen never writes the store.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from phoneshell.sim.store import JSON, Store

BUNDLE_ID = "com.apple.mobilecal"


@dataclass(frozen=True)
class Event:
    """One event: its day (days from today), the hour it starts, its title."""

    days: int
    hour: int
    title: str
    id: int = 0

    def to_json(self) -> dict[str, JSON]:
        return dict(asdict(self))


SEED = tuple(Event(days, hour, title, i + 1) for i, (days, hour, title) in enumerate((
    (0, 10, "Team Stand-up"), (0, 12, "Lunch with Anna"), (0, 16, "Dentist"),
    (1, 9, "Car Service"), (2, 18, "Dinner with Kate"), (-1, 15, "Call Mom"),
    (4, 11, "Farmers Market"), (14, 19, "Book Club"))))
"""Every event of a fresh phone."""


def _parse(raw: JSON) -> list[Event]:
    found = []
    for item in raw if isinstance(raw, list) else []:
        if isinstance(item, dict) and all(isinstance(item.get(k), int)
                                           for k in ("id", "days", "hour")) \
                and isinstance(item.get("title"), str):
            found.append(Event(int(item["days"]), int(item["hour"]) % 24,  # type: ignore[arg-type]
                               str(item["title"]), int(item["id"])))  # type: ignore[arg-type]
    return found


def read(store: Store) -> list[Event]:
    """Every event, by day and hour; writes nothing."""
    found = list(SEED) if "events" not in store.data else _parse(store.data["events"])
    return sorted(found, key=lambda e: (e.days, e.hour, e.title, e.id))


def find(store: Store, event_id: int) -> Event | None:
    """The event with this id (None: gone)."""
    return next((e for e in read(store) if e.id == event_id), None)


def _write(store: Store, events: list[Event]) -> None:
    store.put("events", [e.to_json() for e in events])
    if "next_id" not in store.data:
        store.put("next_id", max((e.id for e in events), default=0) + 1)


def save(store: Store, event_id: int | None, days: int, hour: int, title: str) -> int:
    """Write an event (a new one when `event_id` is None or gone); its id."""
    events = read(store)
    _write(store, events)
    if event_id is None or all(e.id != event_id for e in events):
        event_id = int(store.number("next_id", 1))
        store.put("next_id", event_id + 1)
        events.append(Event(days, hour, title, event_id))
    else:
        events = [Event(days, hour, title, e.id) if e.id == event_id else e for e in events]
    _write(store, events)
    return event_id


def delete(store: Store, event_id: int) -> None:
    """Delete an event."""
    _write(store, [e for e in read(store) if e.id != event_id])


def hour_text(hour: int) -> str:
    """An hour as the day view and an event's details write it ("10 AM")."""
    return f"{(hour + 11) % 12 + 1} {'AM' if hour < 12 else 'PM'}"
