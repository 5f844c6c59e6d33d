"""Wilson intervals and McNemar's exact test against values worked out independently."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from cli_process import run_cli

from phoneshell.report import mcnemar_exact, min_discordant, wilson


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


def test_mcnemar_exact_values() -> None:
    assert mcnemar_exact(0, 0) == 1.0
    assert mcnemar_exact(1, 0) == 1.0
    assert mcnemar_exact(3, 3) == 1.0
    assert mcnemar_exact(4, 0) == 0.125
    assert mcnemar_exact(5, 0) == 0.0625
    assert mcnemar_exact(0, 6) == 0.03125
    assert mcnemar_exact(8, 0) == 0.0078125
    # 10 vs 2: 2 * (C(12,0) + C(12,1) + C(12,2)) / 2^12 = 158 / 4096
    assert mcnemar_exact(10, 2) == pytest.approx(158 / 4096)
    assert mcnemar_exact(2, 10) == mcnemar_exact(10, 2)
    with pytest.raises(ValueError):
        mcnemar_exact(-1, 2)


def test_mcnemar_agrees_with_a_direct_binomial_sum() -> None:
    for b in range(12):
        for c in range(12):
            n, k = b + c, min(b, c)
            direct = min(1.0, 2 * sum(math.comb(n, i) * 0.5**n for i in range(k + 1))) \
                if n else 1.0
            assert mcnemar_exact(b, c) == pytest.approx(direct)


def test_six_one_sided_discordant_pairs_are_the_fewest_that_can_be_significant() -> None:
    assert min_discordant() == 6
    assert mcnemar_exact(5, 0) > 0.05 > mcnemar_exact(6, 0)


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
