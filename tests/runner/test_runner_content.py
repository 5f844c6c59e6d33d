"""What an agent leaves showing cannot steer the harness's own taps: a Safari tab left on a page
headed "Address", a note titled "Search". Setups and reference finishes name the type of the
control they tap, so an honest attempt after such an agent is played and scored, not skipped
(a setup that fails is a skip, and an agent could make it one at will). And what the end state
is read against: the simulator's clock, which stands still."""

from __future__ import annotations

from pathlib import Path

import pytest
from attempt_rig import run_one
from runner.finish_then import FinishThen

from phoneshell.agents import AgentContext, AgentResult
from phoneshell.agents.reference import SolutionAgent
from phoneshell.device import Phone, run_steps
from phoneshell.evidence import load_evidence
from phoneshell.sim import SimServer
from phoneshell.tasks import Step, Task

SAFARI, NOTES = "com.apple.mobilesafari", "com.apple.mobilenotes"


@pytest.mark.slow  # 1.7 s measured: the README's command stays quick
def test_a_page_headed_address_does_not_steer_the_next_safari_setup(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    # a web search for "address" in the tab in front: its results show the word, which an
    # untyped `tap: Address` took for the address field
    searched = FinishThen((Step.tap_on("Address", "TextField"), Step("type", "address\n")))
    run_one(sim, tmp_path, suite["safari.navigate.example"], searched)  # ends off the task
    for n, task_id in enumerate(("safari.read.heading", "safari.search.web"), start=2):
        row = run_one(sim, tmp_path, suite[task_id], SolutionAgent(), attempt=n).row
        assert row.outcome == "passed", (task_id, row.skip_reason, row.checks)


def test_a_note_titled_search_does_not_steer_the_notes_search_finish(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    titled = FinishThen((Step("launch", NOTES), Step.tap_on("New Note", "Button"),
                     Step("type", "Search"), Step.tap_on("Done", "Button"),
                     Step("terminate", NOTES)))
    run_one(sim, tmp_path, suite["settings.about.reach"], titled)
    row = run_one(sim, tmp_path, suite["notes.search"], SolutionAgent(), attempt=2).row
    assert row.outcome == "passed", (row.skip_reason, row.checks)


def test_evidence_from_the_simulator_says_its_clock_stood_still(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    """Its timers do not tick, so `countdown` must not add the seconds an agent took after
    Start (a slow honest agent failed clock.timer.set on it, and a 4-minute timer read a
    minute later passed as a 5-minute one)."""
    row = run_one(sim, tmp_path, suite["clock.timer.set"], SolutionAgent()).row
    assert row.passed, row.checks
    evidence = load_evidence(tmp_path / "r1" / row.evidence)
    assert "clock_still" in evidence.flags


class BlankHolder(SolutionAgent):
    """Types the word into a new note, then holds blank space below it instead of the word."""

    def run(self, context: AgentContext) -> AgentResult:
        phone = Phone(context.wda_url, effect_timeout_s=1.0)
        run_steps(phone, (Step("open_app", "Notes"), Step.tap_on("New Note", "Button"),
                          Step("type", "anchor")))
        phone.touch_and_hold(200, 500, 1.0)
        return AgentResult(ran=True)


@pytest.mark.slow  # 1.7 s measured: the README's command stays quick
def test_holding_blank_space_is_not_holding_the_word(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    """Blank space held shows the caret's menu (Select, Select All, Paste), the word held its
    own (Cut, Copy, Look Up): only the word passes notes.text_select, and the reference finish
    holds the word, inside the note's text view, where its middle is blank."""
    task = suite["notes.text_select"]
    blank = run_one(sim, tmp_path / "blank", task, BlankHolder()).row
    assert blank.outcome == "failed"
    assert [c.kind for c in blank.checks if not c.passed] == ["regex_on_screen"]
    honest = run_one(sim, tmp_path / "word", task, SolutionAgent(), attempt=2).row
    assert honest.passed, honest.checks
