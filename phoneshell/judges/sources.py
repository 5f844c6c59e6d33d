"""Where a judgeset's items come from, and the label the phone gave each: run folders (passed:
positive, failed: an honest failure), swap results (a sibling's finish) and attack results (a
cheap finish).

A run folder is read as `phoneshell report` reads it: only once it matches its seal, or, asked
for (`unverified`), with every mismatch a warning and its items marked. One whose run.json or
results.jsonl cannot be read (too big, damaged) gives no item, says why, and the set is built
from the other sources.

An item has a clean label only when the phone's grade and the task file agree: a swap or attack
finish the phone accepted although the task does not list it as compatible is a hole in the
task's checks, not a positive, and is left out with the reason. Reads files only.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from phoneshell.errors import PhoneshellError
from phoneshell.records import (
    AttackReport,
    AttackResult,
    CheckResult,
    Excluded,
    LabelType,
    Origin,
    RecordError,
    SwapReport,
    SwapResult,
    read_bytes,
)
from phoneshell.records.layout import ATTEMPTS, RESULTS
from phoneshell.report.runs import UnreadableRun, load_run
from phoneshell.tasks import Task


class JudgeError(PhoneshellError):
    """A judgeset that cannot be built or read, or a judge run that cannot start or resume."""


@dataclass(frozen=True)
class Draft:
    """An item before it is written: what it shows, where it was played, and its label."""

    instruction: str
    task_id: str
    """The task whose instruction is shown."""
    trajectory_task: str
    """The task the trajectory was played as."""
    label_type: LabelType
    family: str
    origin: Origin
    source: str
    run_dir: Path
    """The run folder holding the trajectory's frames (trajectory.jsonl, frames/)."""
    evidence: Path
    detail: str
    tags: tuple[str, ...] = ()
    agent: str = ""
    unverified: bool = False
    """Its run folder did not match its seal."""
    started_at: float = 0.0
    """When its try began (0: unknown; a swap or attack folder never retries an attempt)."""
    attempt: tuple[str, int] | None = None
    """Its run id and attempt number, when its result row says (else its log's first line)."""

    @property
    def positive(self) -> bool:
        """The phone's label."""
        return self.label_type == "positive"


@dataclass(frozen=True)
class RunAttempt:
    """A scored attempt of a run, whether or not it makes an item: ranking fidelity's
    population (an agent's rate is over all of them, as its report's)."""

    source: Path
    agent: str
    task_id: str
    number: int
    passed: bool
    draft: int = -1
    """Its draft's index in `Gathered.drafts` (-1: none; `left_out` says why)."""
    left_out: str = ""


@dataclass
class Gathered:
    """Drafts and what was left out, source by source."""

    drafts: list[Draft]
    excluded: list[Excluded]
    hashes: dict[str, str]
    """Source path -> sha256 of its results file."""
    unverified: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Run folder -> what of it did not match its seal (read with `unverified`)."""
    warnings: list[str] = field(default_factory=list)
    """What a report of the runs would warn of (a seal not matched, agents unconfined)."""
    attempts: list[RunAttempt] = field(default_factory=list)
    """Every scored attempt of the runs, duplicates and those left out included."""
    agents: dict[str, str] = field(default_factory=dict)
    """Run folder -> its agent as reports name it ("solution @ RUN_ID")."""


def results_sha256(path: Path) -> str:
    """The sha256 a judgeset records for a source: of its results file (`path`, or a run
    folder's `RESULTS`).

    Raises:
        JudgeError: it cannot be read (naming it and why).
    """
    file = path / RESULTS if path.is_dir() else path
    try:
        return hashlib.sha256(read_bytes(file)).hexdigest()
    except (RecordError, OSError) as exc:
        raise JudgeError(str(exc) if isinstance(exc, RecordError) else
                         f"{file}: cannot read it ({exc.strerror or exc})") from exc


def _checks(results: Sequence[CheckResult], passed: bool) -> str:
    if passed:
        return f"all {len(results)} check(s) held"
    return "; ".join(f"{r.label or r.kind}: {r.detail}" for r in results if not r.passed)


def from_run(run_dir: Path, tasks: Sequence[Task] | None, into: Gathered,
             unverified: bool = False) -> None:
    """Every scored attempt of a run: passed is positive, failed an honest failure (a run
    that cannot be read: none, and an exclusion saying why).

    Raises:
        JudgeError: not a run folder, or one that does not match its seal (unless
            `unverified`).
    """
    try:
        run = load_run(run_dir, tasks, unverified,
                       anyway="`--unverified` builds the set with it anyway, its items marked")
    except UnreadableRun as exc:  # named and left out: the other sources still make the set
        into.hashes[str(run_dir)] = ""
        into.excluded.append(Excluded(origin="run", what=str(run_dir),
                                      reason=f"the run cannot be read: {exc.message}"))
        into.warnings.append(f"--run {run_dir} cannot be read, and gives no item: "
                             f"{exc.message}")
        return
    except PhoneshellError as exc:
        raise JudgeError(f"--run {run_dir}: {exc.message}", hint=exc.hint) from exc
    into.hashes[str(run_dir)] = results_sha256(run_dir)
    into.agents[str(run_dir)] = run.label
    into.warnings += run.warnings
    if run.problems:
        into.unverified[str(run_dir)] = run.problems
    for attempt in run.attempts:
        row, what = attempt.row, f"{run.run_id}: {attempt.task_id} #{attempt.number}"
        task = run.task(attempt.task_id)
        reason = ("not scored: " + row.skip_reason if row.skipped
                  else "no evidence was captured" if not row.evidence
                  else "its task file is missing or changed since the run, so its "
                       "instruction is unknown" if task is None else "")
        scored = RunAttempt(run_dir, run.label, attempt.task_id, attempt.number, row.passed)
        if reason or task is None:
            into.excluded.append(Excluded(origin="run", what=what, reason=reason))
            if not row.skipped:  # scored: in the run's pass rate, so in the ranking's
                into.attempts.append(replace(scored, left_out=reason))
            continue
        into.attempts.append(replace(scored, draft=len(into.drafts)))
        into.drafts.append(Draft(
            task.instruction, task.id, task.id, "positive" if row.passed else "failed", "",
            "run", str(run_dir), run_dir, run_dir / row.evidence,
            _checks(row.checks, row.passed), task.tags, run.label, bool(run.problems),
            row.started_at, (row.run_id, row.attempt)))


def _locate(given: str, near: Path) -> Path:
    """A folder a results file names: as given, or else beside the results file."""
    path = Path(given)
    if path.is_absolute() or path.is_dir():
        return path
    return near.parent / path


def _report(path: Path, model: type[SwapReport] | type[AttackReport]) -> SwapReport | AttackReport:
    try:
        return model.parse(read_bytes(path), str(path))
    except RecordError as exc:
        flag = "--swap" if model is SwapReport else "--attack"
        raise JudgeError(f"{flag} {path}: {exc}",
                         hint=f"pass the output of `phoneshell {flag[2:]} ... --format json`"
                         ) from exc


def _task(tasks: dict[str, Task], task_id: str, where: str) -> Task:
    found = tasks.get(task_id)
    if found is None:
        raise JudgeError(f"{where} names task {task_id!r}, which is not among the --tasks files",
                         hint="pass the task files the results were made with: --tasks PATH")
    return found


def from_swap(path: Path, tasks: dict[str, Task], into: Gathered) -> None:
    """Swap pairs: a rejected incompatible pair is a swapped negative, an accepted compatible
    one (or a task's own finish) a positive; the others have no clean label."""
    report = _report(path, SwapReport)
    assert isinstance(report, SwapReport)
    into.hashes[str(path)] = results_sha256(path)
    run_dir = _locate(report.evidence, path)
    for pair in report.pairs:
        shown = _task(tasks, pair.implied, str(path))
        label, reason = _swap_label(pair)
        what = f"{pair.implied} <= {pair.by}"
        if label is None:
            into.excluded.append(Excluded(origin="swap", what=what, reason=reason))
            continue
        into.drafts.append(Draft(
            shown.instruction, shown.id, pair.by, label, "", "swap", str(path), run_dir,
            run_dir / pair.evidence, pair.detail or "accepted", shown.tags,
            attempt=_attempt_of(run_dir, pair.evidence)))


def _swap_label(pair: SwapResult) -> tuple[LabelType | None, str]:
    compatible = pair.compatible or pair.implied == pair.by
    if not pair.scored or not pair.evidence:
        return None, pair.skip_reason or "no evidence was captured"
    if pair.accepted and compatible:
        return "positive", ""
    if not pair.accepted and not compatible:
        return "swapped", ""
    if pair.accepted:
        return None, ("the phone accepted a finish the task does not list as compatible: a "
                      "hole in its checks, not a clean label")
    return None, "the task lists the finish as compatible, yet the phone rejected it"


def from_attack(path: Path, tasks: dict[str, Task], into: Gathered) -> None:
    """Cheap finishes: a rejected one is an attack negative of its family, an accepted
    compatible one a positive; an accepted incompatible one is a hole, left out."""
    report = _report(path, AttackReport)
    assert isinstance(report, AttackReport)
    into.hashes[str(path)] = results_sha256(path)
    run_dir = _locate(report.evidence, path)
    for result in report.attacks:
        label, reason = _attack_label(result)
        what = f"{result.task} <= {result.attack}"
        if label is None:
            into.excluded.append(Excluded(origin="attack", what=what, reason=reason))
            continue
        task = tasks.get(result.task)
        into.drafts.append(Draft(
            result.instruction, result.task, result.task, label,
            result.family if label == "attack" else "", "attack", str(path), run_dir,
            run_dir / result.evidence, result.detail, task.tags if task else (),
            attempt=_attempt_of(run_dir, result.evidence)))


def _attempt_of(run_dir: Path, evidence: str) -> tuple[str, int] | None:
    """The run id and attempt number of an evidence folder, from where the runner puts it
    (`<run id>/attempts/<task>/<attempt>/evidence`, docs/runs.md); None elsewhere."""
    parts = Path(evidence).parts
    if len(parts) == 4 and parts[0] == ATTEMPTS and parts[2].isascii() \
            and parts[2].isdigit():
        return run_dir.name, int(parts[2])
    return None


def _attack_label(result: AttackResult) -> tuple[LabelType | None, str]:
    if not result.scored or not result.evidence:
        return None, result.skip_reason or "no evidence was captured"
    if result.passed and result.compatible:
        return "positive", ""
    if not result.passed and not result.compatible:
        return "attack", ""
    if result.passed:
        return None, ("the phone passed a cheap finish the task does not list as compatible: a "
                      "hole in its checks, not a clean label")
    return None, "the task lists the finish as compatible, yet the phone failed it"
