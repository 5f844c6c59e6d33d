"""Ranking fidelity's files: every scored attempt of a judgeset's runs, and the ranking a score
computes from them (docs/judges.md).

    JUDGESET/attempts.jsonl     ScoredAttempt per scored attempt of every run given, duplicates
                                included: never shown to a judge
    OUT/score.json              its `ranking`: Ranking, an AgentRate per run

An agent's success rate is a figure about all its scored attempts, as its report prints it; the
judgeset's items are fewer (an item that shows what an earlier one showed is left out), so the
rate is never taken over them.
"""

from __future__ import annotations

from typing import ClassVar

from phoneshell.records.base import Part, Record

ATTEMPT_VERSION = 1


class ScoredAttempt(Record):
    """One line of a judgeset's attempts.jsonl: a scored attempt of a run it was built from,
    and the item a judge's verdict on it is read from. Never shown to a judge."""

    VERSION: ClassVar[int] = ATTEMPT_VERSION
    VERSION_KEY: ClassVar[str] = "v"
    v: int = ATTEMPT_VERSION
    """Format version (1)."""
    source: str
    """The run folder, absolute (as `judgeset.json` names the source)."""
    agent: str
    """The run as reports name it ("solution @ RUN_ID")."""
    task_id: str
    """The task played."""
    attempt: int
    """The attempt number."""
    passed: bool
    """The phone's grade, as the run's results.jsonl records it."""
    item: str = ""
    """The item that judges it: its own, or, when an earlier item showed the same instruction,
    actions and claim, that item ("" when no item could be made: `left_out` says why)."""
    duplicate: bool = False
    """Its trajectory was left out as a duplicate: `item` is the earlier one that stands for it
    (possibly another run's)."""
    left_out: str = ""
    """Why it has no item (its task file changed, its evidence cannot be read); "" when it has
    one."""


class AgentRate(Part):
    """One run's success rate under the phone and under the judge, over all its scored
    attempts."""

    agent: str
    """The run ("solution @ RUN_ID")."""
    source: str = ""
    """Its run folder (two runs of the same name are two rows)."""
    attempts: int
    """Its scored attempts: the denominator of both rates."""
    passed: int
    """Attempts the phone passed."""
    items: int
    """Distinct items its attempts are judged through (fewer than `attempts` when attempts
    showed the same thing)."""
    unjudged: int = 0
    """Attempts with no item (counted as not judged successful)."""
    phone_rate: float
    """passed / attempts: the pass rate its report prints."""
    judge_rate: float
    """Attempts whose item the judge called successful / attempts (a duplicate takes its
    item's verdict; an invalid or missing answer counts as not)."""


class Ranking(Part):
    """Ranking fidelity: how the judge ranks agents against how the phone ranks them."""

    agents: tuple[AgentRate, ...]
    """Every run given that has a scored attempt, by phone rate (best first)."""
    not_ranked: tuple[str, ...] = ()
    """Runs given that have no rate, each with why ("RUN: no attempt was scored")."""
    spearman: float | None
    """Spearman's rho between the two rate vectors (null: fewer than two agents, or a
    vector with no spread)."""
    mae: float | None
    """Mean absolute error of the judge's rates (null: no agent)."""
