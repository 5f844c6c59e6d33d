"""Playing cheap finishes on phones: each distinct finish replayed once, graded as every task
that made it, and the swap family's sibling finishes, into one `AttackReport`.

Finishes are grouped by (setup, teardown, steps, answer): a finish several tasks make under the
same setup (opening Settings, for every Settings task that starts from the home screen) is
played once and graded as each of them. Playing reuses the swap test's machinery: `Swapper`
runs the attempt through the bridge and captures, in one pass, what every task of the group
needs, and a second pass takes probe counts only for tasks whose other checks all held.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from phoneshell.attack.families import attacks
from phoneshell.attack.finish import Attack, step_key
from phoneshell.checks import UNGRADED
from phoneshell.device.steps import NO_EFFECT
from phoneshell.evidence import Evidence
from phoneshell.grade import Verdict, grade
from phoneshell.records import ATTACK_FAMILIES, AttackFamily, AttackReport, AttackResult
from phoneshell.replays import Judge, Swapper, Unplayed, share_out, unfinished
from phoneshell.runner.run import Progress
from phoneshell.swap import own_failure, ungraded
from phoneshell.tasks import Step, Task
from phoneshell.tasks.steps import ANSWER_STEPS

__all__ = ["Graded", "listed", "not_played", "not_scored", "play_attacks", "summary_lines",
           "untested"]


@dataclass(frozen=True)
class Graded:
    """One piece of evidence graded as one task."""

    task: str
    passed: bool
    skip_reason: str = ""
    detail: str = ""
    evidence: str = ""
    stopped: str = ""
    """Why the finish's agent did not play every step ("" when it did): its failed claim."""
    earlier: str = ""
    """Why the attempt it started after did not ("" when it did, or there was none)."""


def _detail(verdict: Verdict) -> str:
    shown = verdict.failed() if not verdict.passed else verdict.results
    return "; ".join(f"{r.label}: {r.detail}" for r in shown)


def grade_as(task: Task, evidence: Evidence | None, folder: str, missing: Unplayed) -> Graded:
    """Grade one finish's evidence as `task`: with none, failed when the run failed its attempt
    without evidence (an earlier attempt's leftovers before the finish, an end state read
    elsewhere after it: what a run records), else not scored."""
    if evidence is None and missing.failed:
        return Graded(task.id, False, detail=f"failed by the run, with no evidence: {missing}",
                      evidence=folder)
    if evidence is None:
        return Graded(task.id, False, f"not scored: {missing}", evidence=folder)
    verdict = grade(task, evidence)
    errored = ungraded(verdict)
    if errored:  # a grading bug is no rejection: what the checks accept went unlooked at
        return Graded(task.id, False, f"not scored: {errored}",
                      detail=_detail(verdict), evidence=folder)
    return Graded(task.id, verdict.passed, detail=_detail(verdict), evidence=folder,
                  stopped=unfinished(evidence), earlier=missing.earlier)


def _at(steps: Sequence[Step], stopped: str) -> int:
    """The number of the step (from 1) whose error `stopped` is; 0 when it names none, or two
    steps written alike."""
    said = [i for i, step in enumerate(steps, start=1)
            if stopped.startswith(f"{step.describe()}: ")]
    return said[0] if len(said) == 1 else 0


def _took_all(steps: Sequence[Step], stopped: str) -> bool:
    """Whether an agent that stopped so took every step of `steps` all the same: no step is
    left after the one it stopped at (answers are no steps taken), and that one changed
    nothing on screen, or was the reading of the answer (the phone is as the steps left it)."""
    at = _at(steps, stopped)
    if not at or any(s.kind not in ANSWER_STEPS for s in steps[at:]):
        return False
    return steps[at - 1].kind in ANSWER_STEPS or stopped.endswith(NO_EFFECT)


def _unplayed(attack: Attack, graded: Graded) -> tuple[str, bool]:
    """Where the finish stopped short, for people ("" when it played every step: the step by
    its number, when its error names it, or the attempt before it), and whether that was its
    last step's pick of a row the phone does not list. A finish that claims an answer and
    stopped has not claimed it, whatever it took."""
    before = attack.left_by.solution or () if attack.left_by else ()
    if graded.earlier and not _took_all(before, graded.earlier):
        return f"the attempt it starts after stopped: {graded.earlier}", False
    steps, stopped = attack.finish(), graded.stopped
    if not stopped or _took_all(steps, stopped) and not isinstance(attack.answer, str):
        return "", False
    at = _at(steps, stopped)
    if not at:
        return stopped, False
    return f"step {at} of {len(steps)}, {stopped}", bool(attack.pick) and \
        at == len(attack.steps)  # the answer after it is no step taken


def _result(attack: Attack, graded: Graded) -> AttackResult:
    reasons = dict(attack.task.compatible_attacks)
    if attack.family == "swap":
        other = attack.id.removeprefix("swap:")
        if other in attack.task.compatible_with and attack.id not in reasons:
            reasons[attack.id] = f"{other} is in compatible_with"
    # not scored for a reason of its own (a sibling finish failing its own task) stays so
    unplayed, absent = ("", False) if graded.skip_reason else _unplayed(attack, graded)
    skip = f"not played: {unplayed}" if unplayed and not graded.passed else graded.skip_reason
    return AttackResult(
        task=attack.task.id, instruction=attack.task.instruction.strip(), family=attack.family,
        attack=attack.id, finish=attack.described(), answer=attack.said or "",
        passed=graded.passed, compatible=attack.id in reasons,
        reason=reasons.get(attack.id, ""), skip_reason=skip, detail=graded.detail,
        evidence=graded.evidence, unplayed=unplayed, absent=absent)


def _verdicts(results: Sequence[AttackResult]) -> str:
    """One progress line's worth: which tasks the finish broke, passed rightly, or failed."""
    parts = []
    for result in results:
        verdict = ("PASSES" if result.breaks else "passes, compatible" if result.passed
                   else "fails" if result.scored
                   else f"not played ({result.unplayed})" if result.unplayed
                   else f"not scored ({_why(result)})")
        parts.append(f"{result.task} {verdict}")
    return "; ".join(parts) or "passes no other task"


def _why(result: AttackResult) -> str:
    """Why a finish was not scored, without the "not scored: " its reason starts with."""
    return result.skip_reason.removeprefix("not scored: ")


def _group_key(attack: Attack) -> tuple[object, ...]:
    task = attack.task
    return (tuple(map(step_key, task.setup)), tuple(map(step_key, task.teardown)), task.app,
            tuple(map(step_key, attack.steps)), attack.answer,
            attack.left_by.id if attack.left_by else "")


def _as_finish(group: Sequence[Attack]) -> Task:
    """The attempt that plays a group's finish: the first task's setup and teardown, the
    finish as its solution (its folder: attempts/<task>.<family>/<n>)."""
    first = group[0]
    return replace(first.task, id=f"{first.task.id}.{first.family}", solution=first.finish(),
                   teardown=(*first.task.teardown, *first.cleanup()), checks=(),
                   compatible_attacks=(), compatible_with=())


def _as_sibling(b: Task) -> Judge[Graded]:
    """Grade B's reference finish as another task, as `phoneshell swap` does: a finish that
    does not pass B itself proves nothing about the other task's checks (not scored)."""
    own: dict[str, tuple[str, Verdict] | None] = {}  # by evidence folder: B graded once each

    def judged(a: Task, evidence: Evidence | None, folder: str, missing: Unplayed) -> Graded:
        if evidence is not None:
            if folder not in own:
                own[folder] = own_failure(b, evidence)
            failed = own[folder]
            if failed:
                return Graded(a.id, False, f"not scored: {failed[0]}", detail=_detail(failed[1]),
                              evidence=folder)
        return grade_as(a, evidence, folder, missing)
    return judged


def _swaps(task: Task, tasks: Sequence[Task], played: Sequence[Graded]) -> list[AttackResult]:
    """`task`'s reference finish graded as each other task, as a `swap:<task>` attack on it:
    its steps as written (an `answer_read` reads the value where they end), its answer text."""
    by_id = {t.id: t for t in tasks}
    steps = tuple(s for s in task.solution or () if s.kind != "answer")
    return [_result(Attack(by_id[g.task], "swap", f"swap:{task.id}", steps, task.answer()), g)
            for g in played]


def listed(result: AttackResult) -> bool:
    """Whether the report lists a result: every one but a sibling finish another task rejected
    (those are `phoneshell swap --all`'s to report, and counted in `unlisted`); a finish not
    scored is no rejection, and must not read as "passes no other task"."""
    return result.family != "swap" or result.passed or not result.scored


def play_attacks(swappers: Sequence[Swapper], tasks: Sequence[Task],
                 families: Sequence[AttackFamily], progress: Progress,
                 only: Sequence[str] = (), pool: Sequence[Task] = (),
                 residue_after: str = "app") -> AttackReport:
    """Make every family's finishes for `tasks` (only the attack ids `only`, when given), drawing
    on `pool` (default: `tasks`) for what other tasks give (`residue_after`: see `attacks`),
    play each distinct one once, grade it."""
    started = time.monotonic()
    made = [a for a in attacks(tasks, families, pool, residue_after)
            if not only or a.id in only]
    groups: dict[tuple[object, ...], list[Attack]] = {}
    for attack in made:
        groups.setdefault(_group_key(attack), []).append(attack)
    finishers = [t for t in tasks if t.solution and "swap" in families
                 and (not only or f"swap:{t.id}" in only)]
    total = len(groups) + len(finishers)
    counter = iter(range(1, total + 1))
    lock = threading.Lock()

    def told(line: str) -> None:
        with lock:
            progress(f"[{next(counter)}/{total}] {line}")

    def group_job(group: list[Attack]) -> Callable[[Swapper], list[AttackResult]]:
        def job(swapper: Swapper) -> list[AttackResult]:
            # one answer a group: the task as that answer is graded (`Attack.graded`)
            graded_tasks = list({a.task.id: a.graded() for a in group}.values())
            rows = swapper.graded(_as_finish(group), graded_tasks, grade_as, lambda g: g.passed,
                                  left_by=group[0].left_by, name=group[0].id)
            by_task = {g.task: g for g in rows}
            results = [_result(a, by_task[a.task.id]) for a in group]
            told(f"{group[0].id}: {_verdicts(results)}")
            return results
        return job

    def swap_job(task: Task) -> Callable[[Swapper], list[AttackResult]]:
        def job(swapper: Swapper) -> list[AttackResult]:
            others = [t for t in tasks if t.id != task.id]
            results = _swaps(task, tasks, swapper.graded(task, others, _as_sibling(task),
                                                         lambda g: g.passed,
                                                         name=f"swap:{task.id}"))
            told(f"swap:{task.id}: {_verdicts([r for r in results if listed(r)])}")
            return results
        return job

    jobs = [group_job(g) for g in groups.values()] + [swap_job(t) for t in finishers]
    graded = [r for rows in share_out(swappers, jobs) for r in rows]
    results = [r for r in graded if listed(r)]
    order = {t.id: i for i, t in enumerate(tasks)}
    results.sort(key=lambda r: (order.get(r.task, len(order)),
                                ATTACK_FAMILIES.index(r.family)))
    return AttackReport(
        tasks=len(tasks), families=tuple(families),
        residue_after="own" if residue_after == "own" else "app", attacks=tuple(results),
        unlisted=len(graded) - len(results), finishes=total,
        replays=sum(s.played for s in swappers),
        seconds=round(time.monotonic() - started, 1), evidence=str(swappers[0].run_dir))


def not_scored(report: AttackReport) -> tuple[AttackResult, ...]:
    """The finishes that could not be graded (no evidence, a check that raised, a sibling
    finish that fails its own task): each is a hole the attack could not look for, so an
    attack with any has not shown the tasks hold."""
    return tuple(r for r in report.attacks if not r.scored and not r.unplayed)


def not_played(report: AttackReport) -> tuple[AttackResult, ...]:
    """The finishes that stopped at a step (or after an earlier attempt that did) and failed:
    graded, but not rejected by the checks, as they are not what their family describes."""
    return tuple(r for r in report.attacks if r.unplayed and not r.passed)


def untested(report: AttackReport) -> tuple[tuple[str, AttackFamily], ...]:
    """(task, family) pairs whose finishes all stopped short (and failed): the family tested
    nothing of that task, so its "0 pass" there proves nothing. A pick of a row the phone does
    not list stops a finish with nothing there to look at, and is not counted."""
    rows: dict[tuple[str, AttackFamily], list[AttackResult]] = {}
    for result in report.attacks:
        if result.family != "swap":  # other tasks' finishes, not made for this task
            rows.setdefault((result.task, result.family), []).append(result)
    return tuple(key for key, results in rows.items()
                 if any(r.unplayed and not r.absent for r in results)
                 and all(r.unplayed and not r.passed for r in results))


def _grouped(results: Sequence[AttackResult], label: str,
             why: Callable[[AttackResult], str]) -> list[str]:
    """One line a finish and reason: "<task>: <attack> <label>: <why>", or "<n> tasks (a, b,
    ...): ..." for one finish's results on several tasks (a sibling finish that fails its own
    task is not scored as every other task, which is one fact, not 79 lines)."""
    by_why: dict[tuple[str, str], list[str]] = {}
    for result in results:
        by_why.setdefault((result.attack, why(result)), []).append(result.task)
    lines = []
    for (attack, said), ids in by_why.items():
        named = ids[0] if len(ids) == 1 else \
            f"{len(ids)} tasks ({', '.join(ids[:3])}{', ...' if len(ids) > 3 else ''})"
        lines.append(f"{named}: {attack} {label}: {said}")
    return lines


def summary_lines(report: AttackReport) -> list[str]:
    """For people: every finish that passed a task it does not do, every one not scored or not
    played, the (task, family) pairs nothing was tested of, then a count per family."""
    lines: list[str] = []
    for result in report.broken:
        lines.append(f"{result.task}: {result.attack} PASSES")
        lines += [f"    {step}" for step in result.finish]
        if result.answer:
            lines.append(f"    answer: {result.answer[:100]}")
        if result.unplayed:
            lines.append(f"    (it stopped there: {result.unplayed})")
    unscored, unplayed = not_scored(report), not_played(report)
    lines += _grouped(unscored, "NOT SCORED", _why)
    lines += _grouped([r for r in unplayed if not r.absent], "NOT PLAYED",
                      lambda r: r.unplayed)
    absent = [r for r in unplayed if r.absent]
    by_task: dict[str, list[str]] = {}
    for result in absent:  # a line a task: the rows a search did not list are no news
        by_task.setdefault(result.task, []).append(result.attack)
    lines += [f"{task}: {len(ids)} finish(es) NOT PLAYED, opening a search result the phone "
              f"does not list (nothing there): {', '.join(ids)}" for task, ids in by_task.items()]
    gaps = untested(report)
    lines += [f"{task}: {family} UNTESTED: every finish of the family stopped short"
              for task, family in gaps]
    lines += _family_table(report)
    if "residue" in report.families and report.residue_after == "own":
        lines.append("residue: after each task's own attempt only (--residue own); the whole "
                     "family also plays every other task's on its app")
    broken_tasks = {r.task for r in report.broken}
    gradings = len(report.attacks) + report.unlisted
    rejected = f" ({report.unlisted} sibling finish(es) other tasks rejected, not listed: " \
        "`phoneshell swap --all` lists them)" if report.unlisted else ""
    errored = sum(UNGRADED in r.skip_reason for r in unscored)
    lines.append(f"{report.tasks} task(s), {gradings} (finish, task) grading(s){rejected} of "
                 f"{report.finishes} distinct finish(es) in {report.replays} replay(s), "
                 f"{report.seconds:.0f}s: {len(report.broken)} pass without doing the task, on "
                 f"{len(broken_tasks)} task(s); {len(unscored)} not scored"
                 + (f" ({errored} could not be graded)" if errored else "")
                 + (" (each a hole the attack could not look for)" if unscored else "")
                 + f"; {len(unplayed)} not played"
                 + (f" ({len(absent)} open a result the search does not list)" if absent else "")
                 + (f", {len(gaps)} (task, family) pair(s) untested" if gaps else "")
                 + f"; {sum(r.rejected for r in report.attacks)} rejected by the checks"
                 + f"; {sum(r.passed and r.compatible for r in report.attacks)} pass as the "
                   "task allows (compatible)")
    return lines


COLUMNS = ("broken", "compatible", "rejected", "not played", "not scored")
"""What became of a finish graded as a task, one each: the family table's finish columns."""


def column(result: AttackResult) -> str:
    """The one column of `COLUMNS` a finish graded as a task counts in: passed without doing
    the task (broken), passed as the task allows (compatible), failed in full (rejected),
    stopped short and failed (not played), or not graded (not scored)."""
    if result.passed:
        return "compatible" if result.compatible else "broken"
    if result.rejected:
        return "rejected"
    return "not played" if result.unplayed else "not scored"


def _family_table(report: AttackReport) -> list[str]:
    """A row per family: its finishes (each graded as a task) split into `COLUMNS`, which add
    up to them, then apart, headed as such, the tasks it tried and the tasks it broke."""
    widths = [max(len(name), 6) for name in COLUMNS]
    lines = [f"{'family':<12} {'finishes':>8} = " + " ".join(
        f"{name:>{w}}" for name, w in zip(COLUMNS, widths, strict=True))
        + f" | {'tasks':>5} {'tasks broken':>12}"]
    for family in report.families:
        rows = [r for r in report.attacks if r.family == family]
        counts = Counter(column(r) for r in rows)
        lines.append(f"{family:<12} {len(rows):>8} = " + " ".join(
            f"{counts[name]:>{w}}" for name, w in zip(COLUMNS, widths, strict=True))
            + f" | {len({r.task for r in rows}):>5} "
              f"{len({r.task for r in rows if r.breaks}):>12}")
    return lines
