"""A small judgeset made the real way: runs, a swap and cheap finishes played on the simulated
iPhone with trajectory capture, then `build_judgeset`.

Two tasks: the solution run (positives), a null run (honest failures), the swap of a
Calculator finish graded as the app-switch task (a swapped negative) and an `open-app` finish
of each task, recorded as the attack command records cheap finishes (attack negatives of the
`open-app` family).
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

from phoneshell.judges import (
    Population,
    Sources,
    build_judgeset,
    open_judgeset,
    read_labels,
    read_population,
)
from phoneshell.judges.judgeset import JudgeSet
from phoneshell.records import AttackReport, AttackResult, LabelRow, SwapReport
from phoneshell.runner import RunOptions, run_suite
from phoneshell.runner.run import RunSummary
from phoneshell.sim import SimServer
from phoneshell.swap import open_swappers, play_swaps, select_pairs
from phoneshell.tasks import load_tasks

ROOT = Path(__file__).resolve().parents[2]
TASKS = ("calculator.arithmetic", "multi.app_switch")
SWAPPED = ("multi.app_switch", "calculator.arithmetic")
"""(A, B): B's finish graded as A."""


@dataclass(frozen=True)
class Made:
    """The judgeset, its labels, and what it was made from."""

    judgeset: JudgeSet
    labels: dict[str, LabelRow]
    population: Population | None
    """The runs' scored attempts (what ranking fidelity is over)."""
    runs: Path
    tasks: Path
    swap: Path
    attack: Path


def _run(tasks: Path, runs: Path, device: str, run_id: str, agent: str) -> RunSummary:
    return run_suite(RunOptions((str(tasks),), agent=agent, device=device, runs_dir=runs,
                                run_id=run_id, trajectory=True), progress=lambda line: None)


def attack_report(summary: RunSummary, tasks: Path, family: str, path: Path) -> Path:
    """An `open-app` run recorded as `phoneshell attack --format json` records cheap finishes:
    one result per task, with the instruction and the evidence folder."""
    by_id = {t.id: t for t in load_tasks([tasks]).tasks}
    results = tuple(AttackResult(
        task=row.task_id, instruction=by_id[row.task_id].instruction, family=family,
        attack=family, finish=(f"open_app: {by_id[row.task_id].app}",), passed=row.passed,
        detail="; ".join(c.detail for c in row.checks if not c.passed), evidence=row.evidence)
        for row in summary.rows)
    report = AttackReport(tasks=len(results), families=("open-app",), attacks=results,
                          finishes=len(results), replays=len(results), seconds=1.0,
                          evidence=str(summary.run_dir))
    path.write_text(json.dumps(report.to_plain()), encoding="utf-8")
    return path


def swap_report(tasks: Path, runs: Path, device: str, path: Path) -> Path:
    """`phoneshell swap multi.app_switch calculator.arithmetic --trajectory --format json`."""
    selection = select_pairs([str(tasks)], mode="two", ids=SWAPPED)
    with open_swappers(device, runs, trajectory=True, tasks=selection.tasks) as swappers:
        report: SwapReport = play_swaps(swappers, selection, lambda line: None)
    path.write_text(json.dumps(report.to_plain()), encoding="utf-8")
    return path


def copy_tasks(folder: Path) -> Path:
    """The task files, copied out of environments/ (so the runs load two files, not 80)."""
    folder.mkdir(parents=True)
    for task_id in TASKS:
        shutil.copy(ROOT / "environments" / f"{task_id}.yaml", folder)
    return folder


def make_judgeset(folder: Path) -> Made:
    """Play everything on one simulated iPhone and build the judgeset in `folder / "set"`."""
    runs, tasks = folder / "runs", copy_tasks(folder / "tasks")
    with SimServer() as sim:
        _run(tasks, runs, sim.url, "SOL", "solution")
        _run(tasks, runs, sim.url, "NUL", "null")
        opened = _run(tasks, runs, sim.url, "OPEN", "open-app")
        swap = swap_report(tasks, runs, sim.url, folder / "swap.json")
    attack = attack_report(opened, tasks, "open-app", folder / "attack.json")
    build_judgeset(folder / "set", Sources(runs=(runs / "SOL", runs / "NUL"), swaps=(swap,),
                                           attacks=(attack,), tasks=(str(tasks),)))
    return load_made(folder)


def load_made(folder: Path) -> Made:
    """What `make_judgeset` made in `folder`."""
    judgeset = open_judgeset(folder / "set")
    return Made(judgeset, read_labels(judgeset),
                read_population(judgeset.folder, judgeset.manifest), folder / "runs",
                folder / "tasks",
                folder / "swap.json", folder / "attack.json")
