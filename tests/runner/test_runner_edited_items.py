"""An agent told to make a note that edits the owner's instead fails, and the owner's note is
never deleted for the agent's: not by the attempt's teardown, not by the run's end. Played
through the runner on one simulated iPhone, by a `command:` agent (`edits_instead.py`) that
renames or overwrites a note that was there before it, with and without making a note of its
own; the phone's own store is the witness of what stayed."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from phoneshell.records import ResultRow
from phoneshell.runner.folder import read_results
from phoneshell.runner.run import RunOptions, run_suite
from phoneshell.sim import SimServer

NOTES = "com.apple.mobilenotes"
ROOT = Path(__file__).resolve().parents[2]
EDITS = Path(__file__).with_name("edits_instead.py")
GROCERIES, TRIP = 2, 3
"""The ids of a fresh phone's "Groceries" and "Trip ideas" notes (the simulator's seed)."""


def run(sim: SimServer, runs: Path, task_id: str, victim: str, text: str, *more: str,
        run_id: str) -> ResultRow:
    """One attempt of `task_id` whose agent edits the note titled `victim` into `text`."""
    words = " ".join(shlex.quote(w) for w in (str(EDITS), victim, text, *more))
    agent = f"command:{shlex.quote(sys.executable)} {words}"
    run_suite(RunOptions(paths=(str(ROOT / "environments"),), task_globs=(task_id,), agent=agent,
                         device=sim.url, runs_dir=runs, run_id=run_id), lambda line: None)
    (row,) = read_results(runs / run_id / "results.jsonl")
    return row


def notes(sim: SimServer) -> dict[int, str]:
    """The phone's notes (not Recently Deleted), by id: its own store, not a count."""
    kept: list[dict[str, Any]] = sim.state()["stores"][NOTES]["notes"]
    return {note["id"]: note["text"] for note in kept}


def failed_by_an_edit(row: ResultRow) -> str:
    """The detail of the count check that failed, which must say an existing note changed."""
    (count,) = [c for c in row.checks if c.kind == "count_increased"]
    assert not count.passed and "change +1, wanted +1" in count.detail, count.detail
    return count.detail


@pytest.mark.parametrize("task_id, victim, text, victim_id", [
    ("notes.create_titled", "Groceries", "phoneshell benchmark", GROCERIES),
    ("notes.type_long", "Trip ideas", "the quick brown fox jumps over the lazy dog nine times",
     TRIP),
    ("notes.type_punctuation", "Trip ideas", "benchmark-test (v2)", TRIP),
    ("notes.text_select", "Trip ideas", "anchor", TRIP),
])
@pytest.mark.slow  # whole runs: 5-7 s on a busy 2-core machine
def test_a_note_overwritten_for_a_new_one_fails_and_stays(
        tmp_path: Path, task_id: str, victim: str, text: str, victim_id: int) -> None:
    with SimServer() as sim:
        row = run(sim, tmp_path, task_id, victim, text, run_id="R")
        assert not row.passed and not row.skipped, row
        detail = failed_by_an_edit(row)
        assert "notes as a whole went from 4 to 4" in detail
        assert "an existing note was renamed or overwritten" in detail
        assert row.teardown is not None and row.teardown.ok, row.teardown
        (left,) = row.teardown.left  # nothing deleted, and the row says why
        assert "grew by 1, and none of it was deleted" in left
        # the owner's note is still there, as the agent left it: neither the attempt's
        # teardown nor the run's end took it for the agent's
        assert notes(sim)[victim_id] == text


@pytest.mark.slow  # whole runs: 5-7 s on a busy 2-core machine
def test_a_note_overwritten_beside_one_made_fails_and_stays(tmp_path: Path) -> None:
    # the notes as a whole grow by one (the agent's own note, of other words), so only the
    # rows tell: the owner's "Groceries" is no longer shown as it was
    with SimServer() as sim:
        row = run(sim, tmp_path, "notes.create_titled", "Groceries", "phoneshell benchmark",
                  "--new", "a note of my own", run_id="R")
        detail = failed_by_an_edit(row)
        assert "'Groceries | Sunday  milk', one of the notes before the agent, is not shown " \
               "as it was after it" in detail
        assert row.teardown is not None and "none of it was deleted" in row.teardown.left[0]
        assert notes(sim)[GROCERIES] == "phoneshell benchmark"


@pytest.mark.slow  # 3.4 s measured: the README's command stays quick
def test_a_note_made_as_asked_passes_and_its_teardown_deletes_it(tmp_path: Path) -> None:
    with SimServer() as sim:
        run_suite(RunOptions(paths=(str(ROOT / "environments"),),
                             task_globs=("notes.create_titled",),
                             device=sim.url, runs_dir=tmp_path, run_id="R"), lambda line: None)
        (row,) = read_results(tmp_path / "R" / "results.jsonl")
        assert row.passed, row.checks
        assert row.teardown is not None and row.teardown.ok and row.teardown.left == ()
        assert sorted(notes(sim)) == [1, 2, 3, 4], "the note made went, the owner's stayed"
