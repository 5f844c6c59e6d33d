"""What the attack counts as the checks rejecting a finish: only a finish played in full and
graded. One that stopped at a step is not played (said, with the step and its error); a family
all of whose finishes for a task stopped tested nothing of it; a grading that errored is not
scored (red team 111). Played on the simulated iPhone through the bridge."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
import wda

from phoneshell.attack import not_played, not_scored, play_attacks, untested
from phoneshell.attack.families import SEARCH_FIELD_APPS
from phoneshell.attack.play import summary_lines
from phoneshell.checks import Check
from phoneshell.records import AttackFamily, AttackReport, AttackResult
from phoneshell.replays import Swapper
from phoneshell.runner.rig import open_rig
from phoneshell.sim import SimServer
from phoneshell.tasks import Step, Task
from phoneshell.xcui import SPRINGBOARD


@pytest.fixture
def swapper(tmp_path: Path) -> Iterator[Swapper]:
    with SimServer() as sim, open_rig(sim.url, tmp_path, timeout_s=10,
                                      effect_timeout_s=0.5) as rig:
        yield Swapper(rig, tmp_path / "A", "A")


def played(swapper: Swapper, tasks: list[Task], family: AttackFamily, *only: str,
           pool: list[Task] | None = None) -> AttackReport:
    return play_attacks([swapper], tasks, (family,), lambda line: None, only, pool=pool or ())


def only_result(report: AttackReport) -> AttackResult:
    [result] = report.attacks
    return result


def test_the_apps_said_to_open_with_a_search_field_do(suite: dict[str, Task]) -> None:
    # echo:search and wrong-page tap it: in an app without one they stopped at once
    apps = sorted({t.app for t in suite.values()} - {SPRINGBOARD})
    with SimServer() as sim:
        phone = wda.Client(sim.url)
        shown = {}
        for app in apps:
            phone.app_start(app)
            shown[app] = 'type="XCUIElementTypeSearchField"' in phone.source()
            phone.app_terminate(app)
    assert {app for app, has in shown.items() if has} == SEARCH_FIELD_APPS & set(apps)


def test_a_finish_that_stops_at_a_step_is_not_played_and_its_family_untested(
        swapper: Swapper, suite: dict[str, Task]) -> None:
    # half the text typed, the word the next step long-presses is not in the note
    report = played(swapper, [suite["notes.text_select"]], "truncated", "truncated:half")
    result = only_result(report)
    assert not result.scored and not result.passed and not result.rejected
    assert result.unplayed.startswith("step 4 of 4, long_press 'anchor' (") and \
        "notes.text_select.yaml:" in result.unplayed, result.unplayed
    assert result.skip_reason == f"not played: {result.unplayed}" and not result.absent
    assert not_played(report) == (result,) and not_scored(report) == ()
    assert untested(report) == (("notes.text_select", "truncated"),)
    lines = summary_lines(report)
    assert f"notes.text_select: truncated:half NOT PLAYED: {result.unplayed}" in lines
    assert "notes.text_select: truncated UNTESTED: every finish of the family stopped short" \
        in lines
    assert "0 not scored; 1 not played, 1 (task, family) pair(s) untested; 0 rejected by the " \
        "checks" in lines[-1], lines[-1]


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_a_search_result_the_phone_does_not_list_is_nothing_there(
        swapper: Swapper, suite: dict[str, Task]) -> None:
    # the simulated Settings' search lists no page for "Model Number": rows 1-4 are not there
    # (claiming an answer, as a task with one does: the finish's last step is its answer)
    about = suite["settings.about.reach"]
    answering = replace(about, solution=(*(about.solution or ()), Step("answer", "About")))
    rows = [f"wrong-page:Model Number:{row}" for row in (1, 2, 3, 4)]
    report = played(swapper, [answering], "wrong-page", *rows)
    assert [(r.attack, r.scored, r.absent) for r in report.attacks] == [
        (row, False, True) for row in rows]
    assert report.attacks[1].unplayed.startswith(
        "step 4 of 5, tap 'Model Number' (row 2 from the top): no on-screen element in row 2")
    assert untested(report) == (), "no page to open is no hole left unlooked at"
    assert "settings.about.reach: 4 finish(es) NOT PLAYED, opening a search result the phone " \
        "does not list (nothing there): wrong-page:Model Number:1, wrong-page:Model Number:2, " \
        "wrong-page:Model Number:3, wrong-page:Model Number:4" in summary_lines(report)


def test_a_finish_after_an_earlier_attempt_that_stopped_is_not_played(
        swapper: Swapper, suite: dict[str, Task]) -> None:
    # the scrolled list's setup leaves General off screen: that attempt's agent never reached
    # About, so the finish did not start from what it was made to start from
    report = played(swapper, [suite["settings.about.reach"]], "leaver",
                    "leaver:resilience.scrolled_list", pool=list(suite.values()))
    result = only_result(report)
    assert not result.scored and result.unplayed.startswith(
        "the attempt it starts after stopped: tap 'General' ("), result.unplayed
    assert untested(report) == (("settings.about.reach", "leaver"),)


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_an_earlier_attempt_whose_last_step_changed_nothing_took_every_step(
        swapper: Swapper, suite: dict[str, Task]) -> None:
    # calendar.month_view's setup leaves Calendar on today: the earlier agent's tap on Today,
    # calendar.today's last step, changes nothing, and the solution agent stops there
    report = played(swapper, [suite["calendar.today"]], "leaver", "leaver:calendar.month_view",
                    pool=list(suite.values()))
    result = only_result(report)
    assert result.scored and not result.unplayed and untested(report) == (), result.skip_reason
    [before] = (Path(report.evidence) / "attempts").glob("*.before/1/evidence/evidence.json")
    claim = json.loads(before.read_text())["claim"]
    assert claim["status"] == "failed" and claim["summary"].startswith(
        "tap 'Today' (") and claim["summary"].endswith(
        "had no visible effect"), claim


def test_a_value_read_off_the_phone_is_graded_as_if_claimed(
        swapper: Swapper, suite: dict[str, Task]) -> None:
    # only opening Settings: read there, the battery level matched nothing and the finish
    # claimed no answer; now it claims none and the answer check is not graded, so the screen
    # checks alone decide: a copy without them falls, the task rejects it by its page
    task = suite["settings.battery.percentage"]
    copy = replace(task, id=f"{task.id}.weak", compatible_attacks=(),
                   checks=tuple(c for c in task.checks if c.kind != "regex_on_screen"))
    report = play_attacks([swapper], [task, copy], ("truncated",), lambda line: None,
                          ("truncated:-1",))
    assert [(r.task, r.passed, r.scored, r.unplayed) for r in report.attacks] == [
        (task.id, False, True, ""), (copy.id, True, True, "")], [
        r.detail for r in report.attacks]
    rejected = report.attacks[0]
    assert rejected.answer == "" and rejected.finish[-1].startswith("(no answer: ")
    assert "/^Battery$/ matched nothing" in rejected.detail, rejected.detail
    assert "answer_matches_device" not in rejected.detail


def test_a_check_that_raises_while_grading_is_not_scored(swapper: Swapper,
                                                         suite: dict[str, Task]) -> None:
    # a pattern the loader would refuse: its kind function raises on any evidence
    task = suite["calculator.arithmetic"]
    buggy = replace(task, checks=(*task.checks, Check.make("regex_on_screen", "(")))
    report = played(swapper, [buggy], "open-app")
    result = only_result(report)
    assert not result.scored and not result.rejected and not result.unplayed
    assert result.skip_reason.startswith("not scored: regex_on_screen '(': could not be "
                                         "graded: PatternError: missing ), unterminated subpattern")
    assert not_scored(report) == (result,)
    assert "1 not scored (1 could not be graded)" in summary_lines(report)[-1]
