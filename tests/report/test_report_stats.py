"""Wilson intervals and the exact sign test against values worked out independently, and both
counting tasks, not repeats."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from cli_process import run_cli

from phoneshell.records import ResultRow, RunManifest, TaskRef
from phoneshell.report import min_differing, sign_test, wilson
from phoneshell.report.compare import compare
from phoneshell.report.runs import Attempt, RunRecord


def test_wilson_matches_published_values() -> None:
    # AgentHorizon's residual QA: 18/156 = 11.5%, Wilson 95% interval 7.4-17.5%
    low, high = wilson(18, 156) or (0, 0)
    assert (round(100 * low, 1), round(100 * high, 1)) == (7.4, 17.5)
    assert wilson(5, 10) == pytest.approx((0.236593, 0.763407), abs=1e-6)
    assert wilson(1, 10) == pytest.approx((0.017876, 0.404150), abs=1e-6)
    assert wilson(8, 8) == pytest.approx((0.675592, 1.0), abs=1e-6)


def test_wilson_at_the_edges_and_with_nothing_scored() -> None:
    assert wilson(0, 10) == pytest.approx((0.0, 0.277533), abs=1e-6)
    low, high = wilson(10, 10) or (0, 0)
    assert high == 1.0 and low == pytest.approx(0.722467, abs=1e-6)
    assert wilson(0, 0) is None  # no rate, rather than a rate of 0
    for bad in ((3, 2), (-1, 2), (0, -1)):
        with pytest.raises(ValueError):
            wilson(*bad)


def test_wilson_is_symmetric_and_contains_the_rate() -> None:
    for scored in (1, 7, 30):
        for passed in range(scored + 1):
            low, high = wilson(passed, scored) or (0, 0)
            assert 0 <= low <= passed / scored <= high <= 1
            mirror_low, mirror_high = wilson(scored - passed, scored) or (0, 0)
            assert (low, high) == pytest.approx((1 - mirror_high, 1 - mirror_low))


def test_sign_test_values() -> None:
    assert sign_test(0, 0) == 1.0
    assert sign_test(1, 0) == 1.0
    assert sign_test(3, 3) == 1.0
    assert sign_test(4, 0) == 0.125
    assert sign_test(5, 0) == 0.0625
    assert sign_test(0, 6) == 0.03125
    assert sign_test(8, 0) == 0.0078125
    # 10 vs 2: 2 * (C(12,0) + C(12,1) + C(12,2)) / 2^12 = 158 / 4096
    assert sign_test(10, 2) == pytest.approx(158 / 4096)
    assert sign_test(2, 10) == sign_test(10, 2)
    with pytest.raises(ValueError):
        sign_test(-1, 2)


def test_the_sign_test_agrees_with_a_direct_binomial_sum() -> None:
    for b in range(12):
        for c in range(12):
            n, k = b + c, min(b, c)
            direct = min(1.0, 2 * sum(math.comb(n, i) * 0.5**n for i in range(k + 1))) \
                if n else 1.0
            assert sign_test(b, c) == pytest.approx(direct)


def test_six_tasks_one_way_are_the_fewest_that_can_be_significant() -> None:
    assert min_differing() == 6
    assert sign_test(5, 0) > 0.05 > sign_test(6, 0)


def test_repeats_of_a_task_are_not_independent_trials() -> None:
    # 160/160 over 80 tasks run twice is as sure as 80/80, not as 160 independent attempts
    assert wilson(160, 160, trials=80) == wilson(80, 80)
    assert wilson(160, 160, trials=80) != wilson(160, 160)
    assert wilson(30, 60, trials=60) == wilson(30, 60), "without repeats nothing changes"
    low, high = wilson(150, 160, trials=80) or (0, 0)
    low_80, high_80 = wilson(75, 80) or (0, 0)
    assert (low, high) == pytest.approx((low_80, high_80)), "the rate over the tasks' width"


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_a_run_with_repeats_reports_the_interval_of_its_tasks(tmp_path: Path) -> None:
    done = run_cli("run", "environments", "--task", "settings.about.reach", "--task",
                   "weather.open", "--agent", "solution", "--repeat", "2", "--runs",
                   str(tmp_path))
    assert done.returncode == 0, done.stdout + done.stderr
    (run,) = tmp_path.iterdir()
    shown = run_cli("report", str(run), "--format", "json")
    (agent,) = json.loads(shown.stdout)["agents"]
    assert (agent["passed"], agent["scored"]) == (4, 4)
    assert agent["ci95"] == pytest.approx(list(wilson(2, 2) or ())), \
        "two tasks twice: the interval of two trials, not of four"
    assert "95% CI 34.2-100.0%" in run_cli("report", str(run)).stdout


def _run(run_id: str, outcomes: dict[str, str]) -> RunRecord:
    """A run of `outcomes`' tasks, each attempt passed ("p") or failed ("f") in order."""
    repeat = max(len(o) for o in outcomes.values())
    manifest = RunManifest(
        run_id=run_id, started_at=0.0, phoneshell_version="", git_commit="", agent=run_id,
        paths=(), task_globs=(), repeat=repeat, devices=(),
        tasks=tuple(TaskRef(id=t, file=f"{t}.yaml", sha256="0" * 64) for t in outcomes))
    rows = [ResultRow(run_id=run_id, task_id=t, attempt=n, agent=run_id,
                      outcome="passed" if o == "p" else "failed", passed=o == "p",
                      skipped=False, skip_reason="", checks=(), claim=None, started_at=0.0,
                      seconds=1.0)
            for t, attempts in outcomes.items() for n, o in enumerate(attempts, start=1)]
    return RunRecord(Path(f"runs/{run_id}"), manifest,
                     tuple(Attempt(r.task_id, r.attempt, r) for r in rows), ())


def test_a_comparison_counts_tasks_however_often_each_was_repeated() -> None:
    """Red team 102 (RT102-1): one task run six times, passed by A and failed by B, was six
    discordant pairs and "significant" (p = 0.031); five tasks twice, p = 0.002. A task is one
    trial, as the Wilson intervals count: one task cannot decide anything, five cannot either."""
    one = compare(_run("A", {"t": "pppppp"}), _run("B", {"t": "ffffff"}))
    assert (one.pairs, one.only_a, one.paired_tasks, one.tasks_ahead_a) == (6, 6, 1, 1)
    assert (one.p_value, one.too_few, one.significant) == (1.0, True, False)
    five = compare(_run("A", {f"t{i}": "pp" for i in range(5)}),
                   _run("B", {f"t{i}": "ff" for i in range(5)}))
    assert (five.only_a, five.tasks_ahead_a, five.p_value, five.too_few) == (10, 5, 0.0625, True)
    six = compare(_run("A", {f"t{i}": "p" for i in range(6)}),
                  _run("B", {f"t{i}": "f" for i in range(6)}))
    assert (six.p_value, six.too_few, six.significant) == (0.03125, False, True), \
        "one attempt a task: McNemar's exact test on the pairs, as before"
    assert six.conclusion.startswith("A @ A passes more often (sign test on tasks")


def test_a_task_is_ahead_when_one_run_passed_more_of_its_pairs() -> None:
    found = compare(_run("A", {"more": "pp", "same": "pf", "fewer": "ff", "both": "pp"}),
                    _run("B", {"more": "pf", "same": "fp", "fewer": "pf", "both": "pp"}))
    assert {t.task_id: t.ahead for t in found.per_task} == {
        "more": "A", "same": "", "fewer": "B", "both": ""}
    assert (found.tasks_ahead_a, found.tasks_ahead_b, found.tasks_even) == (1, 1, 2)
