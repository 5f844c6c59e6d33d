"""`phoneshell run`: run tasks against a phone (or the simulated iPhone) and record the results."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from phoneshell.agents import AGENTS
from phoneshell.agents.command import unconfined_ran
from phoneshell.agents.sandbox import CHOICES
from phoneshell.cli.options import (
    add_device_option,
    add_latency_option,
    add_trajectory_option,
    progress_printer,
)
from phoneshell.runner import RunOptions, run_suite
from phoneshell.runner.folder import check_new_run, check_runs_dir, load_manifest
from phoneshell.runner.lines import resume_command, summary_document, summary_lines
from phoneshell.runner.resume import check_resume_device, refuse_contradictions
from phoneshell.runner.run import stop_hint
from phoneshell.tasks import PATHS_HELP, default_task_paths


def agents_epilog() -> str:
    """Every agent `--agent` takes, from the agent registry, one line each."""
    lines = ["agents (--agent NAME[:ARG]):"]
    for name, factory in AGENTS.items():
        about = (factory.__doc__ or "").strip().splitlines()
        lines.append(f"  {name:<10} {about[0] if about else ''}")
    lines.append("  (and any installed through the `phoneshell.agents` entry-point group; "
                 "docs/agents.md)")
    return "\n".join(lines)


MAX_REPEAT = 10_000
"""Attempts per task a run may plan: ten thousand is days of a phone's time for one task; a run
plans each attempt before its first, so a mistyped count would fill memory and disk before
anything ran (red team 102: `--repeat 100000000` grew to 2.6 GB in 32 s, printing nothing)."""


def positive(text: str) -> int:
    """A whole number from 1 to `MAX_REPEAT` (`--repeat 0` would silently run nothing, or
    once)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} attempts per task would run nothing; give 1 "
                                         "or more")
    if value > MAX_REPEAT:
        raise argparse.ArgumentTypeError(f"{value:,} attempts per task is more than a run plans "
                                         f"({MAX_REPEAT:,} at most); run it in several runs")
    return value


def add_parsers(commands: Any) -> None:
    """Register `run`."""
    p = commands.add_parser("run", help="run tasks on a phone and grade every attempt",
                            epilog=agents_epilog(),
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    # None when not given: with --resume, the run's own (`resume.refuse_contradictions`)
    p.add_argument("paths", nargs="*", default=None, metavar="PATH", help=PATHS_HELP)
    add_device_option(p)
    add_latency_option(p)
    p.add_argument("--agent", default=None, metavar="NAME[:ARG]",
                   help="the agent to run (listed below; default: solution)")
    p.add_argument("--task", dest="tasks", action="append", default=None, metavar="GLOB",
                   help="only task ids matching GLOB (repeatable; `phoneshell check-tasks "
                        "--list` lists the ids)")
    p.add_argument("--runs", type=Path, default=Path("runs"), metavar="DIR",
                   help="where run folders go (default: runs)")
    p.add_argument("--run-id", metavar="ID", help="name of the run folder (default: a new id)")
    p.add_argument("--repeat", type=positive, default=None, metavar="N",
                   help="attempts per task (default: 1)")
    p.add_argument("--resume", metavar="RUN_ID",
                   help="continue run RUN_ID: run only the attempts it has not scored yet "
                        "(its agent, tasks and --repeat come from its run.json; any of them "
                        "given otherwise is refused)")
    p.add_argument("--sandbox", choices=CHOICES, default="auto",
                   help="how command: agents are confined: auto (bubblewrap on Linux, "
                        "sandbox-exec on macOS, else none, said at start), bwrap, "
                        "sandbox-exec, or none (unconfined; recorded, and every report of the "
                        "run says its results are not tamper-proof); default auto")
    add_trajectory_option(p)
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(run=run_run)


def run_run(args: argparse.Namespace) -> int:
    """Run, printing a line per attempt; exit 0 only when the run passed as a whole (every
    attempt it plans, a resumed run's earlier ones included, passed, and no task file was left
    out: `phoneshell report`'s exit 0), 2 when it stopped early."""
    as_json = args.format == "json"
    progress = progress_printer(as_json)
    # every refusal the command line alone can earn comes before any phone starts
    check_runs_dir(args.runs, args.resume or args.run_id)
    if args.resume:
        recorded = load_manifest(args.runs, args.resume)
        refuse_contradictions(recorded, agent=args.agent, repeat=args.repeat,
                              task_globs=args.tasks, paths=args.paths or None,
                              run_id=args.run_id, latency=args.latency)
        check_resume_device(recorded, args.device)
    elif args.run_id:
        check_new_run(args.runs, args.run_id, resume_command(args.runs, args.run_id,
                                                             args.device, args.sandbox))
    options = RunOptions(tuple(args.paths or default_task_paths()),
                         agent=args.agent or "solution", device=args.device,
                         latency=args.latency or "none", task_globs=tuple(args.tasks or ()),
                         runs_dir=args.runs, run_id=args.resume or args.run_id,
                         repeat=args.repeat or 1, resume=bool(args.resume),
                         sandbox=args.sandbox, trajectory=args.trajectory)
    summary = run_suite(options, progress)
    if as_json:
        print(json.dumps(summary_document(summary), indent=2))
    else:
        for line in summary_lines(summary):
            print(line)
    unconfined = unconfined_ran()
    if unconfined:  # this output, unlike the run folder, is out of the agent's reach afterwards
        print(f"this run's agents ran UNCONFINED ({unconfined}): they could rewrite its folder, "
              "run.json and the signing key during the run and after it; its folder is not "
              "tamper-proof, whatever a report of it says", file=sys.stderr if as_json else None)
    if summary.stopped:  # a phone went down: said as every stop is, with the way on
        print(f"error: run {summary.run_id} stopped early: {summary.stopped}", file=sys.stderr)
        again = resume_command(options.runs_dir, summary.run_id, options.device, options.sandbox)
        print(f"hint: {stop_hint(summary.stopped, again)}", file=sys.stderr)
        return 2
    return 0 if summary.all_passed else 1
