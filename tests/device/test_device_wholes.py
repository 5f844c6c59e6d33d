"""The counts of a whole collection on the simulated iPhone: every note (its list's count, and
the rows of its first screen, the most recently edited on top) and every reminder (the All and
Completed tiles' counts and those lists' rows, scrolled through); a search counted after one
starts where it left its app, with no second launch; and a count by title counts only what its
whole does."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from phoneshell.device import Phone, run_listed
from phoneshell.device.steps import run_steps
from phoneshell.sim import SimServer
from phoneshell.tasks import Step

NOTES, REMINDERS = "com.apple.mobilenotes", "com.apple.reminders"
SEEDED = ("phoneshell benchmark | Yesterday  A saved note for Notes search to find.",
          "Groceries | Sunday  milk", "Trip ideas | Thursday  Lisbon in spring, Kyoto in autumn.",
          "Meeting notes | 11/30/23  Agenda: quarterly review, hiring, roadmap.")
"""The seeded notes' rows on the phone's date (Tuesday 9 January 2024): a note not edited today
shows its day."""


def launches(sim: SimServer, since: int) -> list[str]:
    return [e["path"] for e in sim.ledger(since)[1] if str(e["route"]).endswith("launch")]


def test_the_notes_are_counted_whole_with_the_rows_on_top(phone: Phone) -> None:
    listed = run_listed(phone, "notes", "")
    assert (listed.count, listed.rows) == (4, SEEDED)


@pytest.fixture
def many_notes(tmp_path: Path) -> Iterator[SimServer]:
    """A phone with 30 notes, "note 29" edited last."""
    notes = [{"id": n + 1, "text": f"note {n}\nline {n}", "modified": n + 1} for n in range(30)]
    path = tmp_path / "state.json"
    path.write_text(json.dumps({"version": 1, "stores": {NOTES: {
        "notes": notes, "deleted": [], "next_id": 31, "clock": 30}}}))
    with SimServer(state_file=path) as sim:
        yield sim


def test_a_long_list_of_notes_gives_its_count_and_the_top_of_its_rows(
        many_notes: SimServer) -> None:
    phone = Phone(many_notes.url, effect_timeout_s=1.0)
    listed = run_listed(phone, "notes", "")
    assert listed.count == 30 and listed.rows is not None
    # one screen, newest first, whole rows only: the eighth runs on under the toolbar, and a
    # row cut off shows only some of its texts (a read later may show more of it)
    assert len(listed.rows) == 7
    assert listed.rows[:2] == ("note 29 | 9:41 AM  line 29", "note 28 | 9:41 AM  line 28")
    # a note far down, opened and edited, moves to the top: the screen shows it
    run_steps(phone, [Step("launch", NOTES), Step("tap", "Search"), Step("type", "note 3\n"),
                      Step.tap_on("note 3", "Cell"), Step.tap_on("Note", "TextView"),
                      Step("type", " edited"), Step.tap_on("Done", "Button")])
    edited = run_listed(phone, "notes", "")
    assert edited.count == 30 and edited.rows is not None
    assert edited.rows[0] == "note 3 | 9:41 AM  line 3 edited"
    assert edited.rows[1:] == listed.rows[:-1]


def test_a_search_after_the_notes_count_starts_from_its_list(sim: SimServer,
                                                             phone: Phone) -> None:
    since = sim.ledger()[0]
    assert run_listed(phone, "notes", "", leave_open=True).count == 4
    titled = run_listed(phone, "notes_titled", "phoneshell benchmark")
    assert (titled.count, titled.rows) == (1, SEEDED[:1])
    assert len(launches(sim, since)) == 1, "one launch serves the whole and the search"


def test_the_reminders_are_counted_whole_through_a_list_longer_than_the_screen(
        sim: SimServer, phone: Phone) -> None:
    listed = run_listed(phone, "reminders", "")
    # every reminder: the 23 of the All list and the one completed, which the search that
    # counts reminders by title lists too (`reminders_titled` is some of this whole)
    assert listed.count == 24 and listed.rows is not None and len(listed.rows) == 24
    assert listed.rows[0] == "Call the dentist | Today, 10:00 AM" and listed.rows[-2] == "Bananas"
    assert listed.rows[-1] == "completed: Renew car insurance"
    # one of them ticked off is still there, shown as changed: the count stays, the row moves
    run_steps(phone, [Step("launch", REMINDERS),  # it reopens in the Completed list the count left
                      Step.tap_on("Lists", "Button"), Step.tap_on("All", "Button"),
                      Step.tap_on("Not completed", "Button")])
    done = run_listed(phone, "reminders", "")
    assert done.count == 24 and done.rows is not None
    assert done.rows == listed.rows[1:-1] + ("completed: Call the dentist | Today, 10:00 AM",
                                             listed.rows[-1])
    # left up, the lists are where a search starts, with no launch between
    since = sim.ledger()[0]
    assert run_listed(phone, "reminders", "", leave_open=True).count == 24
    assert run_listed(phone, "reminders_titled", "Renew passport").count == 1
    assert len(launches(sim, since)) == 1


@pytest.fixture
def every_kind(tmp_path: Path) -> Iterator[SimServer]:
    """A phone whose reminders titled "parcel" are one of each kind a list or search may leave
    out (completed, in another list, flagged, due today), and whose deleted note is one too."""
    def reminder(where: str, **more: object) -> dict[str, object]:
        return {"title": "parcel", "list": where, "done": False, "flagged": False, "due": "",
                **more}
    rems = [reminder("Reminders"), reminder("Groceries"), reminder("Reminders", done=True),
            reminder("Groceries", done=True), reminder("Reminders", flagged=True),
            reminder("Reminders", due="Today, 9:00 AM"), reminder("Reminders", title="other")]
    note = {"id": 9, "text": "parcel\nsent", "modified": 1}
    path = tmp_path / "state.json"
    path.write_text(json.dumps({"version": 1, "stores": {
        REMINDERS: {"reminders": rems}, NOTES: {"notes": [], "deleted": [note], "next_id": 10,
                                               "clock": 1}}}))
    with SimServer(state_file=path) as sim:
        yield sim


def test_a_count_by_title_counts_only_what_its_whole_counts(every_kind: SimServer) -> None:
    """A part and its whole count the same population: every reminder the search finds is in
    the whole's rows, and a note the whole leaves out (Recently Deleted) the search does too."""
    phone = Phone(every_kind.url, effect_timeout_s=1.0)
    whole = run_listed(phone, "reminders", "")
    assert whole.count == 7 and whole.rows is not None
    titled = run_listed(phone, "reminders_titled", "parcel")
    assert titled.count == 6 == sum("parcel" in row for row in whole.rows)
    assert run_listed(phone, "notes", "").count == 0
    assert run_listed(phone, "notes_titled", "parcel").count == 0
