"""Score a judge against the phone's labels, strictly, and its ranking fidelity.

Every item is in its class's denominator whether the judge answered or not: an invalid answer
or none at all counts as wrong (on a positive it is a false negative, on a negative a false
positive), never as skipped. Metrics are MobileJudgeBench's (accuracy, precision, recall, F1,
balanced accuracy) with AgentHorizon's positive and negative accuracy beside them, each rate
with its Wilson 95% interval: all over the items. Ranking fidelity compares, over every run
given, the success rate the judge implies with the phone's, each over all the run's scored
attempts (a run's items are fewer: duplicates are left out of the set, and an attempt that
duplicated an item takes that item's verdict): Spearman's rho of the two rankings and the mean
absolute error of the rates. Pure arithmetic over labels, attempts and answers.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from phoneshell.judges.population import OLD_SET, Population
from phoneshell.records import (
    TAMPER_PROOF,
    AgentRate,
    Group,
    JudgeAnswer,
    JudgeRun,
    JudgeScore,
    LabelRow,
    Ranking,
    Rate,
    SandboxKind,
    ScoredAttempt,
    WrongItem,
)
from phoneshell.report.stats import wilson
from phoneshell.tasks.tags import tag_key, tag_names

REASONING_SHOWN = 300


def rate(correct: int, n: int) -> Rate:
    """`correct` of `n`, with its Wilson 95% interval."""
    return Rate(correct=correct, n=n, rate=correct / n if n else None, ci95=wilson(correct, n))


def said(answer: JudgeAnswer | None) -> bool | None:
    """What the judge said of an item: its verdict, or None when it gave none validly."""
    return answer.success if answer is not None and answer.status == "ok" else None


@dataclass(frozen=True)
class _Tally:
    """The four counts over some items."""

    tp: int = 0
    fn: int = 0
    tn: int = 0
    fp: int = 0

    @classmethod
    def of(cls, rows: Iterable[LabelRow], answers: Mapping[str, JudgeAnswer]) -> _Tally:
        tp = fn = tn = fp = 0
        for row in rows:
            verdict = said(answers.get(row.id))
            if row.label == "positive":
                tp, fn = (tp + 1, fn) if verdict is True else (tp, fn + 1)
            else:
                tn, fp = (tn + 1, fp) if verdict is False else (tn, fp + 1)
        return cls(tp, fn, tn, fp)

    def group(self, name: str) -> Group:
        positive, negative = rate(self.tp, self.tp + self.fn), rate(self.tn, self.tn + self.fp)
        return Group(name=name, items=self.tp + self.fn + self.tn + self.fp, positive=positive,
                     negative=negative, balanced=_mean(positive.rate, negative.rate))


def _mean(a: float | None, b: float | None) -> float | None:
    return (a + b) / 2 if a is not None and b is not None else None


def type_name(row: LabelRow) -> str:
    """The breakdown a row falls in: its label type, attack negatives by family."""
    return f"attack:{row.family}" if row.label_type == "attack" else row.label_type


def _groups(rows: Sequence[LabelRow], answers: Mapping[str, JudgeAnswer],
            keys: Mapping[str, Sequence[str]],
            names: Mapping[str, str] | None = None) -> tuple[Group, ...]:
    """Each item once in each group its `keys` name, by the group's name (`names`: a key's
    name, where it is not its own)."""
    named = names or {}
    found = sorted({k for ks in keys.values() for k in ks}, key=lambda k: named.get(k, k))
    return tuple(_Tally.of([r for r in rows if k in keys[r.id]], answers).group(named.get(k, k))
                 for k in found)


def _tag_groups(rows: Sequence[LabelRow], answers: Mapping[str, JudgeAnswer]
                ) -> tuple[Group, ...]:
    """By the shown task's tags, as reports group them: one tag however its task files spell it
    ("Notes", "notes"), an item once under it (a judgeset built before the loader refused a
    repeated tag may hold one twice), named as most of its tasks spell it (`tag_names`)."""
    keys = {r.id: [tag_key(tag) for tag in r.tags] for r in rows}
    return _groups(rows, answers, keys, tag_names((r.task_id, r.tags) for r in rows))


def average_ranks(values: Sequence[float]) -> list[float]:
    """1-based ranks, ties sharing the mean of the ranks they span."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for k in range(start, end + 1):
            ranks[order[k]] = (start + end) / 2 + 1
        start = end + 1
    return ranks


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """Spearman's rho (Pearson's r of the average ranks); None for fewer than two pairs or a
    side with no spread (every agent at the same rate ranks nothing)."""
    if len(xs) != len(ys) or len(xs) < 2:
        return None
    rx, ry = average_ranks(xs), average_ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    if sxx == 0 or syy == 0:
        return None
    return sxy / math.sqrt(sxx * syy)


def ranking(population: Population, answers: Mapping[str, JudgeAnswer]) -> Ranking | None:
    """Per run given: the phone's success rate (passed / scored attempts, its report's) and the
    judge's (attempts whose item it called successful / scored attempts), both over every
    scored attempt, duplicates included."""
    if not population.runs:
        return None
    by_run: dict[str, list[ScoredAttempt]] = {}
    for row in population.attempts:
        by_run.setdefault(row.source, []).append(row)
    agents, not_ranked = [], []
    for run in population.runs:
        mine = by_run.get(run.path, [])
        if not mine:
            why = "its run cannot be read" if not run.sha256 else "no attempt was scored"
            not_ranked.append(f"{run.agent or run.path}: {why}")
            continue
        passed = sum(r.passed for r in mine)
        called = sum(bool(r.item) and said(answers.get(r.item)) is True for r in mine)
        agents.append(AgentRate(
            agent=mine[0].agent, source=run.path, attempts=len(mine), passed=passed,
            items=len({r.item for r in mine if r.item}), unjudged=sum(not r.item for r in mine),
            phone_rate=passed / len(mine), judge_rate=called / len(mine)))
    agents.sort(key=lambda a: (-a.phone_rate, a.agent, a.source))
    phone, judged = [a.phone_rate for a in agents], [a.judge_rate for a in agents]
    return Ranking(agents=tuple(agents), not_ranked=tuple(not_ranked),
                   spearman=spearman(phone, judged),
                   mae=sum(abs(p - j) for p, j in zip(phone, judged, strict=True)) / len(agents)
                   if agents else None)


def _wrong(rows: Sequence[LabelRow], answers: Mapping[str, JudgeAnswer]) -> tuple[WrongItem, ...]:
    out = []
    for row in rows:
        answer = answers.get(row.id)
        verdict = said(answer)
        if verdict is not None and verdict == (row.label == "positive"):
            continue
        why = "" if answer is None else answer.reasoning or answer.problem
        out.append(WrongItem(id=row.id, label=row.label, label_type=row.label_type,
                             family=row.family, task_id=row.task_id,
                             trajectory_task=row.trajectory_task, success=verdict,
                             status="missing" if answer is None else answer.status,
                             reasoning=why[:REASONING_SHOWN]))
    return tuple(out)


def unconfined_line(kind: SandboxKind | None, note: str) -> str:
    """What every report of a judge run says of a judge that ran unconfined ("" when it did
    not)."""
    if kind is None or kind in TAMPER_PROOF:
        return ""
    return (f"the judge ran UNCONFINED ({note or kind}): it could read the judgeset's labels "
            "and write its own answers; its scores are not tamper-proof")


def score(judge: str, set_id: str, labels: Mapping[str, LabelRow],
          answers: Mapping[str, JudgeAnswer], run: JudgeRun | None = None,
          population: Population | None = None) -> JudgeScore:
    """The whole score of one judge's answers on one judgeset (with how the judge was
    confined, from its `run`): every figure over the items but the ranking, which is over the
    `population` of the runs' scored attempts (None: a set built before it was recorded, which
    has no ranking)."""
    rows = sorted(labels.values(), key=lambda r: (type_name(r), r.task_id, r.id))
    t = _Tally.of(rows, answers)
    recall, negative = rate(t.tp, t.tp + t.fn), rate(t.tn, t.tn + t.fp)
    given = [answers[r.id] for r in rows if r.id in answers]
    return JudgeScore(
        judge=judge, set_id=set_id, items=len(rows), positives=t.tp + t.fn,
        negatives=t.tn + t.fp, tp=t.tp, fn=t.fn, tn=t.tn, fp=t.fp,
        invalid=sum(a.status == "invalid" for a in given),
        missing=len(rows) - sum(a.status != "error" for a in given),
        accuracy=rate(t.tp + t.tn, len(rows)), precision=rate(t.tp, t.tp + t.fp),
        recall=recall, f1=2 * t.tp / (2 * t.tp + t.fp + t.fn) if t.tp + t.fp + t.fn else None,
        negative_accuracy=negative, balanced_accuracy=_mean(recall.rate, negative.rate),
        by_type=_groups(rows, answers, {r.id: [type_name(r)] for r in rows}),
        by_tag=_tag_groups(rows, answers),
        wrong=_wrong(rows, answers),
        ranking=ranking(population, answers) if population is not None else None,
        ranking_note="" if population is not None or all(r.origin != "run" for r in rows)
        else OLD_SET,
        sandbox=run.sandbox if run else None, sandbox_note=run.sandbox_note if run else "")
