"""`phoneshell attack`: replay cheap finishes made from task files and list every task one
passes. Parsing and printing only: the work is in `phoneshell.attack`, imported only when the
command runs (an agent's sandbox hides it, and builds this parser for `phoneshell finish`)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from phoneshell.cli.options import add_device_option, add_trajectory_option, progress_printer
from phoneshell.cli.stopped_early import stopped_early
from phoneshell.records import ATTACK_FAMILIES, AttackFamily
from phoneshell.runner.folder import check_runs_dir
from phoneshell.tasks import PATHS_HELP, default_task_paths


def add_parsers(commands: Any) -> None:
    """Register `attack`."""
    p = commands.add_parser(
        "attack", help="replay cheap dishonest finishes and list every task one passes",
        description="For every task, make finishes cheaper than doing it (families: "
                    f"{', '.join(ATTACK_FAMILIES)}), replay each once on a phone and grade it "
                    "as the task. Exit 1 when any passes a task that does not list it in "
                    "compatible_attacks, when any could not be graded (not scored), or when "
                    "every finish of a family for a task stopped at a step (untested).")
    p.add_argument("paths", nargs="*", default=default_task_paths(), metavar="PATH",
                   help=PATHS_HELP)
    p.add_argument("--task", dest="tasks", action="append", default=[], metavar="GLOB",
                   help="only task ids matching GLOB (repeatable): their finishes, graded as "
                        "them")
    p.add_argument("--family", action="append", choices=ATTACK_FAMILIES, metavar="FAMILY",
                   help=f"only this family (repeatable): {', '.join(ATTACK_FAMILIES)}")
    p.add_argument("--residue", choices=("app", "own"), default="app",
                   help="which honest attempts the residue family plays its finish after: "
                        "every task's on the task's app (app, the default), or only the task's "
                        "own (own: about a tenth of the replays; .ci/run's)")
    p.add_argument("--attack", action="append", default=[], metavar="ID",
                   help="only the finish with this id (repeatable), e.g. echo:spotlight:Clear "
                        "or truncated:-1: to look again at one that passed")
    p.add_argument("--solutions", metavar="DIR",
                   help="take each task's reference finish from the task with the same id in "
                        "DIR (for task files without one)")
    add_device_option(p)
    p.add_argument("--runs", type=Path, default=Path("runs"), metavar="DIR")
    add_trajectory_option(p)
    p.add_argument("--strict", action="store_true",
                   help="exit 1 also when any finish stopped at a step (not played), a search "
                        "result the phone does not list included")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(run=run_attack_cmd)


def run_attack_cmd(args: argparse.Namespace) -> int:
    """Play the attacks; exit 0 when every finish was graded, none passes a task it should
    not, and every family played a finish of each task it made some for; 1 otherwise (a
    finish not scored, or a family whose finishes all stopped short, is a hole the attack
    could not look for); with --strict, 1 too when any finish stopped short."""
    from phoneshell.attack import not_played, not_scored, run_attack, summary_lines, untested

    check_runs_dir(args.runs)  # before any phone starts
    families: tuple[AttackFamily, ...] = tuple(
        f for f in ATTACK_FAMILIES if not args.family or f in args.family)
    outcome = run_attack(args.paths, args.device, args.runs, families, args.solutions,
                         progress_printer(to_stderr=True), args.attack,
                         trajectory=args.trajectory, task_globs=args.tasks,
                         residue_after=args.residue)
    report = outcome.report
    if args.format == "json":
        # ASCII, as every --format json is: what the terminal escaping shows as `\x85` would
        # not be JSON (untrusted.visible)
        print(json.dumps(report.to_plain(), indent=2))
    else:
        for line in summary_lines(report):
            print(line)
        print(f"evidence: {report.evidence}")
    if outcome.stopped:
        raise stopped_early("attack", outcome.stopped,
                            "finishes not played are listed as not scored")
    holes = report.broken or not_scored(report) or untested(report)
    return 1 if holes or args.strict and not_played(report) else 0
