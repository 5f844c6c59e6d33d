"""`phoneshell grade`: an attempt's evidence graded again offline, reaching the run's verdict.

`grade()` applies every rule its evidence can show. The rules only the run could know (the agent
ran out of time or turns, harmed the owner's collections, found a spoiled phone, left a screen
that could not be read) are read back from what the run recorded beside the evidence, under the
same seal: the attempt's `verdict.json` (`run_overruled`) and its results row (`timed_out`,
`out_of_turns`, a skip). The task file is held to the hash the run recorded: another version is
refused unless asked for (`--task-changed`), and said. Where the verdict still differs from the
run's, the output says why, naming the phoneshell that graded the run and this one.

Whatever evidence folder of a run is graded, the output says what the run recorded for that
very try: a skipped try moved aside when a `--resume` ran its attempt again
(`attempts/<task>/<n>.skipped-<k>/`) is the k-th row of that attempt, skipped and superseded; a
folder the run recorded no row for (one set aside in `incomplete/`, a try still running or cut
short) says so. Neither is ever shown as a bare PASSED or FAILED.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

from phoneshell.errors import EvidenceError, PhoneshellError
from phoneshell.evidence import load_evidence
from phoneshell.grade import Verdict, apply_run, grade
from phoneshell.grader import grader_name, grader_of, is_this_grader, this_grader
from phoneshell.records import (
    RecordError,
    ResultRow,
    RunManifest,
    parse_lines,
    plain,
    read_bytes,
    read_record,
)
from phoneshell.records.layout import INCOMPLETE, MANIFEST, RESULTS, VERDICT
from phoneshell.seal import sealed_log, verify_evidence
from phoneshell.seal_refusal import require_verified
from phoneshell.tasks import Task

__all__ = ["Recorded", "read_recorded", "run_grade"]



@dataclass(frozen=True)
class Recorded:
    """What the run recorded of one attempt (each None when it recorded none)."""

    row: ResultRow | None = None
    """The attempt's results row (the last one, when a resume ran it again)."""
    verdict: Verdict | None = None
    """Its verdict.json (a skipped attempt has none)."""
    manifest: RunManifest | None = None
    """The run's run.json."""
    note: str = ""
    """What the run recorded of this try when its row is not the one that counts: a skipped try
    a later one superseded, or a try with no row at all ("" when its row counts, or outside a
    run)."""

    def reasons(self) -> str:
        """What the run failed the attempt for beyond its evidence ("" when nothing): its
        verdict's `run_overruled`, and the row's budgets for a verdict written before that was
        kept."""
        said = self.verdict.run_overruled if self.verdict is not None else ""
        row = self.row
        found = [said,
                 "the agent ran out of time" if row is not None and row.timed_out
                 and "ran out of time" not in said else "",
                 "the agent ran out of turns" if row is not None and row.out_of_turns
                 and "ran out of turns" not in said else ""]
        return "; ".join(r for r in found if r)

    def task_sha256(self, task_id: str) -> str:
        """The hash of the task file the run graded `task_id` by ("" when it recorded none)."""
        if self.row is not None and self.row.task_id == task_id and self.row.task_sha256:
            return self.row.task_sha256
        tasks = self.manifest.tasks if self.manifest is not None else ()
        return next((t.sha256 for t in tasks if t.id == task_id), "")


def read_recorded(evidence: Path, run_dir: Path) -> Recorded:
    """The run's record of the attempt whose evidence folder is `evidence`, `run_dir`'s
    `attempts/<task>/<n>/evidence` (`seal.verify_evidence` found both, and the caller verified
    the run): the sealed part of results.jsonl is read, never what was appended after the last
    seal.

    Raises:
        EvidenceError: run.json, results.jsonl or verdict.json cannot be read.
    """
    attempt = evidence.resolve().parent
    try:
        verdict = (read_record(attempt / VERDICT, Verdict)
                   if (attempt / VERDICT).is_file() else None)
        manifest = read_record(run_dir / MANIFEST, RunManifest)
        data = sealed_log(run_dir, RESULTS)
        if data is None:  # never sealed: what the file holds (the seal check said so)
            data = read_bytes(run_dir / RESULTS) if (run_dir / RESULTS).is_file() else b""
        rows = list(parse_lines(data, ResultRow, str(run_dir / RESULTS)))
    except RecordError as exc:
        raise EvidenceError(f"the run's record of {attempt} cannot be read: {exc}",
                            hint="grade a copy of the evidence folder outside the run to "
                                 "grade its evidence alone") from exc
    row, note = _which_row(attempt, rows)
    return Recorded(row, verdict, manifest, note)


def set_aside_note(evidence: Path) -> str:
    """What the run recorded of an evidence folder a resume set aside (`<run>/incomplete/<task>-
    <n>-<time>/evidence`, which no seal covers): no row, never graded ("" for any other
    folder)."""
    where = evidence.resolve()
    if len(where.parents) < 3 or where.parents[1].name != INCOMPLETE or \
            not (where.parents[2] / MANIFEST).is_file():
        return ""
    return (f"the run recorded no row for this evidence: a resume of run "
            f"{where.parents[2].name} set it aside in {INCOMPLETE}/ (written after the run's "
            "last seal, which does not vouch for it), never graded")


def _which_row(attempt: Path, rows: list[ResultRow]) -> tuple[ResultRow | None, str]:
    """The row of the try whose folder is `attempt` (the run's `attempts/T/<name>/`), and what
    to say of it when that row is not the one that counts.

    `attempts/T/N/` holds the last try of T #N; `attempts/T/N.skipped-K/` the K-th, skipped,
    moved aside when a `--resume` ran the attempt again (`runner.run`). When the highest K
    aside already has the last row, `N/` holds a try the run recorded nothing for.
    """
    parent = attempt.parent
    task_id, name = parent.name, attempt.name
    number, aside, k = name.partition(".skipped-")
    tries = [r for r in rows if r.task_id == task_id and str(r.attempt) == number]
    if aside:
        tried = int(k) if k.isascii() and k.isdigit() else 0
        row = tries[tried - 1] if 0 < tried <= len(tries) else None
        if row is None:
            return None, (f"the run recorded no row for this try of {task_id} #{number} (moved "
                          f"aside as try {k}, of {len(tries)} recorded)")
        last = tries[-1]
        return row, (f"superseded: try {k} of {task_id} #{number}, moved aside when a --resume "
                     f"ran the attempt again; the run counts its last try ({last.outcome}"
                     + (f": {last.skip_reason}" if last.skipped and last.skip_reason else "")
                     + f", attempts/{task_id}/{number}/)")
    ends = (p.name.rpartition("-")[2] for p in parent.glob(f"{number}.skipped-*"))
    moved = [int(end) for end in ends if end.isascii() and end.isdigit()]
    if len(tries) > max(moved, default=0):
        return tries[-1], ""
    return None, (f"the run recorded no row for this try of {task_id} #{number}: it began after "
                  "the run's last record (still running, or cut short before its row; a "
                  "resume sets such a folder aside and plays the attempt again)")


def _held_to_run(task: Task, recorded: Recorded, changed: bool) -> None:
    """Refuse a task file other than the one the run graded by, unless `changed` (then warn)."""
    sha = recorded.task_sha256(task.id)
    if not sha or sha == task.sha256:
        return
    what = (f"{task.file} is not the task file the run graded {task.id} by: its sha256 is "
            f"{task.sha256}, the run recorded {sha}")
    if not changed:
        raise PhoneshellError(what, hint="pass --task-changed to grade under this version "
                                         "anyway (said in the output), or use the file the run "
                                         "used")
    print(f"warning: TASK CHANGED: {what}; graded under this version", file=sys.stderr)


def _differs(recorded: Recorded, verdict: Verdict, changed: bool, unverified: bool) -> str:
    """Why `verdict` is not the run's ("" when it is, or the run recorded none)."""
    ran = recorded.verdict
    if ran is None or ran.passed == verdict.passed:
        return ""
    causes = [c for c, on in (("the task file is not the one the run graded by", changed),
                              ("its files do not match the run's seal", unverified)) if on]
    if not causes:
        made = recorded.manifest
        by = grader_of(made) if made is not None else "another phoneshell"
        now = grader_name(*this_grader())
        same = made is not None and is_this_grader(made)
        causes.append(f"this phoneshell, {now}, grades it otherwise than {by}, which ran it: "
                      "the checks changed since" if not same else
                      f"the same phoneshell ({now}) grades it otherwise than the run did: the "
                      "run's grade is not reproduced from its evidence")
    said = f" ({ran.overruled})" if ran.overruled else ""
    return (f"the run recorded it {'PASSED' if ran.passed else 'FAILED'}{said}, graded now "
            f"{'PASSED' if verdict.passed else 'FAILED'}: " + "; ".join(causes))


def print_verdict(verdict: Verdict, skipped: bool, alone: bool | None = None) -> None:
    """Print a verdict for people: the outcome, and which of the run's rules overruled it (a
    skip, and a try a later one superseded, among them); for a try the run recorded no row for
    (`alone`: how its evidence alone grades it), NOT RECORDED; one line per check; the
    evidence's own overrule."""
    graded = verdict.task_id
    if verdict.evidence_task_id != graded:
        graded += f" (evidence recorded for {verdict.evidence_task_id})"
    unrecorded = alone is not None and not skipped
    outcome = ("SKIPPED" if skipped else "NOT RECORDED" if unrecorded else
               "PASSED" if verdict.passed else "FAILED")
    by_run = (f": the run did not score it: {verdict.run_overruled}" if skipped else
              f": {verdict.run_overruled}" if unrecorded else
              f": the run overruled it: {verdict.run_overruled}" if verdict.run_overruled else "")
    print(f"{graded}: {outcome}{by_run}")
    if unrecorded:
        print(f"  its evidence alone grades it {'PASSED' if alone else 'FAILED'}"
              "; the run never scored it")
    for result in verdict.results:
        print(f"  {'pass' if result.passed else 'FAIL'}  {result.label}: {result.detail}")
    own = verdict.overruled.removesuffix(verdict.run_overruled).removesuffix("; ")
    if own:
        print(f"  failed whatever its checks say: {own}")


def run_grade(args: argparse.Namespace, task: Task) -> int:
    """Grade an evidence folder as `task`; exit 0 when it passes, 1 when it does not.

    Evidence from a run is graded only when it matches the run's seal (`--unverified`: graded
    anyway, with every mismatch printed on stderr), as the run graded it.
    """
    folder = Path(args.evidence)
    run_dir, problems = verify_evidence(folder)
    aside = set_aside_note(folder) if run_dir is None else ""
    if run_dir is None and not aside:
        print(f"note: {args.evidence} is not inside a run folder: no seal vouches for it, and "
              "what a run fails an attempt for beyond its evidence (time, turns, the owner's "
              "collections) is not known here", file=sys.stderr)
    elif run_dir is not None:
        require_verified(run_dir, problems, args.unverified,
                         lambda line: print(f"warning: {line}", file=sys.stderr),
                         anyway="`--unverified` grades it anyway, marked")
    evidence = load_evidence(folder)
    recorded = read_recorded(folder, run_dir) if run_dir is not None else Recorded(note=aside)
    verdict = grade(task, evidence)
    row, skipped, alone = recorded.row, False, verdict.passed
    if recorded.note:
        print(f"note: the run's record of this try: {recorded.note}", file=sys.stderr)
    if evidence.task_id == task.id:
        _held_to_run(task, recorded, args.task_changed)
        skipped = row is not None and row.skipped
        verdict = apply_run(verdict, "; ".join(
            r for r in (row.skip_reason or "skipped", recorded.note) if r)
            if row is not None and skipped else recorded.note if row is None
            else recorded.reasons())
        differs = "" if skipped or row is None else _differs(
            recorded, verdict, recorded.task_sha256(task.id) not in ("", task.sha256),
            bool(problems))
        if differs:
            print(f"note: {differs}", file=sys.stderr)
    elif recorded.reasons():
        print(f"note: graded as another task, so what the run failed it for as "
              f"{evidence.task_id} does not apply: {recorded.reasons()}", file=sys.stderr)
    if args.format == "json":
        print(json.dumps(plain(verdict), indent=2))
    else:
        print_verdict(verdict, skipped, alone if row is None and recorded.note else None)
    return 0 if verdict.passed else 1
