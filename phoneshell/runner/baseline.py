"""Baselines: which tasks pass with no agent (`null`), or after only opening the app (`open-app`).

A task that passes a baseline is graded by what the phone shows before anyone acts: its checks
do not tell doing the task from not doing it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from phoneshell.errors import RunError
from phoneshell.runner.run import Progress, RunOptions, run_suite
from phoneshell.runner.unwritten import REASON
from phoneshell.tasks import Task, load_tasks

AGENTS = ("null", "open-app")


@dataclass(frozen=True)
class Baseline:
    """The tasks, and which baseline agents pass which of them (with the checks that held)."""

    tasks: tuple[Task, ...]
    passing: dict[str, dict[str, list[str]]]
    """task id -> agent -> labels of the checks that held."""


def run_baselines(paths: tuple[str, ...], device: str | None, runs_dir: Path,
                  progress: Progress) -> Baseline:
    """Run every task with each baseline agent; keep which pass.

    Raises:
        RunError: a baseline did not score every task (a skip would hide a pass).
    """
    tasks = tuple(load_tasks(paths).tasks)
    passing: dict[str, dict[str, list[str]]] = {}
    for agent in AGENTS:
        progress(f"baseline {agent}: running {len(tasks)} task(s)")
        summary = run_suite(RunOptions(paths, agent=agent, device=device, runs_dir=runs_dir),
                            progress=progress)
        skipped = [row for row in summary.rows if row.skipped]
        if summary.stopped or skipped:
            why = summary.stopped or f"{skipped[0].task_id}: {skipped[0].skip_reason}"
            mend = ("mend what would not take the run folder's write (the error gives the "
                    "system's word), then run it again" if REASON in why
                    else "`phoneshell doctor` checks the phone")
            raise RunError(f"the {agent} baseline did not run every task ({len(skipped)} "
                           f"skipped): {why}", hint=f"a baseline needs every task scored; {mend}")
        for row in summary.rows:
            if row.passed:
                passing.setdefault(row.task_id, {})[agent] = [r.label for r in row.checks
                                                              if r.passed]
    return Baseline(tasks, passing)
