"""A judgeset's runs as populations: every scored attempt of every run given, with the item a
judge's verdict on it is read from (attempts.jsonl, beside labels.jsonl and, like it, never
shown to a judge). Ranking fidelity is over these, never over the items: an item that shows what
an earlier one showed is left out of the set, so a run's items are a thinned sample of its
attempts (three identical passes are one item, three different failures three), and a run whose
every attempt was another's is no item at all. Reads and writes files only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from phoneshell.judges.sources import JudgeError, RunAttempt
from phoneshell.records import (
    JudgeSetManifest,
    RecordError,
    ScoredAttempt,
    SetSource,
    read_lines,
    write_text_atomic,
)

ATTEMPTS = "attempts.jsonl"
REBUILD = "rebuild it with `phoneshell judgeset`"
OLD_SET = ("the judgeset was built before it recorded its runs' scored attempts "
           f"({ATTEMPTS}), so no agent's rate can be told from its items; {REBUILD} to rank")


@dataclass(frozen=True)
class Population:
    """The runs a judgeset was built from, in the order given, and their scored attempts."""

    runs: tuple[SetSource, ...]
    attempts: tuple[ScoredAttempt, ...]


Made = tuple[str, bool] | str
"""What became of a draft: (the item that judges it, whether it was a duplicate), or why it
made no item."""


def scored_rows(attempts: Sequence[RunAttempt], made: Mapping[int, Made]) -> list[ScoredAttempt]:
    """One attempts.jsonl line per scored attempt, given what became of each draft."""
    rows = []
    for a in attempts:
        what = made[a.draft] if a.draft >= 0 else a.left_out
        item, duplicate = what if isinstance(what, tuple) else ("", False)
        rows.append(ScoredAttempt(
            source=str(a.source.resolve()), agent=a.agent, task_id=a.task_id,
            attempt=a.number, passed=a.passed, item=item, duplicate=duplicate,
            left_out=what if isinstance(what, str) else ""))
    return rows


def write_attempts(folder: Path, rows: Sequence[ScoredAttempt]) -> None:
    """Write attempts.jsonl in the judgeset `folder`."""
    write_text_atomic(folder / ATTEMPTS, "".join(r.to_json() + "\n" for r in rows))


def read_population(folder: Path, manifest: JudgeSetManifest) -> Population | None:
    """The judgeset's runs and their scored attempts (None: a set built before they were
    recorded; it is scored without a ranking).

    Raises:
        JudgeError: attempts.jsonl is damaged, or does not match judgeset.json.
    """
    if manifest.scored_attempts is None:
        return None
    path = folder / ATTEMPTS
    try:
        lines = read_lines(path, ScoredAttempt)
    except RecordError as exc:
        raise JudgeError(str(exc), hint=REBUILD) from exc
    if lines.problems or lines.torn.strip():
        raise JudgeError(lines.problems[0] if lines.problems else f"{path}: last line cut off",
                         hint=REBUILD)
    rows, runs = tuple(lines), tuple(s for s in manifest.sources if s.origin == "run")
    paths, items = {s.path for s in runs}, set(manifest.items)
    wrong = next((r for r in rows if r.source not in paths or r.item and r.item not in items),
                 None)
    if len(rows) != manifest.scored_attempts or wrong is not None:
        what = (f"holds {len(rows)} attempt(s), judgeset.json says {manifest.scored_attempts}"
                if wrong is None else f"names {wrong.source} {wrong.task_id} #{wrong.attempt}, "
                f"whose run or item {wrong.item!r} judgeset.json does not list")
        raise JudgeError(f"{path} {what}: not the set's runs", hint=REBUILD)
    return Population(runs, rows)
