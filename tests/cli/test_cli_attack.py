"""`phoneshell attack` as a user runs it: exit 1 and the breaking finish for a weakened task,
exit 0 for the suite's task, progress on stderr and the attack record on stdout."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_process import run_cli

from phoneshell.attack import summary_lines
from phoneshell.records import AttackReport

ROOT = Path(__file__).resolve().parents[2]
TASK = ROOT / "environments" / "calculator.arithmetic.yaml"


phoneshell = run_cli


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_a_weakened_calculator_task_falls_to_the_result_keyed_in(tmp_path: Path) -> None:
    text = TASK.read_text().replace("id: calculator.arithmetic", "id: calculator.weak")
    weak = text[:text.index("- kind: tapped_keys")] + text[text.index("teardown:"):]
    (tmp_path / "weak.yaml").write_text(weak)
    done = phoneshell("attack", str(tmp_path / "weak.yaml"), str(TASK), "--family",
                      "result-only", "--runs", str(tmp_path / "runs"), "--format", "json")
    assert done.returncode == 1, done.stderr[-2000:]
    report = AttackReport.parse(done.stdout, "stdout")
    assert [(r.task, r.attack) for r in report.broken] == [("calculator.weak",
                                                            "result-only:keyed:423")]
    assert report.replays == 1 and len(report.attacks) == 2, "one replay graded as both"
    assert "result-only:keyed:423: calculator.weak PASSES; calculator.arithmetic fails" in \
        done.stderr
    evidence = Path(report.evidence) / report.broken[0].evidence / "evidence.json"
    assert json.loads(evidence.read_text())["task_id"] == "calculator.weak.result-only"


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_the_suite_task_survives_and_says_so(tmp_path: Path) -> None:
    done = phoneshell("attack", str(TASK), "--family", "result-only", "--family", "null",
                      "--runs", str(tmp_path))
    assert done.returncode == 0, done.stdout + done.stderr[-2000:]
    assert "1 task(s), 2 (finish, task) grading(s) of 2 distinct finish(es)" in done.stdout
    assert "0 pass without doing the task" in done.stdout


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_residue_own_plays_each_task_after_its_own_attempt_only(tmp_path: Path) -> None:
    done = phoneshell("attack", "--task", "calculator.*", "--family", "residue", "--residue",
                      "own", "--runs", str(tmp_path), "--format", "json")
    assert done.returncode == 0, done.stderr[-2000:]
    report = AttackReport.parse(done.stdout, "stdout")
    assert sorted((r.task, r.attack) for r in report.attacks) == [
        (t, f"residue:{t}") for t in ("calculator.arithmetic", "calculator.chain",
                                      "calculator.percentage")]
    assert report.replays == 6, "each after its own honest attempt"
    assert report.residue_after == "own"  # and said: the family's count is not the whole one
    assert "residue: after each task's own attempt only (--residue own); the whole family also " \
        "plays every other task's on its app" in summary_lines(report)
    assert "residue: after" not in " ".join(summary_lines(report.model_copy(
        update={"residue_after": "app"})))
    wrong = phoneshell("attack", "--residue", "every", "--runs", str(tmp_path))
    assert wrong.returncode == 2 and "invalid choice: 'every'" in wrong.stderr


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_task_globs_pick_what_is_attacked_from_the_suite_anywhere(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONWARNINGS": "error"}
    # from a folder with no environments/: the suite shipped with phoneshell, as `run` does
    done = subprocess.run([sys.executable, "-m", "phoneshell", "attack", "--task",
                           "calculator.a*", "--task", "settings.about.reach", "--family", "null",
                           "--runs", str(tmp_path), "--format", "json"], capture_output=True,
                          text=True, cwd=tmp_path, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    report = AttackReport.parse(done.stdout, "stdout")
    assert sorted({a.task for a in report.attacks}) == ["calculator.arithmetic",
                                                        "settings.about.reach"]
    typo = phoneshell("attack", "--task", "setings.about*", "--runs", str(tmp_path))
    assert typo.returncode == 2
    assert "no task id matches 'setings.about*'; did you mean 'settings.about.reach'?" in \
        typo.stderr


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_a_finish_that_cannot_be_played_is_not_scored_said_and_exits_1(tmp_path: Path) -> None:
    # A task whose own reference finish cannot be played (its setup taps a row Settings does
    # not have): the swap family's finish is graded as nothing, which is no rejection.
    reach = ROOT / "environments" / "settings.about.reach.yaml"
    gone = reach.read_text().replace("id: settings.about.reach", "id: settings.about.gone")
    gone = gone.replace("- home\n", "- home\n- open_app: Settings\n- tap: No Such Row\n", 1)
    (tmp_path / "gone.yaml").write_text(gone.replace("- settings.about.serial",
                                                     "- settings.about.reach"))
    done = phoneshell("attack", str(tmp_path / "gone.yaml"), str(reach), "--family", "swap",
                      "--runs", str(tmp_path / "runs"))
    assert done.returncode == 1, done.stdout + done.stderr[-2000:]
    assert "swap:settings.about.gone: settings.about.reach not scored (setup failed: tap " \
        "'No Such Row'" in done.stderr
    assert "settings.about.reach: swap:settings.about.gone NOT SCORED: setup failed" in \
        done.stdout
    assert "0 pass without doing the task, on 0 task(s); 1 not scored" in done.stdout


@pytest.mark.slow  # whole programs, 4 finishes that each stop short
def test_finishes_that_stop_short_are_not_played_and_fail_the_attack_only_when_untested(
        tmp_path: Path) -> None:
    # red team 111: they were counted as rejected by the checks, and the attack exited 0
    notes = ROOT / "environments" / "notes.text_select.yaml"
    done = phoneshell("attack", str(notes), "--attack", "truncated:half", "--runs",
                      str(tmp_path))
    assert done.returncode == 1, done.stdout + done.stderr[-2000:]
    assert "notes.text_select: truncated:half NOT PLAYED: step 4 of 4, long_press 'anchor'" \
        in done.stdout
    assert "notes.text_select: truncated UNTESTED" in done.stdout
    assert "truncated:half: notes.text_select not played (step 4 of 4" in done.stderr
    # a search that lists no such result: nothing there, so exit 0, and 1 with --strict
    about = ROOT / "environments" / "settings.about.reach.yaml"
    for strict, code in (((), 0), (("--strict",), 1)):
        done = phoneshell("attack", str(about), "--family", "wrong-page", "--runs",
                          str(tmp_path), "--format", "json", *strict)
        assert done.returncode == code, done.stdout[-2000:] + done.stderr[-2000:]
    report = AttackReport.parse(done.stdout, "stdout")
    # the rows of 'Model Number' (About's, whose first row opens the page, are played)
    assert [(r.scored, r.absent) for r in report.attacks
            if "Model Number" in r.attack] == [(False, True)] * 4


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_every_finish_is_counted_in_one_column_a_compatible_pass_included(
        tmp_path: Path) -> None:
    """Red team 140 (RT140-7): a finish the task lists as compatible, which passes, was in no
    column of the family table nor in the closing line (8 finishes, 0 + 0 + 7 + 0 counted), and
    `broken` counted tasks beside columns counting finishes."""
    task = ROOT / "environments" / "settings.about.reach.yaml"
    done = phoneshell("attack", str(task), "--family", "wrong-page", "--runs", str(tmp_path))
    assert "passes, compatible" in done.stderr, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("family"))
    assert lines[head].split() == ["family", "finishes", "=", "broken", "compatible",
                                   "rejected", "not", "played", "not", "scored", "|", "tasks",
                                   "tasks", "broken"]
    row = lines[head + 1].split()
    assert row[0] == "wrong-page" and row[2] == "=" and row[8] == "|"
    finishes, columns = int(row[1]), [int(n) for n in row[3:8]]
    assert finishes and sum(columns) == finishes, lines[head:head + 2]
    assert columns[1] == 1  # the compatible pass, counted once
    assert "; 1 pass as the task allows (compatible)" in lines[head + 2]
