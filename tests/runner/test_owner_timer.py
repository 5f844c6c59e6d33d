"""The owner's timer duration is watched in every Clock attempt and put back as the run found it
(red team 66): an agent that flicks the minutes wheel in a task that only looks (Go to the
Timers tab) fails there, not the next timer task, whose agent runs and passes; the wheels are
dialled back to the owner's 10 minutes, never to a new phone's 15. Played through the runner
(`tidy.start_phone`, `run_attempt`, the run's end) and the bridge on one simulated iPhone whose
wheels the owner left at 10 minutes; the phone is the witness of where they are."""

from __future__ import annotations

from pathlib import Path

import pytest
from runner.finish_then import FinishThen
from runner.phone_run import play, teardown_requests

from phoneshell.checks import Need
from phoneshell.device import Phone, run_listed, run_probe, run_steps
from phoneshell.runner.counts import Count
from phoneshell.runner.owner_timer import watch_wheels
from phoneshell.sim import SimServer
from phoneshell.tasks import Step, Task

CLOCK = "com.apple.mobiletimer"
LOOKS, SETS = "clock.tab.timers", "clock.timer.set"
FLICK = (Step("set_picker", options=(("wheel", "min"), ("value", "5 min"))),)
"""What the red team's agent does on the Timers tab besides its task: the minutes to 5."""
STARTS = (*FLICK, Step.tap_on("Start", "Button"))
"""And then a timer started: it runs on, in place of the wheels."""
CHANGED = "the owner's timer duration changed: 0:10:00 -> 0:05:00"


def owner_dials_ten(sim: SimServer) -> Phone:
    """The owner's timer: 10 minutes on the wheels, Clock quit."""
    phone = Phone(sim.url, effect_timeout_s=1.0)
    run_steps(phone, [Step("launch", CLOCK), Step("select_tab", "Timers"),
                      Step("set_picker", options=(("wheel", "min"), ("value", "10 min"))),
                      Step("terminate", CLOCK)])
    return phone


def wheels(phone: Phone) -> tuple[str, ...]:
    return run_listed(phone, "timer_dialled", "0:10:00").rows


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_a_wheel_flicked_where_the_task_only_looks_fails_there_and_is_dialled_back(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    phone = owner_dials_ten(sim)
    (looked, timer), end = play(sim, tmp_path, [(suite[LOOKS], FinishThen(FLICK)),
                                                (suite[SETS], FinishThen())])
    assert looked.outcome == "failed" and CHANGED in looked.error, looked
    assert looked.teardown is not None
    assert looked.teardown.owner == (f"{CHANGED}; dialled back to 0:10:00",)
    # before: failed in its start state, its agent never run ("an earlier attempt's agent
    # left them"), and the wheels dialled to a new phone's 0:15:00
    assert timer.outcome == "passed", (timer.error, timer.checks)
    assert timer.turns > 0 and timer.teardown is not None and timer.teardown.owner == ()
    assert wheels(phone) == ("0:10:00",)
    assert f"clock.tab.timers attempt 1: {CHANGED}" in end
    assert "all were put back as the run found them" in end, end


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_a_timer_left_running_where_the_task_only_looks_fails_there_and_is_cancelled(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    phone = owner_dials_ten(sim)
    (looked, timer), _ = play(sim, tmp_path, [(suite[LOOKS], FinishThen(STARTS)),
                                              (suite[SETS], FinishThen())])
    assert looked.outcome == "failed", looked
    assert looked.teardown is not None and looked.teardown.owner == (
        "a timer was left running, which the task did not ask for (1 running or paused on "
        "Clock's Timers tab, where the run found none); cancelled it",  # `owner_going`
        f"{CHANGED}; dialled back to 0:10:00")  # the wheels under it
    assert timer.outcome == "passed", (timer.error, timer.checks)  # not blamed for that timer
    assert int(run_probe(phone, "clock_timers", "")) == 0
    assert wheels(phone) == ("0:10:00",)


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_put_backs_dial_to_the_run_s_reading_where_the_attempt_has_none(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    """Without the watch, the timer task finds the wheels an earlier agent left at its 5
    minutes: failed before its agent, and its teardown, then the run's end (after such an agent
    played last), dial them back to the 10 minutes the run read before its first attempt."""
    phone = owner_dials_ten(sim)
    plays = [(suite[LOOKS], FinishThen(FLICK)), (suite[SETS], FinishThen())]
    rows, _ = play(sim, tmp_path, plays, watched=False)
    assert [r.outcome for r in rows] == ["passed", "failed"], rows
    assert f"{LOOKS} attempt 1's agent left them" in rows[1].error  # named since RT144-1
    assert wheels(phone) == ("0:10:00",)  # restore_timer; it was a new phone's 0:15:00
    rows, end = play(sim, tmp_path / "again", plays[::-1], watched=False)
    assert [r.outcome for r in rows] == ["passed", "passed"], rows
    assert "deleted timer_dialled('0:05:00') 1 this run's agents left" in end, end
    assert wheels(phone) == ("0:10:00",)  # delete_left


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_the_wheels_are_watched_in_a_run_without_a_timer_task(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    """Red team 98: the wheels flicked to 5 minutes beside the stopwatch task passed in a run
    holding no timer task, and the next run did not score the 5-minute timer task (the
    owner's duration taken for a leftover); the run reads them itself now."""
    phone = owner_dials_ten(sim)
    beside = FinishThen((Step("select_tab", "Timers"), *FLICK, Step("select_tab", "Stopwatch")))
    (flicked,), end = play(sim, tmp_path / "flicked", [(suite["clock.stopwatch.start"], beside)])
    assert flicked.outcome == "failed" and flicked.error == CHANGED, flicked.error
    assert flicked.teardown is not None
    assert flicked.teardown.owner == (f"{CHANGED}; dialled back to 0:10:00",)
    assert wheels(phone) == ("0:10:00",)
    assert "all were put back as the run found them" in end, end
    (honest,), _ = play(sim, tmp_path / "next", [(suite["clock.timer.set_minutes"], FinishThen())])
    assert honest.passed, (honest.skip_reason, honest.error)


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_honest_attempts_cost_the_watch_no_read_of_the_wheels(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    """The Timers tab reached by the tab bar changes nothing; a timer task's teardown dialled
    the wheels back itself (`restore_timer`): neither costs a read after the teardown."""
    owner_dials_ten(sim)
    plays = [(suite[LOOKS], FinishThen()), (suite[SETS], FinishThen())]
    watched, _ = play(sim, tmp_path / "watched", plays)
    unwatched, _ = play(sim, tmp_path / "unwatched", plays, watched=False)
    assert [r.outcome for r in (*watched, *unwatched)] == ["passed"] * 4
    assert [teardown_requests(tmp_path / "watched", n) for n in (1, 2)] == [
        teardown_requests(tmp_path / "unwatched", n) for n in (1, 2)]


def test_the_wheels_are_watched_from_any_of_the_run_s_timer_counts_and_not_when_hidden() -> None:
    def dialled(arg: str) -> Need:
        return Need("probe", "timer_dialled", arg)

    seen = {dialled("0:05:00"): Count(0, rows=("0:10:00",)),
            dialled("1:30:00"): Count(0, rows=("0:10:00",))}  # the suite's three timer tasks
    watched = watch_wheels(seen)
    assert watched is not None and (watched.start, watched.known) == ("0:10:00", "0:10:00")
    assert watch_wheels({dialled("0:05:00"): Count(0, rows=())}) is None  # a timer ran
    assert watch_wheels({Need("probe", "alarms", ""): Count(0, rows=())}) is None
