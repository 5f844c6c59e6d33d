"""`tapped_keys` with `result`: the agent's last computation on Calculator, replayed as the phone
computes it, must show the result from the task's own numbers. Any honest order passes (no task
lists them), and so does a slip put right with the backspace or a sideways swipe on the display;
the result keyed in, numbers the instruction does not give, a number keyed twice to cancel out,
or a computation keyed onto a result keyed before, fail.

Played on the simulated iPhone through the bridge with facebook-wda, graded as the suite's three
Calculator tasks; one task copy runs whole through `phoneshell run`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import wda
from attempt_rig import run_one
from audit_logs import CALC, act, grade, log, tgt

from phoneshell.agents import AgentContext, AgentResult
from phoneshell.evidence import Claim
from phoneshell.keypad import CalculatorState, display, press, work
from phoneshell.records import ResultRow
from phoneshell.sim import SimServer
from phoneshell.tasks import Task
from phoneshell.tasks.parse import parse_task

ROOT = Path(__file__).resolve().parents[2]
NAMES = {"×": "multiply", "÷": "divide", "+": "add", "−": "subtract", "=": "equals",
         "%": "percent", ".": "Decimal", "AC": "All clear", "C": "Clear", "±": "change sign",
         "⌫": "Delete"}
SWIPES = {"«": -1, "»": 1}
"""A one-finger swipe across the display, left or right: 30 points from its centre (on a
one-digit display, 23 points wide either side of it, a swipe must start on it)."""


def keys(written: str) -> list[str]:
    """`2 4 0 × 1 5 % =` as the keys' accessibility names."""
    return [NAMES.get(k, k) for k in written.split()]


class Keyer:
    """An agent that keys its presses on Calculator through the URL it is given."""

    name = "keyer"

    def __init__(self, written: str) -> None:
        self.keys = keys(written)

    def run(self, context: AgentContext) -> AgentResult:
        """Key the presses and claim done."""
        c = wda.Client(context.wda_url)
        c.app_launch(CALC)
        for key in self.keys:
            if key in SWIPES:  # as the red team's agent swiped: W3C actions from the centre
                x, y, width, height = c(name="Result").get(timeout=1).bounds
                x, y, way = x + width // 2, y + height // 2, SWIPES[key]
                c._session_http.post("/actions", data={"actions": [{
                    "type": "pointer", "id": "finger1", "parameters": {"pointerType": "touch"},
                    "actions": [{"type": "pointerMove", "duration": 0, "x": x, "y": y},
                                {"type": "pointerDown", "button": 0},
                                {"type": "pointerMove", "duration": 200, "x": x + 30 * way,
                                 "y": y},
                                {"type": "pointerUp", "button": 0}]}]})
            else:
                c(className="XCUIElementTypeButton", name=key).click()
        return AgentResult(ran=True, turns=1, claim=Claim(status="done"))


def played(sim: SimServer, runs: Path, task: Task, written: str) -> ResultRow:
    row: ResultRow = run_one(sim, runs, task, Keyer(written)).row
    assert row.outcome != "skipped", row.skip_reason
    return row


def failed(row: ResultRow) -> dict[str, str]:
    return {c.kind: c.detail for c in row.checks if not c.passed}


HONEST = [  # orders none of the tasks listed before: each failed then
    ("calculator.arithmetic", "4 7 × 8 ⌫ 9 ="),  # a slip deleted with the backspace
    ("calculator.arithmetic", "4 2 ⌫ ⌫ 4 7 × 9 ="),  # every digit deleted drops the 42
    ("calculator.arithmetic", "4 8 » 7 × 9 ="),  # the red team's: a swipe deletes the 8
    ("calculator.arithmetic", "4 7 × 9 1 « ="),
    ("calculator.chain", "1 2 3 « + 8 = × 5 ="),
    ("calculator.percentage", "2 4 0 + 1 5 %"),  # iOS shows 15 % of 240 after +
    ("calculator.percentage", "1 5 × 2 4 0 % ="),
    ("calculator.percentage", "2 4 0 ÷ 1 0 0 = × 1 5 ="),
    ("calculator.chain", "1 2 + 9 ⌫ 8 = × 5 ="),
    ("calculator.chain", "8 + 1 2 = × 2 ⌫ 5 ="),
] + [  # orders they listed, still passing
    ("calculator.arithmetic", "4 2 = 4 7 × 9 ="),
    ("calculator.percentage", ". 1 5 × 2 4 0 = = AC 0 . 1 5 × 2 4 0 ="),
    ("calculator.percentage", "1 5 × 2 4 0 ÷ 1 0 0 ="),
    ("calculator.chain", "5 × 8 = AC 8 + 1 2 = × 5 ="),
]


@pytest.mark.parametrize(("task_id", "written"), HONEST)
def test_an_honest_order_nobody_listed_passes_the_whole_task(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task], task_id: str,
        written: str) -> None:
    row = played(sim, tmp_path, suite[task_id], written)
    assert row.outcome == "passed", failed(row)
    worked = next(c for c in row.checks if c.kind == "tapped_keys")
    assert "was the last keyed" in worked.detail, worked.detail


CHEATS = [
    # the result keyed alone, or onto the last computation's = (which it repeats)
    ("calculator.arithmetic", "4 2 3 =", "keys 423"),
    ("calculator.arithmetic", "1 × 9 = 4 7 =",
     "keys 47; wanted each of 47 and 9, and no other number"),
    # every key tapped, in any order, cleared, then the result keyed in
    ("calculator.arithmetic", "9 7 4 × AC 4 2 3 =", "keys 423"),
    ("calculator.chain", "5 = 8 2 1 + × AC 1 0 0 =", "keys 100"),
    ("calculator.percentage", "0 4 2 5 1 % × AC 3 6 =", "keys 36"),
    # the result keyed onto a pending operation, then the computation: the display shows it
    ("calculator.percentage", "3 6 + 0 × 5 ⌫ 2 4 0 × 1 5 % =",
     "was keyed after 36 + 0 × 5 ⌫ with no = or All clear between"),
    ("calculator.arithmetic", "4 2 3 + 0 × 5 » 4 7 × 9 =",
     "was keyed after 423 + 0 × 5 ⌫(swipe) with no = or All clear between"),
    # the result keyed alone, a digit deleted on the way; the task's numbers keyed and deleted
    ("calculator.arithmetic", "4 2 3 4 » =", "keys 423"),
    ("calculator.arithmetic", "9 « 4 7 ⌫ « 4 2 3 + 0 =", "keys 423, 0"),
    ("calculator.arithmetic", "4 2 3 + 0 × 4 7 × 9 =", "was keyed after 423 + 0 ×"),
    # numbers other than the task's
    ("calculator.arithmetic", "4 2 3 × 1 =", "keys 423, 1"),
    ("calculator.chain", "5 0 × 2 =", "keys 50, 2"),
    ("calculator.percentage", "7 2 ÷ 2 =", "keys 72, 2"),
    # a number of the task keyed twice, to cancel out around the result keyed in
    ("calculator.percentage", "1 5 − 1 5 + 3 6 =", "keys 15, 15, 36"),
    ("calculator.chain", "1 2 0 − 1 2 − 8 =", "keys 120, 12, 8"),
    ("calculator.arithmetic", "4 7 ÷ 4 7 × 4 2 3 =", "keys 47, 47, 423"),
]


@pytest.mark.parametrize(("task_id", "written", "why"), CHEATS)
def test_a_result_not_worked_out_from_the_task_numbers_fails_on_tapped_keys(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task], task_id: str, written: str,
        why: str) -> None:
    row = played(sim, tmp_path, suite[task_id], written)
    assert set(failed(row)) == {"tapped_keys"}, failed(row)  # the display shows the result
    assert why in failed(row)["tapped_keys"], failed(row)


# the rule, on hand-written logs ---------------------------------------------------------------

def keyed(written: str, start: int = 1) -> list[list[object]]:
    return [act(n, "tap", CALC, CALC, target=tgt("XCUIElementTypeButton", k, k))
            for n, k in enumerate(keys(written), start=start)]


def graded(task: Task, *actions: list[object]) -> tuple[bool, str]:
    check = next(c for c in task.checks if c.kind == "tapped_keys")
    return grade("tapped_keys", log(*actions), **dict(check.values))


def test_what_the_check_cannot_replay_fails_it_and_an_unresolved_tap_leaves_it_unproven(
        suite: dict[str, Task]) -> None:
    task = suite["calculator.arithmetic"]
    swiped = [*keyed("4 7 × 9"), act(5, "swipe", CALC, CALC, from_x=300, from_y=200, to_x=100,
                                     to_y=200), act(6, "tap", CALC, CALC,
                                                    target=tgt("XCUIElementTypeButton", "=",
                                                               "equals"))]
    passed, detail = graded(task, *swiped)
    assert not passed and "no key press (only a sideways swipe on the display" in detail, detail
    passed, detail = graded(task, *keyed("4 7 × 9 ± ± ="))
    assert not passed and "sign change" in detail, detail
    pasted = [*keyed("4 7 × 9 ="), act(6, "tap", CALC, CALC,
                                       target=tgt("XCUIElementTypeMenuItem", "Paste", "Paste"))]
    passed, detail = graded(task, *pasted)
    assert not passed and "a tap on 'Paste'" in detail, detail
    display = act(3, "tap", CALC, CALC, target=tgt("XCUIElementTypeStaticText", "7", "Result"))
    four, _, times, nine, equals = keyed("4 7 × 9 =")
    passed, detail = graded(task, four, display, times, nine, equals)
    assert not passed and "keys 4, 9" in detail, detail  # the display reading 7 is no 7 key
    # a tap that keys nothing (the display, blank space), after it or within it, is no key
    blank = act(6, "tap", CALC, CALC, target=tgt("XCUIElementTypeOther", "", ""))
    shown = act(7, "tap", CALC, CALC, target=tgt("XCUIElementTypeStaticText", "423", "Result"))
    assert graded(task, *keyed("4 7 × 9 ="), blank, shown)[0]
    blind = [*keyed("4 7 ×"), act(4, "tap", CALC, CALC, x=1, y=1),
             act(5, "tap", CALC, CALC, target=tgt("XCUIElementTypeButton", "equals", "equals"))]
    passed, detail = graded(task, *blind)
    assert not passed and "a tap on no element the bridge resolved" in detail, detail
    assert graded(task, *keyed("4 7 × 9 ="))[0]


def test_what_leaves_the_display_as_it_was_is_passed_over_and_a_relaunch_is_not(
        suite: dict[str, Task]) -> None:
    """A second session opened, settings set, a pause, Calculator brought to the front while in
    front: what it shows stays, so the computation goes on across them (red team 47: a bare
    second session failed an honest 47 x 9 as keyed "after swipe"). A launch starts it anew."""
    task = suite["calculator.arithmetic"]
    four, seven = keyed("4 7")
    times, nine, equals = keyed("× 9 =", start=4)  # seq 3 is what comes between
    for between in (act(3, "other", CALC, CALC, route="/session"),
                    act(3, "other", CALC, CALC, route="/session/S/appium/settings",
                        settings="snapshotMaxDepth"),
                    act(3, "other", CALC, CALC, route="/session/S/actions"),
                    act(3, "activate", CALC, CALC, bundle_id=CALC)):
        assert graded(task, four, seven, between, times, nine, equals)[0], between
    for breaks in (act(3, "launch", CALC, CALC, bundle_id=CALC),
                   act(3, "other", CALC, "com.apple.springboard", route="/session")):
        passed, detail = graded(task, four, seven, breaks, times, nine, equals)
        assert not passed, (breaks, detail)
    # the app relaunched while in front before the computation: it starts from 0, nothing is
    # pending (fixer U: an honest open_app Calculator, twice, failed as keyed "after swipe")
    relaunch = act(0, "launch", CALC, CALC, bundle_id=CALC)
    assert graded(task, relaunch, four, seven, times, nine, equals)[0]


@pytest.mark.parametrize(("task_id", "written", "passes", "why"), [
    # an honest chain: the sum worked out, then carried by hand into the product
    ("calculator.chain", "1 2 + 8 = AC 2 0 × 5 =", True, "carrying 20 from 12 + 8 ="),
    ("calculator.chain", "8 + 1 2 = 5 × 2 0 =", True, "carrying 20 from 8 + 12 ="),
    # a result carried from a computation of numbers the task does not give
    ("calculator.chain", "5 × 4 = AC 2 0 × 5 =", False, "keys 20, 5"),
    ("calculator.arithmetic", "4 7 × 3 = AC 1 4 1 × 3 =", False, "keys 141, 3"),
    # carried more than once, or the result keyed after a carry-shaped start
    ("calculator.chain", "1 2 + 8 = AC 2 0 + 2 0 + 2 0 + 2 0 + 2 0 =", False, "keys 20, 20"),
    ("calculator.chain", "1 2 + 8 = AC 1 0 0 × 1 =", False, "keys 100, 1"),
    # the carry must come from the latest computation that shows it
    ("calculator.chain", "1 2 + 8 = 4 × 5 = AC 2 0 × 5 =", False, "keys 20, 5"),
    # what the check cannot replay alone it cannot replay carried: a ) with no ( open, after
    # the carry or in the computation carried from (the carry took them once)
    ("calculator.chain", "1 2 + 8 = AC 2 0 × 5 ) =", False, "a ) with no ( open before it"),
    ("calculator.chain", "1 2 + 8 ) = AC 2 0 × 5 =", False, "keys 20, 5"),
])
def test_a_result_carried_by_hand_from_the_computation_before_counts(
        suite: dict[str, Task], task_id: str, written: str, passes: bool, why: str) -> None:
    """A red team's honest agent worked (12 + 8) x 5 as 12 + 8 =, All clear, 20 x 5 =: the
    last computation keys 20, which the instruction does not give, but the one before showed
    it from the task's numbers. Only that carry counts, once, and only from a computation of
    the task's own numbers."""
    passed, detail = graded(suite[task_id], *keyed(written))
    assert passed is passes and why in detail, detail


def on_display(seq: int, shown: str, **params: object) -> list[object]:
    """A swipe as the bridge logs one that went down on the display reading `shown`."""
    return act(seq, "swipe", CALC, CALC, target=tgt("XCUIElementTypeStaticText", shown, "Result",
                                                    shown), **params)


def test_a_sideways_swipe_on_the_display_is_replayed_as_a_delete_and_no_other_swipe_is(
        suite: dict[str, Task]) -> None:
    """4, 8, a swipe across the display, 7 x 9 =: the phone shows 423, and the check replays
    the swipe as the digit it deleted. A swipe it cannot tell deleted (up or down, too short,
    from the screen's left edge, two fingers, no resolved target, WDA's scroll) fails it."""
    task = suite["calculator.arithmetic"]

    def with_swipe(swipe: list[object]) -> tuple[bool, str]:
        return graded(task, *keyed("4 8"), swipe, *keyed("7 × 9 =", start=4))

    for honest in (dict(from_x=301, from_y=290, to_x=381, to_y=290, gesture="actions"),
                   dict(from_x=360, from_y=290, to_x=330, to_y=300, gesture="drag"),
                   dict(direction="left", element="e1", gesture="swipe")):
        passed, detail = with_swipe(on_display(3, "48", **honest))
        assert passed and "48 ⌫(swipe) 7 × 9 = was the last keyed" in detail, (honest, detail)
        assert "from 47, 9" in detail, detail
    for odd in (dict(from_x=340, from_y=290, to_x=345, to_y=340, gesture="actions"),
                dict(from_x=340, from_y=290, to_x=355, to_y=290, gesture="actions"),
                dict(from_x=10, from_y=290, to_x=90, to_y=290, gesture="actions"),
                dict(from_x=301, from_y=290, to_x=381, to_y=290, gesture="multi_touch",
                     fingers=2),
                dict(direction="left", element="e1", gesture="scroll", distance=1.0),
                dict(direction="up", element="e1", gesture="swipe")):
        passed, detail = with_swipe(on_display(3, "48", **odd))
        assert not passed and "48 swipe 7 × 9 = has an action that is no key press" in detail, \
            (odd, detail)
    unresolved = act(3, "swipe", CALC, CALC, from_x=301, from_y=290, to_x=381, to_y=290)
    assert not with_swipe(unresolved)[0]
    on_a_key = act(3, "swipe", CALC, CALC, target=tgt("XCUIElementTypeButton", "9", "9"),
                   from_x=301, from_y=590, to_x=381, to_y=590)
    assert not with_swipe(on_a_key)[0]
    # the backspace, by its name or another, deletes as the swipe does; iOS 17's C still clears
    delete = act(3, "tap", CALC, CALC, target=tgt("XCUIElementTypeButton", "Delete", "Delete"))
    assert with_swipe(delete)[0]
    other = act(3, "tap", CALC, CALC, target=tgt("XCUIElementTypeButton", "Backspace", ""))
    assert with_swipe(other)[0]
    assert graded(task, *keyed("4 7 × 8 C 9 ="))[0]
    # a swipe after the last =, on the result, changes nothing: the computation still counts
    assert graded(task, *keyed("4 7 × 9 ="), on_display(6, "423", from_x=380, from_y=290,
                                                        to_x=330, to_y=290))[0]


def test_the_computation_ends_on_equals_and_shows_the_result_as_the_phone_computes_it(
        suite: dict[str, Task]) -> None:
    chain, pct = suite["calculator.chain"], suite["calculator.percentage"]
    passed, detail = graded(chain, *keyed("1 2 + 8 × 5 ="))
    assert not passed and "shows 52, not 100" in detail, detail  # × binds tighter
    passed, detail = graded(pct, *keyed("2 4 0 × 1 5 %"))
    assert not passed and "shows 0.15, not 36" in detail, detail  # % after × shows 15 %
    passed, detail = graded(chain, *keyed("1 2 + 8 = × 5 = AC"))
    assert not passed and "ends on AC" in detail, detail
    passed, detail = graded(pct, *keyed("2 4 0 × 1 5 ÷ 1 0 0 ÷ 1 0 0 × 1 0 0 ="))
    assert not passed and "keys 240, 15, 100, 100, 100" in detail, detail  # a helper once


def test_the_check_replays_the_arithmetic_the_simulated_calculator_shows() -> None:
    """One keypad for both: what the check computes for a run of keys is what the phone
    showed after them."""
    for written in ("2 4 0 + 1 5 %", "1 5 % × 2 4 0 =", "4 7 × 8 C 9 = =", "1 ÷ 0 =",
                    "1 2 + 8 × 5 =", ". 1 5 × 2 4 0 =", "4 8 ⌫ 7 × 9 ⌫ 9 =", "3 + 4 ⌫ 5 ="):
        state = CalculatorState()
        for key in keys(written):
            press(state, key)
        assert work(keys(written)).shown == display(state), written


@pytest.mark.parametrize(("fields", "problem"), [
    ("keys: ['4', equals]\n  result: '4'\n  numbers: ['4']", "needs either `keys`"),
    ("numbers: ['47', '9']", "needs either `keys`"),
    ("result: '423'", "with `result` needs `numbers`"),
    ("result: '423'\n  numbers: ['47', 'nine']\n  expression: '47 × 9'",
     "has 'nine' in `numbers`"),
    ("keys: ['4']\n  helpers: ['100']", "takes `helpers` only with `result`"),
    ("result: '423'\n  numbers: ['47', '9']\n  also: ['9 equals']", "takes `also` only"),
    # the computation the task asks for: there, a computation, of `numbers`, coming to `result`
    ("result: '423'\n  numbers: ['47', '9']", "with `result` needs `expression`"),
    ("result: '423'\n  numbers: ['47', '9']\n  expression: '47 times 9'",
     "has 'times 9' in `expression`"),
    ("result: '423'\n  numbers: ['47', '9']\n  expression: '(47 × 9'",
     "has `expression` '(47 × 9', which has a ( that is never closed"),
    ("result: '423'\n  numbers: ['47', '9']\n  expression: '47 × 8'",
     "has 8 in `expression`, which is none of `numbers`"),
    ("result: '423'\n  numbers: ['47', '9']\n  expression: '47 × 47'", "has no 9 in `expression`"),
    ("result: '423'\n  numbers: ['47', '9']\n  expression: '47 + 9'",
     "has `expression` '47 + 9', which is 56, not `result` 423"),
    ("keys: ['4']\n  expression: '4'", "takes `expression` only with `result`"),
    # `result` and each helper are one number: the loader read them by their words once (a
    # result of two crashed it; a helper of two loaded, and crashed the grade)
    ("result: '4 23'\n  numbers: ['47', '9']\n  expression: '47 × 9'",
     "has '4 23' in `result`, which is not a number"),
    ("result: '423'\n  numbers: ['47', '9']\n  helpers: ['1 2']\n  expression: '47 × 9'",
     "has '1 2' in `helpers`, which is not a number"),
])
def test_a_check_mixing_the_two_forms_fails_to_load_at_its_line(fields: str,
                                                                 problem: str) -> None:
    text = textwrap.dedent("""\
        id: demo
        name: Demo
        app: com.apple.calculator
        difficulty: easy
        tags: [calculator]
        instruction: Work out 47 times 9.
        setup:
        - terminate: com.apple.calculator
        checks:
        - kind: tapped_keys
          FIELDS
        teardown:
        - terminate: com.apple.calculator
        """).replace("FIELDS", fields)
    task, problems = parse_task(text, "demo.yaml")
    assert task is None and any(problem in str(p) and p.line >= 10 for p in problems), \
        [str(p) for p in problems]


# a whole task through the CLI -----------------------------------------------------------------

@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_phoneshell_run_passes_a_task_whose_finish_keys_an_order_nobody_listed(
        tmp_path: Path) -> None:
    """calculator.percentage finished with 240 + 15 %: iOS shows 36, 15 % of 240, and before
    the check replayed the computation no listed order matched it."""
    text = (ROOT / "environments" / "calculator.percentage.yaml").read_text()
    solution = text[text.index("solution:"):]
    finish = "".join(f"- tap: '{k}'\n" for k in keys("2 4 0 + 1 5 %"))
    copy = text.replace(solution, "solution:\n- open_app: Calculator\n" + finish)
    (tmp_path / "pct.yaml").write_text(copy.replace("id: calculator.percentage",
                                                    "id: calculator.percentage.plus"))
    env = {**os.environ, "PYTHONWARNINGS": "error"}
    done = subprocess.run([sys.executable, "-m", "phoneshell", "run", str(tmp_path / "pct.yaml"),
                           "--runs", str(tmp_path / "runs"), "--format", "json"],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    rows = [json.loads(line) for p in (tmp_path / "runs").rglob("results.jsonl")
            for line in p.read_text().splitlines()]
    assert [r["outcome"] for r in rows] == ["passed"], rows
    worked = next(c for c in rows[0]["checks"] if c["kind"] == "tapped_keys")
    assert "240 + 15 % was the last keyed: it shows 36" in worked["detail"], worked


def test_a_long_run_of_keys_is_graded_quickly_with_a_short_detail(
        suite: dict[str, Task]) -> None:
    """Thousands of presses, then the computation keyed onto them: the detail names the last
    of them, not all."""
    run = keyed(" ".join(["1 5 +"] * 1500) + " 2 4 0 × 1 5 % =")
    passed, detail = graded(suite["calculator.percentage"], *run)
    assert not passed and len(detail) < 300, detail
    assert detail.startswith("the computation 240 × 15 % = was keyed after … 15 +"), detail
