"""An empty list's placeholder is no item (red team 60): each collection the owner watch reads
whole, emptied on the simulated iPhone, reads as no rows, not as one row "No Reminders", and
still row by row; an item named like a placeholder among others stays an item."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from phoneshell.device import Phone, run_listed
from phoneshell.device.wholes import unplaced
from phoneshell.sim import SimServer
from phoneshell.sim.apps.reminders import SEED

NOTES, REMINDERS = "com.apple.mobilenotes", "com.apple.reminders"
CONTACTS, CALENDAR, CLOCK = "com.apple.MobileAddressBook", "com.apple.mobilecal", \
    "com.apple.mobiletimer"
OPEN = [r for r in SEED if not r["done"]]
"""The seeded reminders but the completed one: the Completed list is empty."""


def phone_with(tmp_path: Path, stores: dict[str, object]) -> Iterator[SimServer]:
    path = tmp_path / "state.json"
    path.write_text(json.dumps({"version": 1, "stores": stores}))
    with SimServer(state_file=path) as sim:
        yield sim


@pytest.fixture
def emptied(tmp_path: Path) -> Iterator[SimServer]:
    """A phone whose notes, contacts, events, alarms and cities are all gone, and whose
    reminders are the seed's open ones (the Completed list empty)."""
    yield from phone_with(tmp_path, {
        NOTES: {"notes": [], "deleted": [], "next_id": 1, "clock": 0},
        REMINDERS: {"reminders": OPEN}, CONTACTS: {"contacts": [], "next_id": 1},
        CALENDAR: {"events": [], "next_id": 1}, CLOCK: {"alarms": [], "cities": []}})


def test_an_empty_completed_list_leaves_the_reminders_read_row_by_row(emptied: SimServer,
                                                                       ) -> None:
    listed = run_listed(Phone(emptied.url, effect_timeout_s=1.0), "reminders", "")
    assert listed.count == len(OPEN) == 23
    assert listed.rows is not None, "the Completed list's 'No Reminders' is no reminder"
    assert len(listed.rows) == 23 and not any(r.startswith("completed: ") for r in listed.rows)
    assert "No Reminders" not in listed.rows


def test_no_reminders_at_all_reads_as_none_row_by_row(tmp_path: Path) -> None:
    for sim in phone_with(tmp_path, {REMINDERS: {"reminders": []}}):
        listed = run_listed(Phone(sim.url, effect_timeout_s=1.0), "reminders", "")
        assert (listed.count, listed.rows) == (0, ())


@pytest.mark.parametrize("name", ["notes", "contacts", "events", "world_clocks", "alarms"])
def test_every_other_collection_emptied_reads_as_none_row_by_row(emptied: SimServer,
                                                                 name: str) -> None:
    listed = run_listed(Phone(emptied.url, effect_timeout_s=1.0), name, "")
    assert (listed.count, listed.rows) == (0, ())


def test_a_contact_named_like_a_placeholder_among_others_is_a_contact(tmp_path: Path) -> None:
    # Read before as "no results" wherever it stood: a contact an agent made so was unseen.
    contacts = [{"id": 1, "first": "Kate", "last": "Bell"},
                {"id": 2, "first": "No", "last": "Results"}]
    for sim in phone_with(tmp_path, {CONTACTS: {"contacts": contacts, "next_id": 3}}):
        listed = run_listed(Phone(sim.url, effect_timeout_s=1.0), "contacts", "")
        assert listed.rows == ("Kate Bell", "No Results")


@pytest.mark.parametrize(("rows", "count", "read"), [
    (("No Reminders",), 0, ()), (("No Notes",), None, ()),
    (("No Alarms",), None, ()), (("No World Clocks",), None, ()),  # iOS's Clock
    (("No Contacts",), None, ()), (("No Recents",), None, ()), (("No Results",), None, ()),
    (("No Completed Reminders | Tap + to add one",), None, ()),  # a placeholder with a hint
    (("No Reminders",), 1, ("No Reminders",)),  # a reminder so titled: the list counts one
    (("Kate Bell", "No Results"), None, ("Kate Bell", "No Results")),  # among others
    (("Notes on the trip",), None, ("Notes on the trip",)),
    (("No one to call back | Today",), None, ("No one to call back | Today",)),
])
def test_a_lone_placeholder_row_is_no_item(rows: tuple[str, ...], count: int | None,
                                           read: tuple[str, ...]) -> None:
    assert unplaced(rows, count) == read
