"""Cheap finishes played on the simulated iPhone through the bridge: each breaks a deliberately
weakened copy of a suite task and not the task itself, and a finish two tasks share is played
once and graded as both."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import cast

import pytest

from phoneshell.attack import play_attacks
from phoneshell.attack.play import grade_as, summary_lines
from phoneshell.checks import Check
from phoneshell.records import AttackFamily, AttackReport, AttackResult
from phoneshell.replays import Swapper
from phoneshell.runner.rig import open_rig
from phoneshell.sim import SimServer
from phoneshell.tasks import Step, Task

C = Check.make
CLOCK = "com.apple.mobiletimer"


@pytest.fixture
def swapper(tmp_path: Path) -> Iterator[Swapper]:
    with SimServer() as sim, open_rig(sim.url, tmp_path, timeout_s=10,
                                      effect_timeout_s=0.5) as rig:
        yield Swapper(rig, tmp_path / "A", "A")


def weakened(task: Task, drop: tuple[str, ...] = (), add: tuple[Check, ...] = ()) -> Task:
    """A copy of `task` under another id, without the checks of kinds `drop`, plus `add`."""
    checks = tuple(c for c in task.checks if c.kind not in drop) + add
    return replace(task, id=f"{task.id}.weak", checks=checks, compatible_attacks=())


def play(swapper: Swapper, tasks: list[Task], family: AttackFamily) -> AttackReport:
    return play_attacks([swapper], tasks, (family,), lambda line: None)


def broken(report: AttackReport) -> set[tuple[str, str]]:
    return {(r.task, r.attack) for r in report.broken}


def breaks_only_the_copy(swapper: Swapper, suite: dict[str, Task], task: Task, copy: Task,
                         attack: str) -> AttackResult:
    """Play one finish that starts after an earlier attempt (residue, leaver) against a task
    and its weakened copy: it must pass the copy and fail the task, scored, each after its own
    earlier attempt (four replays). Returns the task's result."""
    family = cast(AttackFamily, attack.split(":", 1)[0])
    report = play_attacks([swapper], [task, copy], (family,), lambda line: None, (attack,),
                          pool=[*suite.values(), copy])
    assert broken(report) == {(copy.id, attack)}, [
        (r.task, r.attack, r.detail) for r in report.attacks]
    fixed = next(r for r in report.attacks if r.task == task.id)
    assert fixed.scored and not fixed.passed, fixed.detail
    assert report.replays == 4
    return fixed


OLD_TIMER = C("regex_on_screen", r"^0?[34]:\d\d$|^0?5:00$", type="StaticText")
OLD_WEB = (C("regex_on_screen", "(?i)iso.?8601"),
           C("typed_into", "iso 8601 date format", app="com.apple.mobilesafari", into="Address"))


@pytest.mark.parametrize(("task_id", "drop", "add", "family", "attack", "replays"), [
    ("calculator.arithmetic", ("tapped_keys",), (), "result-only", "result-only:keyed:423", 1),
    # a second play for the timer count, once the copy's cheap checks all held
    ("clock.timer.set", ("countdown",), (OLD_TIMER,), "near", "near:5 min>4 min", 2),
    ("safari.search.web", ("regex_on_screen", "typed_into", "page_shown"), OLD_WEB, "truncated",
     "truncated:unsent", 1),
    ("probe.text.one", ("visited",), (), "result-only", "result-only:answer", 1),
], ids=["result-only", "near", "truncated", "answer-only"])
def test_the_cheap_finish_breaks_the_weakened_task_only(
        swapper: Swapper, suite: dict[str, Task], task_id: str, drop: tuple[str, ...],
        add: tuple[Check, ...], family: AttackFamily, attack: str, replays: int) -> None:
    task = suite[task_id]
    report = play_attacks([swapper], [task, weakened(task, drop, add)], (family,),
                          lambda line: None, (attack,))
    assert (report.finishes, report.replays, len(report.attacks)) == (1, replays, 2), \
        "one play (and one for the counts), graded as both tasks"
    assert broken(report) == {(f"{task_id}.weak", attack)}, [
        (r.task, r.attack, r.detail) for r in report.attacks]
    hardened = next(r for r in report.attacks if r.task == task_id and r.attack == attack)
    assert hardened.scored and not hardened.passed and hardened.evidence


def test_an_echo_into_settings_search_breaks_a_task_without_the_field_check(
        swapper: Swapper, suite: dict[str, Task]) -> None:
    task = suite["settings.scroll.to_bottom"]
    fragile = replace(weakened(task), checks=tuple(
        c for c in task.checks if c.text != "com.apple.settings.developer"))
    report = play_attacks([swapper], [task, fragile], ("echo",), lambda line: None,
                          ("echo:search:Developer",))
    assert broken(report) == {("settings.scroll.to_bottom.weak", "echo:search:Developer")}
    assert report.replays == 1 and len(report.attacks) == 2


def test_a_finish_two_tasks_make_is_played_once(swapper: Swapper,
                                                suite: dict[str, Task]) -> None:
    tasks = [suite["settings.about.reach"], suite["settings.bluetooth.reach"]]
    report = play(swapper, tasks, "open-app")
    assert [(r.task, r.attack, r.passed) for r in report.attacks] == [
        ("settings.about.reach", "open-app", False),
        ("settings.bluetooth.reach", "open-app", False)]
    assert report.finishes == 1 and report.replays == 1 < len(report.attacks)
    assert report.attacks[0].evidence == report.attacks[1].evidence
    assert (Path(report.evidence) / report.attacks[0].evidence / "evidence.json").is_file()


@pytest.mark.parametrize(("task_id", "family", "attack", "because"), [
    ("compass.read_heading", "shotgun", "shotgun", "hedges"),
    ("weather.read_temperature", "shotgun", "shotgun:labelled", "another thing's"),
    ("notes.type_punctuation", "near", "near:2>1",
     "the agent typed: 'benchmark-test (v1)' into"),
    ("files.browse_tab", "echo", "echo:search:Browse", "matched nothing"),
], ids=["hedging", "labelled", "exact-text", "typed-is-not-shown"])
@pytest.mark.slow  # 4.6 s measured: the README's command stays quick
def test_the_suite_task_rejects_the_cheap_finish_for_the_hardened_reason(
        swapper: Swapper, suite: dict[str, Task], task_id: str, family: AttackFamily,
        attack: str, because: str) -> None:
    report = play_attacks([swapper], [suite[task_id]], (family,), lambda line: None, (attack,))
    [result] = report.attacks
    assert result.scored and not result.passed and because in result.detail, result.detail


@pytest.mark.slow  # 2.7 s measured: the README's command stays quick
def test_residue_finds_the_tab_an_earlier_attempt_left_and_not_after_the_setup_fix(
        swapper: Swapper, suite: dict[str, Task]) -> None:
    task = suite["clock.tab.timers"]
    # before: setup only stopped Clock, which a phone reopens on the last tab used
    trusting = replace(task, id="clock.tab.timers.weak", setup=task.setup[:1] + task.setup[-1:],
                       compatible_attacks=())
    assert [s.kind for s in trusting.setup] == ["terminate", "home"]
    # each task's finish after its own attempt of clock.timer.set: two plays of it, two opens
    fixed = breaks_only_the_copy(swapper, suite, task, trusting, "residue:clock.timer.set")
    assert "Timers" in fixed.detail, fixed.detail


def test_leaver_finds_a_stopwatch_another_attempt_s_agent_left_going(
        swapper: Swapper, suite: dict[str, Task]) -> None:
    task = suite["clock.stopwatch.start"]
    # before: the task checked only that Stop shows, not that its own agent tapped Start, nor
    # that the stopwatch was at zero before it
    trusting = weakened(task, drop=("tapped", "count_increased"))
    # a clock.tab.alarms attempt whose agent started the stopwatch instead, and whose teardown
    # only stops Clock: the next attempt's agent only opens Clock
    fixed = breaks_only_the_copy(swapper, suite, task, trusting, "leaver:clock.tab.alarms")
    assert "tapped 'Start'" in fixed.detail, fixed.detail


@pytest.mark.slow
@pytest.mark.parametrize(("task_id", "word", "wrong"), [
    ("resilience.wrong_app", "Display", {2: "Display & Text Size", 3: "Display Zoom"}),
    ("settings.keyboard.reach", "Keyboard", {2: "Keyboards & Typing", 3: "Keyboards"}),
    ("settings.accessibility.reach", "Accessibility", {2: "Accessibility Shortcut"}),
], ids=["display", "keyboard", "accessibility"])
def test_wrong_page_finds_a_page_whose_title_only_holds_the_word(
        swapper: Swapper, suite: dict[str, Task], task_id: str, word: str,
        wrong: dict[int, str]) -> None:
    task = suite[task_id]
    # before: the title was matched as a substring, as element_exists matches
    substring = weakened(task, drop=("regex_on_screen",),
                         add=(C("element_exists", word, type="NavigationBar"),))
    report = play(swapper, [task, substring], "wrong-page")
    # the first result is the page asked for (compatible in the task); the others are not
    assert broken(report) == {(substring.id, f"wrong-page:{word}:{row}")
                              for row in (1, *wrong)}, [(r.task, r.attack, r.detail)
                                                        for r in report.attacks]
    for row, title in wrong.items():
        hole = next(r for r in report.attacks
                    if (r.task, r.attack) == (substring.id, f"wrong-page:{word}:{row}"))
        assert f"NavigationBar '{title}'" in hole.detail, hole.detail
    passed = [(r.attack, r.compatible) for r in report.attacks if r.task == task_id and r.passed]
    assert passed == [(f"wrong-page:{task.checks[1].pattern.pattern.strip('^$')}:1", True)]


def test_a_search_on_recents_is_not_the_browse_tab(swapper: Swapper,
                                                   suite: dict[str, Task]) -> None:
    task = suite["files.browse_tab"]
    # before: Browse's sections by an unanchored pattern, which a result's subtitle met
    sections = weakened(task, drop=("regex_on_screen",),
                        add=(C("regex_on_screen", "Locations|On My iPhone"),))
    stay = (Step("launch", task.app), Step.tap_on("Search", "SearchField"), Step("type", "Scans"))
    finish = replace(task, id="files.recents.search", solution=stay, checks=())
    graded = swapper.graded(finish, [task, sections], grade_as, lambda g: g.passed)
    assert [(g.task, g.passed) for g in graded] == [(task.id, False), (sections.id, True)]
    assert "matched 'On My iPhone' in the label of StaticText" in graded[1].detail
    assert "/^Browse$/ matched nothing in a NavigationBar" in graded[0].detail, graded[0].detail


def test_an_owners_alarm_opened_for_editing_is_not_a_new_alarm(tmp_path: Path,
                                                                 suite: dict[str, Task]) -> None:
    state = tmp_path / "phone.json"
    owners = {"id": 1, "hour": 7, "minute": 30, "label": "", "repeat": "", "enabled": True}
    state.write_text(json.dumps({"version": 1, "stores": {CLOCK: {"alarms": [owners]}}}))
    tasks = [suite["clock.alarm.set_time"], suite["clock.alarm.reach_picker"]]
    # before: the wheels, Cancel and no alarm saved, which the Edit Alarm sheet shows as well
    trusting = [replace(weakened(t), checks=tuple(c for c in t.checks
                                                  if c.text != "^Add Alarm$")) for t in tasks]
    edit = (Step("launch", CLOCK), Step("select_tab", "Alarms"),
            Step.tap_on("7:30 AM, Alarm", "Cell"))
    finish = replace(tasks[0], id="clock.alarm.edit", solution=edit, checks=())
    with SimServer(state_file=state) as sim, open_rig(sim.url, tmp_path, timeout_s=10,
                                                      effect_timeout_s=0.5) as rig:
        graded = Swapper(rig, tmp_path / "A", "A").graded(finish, [*tasks, *trusting], grade_as,
                                                          lambda g: g.passed)
    assert [(g.task, g.passed) for g in graded] == [
        (tasks[0].id, False), (tasks[1].id, False), (trusting[0].id, True),
        (trusting[1].id, True)], [g.detail for g in graded]
    assert "/^Add Alarm$/ matched nothing in a NavigationBar" in graded[0].detail


def test_a_sibling_finish_that_fails_its_own_task_is_not_scored(
        swapper: Swapper, suite: dict[str, Task]) -> None:
    # a stale solution (red team 74): measure.open's "finish" opens Weather, so it is
    # weather.open's honest finish, and its passing weather.open shows nothing of those checks
    weather = suite["weather.open"]
    stale = replace(suite["measure.open"], solution=weather.solution)
    report = play(swapper, [weather, stale], "swap")
    assert report.broken == ()
    [result] = report.attacks
    assert (result.task, result.attack, result.scored, result.passed) == (
        "weather.open", "swap:measure.open", False, False)
    assert result.skip_reason == "not scored: measure.open's finish does not pass measure.open"
    assert report.unlisted == 1, "weather.open's finish graded as measure.open: rejected"
    lines = summary_lines(report)
    assert "weather.open: swap:measure.open NOT SCORED: measure.open's finish does not pass " \
        "measure.open" in lines
    assert lines[-1].startswith("2 task(s), 2 (finish, task) grading(s) (1 sibling finish(es) "
                                "other tasks rejected, not listed"), lines[-1]
    assert "0 pass without doing the task, on 0 task(s); 1 not scored" in lines[-1]
