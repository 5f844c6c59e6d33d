"""The judge report: one HTML page with the judge beside the phone, in summary and per item.

The summary shows how the judge's verdicts fall against the phone's labels, the metrics with
their intervals, the breakdowns by label type and tag, and the agents as each ranks them. Each
item shows the instruction, the phone's grade and the judge's verdict and reasoning side by side,
the actions, the claim and the frames (linked from the judgeset, not copied). Items the judge
got wrong come first, open. Every text read from files is escaped; no script, no request.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from phoneshell.judges.judgeset import JudgeSet
from phoneshell.judges.score import said, type_name, unconfined_line
from phoneshell.judges.words import claim_words
from phoneshell.records import (
    Group,
    JudgeAnswer,
    JudgeItem,
    JudgeScore,
    LabelRow,
    Rate,
    write_text_atomic,
)
from phoneshell.report.escape import h
from phoneshell.report.html_page import CSS
from phoneshell.report.text import interval, pct

EXTRA_CSS = """
.side { display: grid; grid-template-columns: 1fr 1fr; gap: 1em; }
.side > div { border: 1px solid #ddd; border-radius: 6px; padding: .4em .8em; }
.frames img { height: 22em; margin: 0 .4em .4em 0; border: 1px solid #ccc; border-radius: 8px; }
.frames figure { display: inline-block; margin: 0; }
.frames figcaption { font-size: 12px; color: #666; }
details.right > summary { background: #d8f5dd; } details.wrong > summary { background: #fbdcdc; }
"""


def _table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    th = "".join(f"<th>{h(c)}</th>" for c in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"


def _rate(r: Rate) -> list[str]:
    return [f"{r.correct}/{r.n}", h(pct(r.rate)), h(interval(r.ci95).removeprefix("95% CI "))]


def _versus(labels: Mapping[str, LabelRow], answers: Mapping[str, JudgeAnswer]) -> str:
    """The judge's verdicts against the phone's labels: a 2 x 3 table of counts."""
    cells = {(lab, verdict): 0 for lab in ("positive", "negative")
             for verdict in (True, False, None)}
    for row in labels.values():
        cells[(row.label, said(answers.get(row.id)))] += 1
    rows = [[f"phone: {'passed' if lab == 'positive' else 'failed'} ({lab})",
             *(str(cells[(lab, v)]) for v in (True, False, None))]
            for lab in ("positive", "negative")]
    return _table(["", "judge: success", "judge: failure", "judge: no valid answer"], rows)


def _groups(groups: Sequence[Group]) -> list[list[str]]:
    return [[h(g.name), str(g.items), " ".join(_rate(g.positive)[:2]) if g.positive.n else "",
             " ".join(_rate(g.negative)[:2]) if g.negative.n else "", h(pct(g.balanced))]
            for g in groups]


def summary_html(s: JudgeScore, labels: Mapping[str, LabelRow],
                 answers: Mapping[str, JudgeAnswer]) -> str:
    """Judge vs phone, the metrics, the breakdowns and the ranking."""
    metrics = [["accuracy", *_rate(s.accuracy)], ["precision", *_rate(s.precision)],
               ["recall (positive accuracy)", *_rate(s.recall)],
               ["negative accuracy", *_rate(s.negative_accuracy)],
               ["balanced accuracy", "", h(pct(s.balanced_accuracy)), ""],
               ["F1", "", "n/a" if s.f1 is None else f"{s.f1:.3f}", ""]]
    out = ["<section id=\"summary\"><h2>Judge vs phone</h2>", _versus(labels, answers),
           f"<p>{s.invalid} invalid answer(s) and {s.missing} unanswered item(s) are counted "
           "wrong: they stay in every denominator.</p>",
           _table(["metric", "count", "value", "95% CI"], metrics),
           "<h3>By label type</h3>",
           _table(["type", "items", "positive accuracy", "negative accuracy", "balanced"],
                  _groups(s.by_type))]
    if s.by_tag:
        out += ["<h3>By tag</h3>", _table(["tag", "items", "positive accuracy",
                                           "negative accuracy", "balanced"], _groups(s.by_tag))]
    if s.ranking is not None:
        rows = [[h(a.agent), h(a.source), f"{a.passed}/{a.attempts}", str(a.items),
                 h(pct(a.phone_rate)), h(pct(a.judge_rate))] for a in s.ranking.agents]
        rho = "n/a" if s.ranking.spearman is None else f"{s.ranking.spearman:.3f}"
        mae = "n/a" if s.ranking.mae is None else f"{s.ranking.mae:.3f}"
        out += ["<h3>Agents as each ranks them</h3>",
                "<p>Each run's rates are over all its scored attempts (its report's pass rate), "
                "an attempt whose trajectory duplicated an item judged by that item's verdict."
                "</p>",
                _table(["agent", "run", "passed", "items", "phone's success rate",
                        "judge's success rate"], rows),
                f"<p>Spearman's rho {h(rho)}; mean absolute error of the rates {h(mae)}.</p>",
                *(f"<p>Not ranked: {h(why)}</p>" for why in s.ranking.not_ranked)]
    elif s.ranking_note:
        out.append(f"<h3>Agents as each ranks them</h3><p>No ranking: {h(s.ranking_note)}</p>")
    return "".join(out) + "</section>"


def _judge_side(answer: JudgeAnswer | None) -> str:
    if answer is None:
        return "<h4>Judge</h4><p class=\"bad\">no answer (counted wrong)</p>"
    if answer.status != "ok":
        return (f"<h4>Judge</h4><p class=\"bad\">{h(answer.status)}: {h(answer.problem)} "
                "(counted wrong)</p>" + (f"<pre>{h(answer.raw[:2000])}</pre>" if answer.raw
                                         else ""))
    verdict = "success" if answer.success else "failure"
    extra = ", ".join(x for x in (answer.confidence and f"confidence {answer.confidence}",
                                  answer.mistake_type) if x)
    return (f"<h4>Judge</h4><p><b>{verdict}</b>{h(' (' + extra + ')' if extra else '')}</p>"
            f"<p>{h(answer.reasoning)}</p>")


def item_html(item: JudgeItem, label: LabelRow, answer: JudgeAnswer | None, frames_dir: Path,
              page: Path) -> str:
    """One item: the instruction, phone and judge side by side, steps, claim, frames."""
    right = said(answer) == (label.label == "positive")
    kind = type_name(label)
    phone = (f"<h4>Phone</h4><p><b>{'passed' if label.label == 'positive' else 'failed'}</b> "
             f"({h(kind)}; played as {h(label.trajectory_task)})</p><p>{h(label.detail)}</p>")
    steps = "".join(f"<li>{h(s.action)}</li>" for s in item.steps) or "<li>(no action)</li>"
    claim = claim_words(item.claim) or "none"
    figures = "".join(
        f'<figure><img src="{h(os.path.relpath(frames_dir / f.file, page.parent))}" '
        f'alt="frame {n}"><figcaption>'
        f"{'end' if f.final else 'start' if f.after_step == 0 else f'after step {f.after_step}'}"
        "</figcaption></figure>" for n, f in enumerate(item.frames))
    return (f'<details class="item {"right" if right else "wrong"}" id="i{h(item.id)}"'
            f'{"" if right else " open"}><summary>{h(label.task_id)} &middot; {h(kind)} &middot; '
            f"{'right' if right else 'WRONG'}</summary>"
            f'<p class="instruction">{h(item.instruction)}</p>'
            f'<div class="side"><div>{phone}</div><div>{_judge_side(answer)}</div></div>'
            f"<h4>Actions</h4><ol>{steps}</ol><h4>Claim</h4><p>{h(claim)}</p>"
            f'<div class="frames">{figures}</div></details>')


def render(judgeset: JudgeSet, labels: Mapping[str, LabelRow],
           answers: Mapping[str, JudgeAnswer], result: JudgeScore, page: Path) -> str:
    """The whole page (frame links relative to where `page` is written)."""
    wrong = {w.id for w in result.wrong}
    order = sorted(labels.values(), key=lambda r: (r.id not in wrong, type_name(r), r.task_id))
    items = "".join(item_html(judgeset.item(r.id), r, answers.get(r.id),
                              judgeset.item_dir(r.id).resolve(), page) for r in order)
    unconfined = unconfined_line(result.sandbox, result.sandbox_note)
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f"<title>judge report: {h(result.judge)}</title><style>{CSS}{EXTRA_CSS}</style>"
            f"</head><body><h1>Judge report: {h(result.judge)}</h1>"
            f'<p class="meta">judgeset {h(judgeset.folder)} &middot; {result.items} item(s), '
            f"{result.positives} positive, {result.negatives} negative</p>"
            + (f'<ul class="warnings"><li>{h(unconfined)}</li></ul>' if unconfined else "")
            + summary_html(result, labels, answers)
            + f'<section id="items"><h2>Items</h2>{items}</section></body></html>\n')


def write_judge_html(page: Path, judgeset: JudgeSet, labels: Mapping[str, LabelRow],
                     answers: Mapping[str, JudgeAnswer], result: JudgeScore) -> None:
    """Write the judge report to `page`."""
    page.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomic(page, render(judgeset, labels, answers, result, page.resolve()))
