"""`phoneshell report`: read run folders and print what happened (text or JSON), optionally
writing an HTML report and JUnit XML; or export swap results in AgentHorizon's format and score
them strictly.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, cast

from phoneshell.records import plain
from phoneshell.report import agenthorizon
from phoneshell.report.runs import (
    ReportError,
    RunRecord,
    UnreadableRun,
    load_run,
    load_task_paths,
)
from phoneshell.report.tally import Report, Unreadable, all_passed, build_report
from phoneshell.report.text import fraction, pct, render_text
from phoneshell.report.writers import WRITERS


def add_parsers(commands: Any) -> None:
    """Register `report`."""
    p = commands.add_parser(
        "report", help="summarize runs: pass rates, skips, claims vs device, comparisons")
    p.add_argument("run_dirs", nargs="*", type=Path, metavar="RUN_DIR",
                   help="run folders (runs/<run_id>); two or more are compared pairwise")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--html", type=Path, metavar="FILE",
                   help="also write one self-contained HTML report")
    p.add_argument("--junit", type=Path, metavar="FILE",
                   help="also write JUnit XML (one test case per attempt)")
    p.add_argument("--tasks", nargs="+", metavar="PATH",
                   help="task files or folders to read instructions and tags from, instead of "
                        "the files run.json names (a changed file is reported, never used)")
    p.add_argument("--unverified", action="store_true",
                   help="report runs whose files do not match their seal, every mismatch "
                        "shown as a warning (refused without this)")
    p.add_argument("--swap", type=Path, metavar="SWAP_JSON",
                   help="output of `phoneshell swap ... --format json`: export it to "
                        "--agenthorizon DIR and score it")
    p.add_argument("--agenthorizon", type=Path, metavar="DIR",
                   help="AgentHorizon export folder: written from --swap, then scored strictly "
                        "(alone: score the export already in DIR)")
    p.set_defaults(run=run_report)


def _load(args: argparse.Namespace) -> tuple[list[RunRecord], list[Unreadable]]:
    """The runs given, and those whose files cannot be read (named, and left out); when none
    can be read, the first one's error."""
    tasks = load_task_paths(args.tasks) if args.tasks else None
    runs: list[RunRecord] = []
    unreadable: list[tuple[Path, UnreadableRun]] = []
    for folder in args.run_dirs:
        try:
            runs.append(load_run(folder, tasks, args.unverified))
        except UnreadableRun as exc:
            unreadable.append((folder, exc))
    if unreadable and not runs:
        raise unreadable[0][1]
    labels = [r.label for r in runs]
    twice = next((x for x in labels if labels.count(x) > 1), None)
    if twice is not None:
        raise ReportError(f"two of the run folders are both {twice}",
                          hint="a report names runs by agent and run id; pass each run once")
    return runs, [Unreadable(str(folder), exc.message) for folder, exc in unreadable]


def _all_passed(report: Report) -> bool:
    return all(all_passed(n) for n in report.agents)


def _agenthorizon(args: argparse.Namespace, out: Any) -> tuple[bool, object]:
    """Export (when --swap) and score; return whether the score agrees, and its JSON."""
    folder: Path = args.agenthorizon
    swap = None
    if args.swap is not None:
        swap = agenthorizon.read_swap(args.swap)
        agenthorizon.export(swap, args.swap, folder)
    elif not (folder / agenthorizon.MANIFEST).is_file():
        raise ReportError(f"{folder / agenthorizon.MANIFEST} is missing",
                          hint="export swap results first: --swap SWAP_JSON --agenthorizon DIR")
    got = agenthorizon.score(folder)
    problems = agenthorizon.disagreements(swap, got) if swap is not None else []
    print(f"AgentHorizon export {folder}: {got.items} item(s), {got.positives} positive, "
          f"{got.negatives} negative", file=out)
    print(f"  strict score: positive {fraction(got.pos_correct, got.positives, got.pos_accuracy)}"
          f", negative {fraction(got.neg_correct, got.negatives, got.neg_accuracy)}, balanced "
          + pct(got.balanced_accuracy),
          file=out)
    print(f"  counted incorrect: {len(got.missing)} missing verdict(s), {len(got.invalid)} not "
          "a boolean", file=out)
    if swap is not None:
        print("  the swap JSON's accuracies " + ("agree" if not problems else "DISAGREE: "
                                                 + "; ".join(problems)), file=out)
    result = {"folder": str(folder), **cast(dict[str, object], plain(got)),
              "agrees_with_swap": None if swap is None else not problems}
    return not problems, result


def run_report(args: argparse.Namespace) -> int:
    """Print the report; exit 0 only when every run passed as `phoneshell run` exits 0 for it
    (`tally.all_passed`: every attempt planned passed, no task file left out) and the
    AgentHorizon score agrees with the swap JSON; 1 when a run given cannot be read but
    others can (they are reported, it is named); 2 when none can."""
    if args.swap is not None and args.agenthorizon is None:
        raise ReportError("--swap needs --agenthorizon DIR to export to",
                          hint="phoneshell report --swap swap.json --agenthorizon export/")
    if not args.run_dirs and args.agenthorizon is None:
        raise ReportError("nothing to report: give run folders, or --agenthorizon DIR",
                          hint="phoneshell report runs/<run_id> [runs/<other>]")
    as_json = args.format == "json"
    notes = sys.stderr if as_json else sys.stdout
    document: dict[str, object] = {}
    ok = True
    if args.run_dirs:
        runs, unreadable = _load(args)
        report = build_report(runs, unreadable)
        ok = _all_passed(report) and not unreadable
        if as_json:
            document.update(cast(dict[str, object], plain(report)))
        else:
            print(render_text(report), end="")
        for name, write in WRITERS.items():
            path = getattr(args, name)
            if path is not None:
                write(report, runs, path)
                print(f"{name}: {path}", file=notes)
    if args.agenthorizon is not None:
        agrees, scored = _agenthorizon(args, notes)
        ok = ok and agrees
        document["agenthorizon"] = scored
    if as_json:
        print(json.dumps(document, indent=2))
    return 0 if ok else 1
