"""The static swap test: which tasks pass on any finish of another task, read from check text alone.

Task A is implied by task B when every check of A is implied by some check of B, by A's kind's
rule (`Same`, `Contains`; docs/implication.md). Then any finish of B that passes B passes A too,
so unless B's finish really does what A asks (A lists B in `compatible_with`), A's checks cannot
tell the two requests apart. Pure: reads tasks, never a device.

`implied_pairs` indexes checks so a suite of 10,000 tasks takes seconds; `implied_pairs_naive`
is the plain all-pairs loop the benchmark compares it against.
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from phoneshell.checks import CHECKS, Check
from phoneshell.checks.implied import Contains, Ordered, Same, Suffix, fixed, normal, signature
from phoneshell.tasks import Task


@dataclass(frozen=True)
class Pair:
    """A implied by B: every check of `implied` is implied by a check of `by`."""

    implied: Task
    by: Task
    reasons: tuple[tuple[Check, Check], ...]
    """For each check of A, the check of B that covers it: (a_check, b_check)."""

    @property
    def compatible(self) -> bool:
        """Whether A declares B's finish legitimate (`compatible_with`)."""
        return self.by.id in self.implied.compatible_with


def check_implied(a: Check, b: Check) -> bool:
    """Whether any evidence passing check b passes check a (by a's kind's rule)."""
    return CHECKS.lookup(a.kind).implied_by.implied(a, b)


def _cover(a: Check, by: Task) -> Check | None:
    return next((b for b in by.checks if check_implied(a, b)), None)


def _pair(a: Task, b: Task) -> Pair | None:
    reasons = []
    for check in a.checks:
        cover = _cover(check, b)
        if cover is None:
            return None
        reasons.append((check, cover))
    return Pair(a, b, tuple(reasons)) if reasons else None


def implied_pairs_naive(tasks: Sequence[Task]) -> list[Pair]:
    """Every implied pair by trying all ordered pairs (quadratic; for checking the fast one)."""
    found = []
    for a in tasks:
        for b in tasks:
            if a is not b:
                pair = _pair(a, b)
                if pair is not None:
                    found.append(pair)
    return found


class _Index:
    """The checks of all tasks, indexed so "which tasks imply check a" is a few lookups."""

    def __init__(self, tasks: Sequence[Task]) -> None:
        self.exact: dict[tuple[object, ...], set[int]] = defaultdict(set)
        # (kind, negate, rest) -> normalised text -> task indexes, for substring rules
        self.texts: dict[tuple[object, ...], dict[str, set[int]]] = defaultdict(
            lambda: defaultdict(set))
        self._joined: dict[tuple[object, ...], tuple[str, list[int], list[str]]] = {}
        # kind -> (check, task index) for rules that are compared one by one (few checks)
        self.by_kind: dict[str, list[tuple[Check, int]]] = defaultdict(list)
        self.tasks = tasks
        for index, task in enumerate(tasks):
            for check in task.checks:
                self.by_kind[check.kind].append((check, index))
                rule = CHECKS.lookup(check.kind).implied_by
                if isinstance(rule, Same):
                    self.exact[rule.key(check)].add(index)
                group = (check.kind, check.negate, fixed(check))
                self.texts[group][normal(check.text)].add(index)

    def _containing(self, group: tuple[object, ...], needle: str) -> set[int]:
        """Tasks in `group` with a text containing `needle` (one C-speed scan of all texts)."""
        texts = self.texts.get(group)
        if not texts:
            return set()
        if group not in self._joined:
            keys = list(texts)
            starts, position = [], 0
            for key in keys:
                starts.append(position)
                position += len(key) + 1
            self._joined[group] = ("\0".join(keys), starts, keys)
        joined, starts, keys = self._joined[group]
        found: set[int] = set()
        seen_keys: set[int] = set()
        at = joined.find(needle)
        while at >= 0:
            slot = bisect.bisect_right(starts, at) - 1
            if slot not in seen_keys:
                seen_keys.add(slot)
                found |= texts[keys[slot]]
            # skip to the next text: occurrences inside one text add nothing new
            at = joined.find(needle, starts[slot + 1] if slot + 1 < len(starts) else len(joined))
        return found

    def implying(self, a: Check) -> set[int]:
        """Indexes of tasks with some check that implies `a`."""
        rule = CHECKS.lookup(a.kind).implied_by
        if isinstance(rule, Same):
            return set(self.exact.get(rule.key(a), ()))
        if isinstance(rule, (Ordered, Suffix)):  # rare kinds: compare them one by one
            return {index for b, index in self.by_kind[a.kind] if rule.implied(a, b)}
        assert isinstance(rule, Contains)
        want, rest = normal(a.text), fixed(a)
        found: set[int] = set()
        if a.negate:  # b's text must be a substring of a's: try every substring of a's text
            texts = self.texts.get((a.kind, True, rest), {})
            for i, j in combinations(range(len(want) + 1), 2):
                found |= texts.get(want[i:j], set())
        else:
            for kind in rule.kinds:
                found |= self._containing((kind, False, rest), want)
        # the index groups by text; the rule (element types among them) has the last word
        return {i for i in found if any(rule.implied(a, b) for b in self.tasks[i].checks)}


def implied_pairs(tasks: Sequence[Task]) -> list[Pair]:
    """Every ordered pair (A, B), A != B, where B's checks imply all of A's.

    Pairs come in the order of `tasks` by A, then B; identical to `implied_pairs_naive`.
    """
    index = _Index(tasks)
    cache: dict[tuple[object, ...], set[int]] = {}
    found = []
    for a_index, task in enumerate(tasks):
        candidates: set[int] | None = None
        for check in sorted(task.checks, key=lambda c: c.kind != "foreground_app"):
            key = signature(check)
            if key not in cache:
                cache[key] = index.implying(check)
            candidates = cache[key] if candidates is None else candidates & cache[key]
            if not candidates:
                break
        for b_index in sorted(candidates or ()):
            if b_index != a_index:
                # the index narrows by text; the rules (type restrictions...) decide
                pair = _pair(task, tasks[b_index])
                if pair is not None:
                    found.append(pair)
    return found


def describe_pairs(pairs: Iterable[Pair]) -> list[str]:
    """Text output: pairs grouped by implied task, with which check of B covers which of A."""
    lines: list[str] = []
    by_task: dict[str, list[Pair]] = defaultdict(list)
    order: list[str] = []
    for pair in pairs:
        if pair.implied.id not in by_task:
            order.append(pair.implied.id)
        by_task[pair.implied.id].append(pair)
    for task_id in order:
        group = by_task[task_id]
        lines.append(f"{task_id}  (implied by {len(group)})")
        for pair in group:
            mark = "compatible" if pair.compatible else "NOT compatible"
            lines.append(f"  <= {pair.by.id}  [{mark}]")
            for a_check, b_check in pair.reasons:
                lines.append(f"       {a_check.label()}  covered by  {b_check.label()}")
    return lines
