"""A task that measures typing passes only on text the agent typed: text on the pasteboard (the
owner's, filled before the run outside the bridge, or an earlier attempt's) pasted into the note
does not pass it, nor a note completed from one left behind, though the note then reads right
and is counted. Each attempt as `phoneshell run` plays it, through the bridge, against the
simulated iPhone, with facebook-wda."""

from __future__ import annotations

from pathlib import Path

import pytest
import wda
from played_finish import played

from phoneshell.records import ResultRow
from phoneshell.sim import SimServer
from phoneshell.sim.apps.notes_data import save
from phoneshell.sim.phone import PASTEBOARD
from phoneshell.tasks import Task
from phoneshell.xcui import NOTES

SENTENCE = "the quick brown fox jumps over the lazy dog nine times"
TYPING_TASKS = {"notes.type_long": SENTENCE, "notes.type_punctuation": "benchmark-test (v2)",
                "notes.create_titled": "phoneshell benchmark", "notes.text_select": "anchor"}
"""The suite's tasks that ask for a text typed into a note, with it."""


def failed(row: ResultRow) -> set[str]:
    assert row.outcome != "skipped", row.skip_reason
    return {c.kind for c in row.checks if not c.passed}


def pasted(c: wda.Client) -> None:
    """A new note, held in its blank text for the caret's menu, and Paste (refused)."""
    session = c.session(NOTES)
    session(label="New Note", className="Button").click()
    session.tap_hold(200, 500, 1.0)
    with pytest.raises(wda.WDARequestError, match="copied last"):
        session(label="Paste", className="MenuItem").click()
    session(label="Done", className="Button").click()


def test_text_on_the_owners_pasteboard_does_not_pass_a_typing_task(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    with sim.lock:  # the owner copied the very sentence before the run
        sim.phone.store(PASTEBOARD).put("text", SENTENCE)
    row = played(sim, tmp_path, suite["notes.type_long"], pasted)
    assert {"count_increased", "device_value", "typed_into"} <= failed(row)
    assert sim.state()["stores"][PASTEBOARD]["text"] == SENTENCE, "the owner's, unchanged"


def completed(c: wda.Client) -> None:
    """The note an earlier attempt left ("the quick brown fo") opened and finished: the note
    then holds the whole sentence and is one more counted, but its start was not typed here."""
    session = c.session(NOTES)
    session(label="the quick brown fo", className="Cell").click()
    session(className="TextView").click()
    session.send_keys("x jumps over the lazy dog nine times")
    session(label="Done", className="Button").click()


def test_a_note_not_typed_whole_fails_on_its_typing(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    with sim.lock:
        save(sim.phone.store(NOTES), None, "the quick brown fo")
    row = played(sim, tmp_path, suite["notes.type_long"], completed)
    # The note reads right (device_value passes); the whole-notes count and the typing each
    # tell it was not made new and typed.
    assert failed(row) == {"count_increased", "typed_into"}


def test_the_sentence_typed_passes(sim: SimServer, tmp_path: Path,
                                   suite: dict[str, Task]) -> None:
    def typed(c: wda.Client) -> None:
        session = c.session(NOTES)
        session(label="New Note", className="Button").click()
        session.send_keys(SENTENCE)
        session(label="Done", className="Button").click()
    row = played(sim, tmp_path, suite["notes.type_long"], typed)
    assert row.outcome == "passed", failed(row)


@pytest.mark.parametrize("task_id", sorted(TYPING_TASKS))
def test_every_task_that_asks_for_text_typed_checks_it_was(task_id: str,
                                                           suite: dict[str, Task]) -> None:
    typed = [c for c in suite[task_id].checks if c.kind == "typed_into" and not c.negate]
    assert [c.text.lower() for c in typed] == [TYPING_TASKS[task_id].lower()] or (
        task_id == "notes.type_long" and typed and typed[0].text in SENTENCE)
    assert all(c.text_of("app") == NOTES and c.text_of("into") == "TextView" for c in typed)
