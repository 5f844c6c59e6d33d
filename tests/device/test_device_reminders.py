"""Reminders counted by title: `reminders_titled` counts every one Reminders' search finds,
`open_reminders_titled` only those not ticked off (red team 93: a reminder made and ticked off
at once passed reminders.create), and a row whose completion cannot be read is refused."""

from __future__ import annotations

import re

import pytest
import wda
from sources import El, source

from phoneshell.device import Phone
from phoneshell.device.probes import REMINDERS, SEARCHED, ProbeError, run_probe
from phoneshell.device.reminders import is_open
from phoneshell.sim import SimServer
from phoneshell.tree import PageSource

TITLE = "collect parcel"


def _add_and_tick_off(url: str) -> None:
    """Add TITLE to the Reminders list as a person would, then tap its completion circle."""
    client = wda.Client(url)
    session = client.session("com.apple.reminders")
    listed = re.search(r'label="(Reminders, \d+)"', client.source())
    assert listed, "Reminders opens on its lists"
    session(label=listed.group(1)).tap()
    session(name="New Reminder").tap()
    session.send_keys(f"{TITLE}\n")
    circle = session(className="XCUIElementTypeCell", name=TITLE).get(timeout=2).bounds
    session.tap(circle.x + 25, circle.y + 26)
    client.app_terminate("com.apple.reminders")


def test_a_reminder_ticked_off_is_counted_found_but_not_open(sim: SimServer) -> None:
    phone = Phone(sim.url, effect_timeout_s=1.0)
    # the seed's one completed reminder: found by the search, not open
    assert run_probe(phone, "reminders_titled", "Renew car insurance") == 1
    assert run_probe(phone, "open_reminders_titled", "Renew car insurance") == 0
    assert run_probe(phone, "open_reminders_titled", "Renew passport") == 1
    _add_and_tick_off(sim.url)
    assert run_probe(phone, "reminders_titled", TITLE) == 1, "there, ticked off"
    assert run_probe(phone, "open_reminders_titled", TITLE) == 0, "it will never remind"


def test_both_counts_of_one_title_read_one_search_and_leave_it_up(sim: SimServer) -> None:
    phone = Phone(sim.url, effect_timeout_s=1.0)
    assert run_probe(phone, "open_reminders_titled", "Milk", leave_open=True) == 1
    left = phone.left()
    assert left == f"{REMINDERS}{SEARCHED}Milk", "the search is left up for the next count"
    assert run_probe(phone, "reminders_titled", "Milk", leave_open=True) == 1
    assert phone.left() == left, "and, read again, for the teardown after"


def _row(*buttons: El) -> PageSource:
    """Reminders' search results with one row titled TITLE holding `buttons`."""
    cell = El("Cell", TITLE, frame=(20, 221, 362, 53), children=(
        *buttons, El("StaticText", TITLE, frame=(70, 227, 124, 22))))
    return PageSource.parse(source(cell, bundle="com.apple.reminders"))


def test_a_row_whose_completion_cannot_be_read_is_refused_not_counted() -> None:
    def circle(label: str) -> El:
        return El("Button", label, frame=(32, 234, 26, 26))

    for row, want in ((_row(circle("Not completed")), True), (_row(circle("Completed")), False)):
        title = next(e for e in row.on_screen() if e.short_type == "StaticText")
        assert is_open(row, title) is want
    for row in (_row(), _row(circle("Flag")), _row(circle("Completed"), circle("Not completed"))):
        title = next(e for e in row.on_screen() if e.short_type == "StaticText")
        with pytest.raises(ProbeError, match="cannot tell whether the reminder"):
            is_open(row, title)
