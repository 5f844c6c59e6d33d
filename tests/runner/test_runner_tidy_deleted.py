"""A run leaves Notes' Recently Deleted as it found it: a teardown's `delete_created` moves the
note a task made there, as iOS does, and it stays 30 days, so `--repeat 5` of the suite left
dozens. The run reads the folder before its first attempt and, when it ends, deletes for good
as many notes as it grew by, sparing the rows it found there (the owner's), and only while the
owner watch knows every owner's note still in its folder (one an agent deleted is in Recently
Deleted too, and would go for good). Played through the runner on one simulated iPhone whose
state persists across attempts."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from phoneshell.agents import AgentContext, AgentResult
from phoneshell.agents.base import AGENTS
from phoneshell.agents.reference import SolutionAgent
from phoneshell.device import Phone, run_steps
from phoneshell.runner.run import RunOptions, run_suite
from phoneshell.sim import SimServer
from phoneshell.tasks import Step

NOTES = "com.apple.mobilenotes"
MAKING = ("notes.create_titled", "notes.type_long")


def recently_deleted(sim: SimServer) -> list[str]:
    notes: Any = sim.state()["stores"].get(NOTES, {})  # type: ignore[union-attr]
    return [str(note["text"]) for note in notes.get("deleted", [])]


def tasks_of(environments: Path, into: Path, ids: tuple[str, ...]) -> Path:
    into.mkdir()
    for n, task_id in enumerate(ids):  # file names keep the order
        shutil.copy(environments / f"{task_id}.yaml", into / f"{n}-{task_id}.yaml")
    return into


def run(tasks: Path, sim: SimServer, runs: Path, agent: str = "solution", repeat: int = 1,
        ) -> list[str]:
    lines: list[str] = []
    run_suite(RunOptions(paths=(str(tasks),), agent=agent, device=sim.url, runs_dir=runs,
                         run_id="R", repeat=repeat), lines.append)
    return lines


def owners_deleted_note(sim: SimServer) -> None:
    """The owner deleted 'Trip ideas' before the run: it is theirs, in Recently Deleted."""
    run_steps(Phone(sim.url), [Step("clean_notes", "Trip ideas")])
    assert recently_deleted(sim) == ["Trip ideas\nLisbon in spring, Kyoto in autumn."]


def test_the_notes_a_run_deleted_go_for_good_and_the_owner_s_stay(
        tmp_path: Path, environments: Path) -> None:
    tasks = tasks_of(environments, tmp_path / "tasks", MAKING)
    with SimServer() as sim:
        owners_deleted_note(sim)
        lines = run(tasks, sim, tmp_path, repeat=2)
        assert recently_deleted(sim) == ["Trip ideas\nLisbon in spring, Kyoto in autumn."]
    assert "phone-1: deleted for good the 4 note(s) this run put in Notes' Recently Deleted; " \
           "1 there, as the run found them" in lines, lines


class OwnerNoteDeleter(SolutionAgent):
    """Plays the reference finish, then deletes the owner's note 'Groceries' on the way."""

    name = "tidy-owner-note-deleter"

    def run(self, context: AgentContext) -> AgentResult:
        result = super().run(context)
        run_steps(Phone(context.wda_url, effect_timeout_s=1.0),
                  [Step("clean_notes", "Groceries")])
        return result


AGENTS.register("tidy-owner-note-deleter")(lambda arg: OwnerNoteDeleter())


def test_when_an_agent_deleted_an_owner_s_note_nothing_goes_for_good(
        tmp_path: Path, environments: Path) -> None:
    tasks = tasks_of(environments, tmp_path / "tasks", MAKING[:1])
    with SimServer() as sim:
        lines = run(tasks, sim, tmp_path, agent="tidy-owner-note-deleter")
        left = recently_deleted(sim)
    assert [text.split("\n")[0] for text in left] == ["Groceries"]
    said = "the 1 note(s) this run put in Notes' Recently Deleted stay: the owner's notes are"
    assert any(said in line for line in lines), lines


def test_a_run_without_notes_never_opens_recently_deleted(
        tmp_path: Path, environments: Path) -> None:
    tasks = tasks_of(environments, tmp_path / "tasks", ("calculator.arithmetic",))
    with SimServer() as sim:
        owners_deleted_note(sim)
        lines = run(tasks, sim, tmp_path)
        assert NOTES not in sim.state()["running"]  # type: ignore[operator]
    assert not [line for line in lines if "Recently Deleted" in line], lines
