"""`command:` judges: any program reads an item on stdin and answers JSON. A judge that reads
the labels (on purpose, by a path the test hands it, unconfined) scores 1.0, a judge that always
says success scores positive accuracy 1 and negative accuracy 0, malformed answers count as
wrong, and an interrupted run picks up where it stopped. Judges that write outside their folder
(a count of their calls) run unconfined; confinement is test_judges_confined.py's."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from judges.judges_rig import ROOT, Made

from phoneshell.judges import JudgeError, JudgeOptions, judge_set, make_judge, score
from phoneshell.records import JudgeScore
from phoneshell.report import agenthorizon

ALWAYS = """
import json, sys
json.load(sys.stdin)
print(json.dumps({"success": True, "reasoning": "always"}))
"""
CHEAT = """
import json, os, sys
given = json.load(sys.stdin)
# what the harness hands over says nothing of the label: only the test's path leads to it
assert sorted(os.listdir(given["folder"])) == ["frames", "item.json"]
assert os.environ["PHONESHELL_JUDGE_ITEM_DIR"] == given["folder"]
labels = {}
for line in open(os.environ["CHEAT_LABELS"]):
    row = json.loads(line)
    labels[row["id"]] = row["label"]
print("thinking...")
print(json.dumps({"success": labels[given["item"]["id"]] == "positive", "reasoning": "cheat"}))
"""
MALFORMED = """
import json, sys
item = json.load(sys.stdin)["item"]
print("yes" if item["steps"] else json.dumps({"success": 1}))
"""
MIXED = """
import json, sys
steps = json.load(sys.stdin)["item"]["steps"]
print(json.dumps({"success": len(steps) > 1}) if len(steps) != 1 else "one step: not sure")
"""
COUNTED = """
import json, os, sys, time
item = json.load(sys.stdin)["item"]
with open(os.environ["CALLS"], "a") as calls:
    calls.write(item["id"] + "\\n")
if os.path.exists(os.environ["BROKEN"]):
    sys.exit(3)
if os.path.exists(os.environ["SLOW"]) and len(open(os.environ["CALLS"]).readlines()) > 2:
    time.sleep(60)
print(json.dumps({"success": True}))
"""


def program(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / f"{name}.py"
    path.write_text(body)
    return f"command:{sys.executable} {path}"


DEFAULTS = JudgeOptions()
UNCONFINED = JudgeOptions(sandbox="none")


def judged(made: Made, spec: str, out: Path, options: JudgeOptions = DEFAULTS
           ) -> JudgeScore:
    judge = make_judge(spec, options)
    answers = judge_set(made.judgeset, judge, out, options).answers
    return score(judge.name, made.judgeset.manifest.set_id, made.labels, answers,
                 population=made.population)


@pytest.mark.slow  # 1.8 s measured: the README's command stays quick
def test_a_judge_that_always_says_success(made: Made, tmp_path: Path) -> None:
    result = judged(made, program(tmp_path, "always", ALWAYS), tmp_path / "out")
    assert (result.recall.rate, result.negative_accuracy.rate) == (1.0, 0.0)
    assert {g.name: g.negative.rate for g in result.by_type if g.negative.n} == {
        "failed": 0.0, "swapped": 0.0, "attack:open-app": 0.0}
    assert result.ranking is not None and result.ranking.spearman is None  # no spread
    assert [(a.phone_rate, a.judge_rate) for a in result.ranking.agents] == [(1.0, 1.0),
                                                                            (0.0, 1.0)]
    assert result.ranking.mae == 0.5


@pytest.mark.slow  # 1.8 s measured: the README's command stays quick
def test_agenthorizons_layout_scores_the_same(made: Made, tmp_path: Path) -> None:
    result = judged(made, program(tmp_path, "mixed", MIXED), tmp_path / "out")
    assert result.invalid and 0 < result.negative_accuracy.correct < result.negatives
    folder = tmp_path / "horizon"  # their label file beside a judge run's results/
    shutil.copytree(tmp_path / "out" / "results", folder / "results")
    shutil.copy(made.judgeset.folder / "agenthorizon" / "manifest.jsonl", folder)
    strict = agenthorizon.score(folder)
    assert (strict.items, strict.positives, strict.negatives) == (
        result.items, result.positives, result.negatives)
    assert (strict.pos_accuracy, strict.neg_accuracy) == (result.recall.rate,
                                                          result.negative_accuracy.rate)
    assert len(strict.invalid) == result.invalid


@pytest.mark.slow  # 2.5 s measured: the README's command stays quick
def test_a_judge_that_reads_the_labels_scores_one(made: Made, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHEAT_LABELS", str(made.judgeset.folder / "labels.jsonl"))
    result = judged(made, program(tmp_path, "cheat", CHEAT), tmp_path / "out", UNCONFINED)
    assert (result.accuracy.rate, result.precision.rate, result.recall.rate, result.f1,
            result.negative_accuracy.rate, result.balanced_accuracy) == (1.0,) * 6
    assert result.wrong == () and all(g.balanced in (None, 1.0) for g in result.by_tag)
    assert result.ranking is not None
    assert (result.ranking.spearman, result.ranking.mae) == (1.0, 0.0)


@pytest.mark.slow  # 1.9 s measured: the README's command stays quick
def test_malformed_answers_count_as_wrong(made: Made, tmp_path: Path) -> None:
    result = judged(made, program(tmp_path, "bad", MALFORMED), tmp_path / "out")
    assert result.invalid == result.items == len(result.wrong)
    problems = {json.loads(p.read_text())["problem"]
                for p in (tmp_path / "out" / "results").glob("*.json")}
    assert problems == {"the answer holds no JSON object",
                        "success is not a JSON boolean (got 1)"}


@pytest.mark.slow  # 5 s of whole programs: the README's command stays quick
def test_errors_are_asked_again_and_answers_are_not(made: Made, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    calls, broken = tmp_path / "calls", tmp_path / "broken"
    monkeypatch.setenv("CALLS", str(calls))
    monkeypatch.setenv("BROKEN", str(broken))
    monkeypatch.setenv("SLOW", str(tmp_path / "never"))
    spec, out = program(tmp_path, "counted", COUNTED), tmp_path / "out"
    broken.touch()
    assert judged(made, spec, out, UNCONFINED).missing == len(made.labels)
    broken.unlink()
    assert judged(made, spec, out, UNCONFINED).accuracy.n == len(made.labels)
    assert judged(made, spec, out, UNCONFINED).missing == 0
    assert len(calls.read_text().split()) == 2 * len(made.labels)  # the third run asked none
    with pytest.raises(JudgeError, match="another judge"):
        judged(made, program(tmp_path, "always", ALWAYS), out, UNCONFINED)
    with pytest.raises(JudgeError, match="another frames"):
        judged(made, spec, out, JudgeOptions(frames=2, sandbox="none"))


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_a_judge_that_outlives_its_time_is_stopped(made: Made, tmp_path: Path) -> None:
    spec = f"command:{sys.executable} -c 'import time; time.sleep(30)'"
    started = time.monotonic()
    result = judged(made, spec, tmp_path / "out", JudgeOptions(timeout_s=0.5))
    assert result.missing == result.items and time.monotonic() - started < 20
    answer = json.loads(next((tmp_path / "out" / "results").glob("*.json")).read_text())
    assert answer["problem"].startswith("no answer within 0.5s")


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_an_interrupted_judge_run_picks_up_where_it_stopped(made: Made, tmp_path: Path) -> None:
    calls, slow, out = tmp_path / "calls", tmp_path / "slow", tmp_path / "out"
    env = {**os.environ, "PYTHONWARNINGS": "error", "CALLS": str(calls),
           "BROKEN": str(tmp_path / "never"), "SLOW": str(slow)}
    args = [sys.executable, "-m", "phoneshell", "judge", str(made.judgeset.folder), "--judge",
            program(tmp_path, "counted", COUNTED), "--out", str(out), "--sandbox", "none"]
    slow.touch()  # the third item hangs until the run is interrupted
    first = subprocess.Popen(args, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not (calls.exists() and len(calls.read_text().split()) == 3):
        assert time.monotonic() < deadline and first.poll() is None
        time.sleep(0.05)
    first.send_signal(signal.SIGINT)
    _, err = first.communicate(timeout=60)
    assert first.returncode == 2 and "interrupted" in err
    assert len(list((out / "results").glob("*.json"))) == 2
    slow.unlink()
    again = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert f"resuming: 2 of {len(made.labels)} item(s) already answered" in again.stderr
    asked = calls.read_text().split()
    assert len(asked) == 3 + len(made.labels) - 2 and len(set(asked)) == len(made.labels)
    assert again.returncode == 1 and "unanswered" in again.stdout  # always-success is wrong
