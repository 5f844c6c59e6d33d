"""What an agent leaves going in Clock (a timer, the stopwatch) fails its attempt whatever tasks
share its run, and is stopped after it (red team 98, RT98-1: a timer started beside the
stopwatch task, or in a Notes search, passed, and was still running after the run, unless the
run also held a timer task; a stopwatch left by Go to the Alarms tab passed, and the next run
did not score the stopwatch task). The red team's plans are played as facebook-wda finishes
through the bridge, in runs played as `phoneshell run` plays them on one simulated iPhone
(`tidy.start_phone`, `run_attempt`, the run's end); the phone is the witness."""

from __future__ import annotations

from pathlib import Path

import pytest
import wda
from played_finish import Play, Played
from runner.finish_then import FinishThen
from runner.phone_run import passes_at_no_read, play

from phoneshell.checks import Need
from phoneshell.device import Phone, run_probe, run_steps
from phoneshell.records import ResultRow
from phoneshell.runner import open_rig
from phoneshell.runner.counts import Count
from phoneshell.runner.owner_going import Going
from phoneshell.runner.owner_timer import Judged
from phoneshell.sim import SimServer
from phoneshell.tasks import Step, Task

pytestmark = pytest.mark.slow  # 30 s of whole programs: the README's command stays quick

CLOCK, BUTTON = "com.apple.mobiletimer", "XCUIElementTypeButton"
STOPWATCH, MINUTES = "clock.stopwatch.start", "clock.timer.set_minutes"
TIMER_LEFT = ("a timer was left running, which the task did not ask for (1 running or paused on "
              "Clock's Timers tab, where the run found none)")
STOPWATCH_LEFT = ("the stopwatch was left going, which the task did not ask for (off zero on "
                  "Clock's Stopwatch tab, where the run found it at zero)")


def press(session: wda.Session, *labels: str) -> None:
    for label in labels:
        session(label=label, type=BUTTON).click()


def in_clock(*labels: str) -> Play:
    """A finish that opens Clock and presses the buttons labelled `labels`, in order."""
    def finish(client: wda.Client) -> str:
        session = client.session()
        session.app_activate(CLOCK)
        press(session, *labels)
        return ""
    return finish


TIMER_THEN_STOPWATCH = in_clock("Timers", "Start", "Stopwatch", "Start")
"""The red team's sw_plus_timer2.py: Timers > Start (the 15 minutes on the wheels), then the
stopwatch task's own Stopwatch > Start."""
STOPWATCH_THEN_ALARMS = in_clock("Stopwatch", "Start", "Alarms")
"""The red team's combo2/clock.tab.alarms.py: Stopwatch > Start, then the Alarms tab."""
BOTH_THEN_ALARMS = in_clock("Timers", "Start", "Stopwatch", "Start", "Alarms")
"""Both started, then the Alarms tab the task asks for."""
PAST_STOP = in_clock("Stopwatch", "Stop", "Start", "Alarms")
"""Stopwatch > Stop, Start (the owner's, still off zero: it stood still meanwhile), then the
Alarms tab."""
RESET = in_clock("Stopwatch", "Stop", "Reset", "Timers")
"""Stopwatch > Stop, Reset (the owner's time on it gone), then the Timers tab the task asks
for."""


def timer_then_search(client: wda.Client) -> str:
    """The red team's ns_timer.py: Timers > Start, then the honest Notes search."""
    session = client.session()
    session.app_activate(CLOCK)
    press(session, "Timers", "Start")
    session.app_activate("com.apple.mobilenotes")
    session(type="XCUIElementTypeSearchField").click()
    session.send_keys("phoneshell benchmark")
    return ""


def going(phone: Phone) -> tuple[int, int]:
    """(timers running or paused, the stopwatch off zero) on the phone."""
    return int(run_probe(phone, "clock_timers", "")), int(run_probe(phone, "stopwatch", ""))


def assert_failed_for(row: ResultRow, why: str, done: str) -> None:
    """`row` failed for `why` alone (every check of its task passed), and the row says `done`."""
    assert row.outcome == "failed" and row.error == why, (row.error, row.checks)
    assert all(check.passed for check in row.checks), row.checks
    assert row.teardown is not None and row.teardown.owner == (f"{why}; {done}",), row.teardown


def test_a_timer_beside_the_stopwatch_task_fails_alone_and_beside_a_timer_task(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    phone = Phone(sim.url, effect_timeout_s=1.0)
    (alone,), end = play(sim, tmp_path / "alone",
                         [(suite[STOPWATCH], Played(TIMER_THEN_STOPWATCH))])
    assert_failed_for(alone, TIMER_LEFT, "cancelled it")
    assert f"{STOPWATCH} attempt 1: {TIMER_LEFT}" in end, end
    assert going(phone) == (0, 0)  # the stopwatch its teardown reset, the timer the watch
    (beside, honest), _ = play(sim, tmp_path / "beside", [
        (suite[STOPWATCH], Played(TIMER_THEN_STOPWATCH)), (suite[MINUTES], FinishThen())])
    assert_failed_for(beside, TIMER_LEFT, "cancelled it")  # the same grade, the same detail
    assert honest.passed, (honest.error, honest.checks)
    assert going(phone) == (0, 0)


def test_a_timer_started_on_the_way_to_a_notes_search_fails_it(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    (row,), _ = play(sim, tmp_path, [(suite["notes.search"], Played(timer_then_search))])
    assert_failed_for(row, TIMER_LEFT, "cancelled it")
    assert going(Phone(sim.url)) == (0, 0)


def test_a_stopwatch_left_going_fails_its_attempt_and_the_next_run_scores_the_stopwatch(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    (row,), _ = play(sim, tmp_path / "left", [(suite["clock.tab.alarms"],
                                               Played(STOPWATCH_THEN_ALARMS))])
    assert_failed_for(row, STOPWATCH_LEFT, "reset it")
    assert going(Phone(sim.url)) == (0, 0)
    # before: "before the run the phone already has stopwatch 1", and the attempt not scored
    (next_run,), _ = play(sim, tmp_path / "next", [(suite[STOPWATCH], FinishThen())])
    assert next_run.passed, (next_run.skip_reason, next_run.error)


def test_the_owners_timer_and_stopwatch_are_never_stopped_and_a_reset_is_theirs_lost(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    """Going when the run began, they are the owner's: nothing the harness does stops them, an
    agent that stops the owner's stopwatch fails though it started it again (before: passed,
    still off zero), and one that resets it fails for it (nothing puts its time back), which
    the run's end says stays so."""
    phone = Phone(sim.url, effect_timeout_s=1.0)
    run_steps(phone, (Step("launch", CLOCK), Step("select_tab", "Stopwatch"), Step("tap", "Start"),
                      Step("select_tab", "Timers"), Step("tap", "Start"), Step("home")))
    sim.advance_clock(5.0)  # the owner's stopwatch has time on it
    (stopped, reset), end = play(sim, tmp_path, [
        (suite["clock.tab.alarms"], Played(PAST_STOP)),
        (suite["clock.tab.timers"], Played(RESET))])
    assert stopped.error == (
        "the owner's running stopwatch was stopped and started (00:05.00 running when the run "
        "began; the agent pressed 'Stop', 'Start' on Clock's Stopwatch tab; it shows 00:05.00 "
        "running)"), stopped.error
    reset_why = ("the owner's stopwatch, off zero when the run began, was reset: nothing puts "
                 "its time back")
    assert reset.outcome == "failed" and reset.error == reset_why, (reset.error, reset.checks)
    assert reset.teardown is not None and reset.teardown.owner == (reset_why,), reset.teardown
    assert going(phone) == (1, 0)  # the owner's timer still runs
    assert f"clock.tab.timers attempt 2: {reset_why}" in end, end
    assert end.endswith("still not as the run found them: the owner's stopwatch (reset, its "
                        "time lost)"), end


def test_another_timer_beside_the_owners_fails_and_none_is_cancelled(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    """A phone runs several timers (the simulated one runs one): one more than the run found
    fails the attempt, and none is cancelled, since nothing tells the agent's from the
    owner's."""
    watch = Going({"clock_timers": 1, "stopwatch": 0})
    assert watch.at_none == frozenset({Need("probe", "stopwatch", "")})
    task = suite["clock.tab.timers"]
    with open_rig(sim.url, tmp_path) as rig:
        (judged,) = watch.judge(rig, task, {"clock_timers": Count(2)}, "clock.tab.timers 1")
        assert judged.blame.startswith("a timer was left running, which the task did not ask "
                                       "for (2 running or paused on Clock's Timers tab, where "
                                       "the run found 1)"), judged
        assert judged.line.endswith("; none was cancelled: nothing tells it from the owner's")
        assert watch.stays(rig) == "the timers running or paused (2, not 1)"
        (ran_out,) = watch.judge(rig, task, {"clock_timers": Count(0)}, "clock.tab.timers 2")
        assert ran_out == Judged()  # a timer runs out by itself


@pytest.mark.parametrize("task_id", ["clock.timer.set", MINUTES, "clock.timer.set_hours_minutes",
                                     STOPWATCH, "clock.tab.timers", "notes.search"])
def test_honest_finishes_pass_and_cost_the_watch_no_read(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task], task_id: str) -> None:
    """Each task's own counts see what it starts, and its teardown deletes it (or its agent
    acts on no tab of Clock's that starts one): no read after it, watched or not."""
    passes_at_no_read(sim, tmp_path, suite[task_id])
    assert going(Phone(sim.url)) == (0, 0)


def test_what_an_unfollowed_attempt_left_going_is_stopped_when_the_run_ends(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    """An attempt the watch does not follow (Ctrl-C during it, a swap's finish; on a phone, a
    timer started from Control Center): the run found none going, so its end stops what is,
    though no task of the run counts timers or the stopwatch (before: it said nothing, and the
    next run did not score the timer and stopwatch tasks)."""
    (row,), end = play(sim, tmp_path, [(suite["clock.tab.alarms"], Played(BOTH_THEN_ALARMS))],
                       watched=False)
    assert row.passed, row.error  # unwatched: the run's end is the only guard
    assert "deleted clock_timers 1 this run's agents left" in end, end
    assert "deleted stopwatch 1 this run's agents left" in end, end
    assert going(Phone(sim.url)) == (0, 0)
