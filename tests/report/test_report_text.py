"""`phoneshell report` on real run folders, as a user runs it: text and JSON, pass rates with
intervals, skips never in the denominator, comparisons by the sign test on tasks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from report.report_rig import TIGHT, phoneshell


def report_json(*dirs: Path) -> dict[str, Any]:
    done = phoneshell("report", *map(str, dirs), "--format", "json")
    assert done.returncode in (0, 1), done.stderr
    document: dict[str, Any] = json.loads(done.stdout)
    return document


@pytest.fixture(scope="module")
def sol_nul(runs: dict[str, Path]) -> tuple[str, dict[str, Any]]:
    """The text and the JSON report of the solution and null runs together."""
    text = phoneshell("report", str(runs["SOL"]), str(runs["NUL"]))
    assert text.returncode == 1, text.stderr  # null failed: not everything passed
    return text.stdout, report_json(runs["SOL"], runs["NUL"])


def test_solution_passes_everything_and_null_nothing(sol_nul: tuple[str, Any]) -> None:
    text, document = sol_nul
    sol, nul = document["agents"]
    assert (sol["agent"], sol["run_id"], sol["attempts"], sol["scored"], sol["passed"]) == \
        ("solution", "SOL", 8, 8, 8)
    # its four tasks twice each: the interval of four trials (8/8 as eight would be 67.6-100%)
    assert sol["pass_rate"] == 1.0 and sol["ci95"] == pytest.approx([0.510109, 1.0], abs=1e-6)
    assert (nul["agent"], nul["passed"], nul["failed"], nul["pass_rate"]) == ("null", 0, 8, 0.0)
    assert nul["ci95"] == pytest.approx([0.0, 0.489891], abs=1e-6)
    assert "solution @ SOL" in text
    assert "  passed 8/8 = 100.0% of scored  (95% CI 51.0-100.0%)" in text
    assert "  passed 0/8 = 0.0% of scored  (95% CI 0.0-49.0%)" in text


def test_claims_of_honest_agents_agree_with_the_grades(sol_nul: tuple[str, Any]) -> None:
    text, document = sol_nul
    sol, nul = document["agents"]
    assert (sol["claimed_done"], sol["false_claims"], sol["false_claim_rate"]) == (8, 0, 0.0)
    # null claims gave_up and fails: an honest failure, neither false nor missed
    assert (nul["claimed_gave_up"], nul["false_claims"], nul["missed_claims"]) == (8, 0, 0)
    assert "claimed success but failed: 0/8 = 0.0%" in text


def test_tags_and_capabilities_are_counted_per_agent(sol_nul: tuple[str, Any]) -> None:
    text, document = sol_nul
    tags = {t["tag"]: t for t in document["tags"]}
    tabbar = tags["capability:tabbar"]
    assert tabbar["capability"] is True
    assert [(c["agent"], c["scored"], c["passed"]) for c in tabbar["agents"]] == \
        [("solution", 4, 4), ("null", 4, 0)]
    assert tags["settings"]["capability"] is False
    names = [t["tag"] for t in document["tags"]]
    assert names.index("capability:tabbar") < names.index("settings")  # capabilities first
    assert "by capability:" in text and "  tabbar " in text and "by tag:" in text


def test_two_runs_are_compared_task_by_task_not_repeat_by_repeat(
        sol_nul: tuple[str, Any]) -> None:
    """Red team 102 (RT102-1): four tasks run twice were eight independent coins to McNemar's
    test, "significant" (p = 0.0078) beside intervals that count the four tasks; a repeat is no
    new trial, so the test counts tasks as the intervals do, and four cannot decide."""
    text, document = sol_nul
    (comparison,) = document["comparisons"]
    assert (comparison["a"], comparison["b"]) == ("solution @ SOL", "null @ NUL")
    assert (comparison["pairs"], comparison["both_passed"], comparison["only_a"],
            comparison["only_b"], comparison["neither"]) == (8, 0, 8, 0, 0)
    assert (comparison["paired_tasks"], comparison["tasks_ahead_a"], comparison["tasks_ahead_b"],
            comparison["tasks_even"]) == (4, 4, 0, 0)
    assert comparison["p_value"] == 0.125 and comparison["significant"] is False
    assert comparison["too_few"] is True
    assert {t["task_id"]: (t["only_a"], t["ahead"]) for t in comparison["per_task"]} == {
        "calculator.chain": (2, "A"), "clock.tab.alarms": (2, "A"), "clock.tab.timers": (2, "A"),
        "settings.about.reach": (2, "A")}
    assert "  by task (each counts once, however often it was repeated): A ahead on 4, B on 0, " \
           "even on 0 of 4" in text
    assert "too few tasks where they differ to tell them apart: 4 (at least 6, all one way, " \
           "are needed for p < 0.05; a repeated task counts once)" in text
    assert "passes more often" not in text


def test_too_few_tasks_where_they_differ_is_said_plainly(runs: dict[str, Path]) -> None:
    done = phoneshell("report", str(runs["SOL"]), str(runs["LIAR"]))
    assert "  both passed 0, only A 4, only B 0, neither 0" in done.stdout
    assert "too few tasks where they differ to tell them apart: 4 (at least 6, all one way, " \
           "are needed for p < 0.05; a repeated task counts once)" in done.stdout


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_skipped_and_never_run_attempts_are_not_in_the_denominator(
        runs: dict[str, Path]) -> None:
    done = phoneshell("report", str(runs["FLT"]))
    assert done.returncode == 1  # not everything passed: one skipped, one never ran
    assert "  attempts 3 of 4 planned: 2 scored, 1 skipped (not scored), 1 never run" in \
        done.stdout
    assert "  passed 2/2 = 100.0% of scored" in done.stdout
    assert "  skipped (1): rig down" in done.stdout
    (flt,) = report_json(runs["FLT"])["agents"]
    assert (flt["attempts"], flt["scored"], flt["passed"], flt["failed"], flt["pass_rate"],
            flt["skipped"], flt["not_run"]) == (3, 2, 2, 0, 1.0, 1, 1)
    assert flt["skip_reasons"] == {"rig down": 1}
    # what no skip can raise: 2 of 4 planned, the skipped and the never-run counted as failed
    assert "  passed 2/4 = 50.0% of planned (at least: every attempt not scored counted as " \
           "failed, which no skip can raise)" in done.stdout
    assert flt["pass_floor"] == 0.5
    tabbar = next(t for t in report_json(runs["FLT"])["tags"]
                  if t["tag"] == "capability:tabbar")["agents"][0]
    assert (tabbar["attempts"], tabbar["scored"], tabbar["skipped"]) == (2, 1, 1)
    # per tag the plan is the denominator too: settings.about.reach never ran, and its tag says so
    settings = next(t for t in report_json(runs["FLT"])["tags"]
                    if t["tag"] == "settings")["agents"][0]
    assert (settings["attempts"], settings["not_run"], settings["planned"]) == (0, 1, 1)
    assert "solution @ FLT: 0/0 (no rate), 1 never run (of 1 planned)" in done.stdout
    assert "solution @ FLT: 1/1 = 100.0%  95% CI 20.6-100.0%, 1 skipped (of 2 planned)" in \
        done.stdout


@pytest.mark.slow  # 2.2 s measured: the README's command stays quick
def test_a_resumed_attempt_replaces_its_skipped_row(runs: dict[str, Path]) -> None:
    done = phoneshell("report", str(runs["RESUMED"]))
    assert done.returncode == 0, done.stdout + done.stderr  # every attempt passed
    assert "  passed 4/4 = 100.0% of scored" in done.stdout
    assert "of planned" not in done.stdout, "every planned attempt was scored"
    assert "1 skipped row(s) replaced by a later try (--resume)" in done.stdout
    (resumed,) = report_json(runs["RESUMED"])["agents"]
    assert (resumed["attempts"], resumed["scored"], resumed["skipped"], resumed["superseded"],
            resumed["not_run"]) == (4, 4, 0, 1, 0)


@pytest.mark.slow  # 3.0 s measured: the README's command stays quick
def test_out_of_turns_is_counted_and_no_claim_is_no_rate(runs: dict[str, Path]) -> None:
    done = phoneshell("report", str(runs["TIGHT"]))
    assert "  ran out of time 0, out of turns 1 (these never pass)" in done.stdout
    assert "claimed success but failed: 0/0 (no rate)" in done.stdout
    (tight,) = report_json(runs["TIGHT"])["agents"]
    assert (tight["out_of_turns"], tight["no_claim"], tight["with_claim"]) == (1, 1, 0)
    assert tight["false_claim_rate"] is None and tight["passed"] == 0
    (task,) = report_json(runs["TIGHT"])["tasks"]
    assert task["task_id"] == TIGHT and task["runs"][0]["outcomes"] == ["failed"]


def _keys(value: object) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() if not isinstance(v, int)
                             for k in _keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in _keys(v)}
    return set()


def test_every_json_field_is_documented(runs: dict[str, Path]) -> None:
    document = report_json(runs["SOL"], runs["FLT"])
    doc = (Path(__file__).resolve().parents[2] / "docs" / "reports.md").read_text()
    for field in set(document) | set(document["agents"][0]):
        assert f"| `{field}` |" in doc, f"docs/reports.md has no table row for {field}"
    skip_kinds = set(document["agents"][1]["skip_reasons"])
    for field in _keys(document) - skip_kinds:
        assert f"`{field}`" in doc, f"docs/reports.md does not describe {field}"


@pytest.mark.slow  # 3.5 s measured: the README's command stays quick
def test_bad_input_exits_2_with_a_hint(tmp_path: Path, runs: dict[str, Path]) -> None:
    nothing = phoneshell("report")
    assert nothing.returncode == 2 and "error: nothing to report" in nothing.stderr
    not_a_run = phoneshell("report", str(tmp_path))
    assert not_a_run.returncode == 2
    assert f"error: {tmp_path} is not a run folder" in not_a_run.stderr
    assert "hint: " in not_a_run.stderr
    twice = phoneshell("report", str(runs["SOL"]), str(runs["SOL"]))
    assert twice.returncode == 2 and "both solution @ SOL" in twice.stderr


@pytest.mark.slow  # 1.9 s measured: the README's command stays quick
def test_a_command_agents_program_is_said_with_its_run_not_warned_of(
        runs: dict[str, Path]) -> None:
    """Every command run records its program's sha256: shown under the run (text, JSON, HTML),
    never as a warning, which would cry wolf on every clean run; the answer key handed over
    stays a warning (tests/runner/test_runner_stop_seal.py)."""
    done = phoneshell("report", str(runs["CMD"]))
    program = "  program examples/agents/liar.sh: sha256 "
    assert program in done.stdout, done.stdout
    assert "agent setup" not in done.stdout + done.stderr
    data = json.loads(phoneshell("report", str(runs["CMD"]), "--format", "json").stdout)
    assert data["agents"][0]["programs"][0].startswith(program.strip())
    assert not any("agent setup" in w for w in data["warnings"])
