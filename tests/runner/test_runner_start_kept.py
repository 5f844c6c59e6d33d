"""What a run counted before its first attempt is kept for the whole run: an agent that deletes
what a task starts from fails every later attempt of that task, blamed on it by attempt, however
many other attempts counted it in between (red team 144: RT144-1). Played through the runner on
one simulated iPhone whose state persists across attempts."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from cli_process import run_cli, stopped_cli
from standalone_sim import standalone_sim

from phoneshell.agents import AgentContext, AgentResult
from phoneshell.agents.base import AGENTS
from phoneshell.agents.reference import SolutionAgent
from phoneshell.device import Phone, run_step
from phoneshell.records import PhoneStart, ResultRow, read_record
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


AGENT = Path(__file__).with_name("deletes_then_waits.py")


@pytest.mark.slow  # two whole runs of the CLI on a standalone simulator
@pytest.mark.parametrize("kept", ["kept", "gone", "garbled"])
def test_a_resumed_run_starts_from_what_the_run_first_counted_not_from_its_agents_work(
        tmp_path: Path, environments: Path, kept: str) -> None:
    # RT144-2: the note is deleted by the run's agent, the run is stopped, and the resume must
    # not count the phone afresh (it would take the deletion for the phone's own lack). A
    # folder from before the record was kept, or with one that cannot be read, resumes
    # counting afresh, and says what it cannot know.
    runs, mark = tmp_path / "runs", tmp_path / "waiting"
    tasks = [str(environments / f"{t}.yaml")
             for t in ("notes.create_titled", "calculator.arithmetic", "notes.search")]
    with standalone_sim() as (url, _):
        stopped = stopped_cli("run", *tasks, "--device", url, "--agent",
                              f"command:{sys.executable} {AGENT} {mark}", "--sandbox", "none",
                              "--runs", str(runs), "--run-id", "R", mark=mark)
        assert stopped.returncode == 2, stopped.stdout + stopped.stderr
        found = list((runs / "R").glob("phone-start*.json"))
        assert len(found) == 1, list((runs / "R").iterdir())
        start = read_record(found[0], PhoneStart)
        assert any(c.name == "notes_titled" and c.arg == NOTE and c.value == 1
                   for c in start.counts), start
        if kept == "gone":
            found[0].unlink()
        elif kept == "garbled":
            found[0].write_text("{")
        resumed = run_cli("run", "--resume", "R", "--device", url, "--runs", str(runs))
    said = resumed.stdout + resumed.stderr
    assert resumed.returncode == 1, said
    search = next(r for r in read_results(runs / "R" / "results.jsonl")
                  if r.task_id == "notes.search")
    if kept != "kept":
        assert ("keeps no record of what the phone held when the run began" if kept == "gone"
                else "what the phone held when the run began cannot be read") in said, said
        assert search.skipped, search
        return
    assert f"notes_titled('{NOTE}') 1 then, 0 now" in said, said
    assert search.outcome == "failed", (search.skip_reason, search.error)
    assert GONE in search.error and "played before the run was resumed" in search.error, \
        search.error

