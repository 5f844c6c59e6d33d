"""The owner's contacts and events are read whole, or not at all: the read's own scroll keeps out
of the system's edge zones (Contacts' list runs to the screen's bottom, where a slide up is the
swipe home), and a read whose scroll left the list, or that cannot scroll it, fails as
unreadable instead of ending the list short (red team 117: a contact sorted below the first
screen passed unseen). Upright and turned, on the simulated iPhone over HTTP."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest

from phoneshell.device import Phone
from phoneshell.device.owned import CALENDAR, CONTACTS, _still_there, contacts_listed, events_listed
from phoneshell.device.probes import ProbeError, fresh_app
from phoneshell.errors import PhoneshellError
from phoneshell.sim import SimServer

LAST = ["Adams", "Baker", "Clark", "Davis", "Evans", "Fox", "Green", "Hill", "Irwin", "Jones"]


@contextmanager
def holding(tmp_path: Path, count: int) -> Iterator[Phone]:
    """A phone whose Contacts holds `count` contacts, one under each letter from A."""
    people = [{"id": i + 1, "first": f"Pat{i}", "last": last, "phone": "", "email": "",
               "company": ""} for i, last in enumerate(LAST[:count])]
    state = tmp_path / "state.json"
    state.write_text(json.dumps({"version": 1, "stores": {CONTACTS: {"contacts": people}}}))
    with SimServer(state_file=state) as sim:
        yield Phone(sim.url, effect_timeout_s=1.0)


def turn(phone: Phone) -> None:
    """Turn the phone to landscape (WDA refuses it over the home screen, which stays upright;
    the phone turns all the same, and the next app comes up turned)."""
    with suppress(PhoneshellError):
        phone.act("/orientation", {"orientation": "LANDSCAPE"})


def test_ten_contacts_are_read_all_past_the_first_screen(tmp_path: Path) -> None:
    with holding(tmp_path, 10) as phone:
        listed = contacts_listed(phone, "")
        assert listed.rows == tuple(f"Pat{i} {last}" for i, last in enumerate(LAST))
        assert phone.foreground().bundle_id != CONTACTS  # the read stopped it, as it does


def test_a_turned_phones_contacts_are_read_all(tmp_path: Path) -> None:
    with holding(tmp_path, 8) as phone:
        turn(phone)
        shown = fresh_app(phone, CONTACTS)
        assert shown.width > shown.height  # turned indeed
        listed = contacts_listed(phone, "")
    assert listed.count == 8 and listed.rows[-1] == "Pat7 Hill"


def test_a_turned_phones_events_too_little_shown_to_scroll_are_unreadable(
        tmp_path: Path) -> None:
    # Calendar's search on a turned phone leaves 90 points above the keyboard, and its first
    # row is cut by the keyboard: no row whole, no room to scroll. That is no empty list.
    with holding(tmp_path, 0) as phone:
        assert events_listed(phone, "").count == 8  # upright: every event
        turn(phone)
        with pytest.raises(ProbeError, match="Calendar's search: too little of it shows"):
            events_listed(phone, "")


def test_a_scroll_that_left_the_list_fails_the_read_naming_where_it_went(
        tmp_path: Path) -> None:
    with holding(tmp_path, 3) as phone:
        first = fresh_app(phone, CONTACTS)
        _still_there("Contacts' list", first, phone.page())  # still there: no word
        phone.home()
        with pytest.raises(ProbeError, match="put com.apple.springboard in front of "
                                             "com.apple.MobileAddressBook"):
            _still_there("Contacts' list", first, phone.page())
        fresh_app(phone, CALENDAR)
        phone.launch(CONTACTS)
        card = next(e for e in phone.page().on_screen() if e.label == "Pat1 Baker")
        phone.tap(*card.centre)
        with pytest.raises(ProbeError, match="left the list's page \\('Contacts'\\) for "
                                             "'Pat1 Baker'"):
            _still_there("Contacts' list", first, phone.page())
