"""Two runs on the same tasks: attempt by attempt (both passed, only A, only B, neither), and task
by task, the unit every test counts: the exact sign test on the tasks where they differ.

A pair is one (task, attempt number) scored in both runs, of the same task: the same version of
its file (task_sha256) on the same kind of phone. An attempt skipped or missing in either run is
left out of the pairs (unpaired), never read as a failure; one of another version or phone kind
is left apart, named, never paired as if it were the same task.

The test counts tasks, not pairs, as the Wilson intervals do (`stats.wilson`): repeats of a task
(`--repeat`) are not independent trials, so one task run six times is one task where A did
better, never six coins. On its pairs, a task is A's when A passed more of them than B did
(A's pass fraction there is higher), B's when B did, even otherwise.

Runs graded by different phoneshells (run.json's version and code digest: `same_grader`) are
paired, and marked: the comparison names both graders and its conclusion says a difference
may be the grader's, not the agents' (every attempt of such runs differs so, and leaving them
all apart would compare nothing).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from phoneshell.grader import same_grader
from phoneshell.report.runs import RunRecord
from phoneshell.report.stats import ALPHA, min_differing, sign_test


@dataclass(frozen=True)
class TaskPairs:
    """One task's pairs in a comparison."""

    task_id: str
    both_passed: int
    only_a: int
    only_b: int
    neither: int
    ahead: Literal["A", "B", ""]
    """Which run passed more of this task's pairs: "A", "B", or "" (as many)."""


@dataclass(frozen=True)
class Comparison:
    """Run A against run B on the attempts both scored."""

    a: str
    """Run A's agent and run: "AGENT @ RUN_ID"."""
    b: str
    pairs: int
    """(task, attempt) scored in both runs: what the four counts below count."""
    both_passed: int
    only_a: int
    """Pairs A passed and B failed."""
    only_b: int
    """Pairs B passed and A failed."""
    neither: int
    unpaired: int
    """(task, attempt) recorded in only one run, or skipped in either: left out."""
    apart: int
    """(task, attempt) scored in both but not the same task: another version of its file
    (task_sha256) or another kind of phone (sim, url, usb). Left out, never paired."""
    apart_tasks: tuple[str, ...]
    """Each task with attempts left `apart`, and why: "calculator.chain: 2 attempt(s), task
    file 1a2b3c4d5e6f vs 9f8e7d6c5b4a"."""
    paired_tasks: int
    """Tasks with at least one pair: the unit of the test (however often each was repeated)."""
    tasks_ahead_a: int
    """Tasks where A passed more of the pairs than B did."""
    tasks_ahead_b: int
    """Tasks where B passed more of the pairs than A did."""
    tasks_even: int
    """Tasks where both passed as many of the pairs."""
    p_value: float
    """The exact two-sided sign test's p-value from tasks_ahead_a and tasks_ahead_b (1.0 when
    they are 0); with one attempt per task, McNemar's exact test on the pairs."""
    too_few: bool
    """Fewer tasks where the runs differ than could ever give p < 0.05 (6): they cannot be told
    apart on these tasks, whatever the split, and however often each was repeated."""
    significant: bool
    """p_value < 0.05."""
    conclusion: str
    """The result in one sentence."""
    per_task: tuple[TaskPairs, ...]
    same_grader: bool = True
    """Whether one phoneshell (version and git commit) graded both runs."""
    graders: str = ""
    """When it did not, which graded each: "A by phoneshell 0.1.0 (git 1a2b3c4d5e6f), B by
    phoneshell 0.2.0 (git 9f8e7d6c5b4a)" ("" when one did)."""


def _conclusion(a: str, b: str, ahead_a: int, ahead_b: int, p: float) -> tuple[bool, str]:
    differ, needed = ahead_a + ahead_b, min_differing()
    if differ < needed:
        return True, (f"too few tasks where they differ to tell them apart: {differ} (at least "
                      f"{needed}, all one way, are needed for p < {ALPHA}; a repeated task "
                      "counts once)")
    if p < ALPHA:
        better = a if ahead_a > ahead_b else b
        return False, (f"{better} passes more often (sign test on tasks: ahead on "
                       f"{max(ahead_a, ahead_b)} of the {differ} where they differ, exact "
                       f"p = {p:.3g})")
    return False, (f"no significant difference (sign test on tasks: A ahead on {ahead_a}, B on "
                   f"{ahead_b}, exact p = {p:.3g})")


def _task_pairs(task_id: str, counts: list[int]) -> TaskPairs:
    both, only_a, only_b, neither = counts
    return TaskPairs(task_id, both, only_a, only_b, neither,
                     "A" if only_a > only_b else "B" if only_b > only_a else "")


def _conditions(run: RunRecord) -> dict[tuple[str, int], tuple[str, str]]:
    """Each attempt's task version (its file's sha256) and kind of phone."""
    return {(x.task_id, x.number): (run.version(x), run.phone_kind(x)) for x in run.attempts}


def _apart(one: tuple[str, str], other: tuple[str, str]) -> str:
    (sha_a, kind_a), (sha_b, kind_b) = one, other
    why = [f"task file {sha_a[:12] or '?'} vs {sha_b[:12] or '?'}"] * (sha_a != sha_b)
    return "; ".join(why + [f"phone {kind_a or '?'} vs {kind_b or '?'}"] * (kind_a != kind_b))


def compare(first: RunRecord, second: RunRecord) -> Comparison:
    """Pair the two runs' scored attempts by task, its version and attempt number (on the same
    kind of phone) and test the difference over the tasks; attempts of another version are
    left apart."""
    a = {(x.task_id, x.number): x.row for x in first.attempts}
    b = {(x.task_id, x.number): x.row for x in second.attempts}
    when_a, when_b = _conditions(first), _conditions(second)
    in_both = [k for k in a if k in b and not a[k].skipped and not b[k].skipped]
    paired = [k for k in in_both if when_a[k] == when_b[k]]
    apart: dict[str, list[str]] = {}
    for key in in_both:
        if when_a[key] != when_b[key]:
            apart.setdefault(key[0], []).append(_apart(when_a[key], when_b[key]))
    tasks: dict[str, list[int]] = {}
    for key in paired:
        counts = tasks.setdefault(key[0], [0, 0, 0, 0])
        passed_a, passed_b = a[key].passed, b[key].passed
        slot = 0 if passed_a and passed_b else 1 if passed_a else 2 if passed_b else 3
        counts[slot] += 1
    per_task = tuple(_task_pairs(t, c) for t, c in tasks.items())
    both = sum(t.both_passed for t in per_task)
    only_a = sum(t.only_a for t in per_task)
    only_b = sum(t.only_b for t in per_task)
    neither = sum(t.neither for t in per_task)
    # one vote a task, as the intervals count: only_a > only_b on a task's pairs is A's pass
    # fraction there above B's, whether it was run once or ten times
    ahead_a = sum(t.ahead == "A" for t in per_task)
    ahead_b = sum(t.ahead == "B" for t in per_task)
    p = sign_test(ahead_a, ahead_b)
    too_few, conclusion = _conclusion(first.label, second.label, ahead_a, ahead_b, p)
    same = same_grader(first.manifest, second.manifest)
    graders = "" if same else f"A by {first.grader}, B by {second.grader}"
    if not same:
        conclusion = ("GRADED BY DIFFERENT PHONESHELLS, so a difference may be the grader's, "
                      f"not the agents': {conclusion}")
    return Comparison(
        a=first.label, b=second.label, pairs=len(paired), both_passed=both, only_a=only_a,
        only_b=only_b, neither=neither, unpaired=len(set(a) | set(b)) - len(in_both),
        apart=len(in_both) - len(paired),
        apart_tasks=tuple(f"{task}: {len(whys)} attempt(s), {'; '.join(dict.fromkeys(whys))}"
                          for task, whys in apart.items()),
        paired_tasks=len(per_task), tasks_ahead_a=ahead_a, tasks_ahead_b=ahead_b,
        tasks_even=len(per_task) - ahead_a - ahead_b, p_value=p, too_few=too_few,
        significant=p < ALPHA, conclusion=conclusion, per_task=per_task, same_grader=same,
        graders=graders)

