"""Read run folders for reports: the manifest, one row per attempt (the last row wins, and only
skipped rows may be superseded), and the task files as the run saw them.

A task file that is missing, or whose bytes changed since the run (its sha256 differs from
run.json's), is reported as such and its instruction is not used: a report never guesses what a
run was asked. Its tags are run.json's, recorded when the run began (a run recorded before
run.json kept them has none to give: its task's tags are then not known). A run whose run.json
or results.jsonl cannot be read (too big, damaged) is `UnreadableRun`, which a report of several
runs names and goes on without; its audit log, which grows with the run, is read a line at a
time and kept to `TIMELINE_LINES` an attempt, and one that cannot be read costs only the
timelines. Never touches the device.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from phoneshell.audit import Action, AuditLog, actions, scan_audit
from phoneshell.errors import PhoneshellError, TaskFileError
from phoneshell.grader import grader_of
from phoneshell.records import (
    AuditEvent,
    DeviceInfo,
    RecordError,
    ResultRow,
    RunManifest,
    read_record,
)
from phoneshell.records.layout import AUDIT, INCOMPLETE, MANIFEST, RESULTS
from phoneshell.runner.folder import read_results, writer
from phoneshell.runner.resume import PROGRAM
from phoneshell.seal import split_unchecked, verify_run
from phoneshell.seal_refusal import refuse_mismatch, refuse_not_a_run
from phoneshell.tasks import Task, check_tasks, load_tasks
from phoneshell.tasks.tags import distinct_tags
from phoneshell.untrusted import named, one_line, quoted

TIMELINE_LINES = 2000
"""The most lines of the audit log a report keeps of one attempt (for its timeline): an agent's
turn may write thousands, and a person reads the start."""

TaskFileStatus = Literal["ok", "changed", "missing", "unreadable"]


class ReportError(PhoneshellError):
    """A run folder a report cannot be made from (missing, damaged, or self-contradictory)."""


class UnreadableRun(ReportError):
    """A run whose run.json or results.jsonl cannot be read (too big, not a regular file,
    damaged): a report of it and other runs names it and reports the others."""


@dataclass(frozen=True)
class TaskFile:
    """A task of a run, and whether its file still holds what the run ran."""

    task_id: str
    file: str
    """The file as run.json names it (relative to where the run was started)."""
    sha256: str
    """The hash run.json recorded."""
    status: TaskFileStatus
    """ok (same bytes), changed (the hash differs), missing (no such file, or the id is not in
    it), unreadable (the file does not load)."""
    detail: str = ""
    """What is wrong, for a person ("" when ok)."""
    task: Task | None = None
    """The task, only when `status` is ok."""


@dataclass(frozen=True)
class Attempt:
    """One attempt of one task: the row that counts, and earlier skipped tries it replaced."""

    task_id: str
    number: int
    row: ResultRow
    """The last row recorded for this (task, attempt)."""
    superseded: tuple[ResultRow, ...] = ()
    """Earlier rows of the same attempt, all skipped (a `--resume` ran it again)."""


@dataclass(frozen=True)
class RunRecord:
    """A run folder as a report reads it."""

    run_dir: Path
    manifest: RunManifest
    attempts: tuple[Attempt, ...]
    """One per recorded (task, attempt), in the order their first row was written."""
    task_files: tuple[TaskFile, ...]
    """One per task of run.json, in its order."""
    warnings: tuple[str, ...] = ()
    audit: AuditLog = field(default=AuditLog(()), repr=False, compare=False)
    """The run's audit.jsonl, for timelines."""
    problems: tuple[str, ...] = ()
    """What of the folder does not match its seal (read with `unverified` only; each is a
    warning too)."""
    cut: dict[tuple[str, int], int] = field(default_factory=dict, repr=False, compare=False)
    """Lines of the audit log left out of `audit`, by (task, attempt): past `TIMELINE_LINES`."""
    unplanned: tuple[Attempt, ...] = ()
    """Attempts results.jsonl records that run.json does not plan (another task, or a number
    past --repeat): in no count and never passed, and the run cannot pass (each a warning)."""
    writer: str = ""
    """Who is still writing the run ("pid 4242 (run R, since ...)"), "" when no one is: its
    planned attempts with no row are not yet run, not cut short."""

    @property
    def run_id(self) -> str:
        """The run's id, as reports show it (`one_line`: run.json says it)."""
        return one_line(self.manifest.run_id)

    @property
    def agent(self) -> str:
        """The agent as the run was started with it (`--agent`)."""
        return one_line(self.manifest.agent)

    @property
    def label(self) -> str:
        """How reports name this run's agent: "solution @ RUN_ID"."""
        return f"{self.agent} @ {self.run_id}"

    @property
    def grader(self) -> str:
        """The phoneshell that graded the run, for people: its version and git commit, with
        its uncommitted changes (run.json; a resume by another is refused, so it graded every
        row)."""
        return one_line(grader_of(self.manifest))

    @property
    def planned(self) -> int:
        """Attempts the run set out to make: tasks x repeat."""
        return len(self.manifest.tasks) * self.manifest.repeat

    def plan(self) -> tuple[tuple[str, int], ...]:
        """Every (task, attempt number) run.json plans, in its order: the denominator of every
        output."""
        return tuple((ref.id, n) for ref in self.manifest.tasks
                     for n in range(1, self.manifest.repeat + 1))

    def version(self, attempt: Attempt) -> str:
        """The sha256 of the task file `attempt` ran: its row's, else the one run.json records.
        Two attempts are of the same task only when id and version agree."""
        return attempt.row.task_sha256 or next(
            (ref.sha256 for ref in self.manifest.tasks if ref.id == attempt.task_id), "")

    @property
    def phones(self) -> str:
        """The phones the run ran on, for people (run.json's devices): each one's label, kind,
        model and iOS, and a simulated iPhone's latency and seed, which change its outcomes
        ("sim-1: sim, iphone, iOS 26.2, latency iphone, seed 7")."""
        return "; ".join(_phone_line(d) for d in self.manifest.devices)

    def phone_kind(self, attempt: Attempt) -> str:
        """The kind of phone `attempt` ran on, from run.json's devices: sim, url, usb, or a
        simulated iPhone slowed to a real one's pace, "sim at latency iphone"
        (`DeviceInfo.phone_kind`)."""
        kinds = {d.label: d.phone_kind for d in self.manifest.devices}
        only = set(kinds.values())
        return kinds.get(attempt.row.device, next(iter(only)) if len(only) == 1 else "")

    def not_run(self) -> tuple[tuple[str, int], ...]:
        """The planned (task, attempt number) with no row, in plan order."""
        recorded = {(a.task_id, a.number) for a in self.attempts}
        return tuple(key for key in self.plan() if key not in recorded)

    def task(self, task_id: str) -> Task | None:
        """The task as the run ran it, or None when its file is missing or changed."""
        return next((f.task for f in self.task_files if f.task_id == task_id), None)

    def tags(self, task_id: str) -> tuple[str, ...] | None:
        """The task's tags as the run ran it, each once (`distinct_tags`): run.json's, or in a
        run recorded before run.json kept them its file's while unchanged; None when neither
        says them (such a run's file changed or gone)."""
        recorded = next((ref.tags for ref in self.manifest.tasks if ref.id == task_id), None)
        task = self.task(task_id)
        found = recorded if recorded is not None else task.tags if task else None
        return None if found is None else distinct_tags(found)

    def timeline(self, attempt: Attempt) -> tuple[Action, ...]:
        """The actions of the counted try of `attempt`, every phase, from the run's audit.jsonl.

        Earlier skipped tries of the same attempt share its (task, attempt) in the log; they
        started before this try did, so only events from its start on are kept.
        """
        started = attempt.row.started_at
        return actions(e for e in self.audit.records if e.run_id == self.manifest.run_id
                       and e.task_id == attempt.task_id and e.attempt == attempt.number
                       and (not attempt.superseded or e.t >= started))


def _phone_line(device: DeviceInfo) -> str:
    facts = [device.kind, device.model, f"iOS {device.ios}" if device.ios else ""]
    if device.kind == "sim":  # what the run chose of the phone it started
        facts += [f"latency {device.latency or 'not recorded'}", f"seed {device.seed}"]
    return one_line(f"{device.label}: {', '.join(fact for fact in facts if fact)}")


REPORT_ANYWAY = "`--unverified` reports it anyway, marked"
"""What `phoneshell report` can do with a run that does not match its seal."""


def load_run(run_dir: Path, tasks: Sequence[Task] | None = None,
             unverified: bool = False, anyway: str = REPORT_ANYWAY) -> RunRecord:
    """Read a run folder, once it matches its seal.

    Args:
        run_dir: the folder holding run.json and results.jsonl.
        tasks: tasks loaded from `--tasks`, used instead of the files run.json names.
        unverified: read a run whose files do not match its seal, every mismatch a warning.
        anyway: what the caller's command can do with a run that does not match its seal,
            in its own options (said in the hint refusing one).

    Raises:
        ReportError: no run.json, files that do not match the seal (unless `unverified`), a
            row of another run, or a scored attempt recorded twice (resuming never re-runs a
            scored attempt; a file with two was edited or merged, and either number would be
            untrue).
        UnreadableRun: run.json or results.jsonl cannot be read (too big, damaged).
    """
    path = run_dir / MANIFEST
    refuse_not_a_run(run_dir, ReportError)
    problems, unchecked = split_unchecked(verify_run(run_dir))
    holder = writer(run_dir)
    if holder is not None and problems:
        raise ReportError(f"{named(run_dir)} is still being written, by {holder.describe()}: "
                          "its seal covers what it wrote last, not what it is writing now",
                          hint="report it when that run ends (or stop it: Ctrl-C ends it with "
                               "a seal)")
    if problems and not unverified:
        raise refuse_mismatch(run_dir, problems, anyway, ReportError, shown=3)
    try:
        manifest = read_record(path, RunManifest)
        rows = read_results(run_dir / RESULTS)
    except RecordError as exc:
        raise UnreadableRun(str(exc), hint="docs/runs.md describes run.json and "
                                           "results.jsonl") from exc
    run = one_line(manifest.run_id)
    warnings: list[str] = [f"{named(run_dir)}: {line}" for line in unchecked]
    if holder is not None:
        warnings.append(f"{run}: still being written, by {holder.describe()}: "
                        "this holds what it had sealed so far")
    warnings += [f"UNVERIFIED {run}: {line}" for line in problems]
    if not manifest.tamper_proof:
        warnings.append(f"{run}: its agents ran unconfined ({manifest.sandbox}: "
                        f"{one_line(manifest.sandbox_note or 'no sandbox')}); its results are not "
                        "tamper-proof")
    warnings += [f"{run}: {one_line(line)}" for line in manifest.reached_around]
    if manifest.left_out:
        warnings.append(left_out_line(manifest))
    # what was handed to the agent beyond its spec is a warning (the answer key); the program
    # a command agent ran is said with the run (`tally.AgentNumbers.programs`), not warned of
    warnings += [f"{run}: agent setup: {one_line(line)}" for line in manifest.agent_setup
                 if not line.startswith(PROGRAM)]
    if manifest.set_aside:
        warnings.append(f"{run}: resumed after setting aside what was written after "
                        f"its last seal ({'; '.join(map(one_line, manifest.set_aside))}): see "
                        f"{run_dir / INCOMPLETE}")
    foreign = next((r for r in rows if r.run_id != manifest.run_id), None)
    if foreign is not None:
        raise ReportError(f"{run_dir / RESULTS} holds a row of run {quoted(foreign.run_id)} "
                          f"({named(foreign.task_id)} #{foreign.attempt}), not of "
                          f"{quoted(manifest.run_id)}",
                          hint="a results file holds one run; do not merge them")
    attempts, unplanned = _planned(_attempts(rows, run_dir), manifest)
    task_files = tuple(_task_file(ref.id, ref.file, _locate(ref.file, run_dir), ref.sha256,
                                  tasks) for ref in manifest.tasks)
    warnings += [f"{run}: {named(a.task_id)} #{a.number} is not an attempt run.json plans (its "
                 f"task or --repeat): its row ({a.row.outcome}) is not counted, and the run "
                 "cannot pass" for a in unplanned]
    for attempt in attempts:
        if attempt.row.task_sha256 and attempt.row.task_sha256 != next(
                (ref.sha256 for ref in manifest.tasks if ref.id == attempt.task_id),
                attempt.row.task_sha256):
            warnings.append(f"{run}: {attempt.task_id} #{attempt.number} ran a task "
                            "file other than the one run.json records")
    recorded_tags = {ref.id for ref in manifest.tasks if ref.tags is not None}
    for file in task_files:
        if file.status != "ok":
            lost = ("instruction is not shown (its tags are, as run.json recorded them)"
                    if file.task_id in recorded_tags else "instruction and tags are not known, "
                    "so no per-tag row counts its attempts, and each row of this run says how "
                    "many it may miss")
            warnings.append(f"{run}: task {file.task_id}: {file.detail}; its {lost} (pass the "
                            "files the run used with --tasks)")
    log, cut, trouble = _timelines(run_dir / AUDIT)
    warnings += trouble
    return RunRecord(run_dir, manifest, attempts, task_files, tuple(warnings), log,
                     tuple(problems), cut, unplanned,
                     holder.describe() if holder is not None else "")


def _planned(attempts: tuple[Attempt, ...],
             manifest: RunManifest) -> tuple[tuple[Attempt, ...], tuple[Attempt, ...]]:
    """`attempts` split into those run.json plans and the rest: a row of an attempt never
    planned (an edit, or a merge) is never counted, so no number rises above the plan."""
    plan = {(ref.id, n) for ref in manifest.tasks for n in range(1, manifest.repeat + 1)}
    return (tuple(a for a in attempts if (a.task_id, a.number) in plan),
            tuple(a for a in attempts if (a.task_id, a.number) not in plan))


def left_out_line(manifest: RunManifest) -> str:
    """What every report says of a run that left task files out for errors."""
    return (f"{one_line(manifest.run_id)}: left out {len(manifest.left_out)} task file(s) with "
            "errors when it began, so none of their tasks ran and no rate counts them; the run "
            "cannot pass: " + "; ".join(
                f"{named(out.file)} ({' | '.join(map(one_line, out.errors))})"
                for out in manifest.left_out))


def record_of(run_dir: Path) -> RunRecord:
    """A run's record as its numbers need it: run.json's plan and results.jsonl's rows, the
    last of each attempt (no seal check, task files or timelines). `phoneshell run` counts its
    closing lines and its exit code from it, so they are `phoneshell report`'s numbers over
    the whole run, never the attempts of one session of it.

    Raises:
        RecordError: run.json or results.jsonl cannot be read.
        ReportError: a scored attempt recorded twice.
    """
    manifest = read_record(run_dir / MANIFEST, RunManifest)
    attempts, unplanned = _planned(_attempts(read_results(run_dir / RESULTS), run_dir), manifest)
    return RunRecord(run_dir, manifest, attempts, (), unplanned=unplanned)


def _timelines(path: Path) -> tuple[AuditLog, dict[tuple[str, int], int], list[str]]:
    """A run's audit log for timelines, read a line at a time: each event `bounded`, at most
    `TIMELINE_LINES` of an attempt (the others counted by attempt), and what could not be read,
    as warnings. Never raises: without its log, a run still reports its results."""
    scan = scan_audit(path)
    kept: list[AuditEvent] = []
    per: Counter[tuple[str, int]] = Counter()
    try:
        for event in scan:
            key = (event.task_id, event.attempt)
            per[key] += 1
            if per[key] <= TIMELINE_LINES:
                kept.append(event.bounded())
    except RecordError as exc:
        return AuditLog(()), {}, [f"{exc}; no timeline is shown"]
    cut = {key: n - TIMELINE_LINES for key, n in per.items() if n > TIMELINE_LINES}
    warnings = []
    if scan.problems or scan.torn:
        more = f" (and {len(scan.problems) - 1} more)" if len(scan.problems) > 1 else ""
        warnings.append((scan.problems[0] + more if scan.problems
                         else f"{path}: its last line is torn") + "; timelines may miss actions")
    if cut:
        warnings.append(f"{path}: timelines show the first {TIMELINE_LINES:,} lines of an "
                        f"attempt; {sum(cut.values()):,} more of {len(cut)} attempt(s) are not "
                        "shown")
    return AuditLog(tuple(kept), scan.torn, tuple(scan.problems)), cut, warnings


def _attempts(rows: list[ResultRow], run_dir: Path) -> tuple[Attempt, ...]:
    by_key: dict[tuple[str, int], list[ResultRow]] = {}
    for row in rows:
        by_key.setdefault((row.task_id, row.attempt), []).append(row)
    attempts = []
    for (task_id, number), tries in by_key.items():
        scored_early = next((r for r in tries[:-1] if not r.skipped), None)
        if scored_early is not None:
            raise ReportError(
                f"{run_dir / RESULTS}: {task_id} #{number} was scored ({scored_early.outcome}) "
                f"and then recorded again; a scored attempt is never re-run",
                hint="the file was edited or merged; report on the run as phoneshell wrote it")
        attempts.append(Attempt(task_id, number, tries[-1], tuple(tries[:-1])))
    return tuple(attempts)


def load_task_paths(paths: Sequence[str]) -> tuple[Task, ...]:
    """Tasks from `--tasks` files and folders; files with errors are left out, not guessed.

    Raises:
        ReportError: a path that does not exist.
    """
    missing = [p for p in paths if not Path(p).exists()]
    if missing:
        raise ReportError(f"--tasks {missing[0]}: no such file or folder",
                          hint="pass the task files or folders the runs used")
    tasks, _problems = check_tasks(paths)
    return tuple(tasks)


def _locate(file: str, run_dir: Path) -> str:
    """Where a task file run.json names is now: as given (relative to the current folder), or
    else relative to the folder the run was started in when runs went to `<there>/runs/<id>`.
    Either way the sha256 decides whether it is the file the run ran."""
    path = Path(file)
    if path.is_absolute() or path.is_file():
        return file
    started_in = run_dir.resolve().parent.parent / path
    return str(started_in) if started_in.is_file() else file


def _task_file(task_id: str, file: str, found: str, sha256: str,
               given: Sequence[Task] | None) -> TaskFile:
    def status(value: TaskFileStatus, detail: str) -> TaskFile:
        return TaskFile(task_id, file, sha256, value, detail)

    if given is not None:
        task = next((t for t in given if t.id == task_id), None)
        if task is None:
            return status("missing", "not among the --tasks files")
        where = task.file
    else:
        if not Path(found).is_file():
            return status("missing", f"its file {file} is missing")
        try:
            loaded = load_tasks([found]).tasks
        except TaskFileError as exc:
            return status("unreadable", f"its file {found} does not load ({exc.message})")
        task = next((t for t in loaded if t.id == task_id), None)
        if task is None:
            return status("missing", f"{found} no longer holds task {task_id}")
        where = found
    if task.sha256 != sha256:
        return status("changed", f"{where} changed since the run (sha256 {task.sha256[:12]}, "
                                 f"the run ran {sha256[:12]})")
    return TaskFile(task_id, file, sha256, "ok", "", task)
