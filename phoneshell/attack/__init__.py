"""The attack test: cheap dishonest finishes made from task files, replayed and graded.

The swap test shows a task's checks tell it from its siblings; this shows they cannot be passed
more cheaply than by doing the task. For every task it makes finishes of each family (doing
nothing, only opening the app, echoing the checks' words where they show, hedging the answer,
keying in the result, stopping short, a value one off, a sibling's finish), replays each
distinct one once on a phone through the bridge, and grades it as the task. A finish that
passes is a hole in the task's checks, unless the task file lists it in `compatible_attacks`.

    families  the finishes, made from task files alone (pure)
    examples  strings a pattern accepts, candidate answers, numbers one off (pure)
    play      replaying and grading them on phones, into an `AttackReport`
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from phoneshell.attack.families import FAMILIES, RESIDUE_AFTER, attacks
from phoneshell.attack.finish import Attack
from phoneshell.attack.play import not_played, not_scored, play_attacks, summary_lines, untested
from phoneshell.records import ATTACK_FAMILIES, AttackFamily, AttackReport
from phoneshell.replays import Stopped, open_swappers, stopped
from phoneshell.runner.run import Progress
from phoneshell.runner.selection import select_tasks
from phoneshell.swap import with_solutions
from phoneshell.tasks import load_tasks

__all__ = ["ATTACK_FAMILIES", "FAMILIES", "RESIDUE_AFTER", "Attack", "AttackOutcome", "attacks",
           "not_played", "not_scored", "play_attacks", "run_attack", "summary_lines", "untested"]


@dataclass(frozen=True)
class AttackOutcome:
    """What `run_attack` found."""

    report: AttackReport
    stopped: Stopped
    """Why phones stopped before every finish was played (false when none did)."""


def run_attack(paths: Sequence[str], device: str | None, runs_dir: Path,
               families: Sequence[AttackFamily] = ATTACK_FAMILIES,
               solutions: str | None = None, progress: Progress = lambda line: None,
               only: Sequence[str] = (), trajectory: bool = False,
               task_globs: Sequence[str] = (), residue_after: str = "app") -> AttackOutcome:
    """Load the tasks of `paths` (their reference finishes from `solutions` when given; only
    ids matching `task_globs`, when given: their finishes, graded as them), play every family's
    finishes on `device` (only the attack ids `only`, when given; `residue` after the attempts
    `residue_after` says: `families.RESIDUE_AFTER`), and grade them; with `trajectory`, each
    finish's screens are kept for judges (docs/judges.md).

    Raises:
        TaskFileError: a task file is malformed. RunError: a bad device spec, a glob that
            matches no task, or a phone that does not answer.
    """
    loaded = with_solutions(load_tasks(paths).tasks, solutions).values()
    tasks = tuple(select_tasks(tuple(loaded), task_globs))
    with open_swappers(device, runs_dir, progress=progress, kind="attack",
                       trajectory=trajectory, tasks=tuple(loaded)) as swappers:
        report = play_attacks(swappers, tasks, families, progress, only, pool=tuple(loaded),
                              residue_after=residue_after)
    return AttackOutcome(report, stopped(swappers))  # after the closing tidy-up too
