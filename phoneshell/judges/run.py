"""A judge run: every item of a judgeset shown to one judge, each answer kept as it comes, so an
interrupted run picks up where it stopped.

    OUT/judge.json          which judge, on which set, with which options (a resume must match)
    OUT/results/<id>.json   one answer per item (AgentHorizon's result file, plus ours)
    OUT/raw/<id>.json       the whole exchange: the endpoint's reply, the command's output

An answer that is not a verdict (`invalid`) is the judge's answer and is kept; an item with no
answer at all (`error`: the endpoint or the command failed) is asked again on resume. The judge
never reads the labels: scoring does, after (score.py).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

from phoneshell import __version__
from phoneshell.grader import git_commit
from phoneshell.judges.base import Judge, JudgeOptions, Reply, Shown
from phoneshell.judges.hidden import kept_from_judges
from phoneshell.judges.judgeset import JudgeSet
from phoneshell.judges.sources import JudgeError
from phoneshell.judges.verdict import agent_texts, read_answer
from phoneshell.records import (
    AnswerStatus,
    JudgeAnswer,
    JudgeItem,
    JudgeRun,
    RecordError,
    read_record,
    write_record,
    write_text_atomic,
)
from phoneshell.runner.run import Progress

RUN = "judge.json"
RESULTS = "results"
RAW = "raw"
CONFINED = ("bwrap", "sandbox-exec")
EARLIER = "an earlier invocation of this judge run ran it unconfined: "


@dataclass(frozen=True)
class Judged:
    """What a judge run left: its record and every answer so far, by item id."""

    run: JudgeRun
    answers: dict[str, JudgeAnswer]
    asked: int = 0
    """Items asked in this invocation (the rest were answered before)."""


def _start(out: Path, judgeset: JudgeSet, judge: Judge, options: JudgeOptions) -> JudgeRun:
    """The run record: new, or the earlier one when it is the same judge, set and options
    (confined as the less confined of the two: an unconfined judge could have written any of
    the answers kept)."""
    fresh = JudgeRun(judge=judge.name, set_id=judgeset.manifest.set_id,
                     judgeset=str(judgeset.folder), frames=options.frames,
                     long_edge=options.long_edge, prompt_sha256=judge.prompt_sha256,
                     base_url=judge.base_url, started_at=time.time(),
                     phoneshell_version=__version__, git_commit=git_commit(),
                     sandbox=judge.sandbox, sandbox_note=judge.sandbox_note)
    path = out / RUN
    if not path.exists():
        if out.exists() and any(out.iterdir()):
            raise JudgeError(f"{out} is not empty and holds no judge run",
                             hint="choose a new folder for --out")
        (out / RESULTS).mkdir(parents=True, exist_ok=True)
        (out / RAW).mkdir(exist_ok=True)
        write_record(path, fresh)
        return fresh
    try:
        earlier = read_record(path, JudgeRun)
    except RecordError as exc:
        raise JudgeError(str(exc), hint="choose a new folder for --out") from exc
    keys = ("judge", "set_id", "frames", "long_edge", "prompt_sha256", "base_url")
    changed = [k for k in keys if getattr(earlier, k) != getattr(fresh, k)]
    if changed:
        raise JudgeError(f"{out} holds a judge run with another {', '.join(changed)} "
                         f"({', '.join(f'{k}={getattr(earlier, k)!r}' for k in changed)}); "
                         "resuming it would mix two judges' answers",
                         hint="choose a new folder for --out")
    update: dict[str, object] = {"resumed_at": (*earlier.resumed_at, time.time())}
    if fresh.sandbox == "in-process" or earlier.tamper_proof:
        update.update(sandbox=fresh.sandbox, sandbox_note=fresh.sandbox_note)
    elif not earlier.sandbox_note.startswith(EARLIER):  # it could have written the answers kept
        update.update(sandbox_note=f"{EARLIER}{earlier.sandbox_note or earlier.sandbox}")
    resumed = earlier.model_copy(update=update)
    write_record(path, resumed)
    return resumed


def read_answers(out: Path, ids: tuple[str, ...]) -> dict[str, JudgeAnswer]:
    """The answers in `out/results` of the items `ids` (a file that cannot be read is no
    answer: that item is asked again, and counted wrong until it is answered)."""
    found: dict[str, JudgeAnswer] = {}
    for item_id in ids:
        path = out / RESULTS / f"{item_id}.json"
        if path.is_file():
            try:
                found[item_id] = read_record(path, JudgeAnswer)
            except RecordError:
                continue
    return found


def answer_of(item: JudgeItem, judge: Judge, reply: Reply) -> JudgeAnswer:
    """The answer record of one reply to `item` (a verdict the agent wrote into it and the
    judge only quotes is not the judge's: verdict.py)."""
    status: AnswerStatus = "error"
    verdict, success, problem = None, None, reply.error
    if not reply.error:
        verdict = read_answer(reply.text, agent_texts(item))
        success, problem = verdict.success, verdict.problem
        status = "invalid" if success is None else "ok"
    return JudgeAnswer(
        success=success, reasoning=verdict.reasoning if verdict else "",
        confidence=verdict.confidence if verdict else None,
        mistake_type=verdict.mistake_type if verdict else None, trajectory_id=item.id,
        status=status, problem=problem, raw=reply.text, judge=judge.name,
        seconds=round(reply.seconds, 3), frames_shown=reply.frames_shown,
        tokens_in=reply.tokens_in, tokens_out=reply.tokens_out)


def _line(index: int, total: int, answer: JudgeAnswer) -> str:
    said = (("success" if answer.success else "failure") if answer.status == "ok"
            else f"{answer.status}: {answer.problem[:120]}")
    return f"[{index:>{len(str(total))}}/{total}] {answer.trajectory_id[:8]}  {said}  " \
           f"({answer.seconds:.1f}s)"


def judge_set(judgeset: JudgeSet, judge: Judge, out: Path, options: JudgeOptions,
              progress: Progress = lambda line: None) -> Judged:
    """Show every item not yet answered to `judge`; keep each answer as it comes.

    Raises:
        JudgeError: `out` holds something else, or another judge's run; the judge is
            confined and a source of the set is found nowhere (`hidden.py`), or its command
            line names what it must not see.
        RunError: the judge is confined and a share is what it must not see, or lies inside.
    """
    judge.hide(kept_from_judges(judgeset, out, judge.sandbox in CONFINED))  # before any write
    run = _start(out, judgeset, judge, options)
    ids = judgeset.manifest.items
    answers = read_answers(out, ids)
    todo = [i for i in ids if i not in answers or answers[i].status == "error"]
    if len(todo) < len(ids):
        progress(f"resuming: {len(ids) - len(todo)} of {len(ids)} item(s) already answered")
    for n, item_id in enumerate(todo, start=len(ids) - len(todo) + 1):
        shown = Shown(judgeset.item(item_id), judgeset.item_dir(item_id), options)
        reply = judge.judge(shown)
        answer = answer_of(shown.item, judge, reply)
        write_text_atomic(out / RAW / f"{item_id}.json",
                          json.dumps(reply.raw, ensure_ascii=False) + "\n")
        write_record(out / RESULTS / f"{item_id}.json", answer)
        answers[item_id] = answer
        progress(_line(n, len(ids), answer))
    return Judged(run, answers, len(todo))
