"""Every printed rate: ties rounded half up, but never 100% short of all nor 0% above none,
wherever it is printed (the run's closing lines, the report's pass rates); a bound (an interval's
ends, an "at least") is not moved so, but rounded away from what it claims, with the decimals it
needs."""

from __future__ import annotations

from pathlib import Path

from phoneshell.percent import bound, percent
from phoneshell.records import ResultRow, RunManifest, TaskRef
from phoneshell.report.runs import Attempt, RunRecord
from phoneshell.report.stats import wilson
from phoneshell.report.tally import agent_numbers
from phoneshell.report.text import at_least, fraction, interval, pct
from phoneshell.runner.lines import summary_lines
from phoneshell.runner.run import RunSummary


def _row(n: int, outcome: str) -> ResultRow:
    return ResultRow(run_id="R", task_id="t", attempt=n, agent="a", outcome=outcome,
                     passed=outcome == "passed", skipped=outcome == "skipped",
                     skip_reason="rig down: gone" if outcome == "skipped" else "", checks=(),
                     claim=None, started_at=0.0, seconds=1.0)


def _summary(rows: list[ResultRow]) -> RunSummary:
    """The summary of a run of task t planned len(rows) times, with these rows."""
    manifest = RunManifest(run_id="R", started_at=0.0, phoneshell_version="", git_commit="",
                           agent="a", paths=(), task_globs=(), repeat=len(rows), devices=(),
                           tasks=(TaskRef(id="t", file="t.yaml", sha256="0" * 64),))
    record = RunRecord(Path("runs/R"), manifest, tuple(Attempt("t", r.attempt, r) for r in rows),
                       ())
    return RunSummary("R", Path("runs/R"), rows=rows, planned=len(rows), record=record,
                      numbers=agent_numbers(record))


def test_short_of_all_is_never_100_and_above_none_never_0() -> None:
    assert percent(199 / 200, 0) == "99%" and percent(1999 / 2000) == "99.9%"
    assert percent(1 / 200, 0) == "1%" and percent(1 / 2000) == "0.1%"
    assert (percent(1.0, 0), percent(0.0, 0), percent(1.0), percent(0.0)) == (
        "100%", "0%", "100.0%", "0.0%")
    assert percent(0.5, 0) == "50%" and percent(0.375) == "37.5%" and percent(None) == "n/a"


def test_the_run_closing_lines_never_round_a_failure_away() -> None:
    rows = [_row(n, "passed") for n in range(1, 200)] + [_row(200, "failed")]
    lines = summary_lines(_summary(rows))
    assert lines[0].endswith("(99% of scored)"), lines[0]
    rows = [_row(n, "failed") for n in range(1, 200)] + [_row(200, "passed"), _row(201, "skipped")]
    lines = summary_lines(_summary(rows))
    # 1 of 201 planned is 0.498%: "at least 1%" would claim twice the floor
    assert lines[0].endswith("(1% of scored)") and lines[1].startswith("  at least 0.4% of"), lines


def test_the_report_never_rounds_a_failure_away() -> None:
    assert fraction(1999, 2000, 1999 / 2000) == "1999/2000 = 99.9%"
    assert pct(1 / 2000) == "0.1%"
    low, high = wilson(19999, 20000) or (0.0, 0.0)
    assert high < 1 and interval((low, high)).endswith("-99.9992%"), interval((low, high))


def test_ties_round_half_up_wherever_a_rate_is_printed() -> None:
    """Python's round() takes a tie to the even digit: 1/8 was "12%" and 3/8 "38%"."""
    assert (percent(1 / 8, 0), percent(3 / 8, 0), percent(5 / 8, 0)) == ("13%", "38%", "63%")
    assert (percent(1 / 16), percent(3 / 16), percent(5 / 16)) == ("6.3%", "18.8%", "31.3%")
    # 57/200 is 28.5%, a tie, though 100 * 0.285 is 28.499999999999996 in floats
    assert percent(57 / 200, 0) == "29%" and percent(29 / 200, 0) == "15%"
    assert percent(199 / 200, 0) == "99%", "the clamp still holds: 99.5% rounds to all"
    assert fraction(1, 16, 1 / 16) == "1/16 = 6.3%"
    rows = [_row(1, "passed")] + [_row(n, "failed") for n in range(2, 9)]
    assert summary_lines(_summary(rows))[0].endswith("(13% of scored)")


def test_an_interval_s_bounds_are_printed_as_they_are_not_moved_as_rates() -> None:
    """A bound is no rate: 1 in 1000's lower bound, 0.018%, printed "0.1%" (five times its
    value, the same as the rate); it takes the decimals it needs instead."""
    low, high = wilson(1, 1000) or (0.0, 0.0)
    assert interval((low, high)) == "95% CI 0.01-0.6%"
    assert interval(wilson(1, 20000)) == "95% CI 0.0008-0.03%"
    assert interval(wilson(999, 1000)) == "95% CI 99.4-99.99%"
    assert interval(wilson(0, 4)) == "95% CI 0.0-49.0%" and interval(wilson(8, 8)).endswith(
        "-100.0%")
    assert bound(0.0, "low") == "0.0" and bound(1.0, "high") == "100.0"
    assert bound(0.125, "low") == bound(0.125, "high") == "12.5"
    assert bound(1e-300, "low") == "<0.000000000001" and bound(0.00025, "high") == "0.03"


def test_a_bound_is_rounded_away_from_what_it_claims() -> None:
    """Red team 102 (RT102-2): "at least 67%" for 2 of 3 planned, and a Wilson low of 0.56554
    printed "56.6": rounded half up, a lower bound claimed more than the worst case it states,
    and an interval printed narrower than the true one. A lower bound rounds down, an upper one
    up, wherever it is printed."""
    assert (bound(2 / 3, "low", 0), bound(2 / 3, "low"), bound(2 / 3, "high")) == (
        "66", "66.6", "66.7")
    assert interval(wilson(5, 5)) == "95% CI 56.5-100.0%"  # 0.565518
    assert interval(wilson(18, 156)) == "95% CI 7.4-17.6%"  # 0.074244-0.175012
    assert bound(0.57, "low") == bound(0.57, "high") == "57.0", "an exact bound is not moved"
    assert at_least(2, 3, 2 / 3) == "2/3 = 66.6%" and at_least(0, 0, None) == "0/0 (no rate)"
    rows = [_row(1, "passed"), _row(2, "passed"), _row(3, "skipped")]
    assert summary_lines(_summary(rows))[1] == (
        "  at least 66% of the 3 planned: every attempt not scored counted as failed")
    for planned in range(1, 60):  # every floor printed is one the exact floor reaches
        for passed in range(planned + 1):
            for decimals in (0, 1):
                low = float(bound(passed / planned, "low", decimals))
                high = float(bound(passed / planned, "high", decimals))
                assert low <= 100 * passed / planned <= high, (passed, planned, decimals)
