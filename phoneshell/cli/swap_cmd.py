"""`phoneshell swap` (grade one task's finish as another, on a phone) and `phoneshell baseline`
(which checks pass with no agent, or after only opening the app)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from bridge import BridgeServer
from phoneshell.errors import RunError
from phoneshell.implication import implied_pairs
from phoneshell.phones.open import open_phones
from phoneshell.records import to_jsonable
from phoneshell.runner import RunOptions, run_suite
from phoneshell.runner.folder import new_run_id
from phoneshell.runner.run import make_rig
from phoneshell.swap import Swapper, SwapResult, accuracy, swap_all, swap_pairs
from phoneshell.tasks import Task, TaskSet, load_tasks


def add_parsers(commands: Any) -> None:
    """Register `swap` and `baseline`."""
    p = commands.add_parser(
        "swap", help="replay one task's finish and grade it as another task",
        description="phoneshell swap A B [--tasks PATHS]  |  swap --implied PATHS  |  "
                    "swap --pairs-from OTHER PATHS  |  swap --all PATHS")
    p.add_argument("args", nargs="*", metavar="ARG",
                   help="two task ids (A B), or task files/folders with --implied, "
                        "--pairs-from or --all")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--implied", action="store_true",
                      help="every pair the implication test finds in PATHS")
    mode.add_argument("--pairs-from", metavar="OTHER",
                      help="the pairs the implication test finds in OTHER, graded with PATHS")
    mode.add_argument("--all", action="store_true", help="every finish graded as every task")
    p.add_argument("--tasks", nargs="+", default=["environments"], metavar="PATH",
                   help="where A and B are (two-id form; default environments)")
    p.add_argument("--solutions", metavar="DIR",
                   help="take each finish from the task with the same id in DIR")
    p.add_argument("--finish-from", type=Path, metavar="RUN_DIR",
                   help="replay the agent's recorded actions from a run instead of solutions")
    p.add_argument("--device", metavar="sim|URL|UDID", help="default: a simulated iPhone")
    p.add_argument("--runs", type=Path, default=Path("runs"), metavar="DIR")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(run=run_swap)

    p = commands.add_parser("baseline", help="which checks pass with no agent, or after only "
                                             "opening the task's app")
    p.add_argument("paths", nargs="*", default=["environments"], metavar="PATH")
    p.add_argument("--device", metavar="sim|URL|UDID", help="default: a simulated iPhone")
    p.add_argument("--runs", type=Path, default=Path("runs"), metavar="DIR")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(run=run_baseline)


def _with_solutions(tasks: TaskSet, solutions: str | None) -> dict[str, Task]:
    """Tasks by id, their `solution` taken from DIR's task of the same id when asked."""
    by_id = {t.id: t for t in tasks.tasks}
    if solutions is None:
        return by_id
    finishes = {t.id: t.solution for t in load_tasks([solutions]).tasks}
    return {i: replace(t, solution=finishes.get(i, t.solution)) for i, t in by_id.items()}


def _pairs(args: argparse.Namespace) -> tuple[list[tuple[Task, Task]], list[Task], set[
        tuple[str, str]]]:
    """The (A, B) pairs to play, every task involved, and the statically predicted pairs."""
    if args.implied or args.pairs_from or args.all:
        if not args.args:
            raise RunError("give the task files or folders", hint="phoneshell swap --all "
                                                                 "environments")
        graded = _with_solutions(load_tasks(args.args), args.solutions)
        tasks = list(graded.values())
        predicted = {(p.implied.id, p.by.id) for p in implied_pairs(tasks)}
        if args.all:
            return [], tasks, predicted
        source = load_tasks([args.pairs_from]).tasks if args.pairs_from else tasks
        ids = [(p.implied.id, p.by.id) for p in implied_pairs(source)]
        missing = sorted({i for pair in ids for i in pair} - set(graded))
        if missing:
            raise RunError(f"{len(missing)} task(s) of the pairs are not in {' '.join(args.args)}: "
                           f"{', '.join(missing[:5])}", hint="give PATHS holding every task")
        return [(graded[a], graded[b]) for a, b in ids], tasks, predicted
    if len(args.args) != 2:
        raise RunError("swap takes two task ids: A (graded) and B (whose finish is replayed)",
                       hint="phoneshell swap multi.app_switch calculator.arithmetic")
    loaded = _with_solutions(load_tasks(args.tasks), args.solutions)
    a, b = (TaskSet(tuple(loaded.values())).get(i) for i in args.args)
    return [(a, b)], [a, b], {(p.implied.id, p.by.id) for p in implied_pairs([a, b])}


@contextmanager
def _swapper(args: argparse.Namespace, progress: Any) -> Iterator[Swapper]:
    run_id = "swap-" + new_run_id()
    with open_phones(args.device, run_id) as (devices, note):
        progress(note)
        device = devices[0]
        with BridgeServer(device.url, runs_dir=args.runs) as bridge:
            yield Swapper(make_rig(bridge, device), args.runs / run_id, run_id, args.finish_from,
                          device.installed)


def run_swap(args: argparse.Namespace) -> int:
    """Play the pairs; exit 0 when the grader was right on every pair, 1 otherwise."""
    as_json = args.format == "json"

    def progress(line: str) -> None:
        print(line, file=sys.stderr if as_json else sys.stdout, flush=True)

    pairs, tasks, predicted = _pairs(args)
    with _swapper(args, progress) as swapper:
        results = (swap_all(swapper, tasks, progress) if args.all
                   else swap_pairs(swapper, pairs, progress))
        folder, stopped = swapper.run_dir, swapper.stopped
    unexpected = [r for r in results if args.all and r.scored and r.accepted
                  and (r.implied, r.by) not in predicted and not r.compatible]
    if args.all:  # a fixed set: the pairs check text predicts, and the legitimate ones
        results = [r for r in results if (r.implied, r.by) in predicted or r.compatible]
    score = accuracy(results)
    report = {"pairs": [_row(r) for r in results], "pos_accuracy": score.positive,
              "neg_accuracy": score.negative, "balanced_accuracy": score.balanced,
              "evidence": str(folder)}
    if args.all:
        report["unexpected"] = [_row(r) for r in unexpected]
    if as_json:
        print(json.dumps(report, indent=2))
    else:
        for line in _summary(results, score, unexpected if args.all else None):
            print(line)
        print(f"evidence: {folder}")
    if stopped:
        raise RunError(f"the swap stopped early: {stopped}",
                       hint="`phoneshell doctor` checks the chain; pairs not played count as "
                            "wrong")
    return 0 if all(r.correct for r in results) and not unexpected else 1


def _row(r: SwapResult) -> dict[str, object]:
    return {"implied": r.implied, "by": r.by, "compatible": r.compatible,
            "accepted": r.accepted, "by_passed": r.by_passed, "scored": r.scored,
            "skip_reason": r.skip_reason, "detail": r.detail, "evidence": r.evidence}


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def _summary(results: list[SwapResult], score: Any, unexpected: list[SwapResult] | None,
             ) -> list[str]:
    compatible = [r for r in results if r.compatible]
    lines = [f"{len(results)} pair(s): {len(compatible)} compatible, "
             f"{len(results) - len(compatible)} incompatible; "
             f"{sum(r.accepted and r.scored for r in results)} accepted, "
             f"{sum(not r.scored for r in results)} not scored",
             f"positive accuracy {_pct(score.positive)}, negative accuracy "
             f"{_pct(score.negative)}, balanced accuracy {_pct(score.balanced)}"]
    if unexpected is not None:
        lines.append(f"{len(unexpected)} acceptance(s) the implication test did not predict" +
                     "".join(f"\n  {r.implied} <= {r.by}" for r in unexpected))
    return lines


def run_baseline(args: argparse.Namespace) -> int:
    """Run the tasks with the null agent and with open-app; list what passes."""
    as_json = args.format == "json"
    tasks = {t.id: t for t in load_tasks(args.paths).tasks}
    passing: dict[str, dict[str, list[str]]] = {}
    for agent in ("null", "open-app"):
        summary = run_suite(RunOptions(tuple(args.paths), agent=agent, device=args.device,
                                       runs_dir=args.runs), progress=lambda line: None)
        skipped = [row for row in summary.rows if row.skipped]
        if summary.stopped or skipped:
            why = summary.stopped or f"{skipped[0].task_id}: {skipped[0].skip_reason}"
            raise RunError(f"the {agent} baseline did not run every task ({len(skipped)} "
                           f"skipped): {why}", hint="a baseline needs every task scored; "
                                                    "`phoneshell doctor` checks the phone")
        for row in summary.rows:
            held = [r.label for r in row.checks if r.passed]
            if row.passed:
                passing.setdefault(row.task_id, {})[agent] = held
    if as_json:
        print(json.dumps(to_jsonable({"tasks": len(tasks), "passing": passing}), indent=2))
    else:
        for task_id, by_agent in passing.items():
            how = " and ".join(f"with {a}" for a in by_agent)
            print(f"{task_id}: passes {how}")
            print(f"    {tasks[task_id].instruction.strip()[:100]}")
        print(f"{len(tasks)} task(s), {len(passing)} pass a baseline")
    return 0 if not passing else 1
