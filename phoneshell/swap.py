"""The swap test, played on a phone: replay task B's finish, capture what task A needs too, and
grade the one piece of evidence as B (it must pass) and as A.

When A accepts a finish of B and B's finish does not do what A asks (A does not list B in
`compatible_with`), A's checks cannot tell the two requests apart: a wrong finish scores as a
pass. Scored like AgentHorizon's paired negatives: compatible pairs accepted and incompatible
pairs rejected are correct; the positive, negative and balanced accuracies say how often.

A's probes are taken before B's finish runs, in the same attempt, so side effects are judged
against the finish that made them. `--all` replays each finish once, grades it as every task,
and replays again, with the probes they need, only for the tasks whose other checks passed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from phoneshell.agents import Agent, make_agent
from phoneshell.agents.replay import ReplayAgent
from phoneshell.checks import CHECKS, Check
from phoneshell.checks.kind import signature
from phoneshell.evidence import Evidence
from phoneshell.grade import Verdict, grade
from phoneshell.runner.attempt import AttemptPlan, Rig, run_attempt
from phoneshell.tasks import Task

Progress = Callable[[str], None]


@dataclass(frozen=True)
class SwapResult:
    """One ordered pair: B's finish graded as A."""

    implied: str
    """A: the task graded."""
    by: str
    """B: the task whose finish was replayed."""
    compatible: bool
    """A lists B in compatible_with: B's finish legitimately does what A asks."""
    accepted: bool
    """Graded as A, the finish passed."""
    by_passed: bool
    """Graded as B, the finish passed (otherwise the pair proves nothing and is not scored)."""
    skip_reason: str = ""
    """Why the pair is not scored ("" when it is)."""
    detail: str = ""
    """A's failing checks when rejected, or B's when its own finish failed."""
    evidence: str = ""
    """The evidence folder the pair was graded from."""

    @property
    def scored(self) -> bool:
        """B's finish ran and passed as B."""
        return not self.skip_reason

    @property
    def correct(self) -> bool:
        """Accepted if compatible, rejected if not; an unscored pair is never correct."""
        return self.scored and self.accepted == self.compatible


@dataclass(frozen=True)
class Accuracy:
    """AgentHorizon's class accuracies over pairs; None when a class has no pairs."""

    positive: float | None
    negative: float | None
    balanced: float | None


def accuracy(results: Sequence[SwapResult]) -> Accuracy:
    """Positive accuracy over compatible pairs, negative over incompatible ones, and their
    mean. Unscored pairs stay in the denominators and count as wrong (strict scoring)."""
    def rate(pairs: list[SwapResult]) -> float | None:
        return sum(p.correct for p in pairs) / len(pairs) if pairs else None

    pos = rate([r for r in results if r.compatible])
    neg = rate([r for r in results if not r.compatible])
    balanced = (pos + neg) / 2 if pos is not None and neg is not None else None
    return Accuracy(pos, neg, balanced)


def _costly(check: Check) -> bool:
    """Checks whose evidence takes probes (counts before/after, values read off the device)."""
    return any(n.what in ("probe", "read") for n in CHECKS.lookup(check.kind).needs(check))


def _merged(finish: Task, extra: Iterable[Check]) -> Task:
    """B with other tasks' checks added, so its attempt captures what they need too."""
    seen = {signature(c) for c in finish.checks}
    checks = list(finish.checks)
    for check in extra:
        if signature(check) not in seen:
            seen.add(signature(check))
            checks.append(check)
    return replace(finish, checks=tuple(checks))


class Swapper:
    """Replays finishes on one phone and grades them as other tasks.

    Args:
        rig: the phone behind its bridge.
        run_dir: where the attempts' evidence goes (`attempts/<B>/<n>/`).
        run_id: the id the bridge logs the attempts under.
        finishes: how to finish task B: its `solution` (default), or a recorded run to replay.
    """

    def __init__(self, rig: Rig, run_dir: Path, run_id: str, replay_from: Path | None = None,
                 installed: frozenset[str] | None = None) -> None:
        self.rig, self.run_dir, self.run_id = rig, run_dir, run_id
        self.replay_from, self.installed = replay_from, installed
        self._attempts: dict[str, int] = {}
        self.stopped = ""
        """Why the phone stopped being usable ("" while it is): nothing more is played."""

    def _agent(self, b: Task) -> Agent:
        if self.replay_from is not None:
            return ReplayAgent(self.replay_from, task_id=b.id)
        return make_agent("solution")

    def play(self, b: Task, extra: Iterable[Check] = ()) -> tuple[Evidence | None, str, str]:
        """Run B's setup and finish, capturing what `extra` checks need too.

        Returns:
            (evidence, its folder relative to the run, why it is missing). An attempt the
            runner skipped (setup failed, a rig fault) has no evidence to grade.
        """
        if self.stopped:
            return None, "", f"not run: {self.stopped}"
        attempt = self._attempts[b.id] = self._attempts.get(b.id, 0) + 1
        plan = AttemptPlan(self.run_id, self.run_dir, _merged(b, extra), attempt, self.installed)
        done = run_attempt(plan, self.rig, self._agent(b))
        if done.rig_down:
            self.stopped = done.row.skip_reason
        if done.evidence is None:
            return None, done.row.evidence, done.row.skip_reason or "no evidence was captured"
        return done.evidence, done.row.evidence, ""

    def pair(self, a: Task, b: Task) -> SwapResult:
        """Replay B's finish with A's needs captured; grade it as B and as A."""
        evidence, folder, missing = self.play(b, a.checks)
        return judge(a, b, evidence, folder, missing)


def judge(a: Task, b: Task, evidence: Evidence | None, folder: str, missing: str) -> SwapResult:
    """Grade one piece of evidence of B's finish as B and as A."""
    compatible = b.id in a.compatible_with
    if evidence is None:
        return SwapResult(a.id, b.id, compatible, False, False, f"not scored: {missing}",
                          evidence=folder)
    as_b, as_a = grade(b, evidence), grade(a, evidence)
    if not as_b.passed:
        return SwapResult(a.id, b.id, compatible, as_a.passed, False,
                          f"{b.id}'s finish does not pass {b.id}", _failed(as_b), folder)
    return SwapResult(a.id, b.id, compatible, as_a.passed, True, "",
                      "" if as_a.passed else _failed(as_a), folder)


def _failed(verdict: Verdict) -> str:
    return "; ".join(f"{r.label}: {r.detail}" for r in verdict.failed())


def swap_pairs(swapper: Swapper, pairs: Sequence[tuple[Task, Task]], progress: Progress,
               ) -> list[SwapResult]:
    """Each (A, B): replay B's finish with A's needs; grade as B and A."""
    results = []
    for index, (a, b) in enumerate(pairs, start=1):
        result = swapper.pair(a, b)
        results.append(result)
        progress(result_line(index, len(pairs), result))
    return results


def swap_all(swapper: Swapper, tasks: Sequence[Task], progress: Progress,
             ) -> list[SwapResult]:
    """Every task's finish graded as every other task (the full matrix).

    Pass one replays each finish once with the cheap evidence every task needs (scrolling)
    and grades it as every task on its other checks; pass two replays a finish again, with the
    probes they need, for the tasks whose other checks all passed. An acceptance needs both.
    """
    cheap = [c for t in tasks for c in t.checks if not _costly(c)]
    results: list[SwapResult] = []
    for index, b in enumerate(tasks, start=1):
        evidence, folder, missing = swapper.play(b, cheap)
        pending: list[Task] = []
        for a in (t for t in tasks if t is not b):
            light = tuple(c for c in a.checks if not _costly(c))
            if len(light) == len(a.checks):
                results.append(judge(a, b, evidence, folder, missing))
                continue
            first = judge(replace(a, checks=light), b, evidence, folder, missing) if light \
                else None
            if first is None or (first.scored and first.accepted):
                pending.append(a)  # its probes decide: replay with them
            else:
                results.append(first)
        if pending:
            evidence, folder, missing = swapper.play(b, [c for a in pending for c in a.checks])
            results.extend(judge(a, b, evidence, folder, missing) for a in pending)
        accepted = [r.implied for r in results if r.by == b.id and r.accepted and r.scored]
        progress(f"[{index}/{len(tasks)}] {b.id}: its finish passes {len(accepted)} other "
                 f"task(s)" + (f" ({', '.join(accepted)})" if accepted else ""))
    return results


def result_line(index: int, total: int, r: SwapResult) -> str:
    """One pair for people: verdicts and whether the grader was right."""
    kind = "compatible" if r.compatible else "incompatible"
    if not r.scored:
        return f"[{index}/{total}] {r.implied} <= {r.by}  {kind}  NOT SCORED: {r.skip_reason}"
    verdict = "accepted" if r.accepted else "rejected"
    mark = "correct" if r.correct else "WRONG"
    line = f"[{index}/{total}] {r.implied} <= {r.by}  {kind}, {verdict}: {mark}"
    if not r.accepted and r.detail:
        line += f"\n        {r.detail}"
    return line
