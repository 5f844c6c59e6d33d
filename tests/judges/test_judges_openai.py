"""The built-in baseline judge over an OpenAI-compatible endpoint: a stand-in on loopback plays
the model over real HTTP, and checks what it is sent (instruction, actions, sampled screenshots
as PNG data URLs at the size asked for)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from agents.openai_standin import API_KEY
from judges.judge_standin import JudgeStandIn, images, text
from judges.judges_rig import ROOT, Made

from phoneshell.agents.chat_api import OpenAISettings
from phoneshell.judges import JudgeOptions, Shown, judge_set, read_answers, score
from phoneshell.judges.baseline import SYSTEM_PROMPT, BaselineJudge
from phoneshell.judges.html import write_judge_html
from phoneshell.records import JudgeScore


@pytest.fixture(scope="module")
def stand_in() -> Iterator[JudgeStandIn]:
    with JudgeStandIn() as server:
        yield server


DEFAULTS = JudgeOptions()


def judged(made: Made, stand_in: JudgeStandIn, model: str, out: Path,
           options: JudgeOptions = DEFAULTS) -> JudgeScore:
    judge = BaselineJudge(model, OpenAISettings(stand_in.url, API_KEY, retries=1), options)
    answers = judge_set(made.judgeset, judge, out, options).answers
    return score(judge.name, made.judgeset.manifest.set_id, made.labels, answers)


def test_the_judge_sees_instruction_actions_and_sampled_screenshots(
        made: Made, stand_in: JudgeStandIn, tmp_path: Path) -> None:
    stand_in.requests.clear()
    judged(made, stand_in, "judge-yes", tmp_path / "out", JudgeOptions(frames=3, long_edge=200))
    sent = [r for r in stand_in.requests if r["model"] == "judge-yes"]
    items = [made.judgeset.item(i) for i in made.labels]
    wanted = sorted((i.instruction, tuple(f"Step {s.n}: {s.action}" for s in i.steps),
                     min(3, len(i.frames))) for i in items)
    got = []
    for body in sent:
        assert body["messages"][0] == {"role": "system", "content": SYSTEM_PROMPT}
        lines = text(body).splitlines()
        shown = images(body)
        assert all(i.format == "PNG" and max(i.size) == 200 for i in shown)
        assert "[Screenshot before the first action]" in lines
        assert "[Screenshot when the agent stopped]" in lines
        instruction = next(x for x in lines if x.startswith("Task instruction: "))
        got.append((instruction.removeprefix("Task instruction: "),
                    tuple(x for x in lines if x.startswith("Step ")), len(shown)))
    assert sorted(got) == wanted


def test_a_judge_that_always_says_success(made: Made, stand_in: JudgeStandIn,
                                          tmp_path: Path) -> None:
    result = judged(made, stand_in, "judge-yes", tmp_path / "out")
    assert (result.recall.rate, result.negative_accuracy.rate) == (1.0, 0.0)
    assert result.balanced_accuracy == 0.5 and result.invalid == result.missing == 0
    assert result.precision.rate == result.positives / result.items
    page = tmp_path / "report" / "judge.html"
    write_judge_html(page, made.judgeset, made.labels,
                     read_answers(tmp_path / "out", made.judgeset.manifest.items), result)
    html = page.read_text()
    assert "looks done &lt;b&gt;ok&lt;/b&gt;" in html and "<b>ok</b>" not in html
    first_item = html.split('<details class="item ', 1)[1]
    assert first_item.startswith('wrong"') and '" open>' in first_item.split(">", 1)[0] + ">"
    sources = re.findall(r'<img src="([^"]+)"', html)
    assert sources and all((page.parent / src).is_file() for src in sources)


def test_a_fenced_answer_is_read_with_its_mistake_type(made: Made, stand_in: JudgeStandIn,
                                                       tmp_path: Path) -> None:
    result = judged(made, stand_in, "judge-no", tmp_path / "out")
    assert (result.recall.rate, result.negative_accuracy.rate) == (0.0, 1.0)
    answer = json.loads(next((tmp_path / "out" / "results").glob("*.json")).read_text())
    assert (answer["success"], answer["mistake_type"]) == (False, "Critical Mistake")
    assert answer["raw"].startswith("The app is wrong.")


@pytest.mark.parametrize("model", ["judge-prose", "judge-string"])
def test_malformed_answers_count_as_wrong_never_skipped(made: Made, stand_in: JudgeStandIn,
                                                        tmp_path: Path, model: str) -> None:
    result = judged(made, stand_in, model, tmp_path / "out")
    assert result.items == len(made.labels) and result.invalid == result.items
    assert (result.tp, result.tn, result.fp, result.fn) == (0, 0, result.negatives,
                                                            result.positives)
    assert result.accuracy.rate == 0.0 and len(result.wrong) == result.items


def test_an_endpoint_that_never_answers_leaves_items_unanswered(
        made: Made, stand_in: JudgeStandIn, tmp_path: Path) -> None:
    result = judged(made, stand_in, "stand-in-429", tmp_path / "out")
    assert result.missing == result.items and result.accuracy.correct == 0
    answer = json.loads(next((tmp_path / "out" / "results").glob("*.json")).read_text())
    assert answer["status"] == "error" and "HTTP 429" in answer["problem"]


@pytest.mark.slow  # 1.9 s measured: the README's command stays quick
def test_the_cli_judges_scores_and_reports(made: Made, stand_in: JudgeStandIn,
                                           tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONWARNINGS": "error", "PHONESHELL_OPENAI_BASE_URL": stand_in.url,
           "PHONESHELL_OPENAI_API_KEY": API_KEY}
    done = subprocess.run(
        [sys.executable, "-m", "phoneshell", "judge", str(made.judgeset.folder), "--judge",
         "openai:judge-claim", "--out", str(tmp_path / "out"), "--frames", "4", "--html",
         str(tmp_path / "page.html"), "--format", "json"],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)
    assert done.returncode == 1, done.stderr  # a claim-trusting judge is not always right
    result = json.loads(done.stdout)
    assert result["judge"] == "openai:judge-claim" and result["items"] == len(made.labels)
    assert f"[{len(made.labels)}/{len(made.labels)}]" in done.stderr
    kinds = {g["name"]: g for g in result["by_type"]}
    assert kinds["swapped"]["negative"]["rate"] == 0.0  # the sibling's finish claims done
    assert kinds["failed"]["negative"]["rate"] == 1.0  # the null agent says it gave up
    page = (tmp_path / "page.html").read_text()
    assert "Judge vs phone" in page and "trusted the claim" in page
    assert page.count('class="side"') == len(made.labels)


@pytest.mark.slow  # 1.5 s measured: the README's command stays quick
def test_a_judge_reply_whose_headers_trickle_ends_on_the_judges_clock(
        made: Made, stand_in: JudgeStandIn) -> None:
    """The judge's client reads as the agents' does: one deadline for the whole exchange, so a
    header line sent a byte at a time cannot hold the judging past `--timeout` (red team 112)."""
    options = JudgeOptions(timeout_s=1.5)
    judge = BaselineJudge("stand-in-head-trickle", OpenAISettings(stand_in.url, API_KEY),
                          options)
    item_id = next(iter(made.labels))
    shown = Shown(made.judgeset.item(item_id), made.judgeset.item_dir(item_id), options)
    started = time.monotonic()
    try:
        reply = judge.judge(shown)
    finally:
        stand_in.slow.set()  # the trickle stops
        stand_in.slow.clear()
    assert "no whole reply" in reply.error, reply
    assert time.monotonic() - started < 3.0
