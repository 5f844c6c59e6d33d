"""A note brought back is not a note made (red team 72). With `--repeat 2` the first attempt's
teardown deletes its note into Notes' Recently Deleted; an agent of the second that recovers it
and types the title on its second line made nothing, and fails both ways the task measures: the
count (`brought.ROUTES`: Recover was pressed) and the typing (`typed_into` `fresh`: the field
held the old note). Honest finishes, played twice on one phone, still pass. Played through the
runner, a `command:` agent (`recovers.py`) over the bridge, on one simulated iPhone."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from phoneshell.records import ResultRow
from phoneshell.runner.folder import read_results
from phoneshell.runner.run import RunOptions, run_suite
from phoneshell.sim import SimServer

ROOT = Path(__file__).resolve().parents[2]
RECOVERS = Path(__file__).with_name("recovers.py")
EDITS = Path(__file__).with_name("edits_instead.py")
TITLE = "phoneshell benchmark"
NOTES_TASKS = ("notes.create_titled", "notes.text_select", "notes.type_long",
               "notes.type_punctuation")


def play(sim: SimServer, runs: Path, globs: tuple[str, ...], agent: str = "solution",
         ) -> list[ResultRow]:
    """Each of `globs`' tasks twice on `sim`, by `agent`: the rows, in order."""
    run_suite(RunOptions(paths=(str(ROOT / "environments"),), task_globs=globs, agent=agent,
                         device=sim.url, runs_dir=runs, run_id="R", repeat=2), lambda line: None)
    return read_results(runs / "R" / "results.jsonl")


def detail(row: ResultRow, kind: str) -> tuple[bool, str]:
    (check,) = [c for c in row.checks if c.kind == kind]
    return check.passed, check.detail


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_a_note_recovered_from_recently_deleted_is_not_one_made(tmp_path: Path) -> None:
    words = " ".join(shlex.quote(w) for w in (str(RECOVERS), str(EDITS), TITLE, TITLE))
    with SimServer() as sim:
        first, second = play(sim, tmp_path, ("notes.create_titled",),
                             f"command:{shlex.quote(sys.executable)} {words}")
    assert first.outcome == "passed", [c.detail for c in first.checks if not c.passed]
    assert second.outcome == "failed", second
    passed, count = detail(second, "count_increased")
    assert not passed and "1 before the agent, 2 after (change +1, wanted +1)" in count, count
    assert "the agent tapped 'Recover'" in count
    assert ("a note brought back from Recently Deleted counts as one made: the count cannot "
            "tell them apart") in count
    passed, typed = detail(second, "typed_into")
    assert not passed and "was not typed into an empty field" in typed, typed
    assert f"held {TITLE!r} before it first changed it" in typed


@pytest.mark.slow
def test_honest_finishes_played_twice_still_pass(tmp_path: Path) -> None:
    with SimServer() as sim:
        rows = play(sim, tmp_path, NOTES_TASKS)
    assert len(rows) == 2 * len(NOTES_TASKS)
    assert all(r.outcome == "passed" for r in rows), [
        (r.task_id, [c.detail for c in r.checks if not c.passed]) for r in rows]
