"""The swap test, played on phones: replay task B's finish, capture what task A needs too, and
grade the one piece of evidence as B (it must pass) and as A.

When A accepts a finish of B and B's finish does not do what A asks (A does not list B in
`compatible_with`), A's checks cannot tell the two requests apart: a wrong finish scores as a
pass. Scored like AgentHorizon's paired negatives: compatible pairs accepted and incompatible
pairs rejected are correct; the positive, negative and balanced accuracies say how often.

A's probes are taken before B's finish runs, in the same attempt, so side effects are judged
against the finish that made them. `--all` replays each finish once, grades it as every task,
and replays again, with the probes they need, only for the tasks whose other checks passed.
With several phones (`sim:N`, `all`), the finishes are shared out between them.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from phoneshell.checks import UNGRADED
from phoneshell.errors import RunError
from phoneshell.evidence import Evidence
from phoneshell.grade import Verdict, grade
from phoneshell.implication import implied_pairs
from phoneshell.percent import percent
from phoneshell.records import SwapReport, SwapResult
from phoneshell.replays import (
    Judge,
    Swapper,
    Unplayed,
    costly,
    merged,
    open_swappers,
    share_out,
    stopped,
)
from phoneshell.runner.run import Progress
from phoneshell.tasks import Task, TaskSet, load_tasks

__all__ = ["Accuracy", "Judge", "Selection", "SwapResult", "Swapper", "accuracy", "costly",
           "finish_against", "judge", "merged", "open_swappers", "own_failure", "pair",
           "play_swaps", "select_pairs", "share_out", "stopped", "ungraded", "with_solutions"]
"""The replaying machinery (`Swapper`, `open_swappers`, `share_out`...) lives in
`phoneshell.replays`; it is named here too, where the swap test's callers find it."""


@dataclass(frozen=True)
class Accuracy:
    """AgentHorizon's class accuracies over pairs; None when a class has no pairs."""

    positive: float | None
    negative: float | None
    balanced: float | None


def accuracy(results: Sequence[SwapResult]) -> Accuracy:
    """Positive accuracy over compatible pairs, negative over incompatible ones, and their
    mean. Unscored pairs stay in the denominators and count as wrong (strict scoring)."""
    def rate(pairs: list[SwapResult]) -> float | None:
        return sum(p.correct for p in pairs) / len(pairs) if pairs else None

    pos = rate([r for r in results if r.compatible])
    neg = rate([r for r in results if not r.compatible])
    balanced = (pos + neg) / 2 if pos is not None and neg is not None else None
    return Accuracy(pos, neg, balanced)


# -- which pairs --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Selection:
    """What a swap plays: explicit (A, B) pairs, or every finish against every task (`full`)."""

    pairs: tuple[tuple[Task, Task], ...]
    """(A, B): B's finish graded as A; empty for `full`."""
    tasks: tuple[Task, ...]
    """Every task involved."""
    predicted: frozenset[tuple[str, str]]
    """The (A, B) ids the static implication test predicts."""
    full: bool = False
    """Every finish graded as every task (`swap --all`)."""


def with_solutions(tasks: Sequence[Task], solutions: str | None) -> dict[str, Task]:
    """Tasks by id, their `solution` taken from DIR's task of the same id when asked."""
    by_id = {t.id: t for t in tasks}
    if solutions is None:
        return by_id
    finishes = {t.id: t.solution for t in load_tasks([solutions]).tasks}
    return {i: replace(t, solution=finishes.get(i, t.solution)) for i, t in by_id.items()}


def _predicted(tasks: Sequence[Task]) -> frozenset[tuple[str, str]]:
    return frozenset((p.implied.id, p.by.id) for p in implied_pairs(tasks))


def select_pairs(paths: Sequence[str], *, mode: str, ids: Sequence[str] = (),
                 pairs_from: str | None = None, solutions: str | None = None) -> Selection:
    """Choose what to play.

    Args:
        paths: task files or folders (for `two`: where A and B are).
        mode: `two` (A and B by id in `ids`), `implied` (every pair the implication test finds
            in `paths`), `pairs_from` (the pairs it finds in `pairs_from`, graded with `paths`),
            or `all` (every finish as every task).
        solutions: take each finish from the task with the same id in this folder.

    Raises:
        RunError: a pair names a task that is not in `paths`, or `two` without two ids.
    """
    graded = with_solutions(load_tasks(paths).tasks, solutions)
    tasks = tuple(graded.values())
    if mode == "two":
        if len(ids) != 2:
            raise RunError("swap takes two task ids: A (graded) and B (whose finish is replayed)",
                           hint="phoneshell swap multi.app_switch calculator.arithmetic")
        a, b = (TaskSet(tasks).get(i) for i in ids)
        return Selection(((a, b),), (a, b), _predicted([a, b]))
    predicted = _predicted(tasks)
    if mode == "all":
        return Selection((), tasks, predicted, full=True)
    source = load_tasks([pairs_from]).tasks if mode == "pairs_from" and pairs_from else tasks
    found = [(p.implied.id, p.by.id) for p in implied_pairs(source)]
    missing = sorted({i for pair in found for i in pair} - set(graded))
    if missing:
        raise RunError(f"{len(missing)} task(s) of the pairs are not in {' '.join(paths)}: "
                       f"{', '.join(missing[:5])}", hint="give PATHS holding every task")
    return Selection(tuple((graded[a], graded[b]) for a, b in found), tasks, predicted)


def pair(swapper: Swapper, a: Task, b: Task) -> SwapResult:
    """Replay B's finish with A's needs captured; grade it as B and as A."""
    evidence, folder, missing = swapper.play(b, a.checks)
    return judge(a, b, evidence, folder, missing)


def finish_against(swapper: Swapper, b: Task, tasks: Sequence[Task]) -> list[SwapResult]:
    """B's finish graded as every other task of `tasks` (one row of the full matrix)."""
    return swapper.graded(b, [t for t in tasks if t.id != b.id],
                          lambda a, evidence, folder, missing: judge(a, b, evidence, folder,
                                                                      missing),
                          lambda row: row.scored and row.accepted)


def judge(a: Task, b: Task, evidence: Evidence | None, folder: str,
          missing: Unplayed) -> SwapResult:
    """Grade one piece of evidence of B's finish as B and as A."""
    compatible = b.id in a.compatible_with
    if evidence is None:
        return SwapResult(implied=a.id, by=b.id, compatible=compatible, accepted=False,
                          by_passed=False, skip_reason=f"not scored: {missing}", evidence=folder)
    as_a, own = grade(a, evidence), own_failure(b, evidence)
    errored = ungraded(as_a)
    if errored and not own:
        return SwapResult(implied=a.id, by=b.id, compatible=compatible, accepted=False,
                          by_passed=True, skip_reason=f"as {a.id}, {errored}",
                          evidence=folder)
    if own:
        return SwapResult(implied=a.id, by=b.id, compatible=compatible, accepted=as_a.passed,
                          by_passed=False, skip_reason=own[0], detail=_failed(own[1]),
                          evidence=folder)
    return SwapResult(implied=a.id, by=b.id, compatible=compatible, accepted=as_a.passed,
                      by_passed=True, detail="" if as_a.passed else _failed(as_a),
                      evidence=folder)


def own_failure(b: Task, evidence: Evidence) -> tuple[str, Verdict] | None:
    """Why B's finish proves nothing graded as another task, and B's verdict: it does not pass
    B (a stale `solution`, a `--solutions DIR` of another suite version, a draw). None when it
    passes. The one rule of `swap` and the attack's `swap` family."""
    verdict = grade(b, evidence)
    if verdict.passed:
        return None
    errored = ungraded(verdict)
    return (f"{b.id}'s finish as {b.id}, {errored}" if errored
            else f"{b.id}'s finish does not pass {b.id}", verdict)


def ungraded(verdict: Verdict) -> str:
    """The checks of `verdict` that could not be graded (their kind function raised), each
    with its error ("" when none). A run fails such an attempt closed, as its agent shaped
    the evidence; the swap test and the attack score it not at all: a rejection by a grading
    that errored says nothing of what the checks accept."""
    return "; ".join(f"{r.label}: {r.detail}" for r in verdict.results
                     if r.detail.startswith(UNGRADED))


def _failed(verdict: Verdict) -> str:
    return "; ".join(f"{r.label}: {r.detail}" for r in verdict.failed())


def play_swaps(swappers: Sequence[Swapper], selection: Selection,
               progress: Progress) -> SwapReport:
    """Play the selection on the phones and score it.

    Every pair is scored, a full matrix's too (every finish as every other task): an
    incompatible pair accepted counts as wrong whether or not the implication test predicted
    it, and one not scored as wrong too. A full matrix also lists the acceptances the test did
    not predict, each still in the counts.
    """
    counter = iter(range(1, 1 << 30))
    lock = threading.Lock()

    def told(rows: list[SwapResult], line: Callable[[int], str]) -> list[SwapResult]:
        with lock:
            progress(line(next(counter)))
        return rows

    jobs: list[Callable[[Swapper], list[SwapResult]]]
    if selection.full:
        tasks, total = selection.tasks, len(selection.tasks)

        def finish_job(b: Task) -> Callable[[Swapper], list[SwapResult]]:
            def job(swapper: Swapper) -> list[SwapResult]:
                rows = finish_against(swapper, b, tasks)
                accepted = [r.implied for r in rows if r.accepted and r.scored]
                unscored = [r.skip_reason.removeprefix("not scored: ")
                            for r in rows if not r.scored]
                return told(rows, lambda n: f"[{n}/{total}] {b.id}: its finish passes "
                            f"{len(accepted)} other task(s)"
                            + (f" ({', '.join(accepted)})" if accepted else "")
                            + (f"; {len(unscored)} not scored: {unscored[0]}" if unscored
                               else ""))
            return job
        jobs = [finish_job(b) for b in tasks]
    else:
        total = len(selection.pairs)

        def pair_job(a: Task, b: Task) -> Callable[[Swapper], list[SwapResult]]:
            def job(swapper: Swapper) -> list[SwapResult]:
                row = pair(swapper, a, b)
                return told([row], lambda n: result_line(n, total, row))
            return job
        jobs = [pair_job(a, b) for a, b in selection.pairs]
    results = [r for rows in share_out(swappers, jobs) for r in rows]
    # Every pair played is scored, so the denominators are the whole selection, fixed before
    # any phone answers; the acceptances nobody predicted are listed as well, never instead.
    unexpected = [r for r in results if selection.full and r.scored and r.accepted
                  and not r.compatible and (r.implied, r.by) not in selection.predicted]
    score = accuracy(results)
    return SwapReport(pairs=tuple(results), pos_accuracy=score.positive,
                      neg_accuracy=score.negative, balanced_accuracy=score.balanced,
                      evidence=str(swappers[0].run_dir), unexpected=tuple(unexpected))


def result_line(index: int, total: int, r: SwapResult) -> str:
    """One pair for people: verdicts and whether the grader was right."""
    kind = "compatible" if r.compatible else "incompatible"
    if not r.scored:
        return f"[{index}/{total}] {r.implied} <= {r.by}  {kind}  NOT SCORED: {r.skip_reason}"
    verdict = "accepted" if r.accepted else "rejected"
    mark = "correct" if r.correct else "WRONG"
    line = f"[{index}/{total}] {r.implied} <= {r.by}  {kind}, {verdict}: {mark}"
    if not r.accepted and r.detail:
        line += f"\n        {r.detail}"
    return line


def summary_lines(report: SwapReport, full: bool) -> list[str]:
    """The closing lines for people: counts and accuracies."""
    results = report.pairs
    compatible = [r for r in results if r.compatible]
    errored = sum(UNGRADED in r.skip_reason for r in results)
    lines = [f"{len(results)} pair(s): {len(compatible)} compatible, "
             f"{len(results) - len(compatible)} incompatible; "
             f"{sum(r.accepted and r.scored for r in results)} accepted, "
             f"{sum(not r.scored for r in results)} not scored"
             + (f" ({errored} could not be graded)" if errored else ""),
             f"positive accuracy {percent(report.pos_accuracy)}, negative accuracy "
             f"{percent(report.neg_accuracy)}, balanced accuracy "
             f"{percent(report.balanced_accuracy)}"]
    if full:
        lines.append(f"{len(report.unexpected)} acceptance(s) the implication test did not "
                     "predict" + "".join(f"\n  {r.implied} <= {r.by}" for r in report.unexpected))
    return lines
