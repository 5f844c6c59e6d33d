"""`phoneshell judgeset` (build a judge benchmark from run folders, swap and attack results) and
`phoneshell judge` (run a judge over it and score it). Parsing and printing only: the work is in
`phoneshell.judges`."""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

from phoneshell.agents.sandbox import CHOICES
from phoneshell.cli.options import progress_printer
from phoneshell.frames import DEFAULT_FRAMES, DEFAULT_LONG_EDGE
from phoneshell.judges import (
    JudgeError,
    JudgeOptions,
    Sources,
    build_judgeset,
    judge_set,
    make_judge,
    open_judgeset,
    read_labels,
    read_population,
    score,
)
from phoneshell.judges.base import DEFAULT_TIMEOUT_S
from phoneshell.judges.html import write_judge_html
from phoneshell.judges.population import ATTEMPTS
from phoneshell.judges.score import unconfined_line
from phoneshell.records import JudgeScore, JudgeSetManifest, Rate, write_record
from phoneshell.report.text import interval, pct
from phoneshell.tasks import default_task_paths

WRONG_SHOWN = 10


def add_parsers(commands: Any) -> None:
    """Register `judgeset` and `judge`."""
    p = commands.add_parser(
        "judgeset", help="build a judge benchmark from runs, swap and attack results, labelled "
                         "by the phone",
        description="phoneshell judgeset --out DIR [--run RUN_DIR]... [--swap SWAP_JSON]... "
                    "[--attack ATTACK_JSON]...")
    p.add_argument("--out", type=Path, required=True, metavar="DIR",
                   help="the judgeset folder to write (new, or an earlier judgeset, replaced)")
    p.add_argument("--run", dest="runs", type=Path, action="append", default=[],
                   metavar="RUN_DIR", help="a run folder: passed attempts are positives, failed "
                                           "ones honest failures (repeatable)")
    p.add_argument("--swap", dest="swaps", type=Path, action="append", default=[],
                   metavar="SWAP_JSON", help="`phoneshell swap --format json` output: swapped "
                                             "negatives (repeatable)")
    p.add_argument("--attack", dest="attacks", type=Path, action="append", default=[],
                   metavar="ATTACK_JSON", help="`phoneshell attack --format json` output: attack "
                                               "negatives by family (repeatable)")
    p.add_argument("--tasks", nargs="+", metavar="PATH",
                   help="task files or folders for the swap and attack results' instructions "
                        "and tags (default: ./environments when there is one, else the suite "
                        "shipped with phoneshell); given, run folders use them too")
    p.add_argument("--frame-px", type=int, default=DEFAULT_LONG_EDGE, metavar="PX",
                   help=f"long edge of the frames kept (default {DEFAULT_LONG_EDGE})")
    p.add_argument("--unverified", action="store_true",
                   help="build from run folders whose files do not match their seal too, every "
                        "mismatch shown and their items marked (refused without this)")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(run=run_judgeset)

    p = commands.add_parser(
        "judge", help="run a judge over a judgeset and score it against the phone",
        description="phoneshell judge JUDGESET --judge openai:MODEL|command:CMD [--out DIR]")
    p.add_argument("judgeset", type=Path, metavar="JUDGESET", help="a `phoneshell judgeset` "
                                                                  "folder")
    p.add_argument("--judge", required=True, metavar="openai:MODEL|command:CMD",
                   help="the built-in baseline judge over an OpenAI-compatible endpoint, or any "
                        "program that reads an item on stdin and answers JSON")
    p.add_argument("--out", type=Path, metavar="DIR",
                   help="where answers go (default JUDGESET/judged/<judge>); an earlier run of "
                        "the same judge there is resumed")
    p.add_argument("--frames", type=int, default=DEFAULT_FRAMES, metavar="N",
                   help=f"screenshots shown per item, uniformly sampled (default "
                        f"{DEFAULT_FRAMES})")
    p.add_argument("--long-edge", type=int, default=DEFAULT_LONG_EDGE, metavar="PX",
                   help=f"their long edge (default {DEFAULT_LONG_EDGE}; at most the judgeset's)")
    p.add_argument("--timeout-s", type=float, default=DEFAULT_TIMEOUT_S, metavar="S",
                   help=f"per item (default {DEFAULT_TIMEOUT_S:g})")
    p.add_argument("--html", type=Path, metavar="FILE",
                   help="also write the judge report: each item's verdict beside the phone's")
    p.add_argument("--sandbox", choices=CHOICES, default="auto",
                   help="how a command: judge is confined, as agents are: auto (bubblewrap on "
                        "Linux, sandbox-exec on macOS, else none, said at start), bwrap, "
                        "sandbox-exec, or none (unconfined: it can read the labels; recorded, "
                        "and the score says it is not tamper-proof); default auto")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(run=run_judge)


def _positive(value: int, flag: str, default: int) -> int:
    if value < 1:
        raise JudgeError(f"{flag} must be at least 1 (got {value})",
                         hint=f"e.g. {flag} {default} (the default)")
    return value


def manifest_lines(manifest: JudgeSetManifest, out: Path) -> list[str]:
    """What a judgeset holds, for people."""
    counts = manifest.counts
    lines = [f"judgeset {out}: {len(manifest.items)} item(s)"]
    lines += [f"  {name:<9} {counts.get(name, 0)}" for name in
              ("positive", "failed", "swapped", "attack")]
    lines += [f"    attack:{family:<12} {n}" for family, n in sorted(manifest.families.items())]
    if manifest.without_step_frames:
        lines.append(f"  {manifest.without_step_frames} item(s) have only start and end screens "
                     "(recorded without --trajectory)")
    if manifest.unverified:
        lines.append(f"  UNVERIFIED: {manifest.unverified} item(s) come from runs whose files "
                     "do not match their seal (--unverified); their labels may be forged")
    if manifest.scored_attempts:
        lines.append(f"  {manifest.scored_attempts} scored attempt(s) of the runs, each judged "
                     f"through its item or the one it duplicates ({out / ATTEMPTS})")
    if manifest.duplicates:
        lines.append(f"  {manifest.duplicates} duplicate(s) left out (same instruction, actions, "
                     "claim and label as an earlier item)")
    if manifest.both_ways:
        lines.append(f"  {manifest.both_ways} trajectory(ies) the phone graded both ways, each "
                     "two items (one positive, one negative): a judge answering both alike is "
                     "right on one")
    reasons = Counter(e.reason.split(":")[0] for e in manifest.excluded)
    lines += [f"  left out ({n}): {reason}" for reason, n in reasons.most_common()]
    lines.append(f"labels (never shown to a judge): {out / 'labels.jsonl'}")
    return lines


def run_judgeset(args: argparse.Namespace) -> int:
    """Build the judgeset; exit 0 when it holds items, 2 when it could not be built."""
    sources = Sources(tuple(args.runs), tuple(args.swaps), tuple(args.attacks),
                      tuple(args.tasks or default_task_paths()), run_tasks=bool(args.tasks),
                      unverified=args.unverified)
    progress = progress_printer(to_stderr=True)
    frame_px = _positive(args.frame_px, "--frame-px", DEFAULT_LONG_EDGE)
    manifest = build_judgeset(args.out, sources, frame_px, progress)
    if args.format == "json":
        print(json.dumps(manifest.to_plain(), indent=2))
    else:
        print("\n".join(manifest_lines(manifest, args.out)))
    if not manifest.items:
        raise JudgeError("the judgeset holds no item: every source was left out",
                         hint="the left-out reasons above say why")
    return 0


def _rate(r: Rate) -> str:
    return f"{pct(r.rate)} ({r.correct}/{r.n}" + (f", {interval(r.ci95)})" if r.ci95 else ")")


def score_lines(s: JudgeScore) -> list[str]:
    """The score for people."""
    f1 = "n/a" if s.f1 is None else f"{s.f1:.3f}"
    unconfined = unconfined_line(s.sandbox, s.sandbox_note)
    lines = [f"{s.judge}: {s.items} item(s), {s.positives} positive, {s.negatives} negative",
             *([f"  WARNING: {unconfined}"] if unconfined else []),
             f"  accuracy {_rate(s.accuracy)}",
             f"  precision {_rate(s.precision)}, recall {_rate(s.recall)}, F1 {f1}",
             f"  positive accuracy {_rate(s.recall)}, negative accuracy "
             f"{_rate(s.negative_accuracy)}, balanced {pct(s.balanced_accuracy)}",
             f"  counted wrong: {s.invalid} invalid answer(s), {s.missing} unanswered",
             "  by label type:"]
    for g in s.by_type:
        shown = g.positive if g.positive.n else g.negative
        lines.append(f"    {g.name:<20} {_rate(shown)}")
    lines += ranking_lines(s)
    lines.append(f"  wrong: {len(s.wrong)} item(s)")
    for w in s.wrong[:WRONG_SHOWN]:
        said = {True: "success", False: "failure", None: w.status}[w.success]
        kind = f"{w.label_type}:{w.family}" if w.family else w.label_type
        lines.append(f"    {w.id[:8]} {kind:<16} {w.task_id} <= {w.trajectory_task}: judge "
                     f"said {said}")
    if len(s.wrong) > WRONG_SHOWN:
        lines.append(f"    ... and {len(s.wrong) - WRONG_SHOWN} more (score.json lists all)")
    return lines


def ranking_lines(s: JudgeScore) -> list[str]:
    """Ranking fidelity for people: each run's rates over all its scored attempts."""
    if s.ranking is None:
        return [f"  no ranking: {s.ranking_note}"] if s.ranking_note else []
    rho = "n/a" if s.ranking.spearman is None else f"{s.ranking.spearman:.3f}"
    mae = "n/a" if s.ranking.mae is None else f"{s.ranking.mae:.3f}"
    names = Counter(a.agent for a in s.ranking.agents)
    lines = [f"  ranking fidelity over {len(s.ranking.agents)} run(s), each over all its scored "
             f"attempts: Spearman's rho {rho}, success-rate MAE {mae}"]
    for a in s.ranking.agents:
        lines.append(f"    {a.agent}" + (f" ({a.source})" if names[a.agent] > 1 else "")
                     + f": phone {pct(a.phone_rate)} ({a.passed}/{a.attempts} passed), judge "
                     f"{pct(a.judge_rate)}; judged through {a.items} item(s)"
                     + (f", {a.unjudged} attempt(s) with none" if a.unjudged else ""))
    lines += [f"    not ranked: {why}" for why in s.ranking.not_ranked]
    return lines


def _slug(spec: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", spec).strip("_")[:80] or "judge"


def run_judge(args: argparse.Namespace) -> int:
    """Judge every item, score; exit 0 when the judge was right on every item, 1 otherwise."""
    options = JudgeOptions(_positive(args.frames, "--frames", DEFAULT_FRAMES),
                           _positive(args.long_edge, "--long-edge", DEFAULT_LONG_EDGE),
                           args.timeout_s, args.sandbox)
    judgeset = open_judgeset(args.judgeset)
    population = read_population(judgeset.folder, judgeset.manifest)  # refused before judging
    labels = read_labels(judgeset)  # so are labels the set does not back: no judge call wasted
    progress = progress_printer(to_stderr=True)
    if judgeset.manifest.unverified:
        progress(f"UNVERIFIED: {judgeset.manifest.unverified} item(s) of {args.judgeset} come "
                 "from runs whose files did not match their seal; the score rests on their "
                 "labels")
    judge = make_judge(args.judge, options)
    unconfined = unconfined_line(judge.sandbox, judge.sandbox_note)
    if unconfined:
        progress(f"WARNING: {unconfined}")
    out = args.out or args.judgeset / "judged" / _slug(judge.name)
    judged = judge_set(judgeset, judge, out, options, progress)
    result = score(judge.name, judgeset.manifest.set_id, labels, judged.answers, judged.run,
                   population)
    write_record(out / "score.json", result)
    if args.html is not None:
        write_judge_html(args.html, judgeset, labels, judged.answers, result)
    if args.format == "json":
        print(json.dumps(result.to_plain(), indent=2))
    else:
        print("\n".join(score_lines(result)))
        print(f"answers: {out / 'results'}  score: {out / 'score.json'}"
              + (f"  report: {args.html}" if args.html else ""))
    if unconfined and args.format == "json":  # the one place the judge cannot rewrite after
        progress(f"WARNING: {unconfined}")
    return 0 if not result.wrong else 1
