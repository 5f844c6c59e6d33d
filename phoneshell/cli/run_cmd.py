"""`phoneshell run`: run tasks against a phone (or the simulated iPhone) and record the results."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from phoneshell.cli.options import add_device_option, add_trajectory_option, progress_printer
from phoneshell.records import plain
from phoneshell.runner import RunOptions, run_suite
from phoneshell.runner.run import summary_lines


def add_parsers(commands: Any) -> None:
    """Register `run`."""
    p = commands.add_parser("run", help="run tasks on a phone and grade every attempt")
    p.add_argument("paths", nargs="*", default=["environments"], metavar="PATH",
                   help="task files or folders (default: environments)")
    add_device_option(p)
    p.add_argument("--agent", default="solution", metavar="NAME[:ARG]",
                   help="solution (the reference finish), null (does nothing), ...")
    p.add_argument("--task", dest="tasks", action="append", default=[], metavar="GLOB",
                   help="only task ids matching GLOB (repeatable)")
    p.add_argument("--runs", type=Path, default=Path("runs"), metavar="DIR",
                   help="where run folders go (default: runs)")
    p.add_argument("--run-id", metavar="ID", help="name of the run folder (default: a new id)")
    p.add_argument("--repeat", type=int, default=1, metavar="N", help="attempts per task")
    p.add_argument("--resume", metavar="RUN_ID",
                   help="continue run RUN_ID: run only the attempts it has not scored yet "
                        "(its agent, tasks and --repeat come from its run.json)")
    add_trajectory_option(p)
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(run=run_run)


def run_run(args: argparse.Namespace) -> int:
    """Run, printing a line per attempt; exit 0 only when every attempt passed."""
    as_json = args.format == "json"
    progress = progress_printer(as_json)

    options = RunOptions(tuple(args.paths), agent=args.agent, device=args.device,
                         task_globs=tuple(args.tasks), runs_dir=args.runs,
                         run_id=args.resume or args.run_id, repeat=max(1, args.repeat),
                         resume=bool(args.resume), trajectory=args.trajectory)
    summary = run_suite(options, progress)
    if as_json:
        counts = summary.counts()
        print(json.dumps({"run_id": summary.run_id, "run_dir": str(summary.run_dir),
                          "passed": counts["passed"], "failed": counts["failed"],
                          "skipped": counts["skipped"], "stopped": summary.stopped,
                          "rows": plain(summary.rows)}, indent=2))
    else:
        for line in summary_lines(summary):
            print(line)
    if summary.stopped:
        return 2
    return 0 if summary.all_passed else 1
