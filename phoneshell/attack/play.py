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
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from phoneshell.attack.families import Attack, attacks, claim, reference, step_key
from phoneshell.evidence import Evidence
from phoneshell.grade import Verdict, grade
from phoneshell.records import ATTACK_FAMILIES, AttackFamily, AttackReport, AttackResult
from phoneshell.replays import Judge, Swapper, Unplayed, share_out
from phoneshell.runner.run import Progress
from phoneshell.swap import own_failure
from phoneshell.tasks import Task

__all__ = ["Graded", "listed", "not_scored", "play_attacks", "summary_lines"]


@dataclass(frozen=True)
class Graded:
    """One piece of evidence graded as one task."""

    task: str
    passed: bool
    skip_reason: str = ""
    detail: str = ""
    evidence: str = ""


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
    return Graded(task.id, verdict.passed, detail=_detail(verdict), evidence=folder)


def _result(attack: Attack, graded: Graded) -> AttackResult:
    reasons = dict(attack.task.compatible_attacks)
    if attack.family == "swap":
        other = attack.id.removeprefix("swap:")
        if other in attack.task.compatible_with and attack.id not in reasons:
            reasons[attack.id] = f"{other} is in compatible_with"
    return AttackResult(
        task=attack.task.id, instruction=attack.task.instruction.strip(), family=attack.family,
        attack=attack.id, finish=attack.described(), answer=attack.said or "",
        passed=graded.passed, compatible=attack.id in reasons,
        reason=reasons.get(attack.id, ""), skip_reason=graded.skip_reason,
        detail=graded.detail, evidence=graded.evidence)


def _verdicts(results: Sequence[AttackResult]) -> str:
    """One progress line's worth: which tasks the finish broke, passed rightly, or failed."""
    parts = []
    for result in results:
        verdict = ("PASSES" if result.breaks else "passes, compatible" if result.passed
                   else "fails" if result.scored else f"not scored ({_why(result)})")
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
    """`task`'s reference finish graded as each other task, as a `swap:<task>` attack on it."""
    by_id = {t.id: t for t in tasks}
    return [_result(Attack(by_id[g.task], "swap", f"swap:{task.id}", reference(task),
                           claim(task)), g) for g in played]


def listed(result: AttackResult) -> bool:
    """Whether the report lists a result: every one but a sibling finish another task rejected
    (those are `phoneshell swap --all`'s to report, and counted in `unlisted`); a finish not
    scored is no rejection, and must not read as "passes no other task"."""
    return result.family != "swap" or result.passed or not result.scored


def play_attacks(swappers: Sequence[Swapper], tasks: Sequence[Task],
                 families: Sequence[AttackFamily], progress: Progress,
                 only: Sequence[str] = (), pool: Sequence[Task] = ()) -> AttackReport:
    """Make every family's finishes for `tasks` (only the attack ids `only`, when given), drawing
    on `pool` (default: `tasks`) for what other tasks give, play each distinct one once, grade
    it."""
    started = time.monotonic()
    made = [a for a in attacks(tasks, families, pool) if not only or a.id in only]
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
            graded_tasks = list({a.task.id: a.task for a in group}.values())
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
        tasks=len(tasks), families=tuple(families), attacks=tuple(results),
        unlisted=len(graded) - len(results), finishes=total,
        replays=sum(s.played for s in swappers),
        seconds=round(time.monotonic() - started, 1), evidence=str(swappers[0].run_dir))


def not_scored(report: AttackReport) -> tuple[AttackResult, ...]:
    """The finishes that could not be graded (not played, no evidence): each is a hole the
    attack could not look for, so an attack with any has not shown the tasks hold."""
    return tuple(r for r in report.attacks if not r.scored)


def summary_lines(report: AttackReport) -> list[str]:
    """For people: every finish that passed a task it does not do, then a count per family."""
    lines: list[str] = []
    for result in report.broken:
        lines.append(f"{result.task}: {result.attack} PASSES")
        lines += [f"    {step}" for step in result.finish]
        if result.answer:
            lines.append(f"    answer: {result.answer[:100]}")
    unscored = not_scored(report)
    # one line a finish and reason: a sibling finish that fails its own task is not scored as
    # every other task, which is one fact, not 79 lines
    by_why: dict[tuple[str, str], list[str]] = {}
    for result in unscored:
        by_why.setdefault((result.attack, _why(result)), []).append(result.task)
    for (attack, why), ids in by_why.items():
        named = ids[0] if len(ids) == 1 else \
            f"{len(ids)} tasks ({', '.join(ids[:3])}{', ...' if len(ids) > 3 else ''})"
        lines.append(f"{named}: {attack} NOT SCORED: {why}")
    lines.append(f"{'family':<12} {'finishes':>8} {'tasks':>6} {'broken':>7} "
                 f"{'not scored':>10}")
    for family in report.families:
        rows = [r for r in report.attacks if r.family == family]
        tasks = {r.task for r in rows}
        broken = {r.task for r in rows if r.breaks}
        lines.append(f"{family:<12} {len(rows):>8} {len(tasks):>6} {len(broken):>7} "
                     f"{sum(not r.scored for r in rows):>10}")
    broken_tasks = {r.task for r in report.broken}
    gradings = len(report.attacks) + report.unlisted
    rejected = f" ({report.unlisted} sibling finish(es) other tasks rejected, not listed: " \
        "`phoneshell swap --all` lists them)" if report.unlisted else ""
    lines.append(f"{report.tasks} task(s), {gradings} (finish, task) grading(s){rejected} of "
                 f"{report.finishes} distinct finish(es) in {report.replays} replay(s), "
                 f"{report.seconds:.0f}s: {len(report.broken)} pass without doing the task, on "
                 f"{len(broken_tasks)} task(s); {len(unscored)} not scored"
                 + (" (each a hole the attack could not look for)" if unscored else ""))
    return lines
