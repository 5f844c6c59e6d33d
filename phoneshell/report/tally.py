"""The numbers of a report, counted from run folders: per agent, per tag, per task, and each pair
of runs compared. `Report` is also the `--format json` document (docs/reports.md).

Not scored is not failed: a skipped attempt (or one never run) is never in a pass rate's
denominator. Claims are compared with the grade only where there is a grade.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from phoneshell.records import LeftOut, ResultRow
from phoneshell.report.compare import Comparison, compare
from phoneshell.report.runs import Attempt, RunRecord
from phoneshell.report.stats import wilson
from phoneshell.runner.resume import PROGRAM
from phoneshell.tasks.tags import CAPABILITY, tag_key, tag_names
from phoneshell.untrusted import one_line

REPORT_VERSION = 1


def skip_category(reason: str) -> str:
    """The kind of a skip reason: the text before its first colon ("setup failed")."""
    return reason.split(":")[0].strip() or "no reason recorded"


def rate(part: int, whole: int) -> float | None:
    """part/whole, or None when whole is 0 (there is no rate, not a zero rate)."""
    return part / whole if whole else None


@dataclass(frozen=True)
class AgentNumbers:
    """One run's agent: how its attempts went, and how its claims compare with the grades."""

    agent: str
    """The agent as the run was started with it (`--agent`)."""
    run_id: str
    run_dir: str
    planned: int
    """Attempts run.json set out to make (tasks x repeat)."""
    attempts: int
    """Attempts recorded in results.jsonl (one per task and attempt number; last row wins)."""
    not_run: int
    """Planned attempts with no row (the run stopped or was cut short)."""
    scored: int
    """Attempts graded: passed + failed. The only denominator of pass rates."""
    passed: int
    failed: int
    pass_rate: float | None
    """passed / scored; null when nothing was scored."""
    ci95: tuple[float, float] | None
    """Wilson 95% interval of pass_rate; null when nothing was scored."""
    pass_floor: float | None
    """passed / planned: the rate if every attempt not scored (skipped or never run) had failed,
    which no skip can raise; null when nothing was planned."""
    skipped: int
    """Attempts not scored (setup failed, rig down...): never counted as failed."""
    skip_reasons: dict[str, int]
    """Skipped attempts by kind of reason (the reason's text before its first colon)."""
    superseded: int
    """Skipped rows replaced by a later try of the same attempt (`--resume`)."""
    timed_out: int
    """Scored attempts that ran out of time (these never pass)."""
    out_of_turns: int
    """Scored attempts that ran out of turns (these never pass)."""
    claimed_done: int
    """Scored attempts whose claim status was done."""
    claimed_gave_up: int
    claimed_failed: int
    no_claim: int
    """Scored attempts where the agent reported no claim."""
    with_claim: int
    """Scored attempts with a claim: the denominator of the two claim rates."""
    false_claims: int
    """Claimed done, graded failed."""
    false_claim_rate: float | None
    """false_claims / with_claim; null when no scored attempt has a claim."""
    missed_claims: int
    """Claimed gave_up or failed, graded passed."""
    missed_claim_rate: float | None
    """missed_claims / with_claim; null when no scored attempt has a claim."""
    left_out: tuple[LeftOut, ...] = ()
    """Task files the run left out for errors when it began (run.json): none of their tasks
    ran, no rate counts them, and the run cannot pass."""
    phoneshell_version: str = ""
    """The phoneshell that graded the run (run.json)."""
    git_commit: str = ""
    """Its git commit, for people: "+dirty" after it when its files were not the commit's
    ("+dirty.<digest>" in older runs; "" when it ran outside a checkout)."""
    code_sha256: str = ""
    """The digest of its files as on disk, what tells graders apart ("" in runs recorded before
    it was)."""
    grader: str = ""
    """All, for people: "phoneshell 0.1.0 (git 1a2b3c4d5e6f, code 0123456789abcdef)"."""
    programs: tuple[str, ...] = ()
    """The program file a `command:` agent ran, with its sha256 (run.json's `agent_setup`)."""
    phones: str = ""
    """The phones it ran on, for people: each one's label, kind, model and iOS, and a simulated
    iPhone's latency and seed ("sim-1: sim, iphone, iOS 26.2, latency iphone, seed 7")."""
    unplanned: int = 0
    """Attempts results.jsonl records that run.json does not plan: in no other count, never
    passed, and the run cannot pass."""
    unverified: int = 0
    """How many of the run's files do not match its seal (a report made with `--unverified`):
    above 0, its numbers are the files' word only, and the run cannot pass."""
    still_written: str = ""
    """Who was still writing the run when the report was made ("" when no one was): its
    attempts never run are not yet run."""


def all_passed(n: AgentNumbers) -> bool:
    """Whether a run passed as a whole: every attempt it plans recorded and passed, no task
    file left out, no row of an attempt it does not plan, and every file matching its seal.
    What exit 0 means, of `phoneshell run` and of `phoneshell report` alike."""
    return (bool(n.attempts) and n.passed == n.attempts and not n.not_run and not n.left_out
            and not n.unplanned and not n.unverified)


@dataclass(frozen=True)
class TagCell:
    """One agent's attempts at the tasks that carry one tag."""

    agent: str
    run_id: str
    attempts: int
    """Attempts recorded (a row each) of the tasks carrying the tag."""
    scored: int
    passed: int
    pass_rate: float | None
    ci95: tuple[float, float] | None
    skipped: int
    planned: int = 0
    """Attempts run.json plans of the tasks carrying the tag (their denominator)."""
    not_run: int = 0
    """Planned attempts of those tasks with no row: never counted as failed, never left out."""
    unknown: int = 0
    """Planned attempts of this run's tasks whose tags are not known (a run recorded before
    run.json kept tags, whose task file changed or went since): in no tag's row, so this one
    may miss up to that many."""


@dataclass(frozen=True)
class TagNumbers:
    """A tag of the tasks, and every agent's numbers on the tasks that carry it."""

    tag: str
    capability: bool
    """Whether it is a `capability:` tag."""
    agents: tuple[TagCell, ...]
    """One per run that planned a task with this tag."""


@dataclass(frozen=True)
class TaskCell:
    """One run's outcomes on one task, by attempt number."""

    agent: str
    run_id: str
    outcomes: tuple[str, ...]
    """Attempt 1, 2, ...: passed, failed, skipped or not_run."""


@dataclass(frozen=True)
class TaskRow:
    """A task and its pass matrix (runs x attempts)."""

    task_id: str
    name: str
    """"" when the task file is missing or changed."""
    instruction: str
    """"" when the task file is missing or changed."""
    tags: tuple[str, ...]
    runs: tuple[TaskCell, ...]
    task_sha256: str = ""
    """The version of the task file these attempts ran (the sha256 of its bytes)."""
    versions: int = 1
    """How many versions of this task id the runs ran: above 1, each has its own row."""


@dataclass(frozen=True)
class TaskFileNote:
    """A task file as a run recorded it, and whether it still holds what ran."""

    run_id: str
    task_id: str
    file: str
    status: str
    """ok, changed, missing or unreadable."""
    detail: str


@dataclass(frozen=True)
class Unreadable:
    """A run given to the report whose files cannot be read: it is named, and left out."""

    run_dir: str
    error: str
    """What cannot be read, naming the file (and its size, when that is why)."""


@dataclass(frozen=True)
class Report:
    """Everything `phoneshell report` prints, as one document."""

    version: int
    agents: tuple[AgentNumbers, ...]
    tags: tuple[TagNumbers, ...]
    tasks: tuple[TaskRow, ...]
    comparisons: tuple[Comparison, ...]
    task_files: tuple[TaskFileNote, ...]
    warnings: tuple[str, ...]
    unreadable: tuple[Unreadable, ...] = ()
    """Runs left out because their run.json or results.jsonl cannot be read."""


FALSE_CLAIM, MISSED_CLAIM = "claimed success but failed", "claimed failure but passed"


def claim_disagreement(row: ResultRow) -> str:
    """How a scored attempt's claim disagrees with the phone's grade ("" when it agrees, or
    when there is no claim or no grade)."""
    if row.skipped or row.claim is None:
        return ""
    if row.claim.status == "done" and not row.passed:
        return FALSE_CLAIM
    if row.claim.status != "done" and row.passed:
        return MISSED_CLAIM
    return ""


def _tasks(scored: Sequence[ResultRow]) -> int:
    """How many independent trials scored attempts are: their distinct tasks (`stats.wilson`)."""
    return len({r.task_id for r in scored})


def agent_numbers(run: RunRecord) -> AgentNumbers:
    """Count one run's attempts, skips and claims."""
    rows = [a.row for a in run.attempts]
    scored = [r for r in rows if not r.skipped]
    passed = sum(r.passed for r in scored)
    claims = Counter(r.claim.status if r.claim else "none" for r in scored)
    with_claim = len(scored) - claims["none"]
    disagreements = Counter(claim_disagreement(r) for r in scored)
    false_claims, missed = disagreements[FALSE_CLAIM], disagreements[MISSED_CLAIM]
    return AgentNumbers(
        agent=run.agent, run_id=run.run_id, run_dir=str(run.run_dir), planned=run.planned,
        attempts=len(rows), not_run=len(run.not_run()), scored=len(scored), passed=passed,
        failed=len(scored) - passed, pass_rate=rate(passed, len(scored)),
        ci95=wilson(passed, len(scored), trials=_tasks(scored)),
        pass_floor=rate(passed, run.planned),
        skipped=len(rows) - len(scored),
        skip_reasons=dict(Counter(skip_category(r.skip_reason) for r in rows if r.skipped)
                          .most_common()),
        superseded=sum(len(a.superseded) for a in run.attempts),
        timed_out=sum(r.timed_out for r in scored),
        out_of_turns=sum(r.out_of_turns for r in scored),
        claimed_done=claims["done"], claimed_gave_up=claims["gave_up"],
        claimed_failed=claims["failed"], no_claim=claims["none"], with_claim=with_claim,
        false_claims=false_claims, false_claim_rate=rate(false_claims, with_claim),
        missed_claims=missed, missed_claim_rate=rate(missed, with_claim),
        left_out=run.manifest.left_out, phoneshell_version=run.manifest.phoneshell_version,
        git_commit=run.manifest.git_commit, code_sha256=run.manifest.code_sha256,
        grader=run.grader, programs=tuple(
            one_line(line) for line in run.manifest.agent_setup if line.startswith(PROGRAM)),
        phones=run.phones, unplanned=len(run.unplanned), unverified=len(run.problems),
        still_written=run.writer)


def _tag_cell(run: RunRecord, attempts: list[Attempt], not_run: int, unknown: int) -> TagCell:
    scored = [a.row for a in attempts if not a.row.skipped]
    passed = sum(r.passed for r in scored)
    return TagCell(run.agent, run.run_id, len(attempts), len(scored), passed,
                   rate(passed, len(scored)), wilson(passed, len(scored), trials=_tasks(scored)),
                   len(attempts) - len(scored), len(attempts) + not_run, not_run, unknown)


def tag_numbers(runs: Sequence[RunRecord]) -> tuple[TagNumbers, ...]:
    """Per tag, each run's numbers on the tasks carrying it, planned attempts never run
    included: capability tags first, then the rest, each alphabetical. A task's tags are the
    ones the run ran it with (`RunRecord.tags`), each counted once; a tag spelled otherwise in
    another task file ("Notes", "notes") is the same tag (`tag_key`), shown as most of its
    tasks spell it (`tag_names`); a task whose tags are not known is in no row, and each of its
    run's rows says how many planned attempts that is."""
    by_tag: dict[str, list[TagCell]] = {}
    tagged = [(ref.id, run.tags(ref.id) or ()) for run in runs for ref in run.manifest.tasks]
    names = tag_names(tagged)
    for run in runs:
        grouped: dict[str, list[Attempt]] = {}
        never: Counter[str] = Counter()
        tags = {ref.id: run.tags(ref.id) for ref in run.manifest.tasks}
        for attempt in run.attempts:
            for tag in tags.get(attempt.task_id) or ():
                grouped.setdefault(tag_key(tag), []).append(attempt)
        for task_id, _number in run.not_run():
            for tag in tags.get(task_id) or ():
                grouped.setdefault(tag_key(tag), [])
                never[tag_key(tag)] += 1
        unknown = sum(tags.get(task_id, ()) is None for task_id, _number in run.plan())
        for key, attempts in grouped.items():
            by_tag.setdefault(key, []).append(_tag_cell(run, attempts, never[key], unknown))
    order = sorted(by_tag, key=lambda k: (not k.startswith(CAPABILITY), names[k]))
    return tuple(TagNumbers(names[k], k.startswith(CAPABILITY), tuple(by_tag[k])) for k in order)


def task_rows(runs: Sequence[RunRecord]) -> tuple[TaskRow, ...]:
    """Every task of any run, in first-seen order, with each run's outcomes by attempt; a task
    whose file the runs ran in several versions (sha256) has a row per version, never one
    merging them."""
    keys: dict[tuple[str, str], None] = {}
    for run in runs:
        keys.update(((ref.id, ref.sha256), None) for ref in run.manifest.tasks)
        keys.update(((a.task_id, run.version(a)), None) for a in run.attempts)
    versions = Counter(task_id for task_id, _ in keys)
    rows = []
    for task_id, version in keys:
        task = next((t for run in runs if (t := run.task(task_id)) is not None
                     and t.sha256 == version), None)
        cells = []
        for run in runs:
            got = {a.number: a.row.outcome for a in run.attempts
                   if a.task_id == task_id and run.version(a) == version}
            in_run = any(ref.id == task_id and ref.sha256 == version
                         for ref in run.manifest.tasks)
            if not got and not in_run:
                continue
            count = max([run.manifest.repeat, *got]) if in_run else max(got)
            cells.append(TaskCell(run.agent, run.run_id, tuple(
                got.get(n, "not_run") for n in range(1, count + 1))))
        tags = next((found for run in runs if any(ref.id == task_id and ref.sha256 == version
                                                  for ref in run.manifest.tasks)
                     and (found := run.tags(task_id)) is not None), ())
        rows.append(TaskRow(task_id, task.name if task else "", task.instruction if task else "",
                            tags, tuple(cells), version, versions[task_id]))
    return tuple(rows)


def _versions_warnings(tasks: Sequence[TaskRow], runs: Sequence[RunRecord]) -> list[str]:
    """A warning per task the runs ran in more than one version of its file."""
    by_id: dict[str, list[TaskRow]] = {}
    for row in tasks:
        by_id.setdefault(row.task_id, []).append(row)
    return [f"task {task_id}: the runs ran {len(rows)} versions of its file ("
            + "; ".join(f"{row.task_sha256[:12]}: "
                        + ", ".join(cell.run_id for cell in row.runs) for row in rows)
            + "): the task table shows each version apart, comparisons leave its attempts out, "
            "and per-tag numbers count each run's own version"
            for task_id, rows in by_id.items() if len(rows) > 1 and len(runs) > 1]


def build_report(runs: Sequence[RunRecord], unreadable: Sequence[Unreadable] = ()) -> Report:
    """Count everything a report shows, and compare every pair of runs on their common
    attempts; `unreadable` runs are named, never counted."""
    comparisons = []
    warnings = [w for run in runs for w in run.warnings]
    for i, first in enumerate(runs):
        for second in runs[i + 1:]:
            found = compare(first, second)
            if found.apart:
                warnings.append(f"{first.label} and {second.label}: {found.apart} attempt(s) "
                                "scored in both are not of the same task (another version of "
                                "its file, or another kind of phone), so they are left out of "
                                f"the comparison: {' | '.join(found.apart_tasks)}")
            if not found.same_grader:
                warnings.append(f"{first.label} and {second.label} were graded by different "
                                f"phoneshells ({found.graders}): a difference between them may "
                                "be the grader's, not the agents'")
            if found.pairs:
                comparisons.append(found)
            else:
                warnings.append(f"{first.label} and {second.label} have no attempt of the same "
                                "task scored in both, so they are not compared")
    notes = tuple(TaskFileNote(run.run_id, f.task_id, f.file, f.status, f.detail)
                  for run in runs for f in run.task_files)
    tasks = task_rows(runs)
    warnings += _versions_warnings(tasks, runs)
    return Report(REPORT_VERSION, tuple(agent_numbers(run) for run in runs), tag_numbers(runs),
                  tasks, tuple(comparisons), notes, tuple(warnings),
                  tuple(unreadable))
