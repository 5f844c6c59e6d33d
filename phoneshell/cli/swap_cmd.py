"""`phoneshell swap` (grade one task's finish as another, on a phone) and `phoneshell baseline`
(which checks pass with no agent, or after only opening the app). Parsing and printing only:
the work is in `phoneshell.swap` and `phoneshell.runner.baseline`."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from phoneshell.cli.options import add_device_option, add_trajectory_option, progress_printer
from phoneshell.cli.stopped_early import stopped_early
from phoneshell.errors import RunError
from phoneshell.records import plain
from phoneshell.runner.baseline import run_baselines
from phoneshell.runner.folder import check_runs_dir
from phoneshell.swap import open_swappers, play_swaps, select_pairs, stopped, summary_lines
from phoneshell.tasks import PATHS_HELP, default_task_paths


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
    p.add_argument("--tasks", nargs="+", default=default_task_paths(), metavar="PATH",
                   help="where A and B are (two-id form); default: ./environments, else the "
                        "shipped suite")
    p.add_argument("--solutions", metavar="DIR",
                   help="take each finish from the task with the same id in DIR")
    p.add_argument("--finish-from", type=Path, metavar="RUN_DIR",
                   help="replay the agent's recorded actions from a run instead of solutions")
    p.add_argument("--unverified", action="store_true",
                   help="replay from a --finish-from run whose files do not match its seal, "
                        "every mismatch shown (refused without this)")
    add_device_option(p)
    p.add_argument("--runs", type=Path, default=Path("runs"), metavar="DIR")
    add_trajectory_option(p)
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(run=run_swap)

    p = commands.add_parser("baseline", help="which checks pass with no agent, or after only "
                                             "opening the task's app")
    p.add_argument("paths", nargs="*", default=default_task_paths(), metavar="PATH",
                   help=PATHS_HELP)
    add_device_option(p)
    p.add_argument("--runs", type=Path, default=Path("runs"), metavar="DIR")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(run=run_baseline)


def run_swap(args: argparse.Namespace) -> int:
    """Play the pairs; exit 0 when the grader was right on every pair, 1 otherwise."""
    check_runs_dir(args.runs)  # before any phone starts
    progress = progress_printer(args.format == "json")
    modes = {"implied": args.implied, "pairs_from": bool(args.pairs_from), "all": args.all}
    mode = next((name for name, on in modes.items() if on), "two")
    if mode != "two" and not args.args:
        raise RunError("give the task files or folders", hint="phoneshell swap --all environments")
    selection = select_pairs(args.args if mode != "two" else args.tasks, mode=mode,
                             ids=args.args if mode == "two" else (), pairs_from=args.pairs_from,
                             solutions=args.solutions)
    with open_swappers(args.device, args.runs, args.finish_from, progress,
                       unverified=args.unverified, trajectory=args.trajectory,
                       tasks=selection.tasks) as swappers:
        report = play_swaps(swappers, selection, progress)
    why = stopped(swappers)  # after the closing tidy-up too
    if args.format == "json":
        print(json.dumps(report.to_plain(), indent=2))
    else:
        for line in summary_lines(report, selection.full):
            print(line)
        print(f"evidence: {report.evidence}")
    if why:
        raise stopped_early("swap", why, "pairs not played count as wrong")
    return 0 if all(r.correct for r in report.pairs) and not report.unexpected else 1


def run_baseline(args: argparse.Namespace) -> int:
    """Run the tasks with the null agent and with open-app; list what passes."""
    as_json = args.format == "json"
    check_runs_dir(args.runs)  # before any phone starts
    baseline = run_baselines(tuple(args.paths), args.device, args.runs,
                             progress_printer(to_stderr=True))
    if as_json:
        print(json.dumps(plain({"tasks": len(baseline.tasks), "passing": baseline.passing}),
                         indent=2))
        return 0 if not baseline.passing else 1
    instructions = {t.id: t.instruction for t in baseline.tasks}
    for task_id, by_agent in baseline.passing.items():
        how = " and ".join(f"with {a}" for a in by_agent)
        print(f"{task_id}: passes {how}")
        print(f"    {instructions[task_id].strip()[:100]}")
    print(f"{len(baseline.tasks)} task(s), {len(baseline.passing)} pass a baseline")
    return 0 if not baseline.passing else 1
