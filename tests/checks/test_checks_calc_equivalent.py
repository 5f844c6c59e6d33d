"""`tapped_keys` takes the task's computation in any equivalent form: distributed, reordered,
in the Scientific keypad's parentheses. A red team's honest agents were failed for `12 × 5 + 8 ×
5 =` (× binds tighter, as on iOS: the phone showed 100) and for `( 12 + 8 ) × 5 =` in landscape,
while the check counted each number once and knew no parenthesis. Other arithmetic of the same
numbers that happens to show the result (`( 12 − 8 ) × 5 × 5 =` is 100 too) still fails: the
computation is worked again with other numbers in place of the task's, and must agree with the
task's `expression` every time.

Played on the simulated iPhone through the bridge with facebook-wda (turned to landscape for
the Scientific keypad) and graded as the suite's Calculator tasks; the rule also on hand-written
logs.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import wda
from attempt_rig import run_one
from audit_logs import CALC, act, grade, log, tgt

from phoneshell.agents import AgentContext, AgentResult
from phoneshell.checks.worked import judge, operands
from phoneshell.checks.worked_expression import _drawn, parse
from phoneshell.evidence import Claim
from phoneshell.keypad import CLOSE, OPEN
from phoneshell.records import ResultRow
from phoneshell.sim import SimServer
from phoneshell.tasks import Task

NAMES = {"×": "multiply", "÷": "divide", "+": "add", "−": "subtract", "=": "equals",
         "%": "percent", ".": "Decimal", "AC": "All clear", "(": OPEN, ")": CLOSE}


def keys(written: str) -> list[str]:
    """`( 1 2 + 8 ) × 5 =` as the keys' accessibility names."""
    return [NAMES.get(k, k) for k in written.split()]


class Keyer:
    """An agent that keys its presses on Calculator, turned to landscape when `turned`."""

    name = "keyer"

    def __init__(self, written: str, turned: bool = False) -> None:
        self.keys, self.turned = keys(written), turned

    def run(self, context: AgentContext) -> AgentResult:
        c = wda.Client(context.wda_url)
        c.app_launch(CALC)
        if self.turned:
            c.orientation = "LANDSCAPE"
        for key in self.keys:
            c(className="XCUIElementTypeButton", label=key).click()
        return AgentResult(ran=True, turns=1, claim=Claim(status="done"))


def played(sim: SimServer, runs: Path, task: Task, written: str, turned: bool) -> ResultRow:
    row: ResultRow = run_one(sim, runs, task, Keyer(written, turned)).row
    assert row.outcome != "skipped", row.skip_reason
    return row


def failed(row: ResultRow) -> dict[str, str]:
    return {c.kind: c.detail for c in row.checks if not c.passed}


@pytest.mark.parametrize(("task_id", "written", "turned"), [
    ("calculator.chain", "1 2 × 5 + 8 × 5 =", False),  # the red team's: distributed
    ("calculator.chain", "5 × 8 + 5 × 1 2 =", False),
    ("calculator.chain", "( 1 2 + 8 ) × 5 =", True),  # the red team's: the Scientific keypad
    ("calculator.chain", "5 × ( 8 + 1 2 ) =", True),
    ("calculator.percentage", "( 1 5 ÷ 1 0 0 ) × 2 4 0 =", True),
    ("calculator.arithmetic", "9 × ( 4 7 ) =", True),
])
def test_an_equivalent_form_of_the_task_computation_passes_the_whole_task(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task], task_id: str, written: str,
        turned: bool) -> None:
    row = played(sim, tmp_path, suite[task_id], written, turned)
    assert row.outcome == "passed", failed(row)
    worked = next(c for c in row.checks if c.kind == "tapped_keys")
    assert "was the last keyed" in worked.detail, worked.detail


@pytest.mark.parametrize(("task_id", "written", "turned", "why"), [
    # shows 100 from 12, 8 and 5, by other arithmetic
    ("calculator.chain", "( 1 2 − 8 ) × 5 × 5 =", True, "shows 100 but is not (12 + 8) × 5"),
    ("calculator.chain", "5 × 5 × 1 2 − 5 × 5 × 8 =", False, "is not (12 + 8) × 5"),
    # 423 as 47 added up nine times: the 9 keyed only to cancel out
    ("calculator.arithmetic", " ".join(["4 7 +"] * 8) + " 4 7 + 9 − 9 =", False,
     "shows 423 but is not 47 × 9"),
    # the red team's other 100: no 5 in it
    ("calculator.chain", "1 2 × 8 + 1 2 − 8 =", False, "keys 12, 8, 12, 8; wanted each of"),
    # the result keyed in, in parentheses
    ("calculator.chain", "( 1 0 0 ) =", True, "keys 100"),
])
def test_other_arithmetic_that_shows_the_result_fails_only_tapped_keys(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task], task_id: str, written: str,
        turned: bool, why: str) -> None:
    row = played(sim, tmp_path, suite[task_id], written, turned)
    assert set(failed(row)) == {"tapped_keys"}, failed(row)  # the display shows the result
    assert why in failed(row)["tapped_keys"], failed(row)


# the rule, on hand-written logs ---------------------------------------------------------------

def keyed(written: str, kind: str = "XCUIElementTypeButton") -> list[list[object]]:
    return [act(n, "tap", CALC, CALC, target=tgt(kind, k, k))
            for n, k in enumerate(keys(written), start=1)]


def graded(task: Task, actions: list[list[object]]) -> tuple[bool, str]:
    check = next(c for c in task.checks if c.kind == "tapped_keys")
    return grade("tapped_keys", log(*actions), **dict(check.values))


def test_scientific_keys_the_check_cannot_replay_fail_it_saying_so(
        suite: dict[str, Task]) -> None:
    chain = suite["calculator.chain"]
    passed, detail = graded(chain, keyed("1 2 + 8 = × 5 = sin ="))
    assert not passed and "a tap on 'sin' (a Scientific key: of those only ( and ) are " \
        "replayed), which the check cannot replay" in detail, detail
    passed, detail = graded(chain, keyed("1 2 ( 8 + 5 ) ="))  # ( after a number: × or not?
    assert not passed and "has a ( right after 2" in detail, detail
    passed, detail = graded(chain, keyed("( 1 2 + 8 ) × 5 ) ="))
    assert not passed and "a ) with no ( open before it" in detail, detail
    # by the names a phone may give them, as Buttons or (iOS 26, as captured) Keys
    for open_, close in (("(", ")"), ("Open parenthesis", "Close parenthesis")):
        assert graded(chain, taps([open_, "1", "2", "add", "8", close, "multiply", "5",
                                   "equals"], "XCUIElementTypeKey"))[0], open_
    point = taps(["2", "4", "0", "multiply", "Point", "1", "5", "equals"], "XCUIElementTypeKey")
    assert graded(suite["calculator.percentage"], point)[0]


def taps(labels: list[str], kind: str) -> list[list[object]]:
    return [act(n, "tap", CALC, CALC, target=tgt(kind, k, k))
            for n, k in enumerate(labels, start=1)]


@pytest.mark.parametrize(("written", "passes", "why"), [
    ("1 2 + 8 = AC 2 0 × 5 =", True, "carrying 20 from 12 + 8 ="),
    ("8 + 1 2 = AC 5 × 2 0 =", True, "carrying 20 from 8 + 12 ="),
    ("( 8 + 1 2 ) = AC 2 0 × 5 =", False, "keys 20, 5"),  # = after ): no carry from a repeat
    # carried, and the two together key 12, 8, 5 and 5: (12 − 8) × 5 × 5 is no (12 + 8) × 5
    ("1 2 − 8 = AC 4 × 5 × 5 =", False, "keys 4, 5, 5"),
])
def test_a_carried_result_counts_only_as_the_same_computation(
        suite: dict[str, Task], written: str, passes: bool, why: str) -> None:
    passed, detail = graded(suite["calculator.chain"], keyed(written))
    assert passed is passes and why in detail, detail


def test_equivalence_holds_for_every_spelling_and_helper_and_nothing_else() -> None:
    pct = operands("36", ["240", "15 0.15"], ["100"], "15 % × 240")
    for honest in ("2 4 0 × 1 5 % =", ". 1 5 × 2 4 0 =", "1 5 ÷ 1 0 0 × 2 4 0 =",
                   "2 4 0 + 1 5 %", "2 4 0 × . 1 5 =", "( 2 4 0 × 1 5 ) ÷ 1 0 0 ="):
        assert judge(keys(honest), pct)[0], honest
    passed, detail = judge(keys(". 1 5 × 2 4 0 × 1 0 0 ÷ 1 0 0 ="), pct)
    assert not passed and "keys 0.15, 240, 100, 100" in detail, detail  # a helper once
    chain = operands("100", ["12", "8", "5"], [], "(12 + 8) × 5")
    for written in ("1 2 × 5 + 8 × 5 =", "8 × 5 + 1 2 × 5 =", "( 5 × 1 2 ) + ( 8 × 5 ) =",
                    "( ( 1 2 + 8 ) ) × 5 ="):
        assert judge(keys(written), chain)[0], written
    passed, detail = judge(keys("( 1 2 − 8 ) × 5 × 5 ="), chain)
    assert not passed and detail == (
        "the computation ( 12 − 8 ) × 5 × 5 = shows 100 but is not (12 + 8) × 5: worked with "
        "other numbers in place of 12 and 8 and 5, it computes something else"), detail


def test_the_draws_follow_from_the_keys_so_a_grade_made_twice_is_the_same() -> None:
    chain = parse("(12 + 8) × 5")
    keys = ["1", "2", "multiply", "5", "add", "8", "multiply", "5", "equals"]

    def numbers(keyed: list[str]) -> list[int]:
        rng = _drawn(keyed, [], chain)
        return [rng.randint(1001, 999999) for _ in range(5)]

    assert numbers(keys) == numbers(list(keys))  # `phoneshell grade` agrees with the run
    assert numbers(keys) != numbers(["0", *keys])  # any key added draws other numbers
