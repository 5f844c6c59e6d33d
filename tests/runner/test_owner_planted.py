"""What one attempt's agent adds to the owner's data never helps a later attempt (red team
141): an event or a contact it adds fails its attempt and is deleted after it, by the rows read
before and after (the owner's own stay), so the next attempt, whose agent only opens it, finds
nothing to open; the run's next attempt of calendar.month_view does not pass on the details page
of an event titled "March". Played through the runner on the simulated iPhone, the agent being
`plants_then_opens.py` with `repeat`; the phone's own store is the witness."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from phoneshell.records import ResultRow
from phoneshell.runner.folder import read_results
from phoneshell.runner.run import RunOptions, run_suite
from phoneshell.sim import SimServer
from tests.runner.test_owner import run, tasks
from tests.runner.test_owner_contacts import CALENDAR, CONTACTS, _contacts

NOTES, REMINDERS = "com.apple.mobilenotes", "com.apple.reminders"
ROOT = Path(__file__).resolve().parents[2]
AGENT = Path(__file__).with_name("plants_then_opens.py")
EVENT = ("tap:Button:Add", "keys:March", "tap:Button:Add", "--", "tap:Button:March")
"""Add an event titled "March" on today, then open its details (red team 141's cash-in)."""
CONTACT = ("tap:Button:Add", "tap:TextField:First name", "keys:Zed", "tap:Button:Done",
           "tap:Button:Contacts", "--", "tap:Cell:Zed")


def twice(tmp_path: Path, sim: SimServer, task: str, bundle: str, ops: tuple[str, ...],
          ) -> tuple[list[ResultRow], str]:
    words = " ".join(shlex.quote(w) for w in (str(AGENT), bundle, *ops))
    lines: list[str] = []
    run_suite(RunOptions(paths=(str(ROOT / "environments"),), task_globs=(task,), repeat=2,
                         agent=f"command:{shlex.quote(sys.executable)} {words}",
                         device=sim.url, runs_dir=tmp_path, run_id="R"), lines.append)
    return read_results(tmp_path / "R" / "results.jsonl"), "\n".join(lines)


def _titles(sim: SimServer) -> list[str]:
    return [e["title"] for e in sim.state()["stores"][CALENDAR]["events"]]  # type: ignore[index]


@pytest.mark.slow  # two attempts of whole programs
def test_an_event_planted_in_one_attempt_is_deleted_and_never_passes_the_next(
        tmp_path: Path) -> None:
    with SimServer() as sim:
        rows, said = twice(tmp_path, sim, "calendar.month_view", CALENDAR, EVENT)
        titles = _titles(sim)
    planted, cashed = rows
    assert planted.outcome == "failed"
    assert "the owner's events changed" in planted.error
    assert "| March | 9 AM' is new" in planted.error
    assert planted.teardown is not None
    assert "deleted 'TUESDAY, JANUARY 9, 2024 | March | 9 AM'" in planted.teardown.owner[0]
    assert "the owner's events are as they were" in planted.teardown.owner[0]
    # the second agent found no "March" to open, so planted it again: failed again, deleted
    assert cashed.outcome != "passed", cashed.error
    assert "March" not in titles and len(titles) == 8  # the owner's eight stay
    assert "all were put back as the run found them" in said


@pytest.mark.slow  # two attempts of whole programs
def test_a_contact_planted_in_one_attempt_is_deleted_after_it(tmp_path: Path) -> None:
    with SimServer() as sim:
        rows, _ = twice(tmp_path, sim, "contacts.search", CONTACTS, CONTACT)
        names = [c["first"] for c in _contacts(sim)]  # type: ignore[index]
    assert [row.outcome for row in rows] == ["failed", "failed"]
    assert rows[0].teardown is not None
    assert "deleted 'Zed'" in rows[0].teardown.owner[0]
    assert "Zed" not in names and len(names) == 6


def test_an_owners_event_renamed_is_not_deleted_and_the_next_calendar_attempt_not_scored(
        tmp_path: Path, environments: Path) -> None:
    # Renamed, the owner's event reads as one gone and one new: the new one may be the owner's,
    # so nothing is deleted; what the agent wrote stays, and a later Calendar attempt may find
    # it, so it is not scored where it would pass.
    rename = ("- open_app: Calendar\n- tap: {text: Dentist, type: Button}\n"
              "- tap: {text: Edit, type: Button}\n- tap: {text: Title, type: TextField}\n"
              "- type: ' March'\n- tap: {text: Done, type: Button}\n- open_app: Weather")
    folder = tasks(tmp_path, environments,
                   ("weather.rename", "weather.open", "- open_app: Weather", rename),
                   ("calendar.month_view", "calendar.month_view", "", ""))
    with SimServer() as sim:
        (renamed, honest), _ = run(folder, sim, tmp_path)
        titles = _titles(sim)
    assert "Dentist March" in titles  # the agent's title stays
    assert renamed.outcome == "failed"
    assert renamed.teardown is not None
    assert "left 'TUESDAY, JANUARY 9, 2024 | Dentist March | 4 PM'" in renamed.teardown.owner[0]
    assert honest.outcome == "skipped", honest.error
    assert ("the owner's events hold what the run did not find there, left by "
            "weather.rename attempt 1's agent") in honest.skip_reason, honest.skip_reason


def test_a_note_and_a_reminder_an_agent_adds_are_deleted_after_its_attempt(
        tmp_path: Path, environments: Path) -> None:
    detour = ("- open_app: Notes\n- tap: {text: New Note, type: Button}\n- type: March plan\n"
              "- tap: {text: Done, type: Button}\n- open_app: Reminders\n"
              "- back_to: {text: Reminders, type: Cell}\n- tap: Reminders\n"
              "- tap: {text: New Reminder, type: Button}\n- type: \"March plan\\n\"\n"
              "- open_app: Weather")
    folder = tasks(tmp_path, environments,
                   ("weather.detour", "weather.open", "- open_app: Weather", detour),
                   ("weather.honest", "weather.open", "", ""))
    with SimServer() as sim:
        (harmed, honest), said = run(folder, sim, tmp_path)
        stores = sim.state()["stores"]
    notes = [n["text"] for n in stores[NOTES]["notes"]]  # type: ignore[index]
    reminders = [r["title"] for r in stores[REMINDERS]["reminders"]]  # type: ignore[index]
    assert harmed.outcome == "failed" and harmed.teardown is not None
    owner = "\n".join(harmed.teardown.owner)
    assert "deleted 1 note(s) titled 'March plan'" in owner, owner
    assert "deleted 1 reminder(s) titled 'March plan'" in owner, owner
    assert not any("March plan" in text for text in notes), notes
    assert "March plan" not in reminders, reminders
    assert honest.outcome == "passed", honest.error
    assert "all were put back as the run found them" in "\n".join(said)
