"""The arithmetic of judge scores, and reading a verdict out of a judge's words: pure, no phone."""

from __future__ import annotations

import pytest

from phoneshell.frames import sample_uniform
from phoneshell.judges import Population, read_answer, score, spearman
from phoneshell.judges.score import average_ranks
from phoneshell.records import JudgeAnswer, LabelRow, ScoredAttempt, SetSource


def label(item: str, positive: bool, agent: str = "", tags: tuple[str, ...] = ()) -> LabelRow:
    return LabelRow(id=item, label="positive" if positive else "negative",
                    label_type="positive" if positive else "failed", origin="run",
                    source="runs/R", task_id="t", trajectory_task="t", agent=agent, tags=tags)


def answer(item: str, success: bool | None) -> JudgeAnswer:
    return JudgeAnswer(success=success, trajectory_id=item, judge="j",
                       status="ok" if success is not None else "invalid")


def test_spearman_with_ties_and_without_spread() -> None:
    assert average_ranks([0.5, 0.1, 0.5, 0.9]) == [2.5, 1.0, 2.5, 4.0]
    assert spearman([1, 2, 3], [10, 20, 30]) == pytest.approx(1.0)
    assert spearman([1, 2, 3], [3, 2, 1]) == pytest.approx(-1.0)
    assert spearman([1, 2, 3, 4], [1, 3, 2, 4]) == pytest.approx(0.8)
    assert spearman([0.2, 0.2, 0.2], [0.1, 0.5, 0.9]) is None
    assert spearman([1.0], [1.0]) is None


def test_every_item_stays_in_its_denominator() -> None:
    labels = {f"p{i}": label(f"p{i}", True, "A", ("x",)) for i in range(4)}
    labels |= {f"n{i}": label(f"n{i}", False, "B", ("x", "y")) for i in range(4)}
    answers = {"p0": answer("p0", True), "p1": answer("p1", True), "p2": answer("p2", None),
               "n0": answer("n0", False), "n1": answer("n1", True), "n2": answer("n2", None)}
    runs = (SetSource(origin="run", path="/A", sha256="a", items=4, agent="A"),
            SetSource(origin="run", path="/B", sha256="b", items=4, agent="B"))
    attempts = tuple(ScoredAttempt(source="/A" if i[0] == "p" else "/B",
                                   agent="A" if i[0] == "p" else "B", task_id="t", attempt=n,
                                   passed=i[0] == "p", item=i) for n, i in enumerate(labels))
    s = score("j", "set", labels, answers,  # p3 and n3 were never answered
              population=Population(runs, attempts))
    assert (s.tp, s.fn, s.tn, s.fp) == (2, 2, 1, 3)
    assert (s.invalid, s.missing) == (2, 2)
    assert (s.recall.correct, s.recall.n, s.negative_accuracy.correct,
            s.negative_accuracy.n) == (2, 4, 1, 4)
    assert s.accuracy.rate == 3 / 8 and s.balanced_accuracy == pytest.approx(0.375)
    assert s.precision.rate == 2 / 5 and s.f1 == pytest.approx(4 / 9)
    assert s.accuracy.ci95 is not None and s.accuracy.ci95[0] < 3 / 8 < s.accuracy.ci95[1]
    assert [(g.name, g.items) for g in s.by_tag] == [("x", 8), ("y", 4)]
    assert len(s.wrong) == 5 and {w.status for w in s.wrong} == {"ok", "invalid", "missing"}
    assert s.ranking is not None
    assert [(a.agent, a.phone_rate, a.judge_rate) for a in s.ranking.agents] == [
        ("A", 1.0, 0.5), ("B", 0.0, 0.25)]
    assert s.ranking.spearman == pytest.approx(1.0) and s.ranking.mae == pytest.approx(0.375)


def attempt(source: str, passed: bool, item: str, duplicate: bool = False) -> ScoredAttempt:
    return ScoredAttempt(source=source, agent=f"agent @ {source[1:]}", task_id="t", attempt=1,
                         passed=passed, item=item, duplicate=duplicate,
                         left_out="" if item else "its evidence cannot be read")


def test_ranking_is_over_every_scored_attempt_not_the_items() -> None:
    """Red team 53: three identical passes are one item and three varied failures three; a run
    whose trajectories all repeat another's has no item of its own; neither thins its rate."""
    labels = {"pass": label("pass", True, "agent @ H")}
    labels |= {f"fail{i}": label(f"fail{i}", False, "agent @ H") for i in range(3)}
    h = [attempt("/H", True, "pass"), attempt("/H", True, "pass", True),
         attempt("/H", True, "pass", True), *(attempt("/H", False, f"fail{i}") for i in range(3))]
    h2 = [attempt("/H2", a.passed, a.item, True) for a in h]
    odd = [attempt("/O", True, ""), attempt("/O", False, "fail0", True)]
    runs = tuple(SetSource(origin="run", path=p, sha256=sha, items=0, agent=f"agent @ {p[1:]}")
                 for p, sha in (("/H", "h"), ("/H2", "h2"), ("/O", "o"), ("/S", "s"),
                                ("/X", "")))
    answers = {i: answer(i, True) for i in labels} | {"fail1": answer("fail1", False)}
    s = score("j", "set", labels, answers, population=Population(runs, (*h, *h2, *odd)))
    assert (s.items, s.tp, s.fp, s.tn) == (4, 1, 2, 1)  # the per-item figures: over items
    assert s.ranking is not None
    assert [(a.agent, a.attempts, a.passed, a.items, a.unjudged, a.phone_rate, a.judge_rate)
            for a in s.ranking.agents] == [
        ("agent @ H", 6, 3, 4, 0, 0.5, 5 / 6), ("agent @ H2", 6, 3, 4, 0, 0.5, 5 / 6),
        ("agent @ O", 2, 1, 1, 1, 0.5, 0.5)]
    assert s.ranking.not_ranked == ("agent @ S: no attempt was scored",
                                    "agent @ X: its run cannot be read")
    assert s.ranking.mae == pytest.approx((1 / 3 + 1 / 3 + 0) / 3)
    assert score("j", "set", labels, answers).ranking_note.startswith(
        "the judgeset was built before")


@pytest.mark.parametrize("said, success, problem", [
    ('{"success": true, "reasoning": "ok"}', True, ""),
    ('Verdict:\n```json\n{"success": false}\n```', False, ""),
    ('thinking...\n{"success": false, "reasoning": "no"}', False, ""),
    ('{"success": "true"}', None, "success is not a JSON boolean (got 'true')"),
    ('{"success": null}', None, "success is not a JSON boolean (got None)"),
    ('{"verdict": true}', None, "success is not a JSON boolean (got None)"),
    ("[true]", None, "the answer holds no JSON object"),
    ("", None, "the answer holds no JSON object"),
])
def test_a_verdict_must_be_a_json_boolean(said: str, success: bool | None, problem: str) -> None:
    verdict = read_answer(said)
    assert (verdict.success, verdict.problem) == (success, problem)


def test_mistake_types_are_agenthorizons_and_only_on_failure() -> None:
    plural = read_answer('{"success": false, "mistake_type": '
                         '"Misunderstanding of the Instructions", "confidence": "high"}')
    assert (plural.mistake_type, plural.confidence) == ("Misunderstanding of the Instruction",
                                                        "high")
    assert read_answer('{"success": true, "mistake_type": "Bad Side Effect"}').mistake_type is None
    assert read_answer('{"success": false, "confidence": "sure"}').confidence is None


def test_uniform_samples_keep_the_first_and_the_last() -> None:
    assert sample_uniform(10, 3) == [0, 4, 9]
    assert sample_uniform(5, 48) == [0, 1, 2, 3, 4]
    assert sample_uniform(7, 1) == [6] and sample_uniform(0, 3) == []
    assert len(sample_uniform(100, 48)) == 48
