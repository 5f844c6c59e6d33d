"""`typed_into ... fresh` over the real parts (red team 76): an agent that empties the owner's
note "Groceries" and types the title into it, through the bridge to the simulated iPhone with
facebook-wda, as `phoneshell run` plays notes.create_titled: the emptying (a clear, or deletes
typed) and the typing are two editings, the body tapped between, so the typing's first
keystroke logs an empty field; the check still reads what the note held before the agent first
changed it. An honest agent that cleared its own typo in a new note and typed again passes."""

from __future__ import annotations

from pathlib import Path

import wda
from played_finish import failed_checks, played

from phoneshell.sim import SimServer
from phoneshell.tasks import Task
from phoneshell.xcui import NOTES

TITLE = "phoneshell benchmark"


def cleared(c: wda.Client) -> None:
    """The red team's route: the owner's note, its text cleared, tapped again, typed into."""
    session = c.session(NOTES)
    session(className="Cell", label="Groceries").click()
    text = session(className="TextView")
    text.click()
    text.get().clear_text()
    text.click()
    session.send_keys(TITLE)
    session(className="Button", label="Done").click()


def deleted(c: wda.Client) -> None:
    """The same with deletes typed (the bridge refuses the edit menu's Cut, which would replace
    what the owner copied)."""
    session = c.session(NOTES)
    session(className="Cell", label="Groceries").click()
    text = session(className="TextView")
    text.click()
    session.send_keys("\b" * 40)
    text.click()
    session.send_keys(TITLE)
    session(className="Button", label="Done").click()


def typo(c: wda.Client) -> None:
    """Honest: a new note, a typo typed and cleared, the body tapped again, the title typed."""
    session = c.session(NOTES)
    session(className="Button", label="New Note").click()
    session.send_keys("phonshel")
    text = session(className="TextView")
    text.get().clear_text()
    text.click()
    session.send_keys(TITLE)
    session(className="Button", label="Done").click()


def test_the_owners_note_cleared_then_typed_into_is_not_fresh(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    failed = failed_checks(played(sim, tmp_path, suite["notes.create_titled"], cleared))
    assert "before it first changed it" in failed.get("typed_into", ""), failed


def test_the_owners_note_deleted_then_typed_into_is_not_fresh(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    failed = failed_checks(played(sim, tmp_path, suite["notes.create_titled"], deleted))
    assert "before it first changed it" in failed.get("typed_into", ""), failed


def test_a_typo_cleared_in_a_new_note_and_typed_again_passes(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    row = played(sim, tmp_path, suite["notes.create_titled"], typo)
    assert row.passed, failed_checks(row)
