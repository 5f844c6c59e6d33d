"""What a run counted before its first attempt is kept for the whole run: an agent that deletes
what a task starts from fails every later attempt of that task, blamed on it by attempt, however
many other attempts counted it in between (red team 144: RT144-1). Played through the runner on
one simulated iPhone whose state persists across attempts."""

from __future__ import annotations

from pathlib import Path

import pytest

from phoneshell.agents import AgentContext, AgentResult
from phoneshell.agents.base import AGENTS
from phoneshell.agents.reference import SolutionAgent
from phoneshell.device import Phone, run_step
from phoneshell.records import ResultRow
from phoneshell.runner.folder import read_results
from phoneshell.runner.run import RunOptions, run_suite
from phoneshell.tasks import Step

NOTE = "phoneshell benchmark"
GONE = f"notes_titled('{NOTE}') counted 0 before the agent, where the task starts from some"


class FirstDeleter(SolutionAgent):
    """Plays the reference finish; in its first attempt of a Settings task it also deletes the
    note notes.search looks for, with Notes' own Delete (an agent that wanders off)."""

    name = "first-deleter"

    def run(self, context: AgentContext) -> AgentResult:
        result = super().run(context)
        if context.task.id.startswith("settings.") and context.workdir.name == "1":
            run_step(Phone(context.wda_url), Step("clean_notes", options=(
                ("text", NOTE), ("keep", "0"))))
        return result


AGENTS.register("first-deleter")(lambda arg: FirstDeleter())


def run_rows(tasks: Path, runs: Path, repeat: int) -> list[ResultRow]:
    lines: list[str] = []
    run_suite(RunOptions(paths=(str(tasks),), agent="first-deleter", runs_dir=runs,
                         run_id="R", repeat=repeat), lines.append)
    return read_results(runs / "R" / "results.jsonl")


@pytest.mark.slow  # whole programs on the simulator
@pytest.mark.parametrize("repeat", [1, 2])
def test_a_note_deleted_before_another_task_counts_it_fails_every_later_search(
        tmp_path: Path, environments: Path, repeat: int) -> None:
    # notes.create_titled counts the note at 0 between the deletion and the search: that later
    # count must not wipe what the run counted at its start
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    for n, task_id in enumerate(("settings.about.reach", "notes.create_titled", "notes.search")):
        (tasks / f"{n}.yaml").write_text((environments / f"{task_id}.yaml").read_text())
    rows = run_rows(tasks, tmp_path, repeat)
    searches = [r for r in rows if r.task_id == "notes.search"]
    assert len(searches) == repeat
    for search in searches:
        assert search.outcome == "failed", (search.outcome, search.skip_reason, search.error)
        # named by attempt: with --repeat 2 both Settings attempts acted before a count
        assert GONE in search.error and "settings.about.reach attempt 1" in search.error \
            and "deleted them" in search.error and "(before its first attempt: notes_titled(" \
            f"'{NOTE}') 1)" in search.error, search.error
    creates = [r for r in rows if r.task_id == "notes.create_titled"]
    assert all(not r.skipped for r in creates), [r.skip_reason for r in creates]
