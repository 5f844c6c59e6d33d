"""Clock's stopwatch and timers on the simulated iPhone: the `clock_timers` and `stopwatch`
counts, `delete_created` cancelling or resetting only what an attempt started, and
`select_tab`; and the timer's wheels, which Clock reopens where they were last set (as,
inferred, on iOS): the `timer_dialled` count, with its row, and `restore_timer` dialling them
back to what that count read before the agent."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from sources import El, source

from phoneshell.device import Phone, run_listed, run_step, run_steps, with_counts
from phoneshell.device.alarms import _alarms_tab, _on_alarms
from phoneshell.device.probes import ProbeError, run_probe
from phoneshell.device.timers import _running_timers, _selected, _stopwatch_going
from phoneshell.errors import StepError
from phoneshell.sim import SimServer
from phoneshell.tasks import Step
from phoneshell.tree import PageSource

CLOCK = "com.apple.mobiletimer"
RUNNING_TIMER = {"ends": 1300.0, "paused_left": None}
"""Ends 300 s after the seeded clock's 1,000 s: a five-minute timer just started."""
PAUSED_TIMER = {"ends": None, "paused_left": 90.0}
RUNNING_WATCH = {"since": 990.0, "banked": 0.0, "splits": []}
STOPPED_WATCH = {"since": None, "banked": 12.5, "splits": [3.0]}


@contextmanager
def clock_with(tmp_path: Path, **kept: Any) -> Iterator[tuple[SimServer, Phone]]:
    """A phone whose Clock store holds `kept` (tab, stopwatch, timer), its clock at 1,000 s."""
    path = tmp_path / "state.json"
    path.write_text(json.dumps({"version": 1, "stores": {CLOCK: kept}, "clock_s": 1000.0}))
    with SimServer(state_file=path) as sim:
        yield sim, Phone(sim.url, effect_timeout_s=1.0)


def stored(sim: SimServer, key: str) -> Any:
    return sim.state()["stores"][CLOCK].get(key)  # type: ignore[index, union-attr]


def delete(probe: str, before: int | None, after: int | None) -> Step:
    bare = Step("delete_created", "", options=(("probe", probe), ("text", "")),
                file="t.yaml", line=7)
    return with_counts(bare, {(probe, ""): (before, after)})


def routes(sim: SimServer) -> set[str]:
    return {route for phase in sim.latency.tally.take().values() for route in phase}


@pytest.mark.parametrize(("timer", "tab", "count"), [
    (None, "Alarms", 0), (RUNNING_TIMER, "Stopwatch", 1), (PAUSED_TIMER, "Timers", 1)])
def test_the_timers_count_reads_the_timers_tab_whatever_clock_opens_on(
        tmp_path: Path, timer: dict[str, Any] | None, tab: str, count: int) -> None:
    with clock_with(tmp_path, tab=tab, **({"timer": timer} if timer else {})) as (sim, phone):
        assert run_probe(phone, "clock_timers", "") == count
        assert phone.app_state(CLOCK) == 1  # stopped again: nothing left up by default
        assert stored(sim, "tab") == "Timers"


@pytest.mark.parametrize(("watch", "count"), [
    (None, 0), (RUNNING_WATCH, 1), (STOPPED_WATCH, 1)])
def test_the_stopwatch_count_is_one_when_it_is_not_at_zero(
        tmp_path: Path, watch: dict[str, Any] | None, count: int) -> None:
    with clock_with(tmp_path, **({"stopwatch": watch} if watch else {})) as (_, phone):
        assert run_probe(phone, "stopwatch", "") == count


def test_a_timer_the_attempt_started_is_cancelled(tmp_path: Path) -> None:
    with clock_with(tmp_path, timer=RUNNING_TIMER) as (sim, phone):
        run_step(phone, delete("clock_timers", 0, 1))
        assert stored(sim, "timer") == {"ends": None, "paused_left": None}
        assert run_probe(phone, "clock_timers", "") == 0


@pytest.mark.parametrize(("before", "after"), [(1, 1), (None, 1), (2, 1)])
def test_a_timer_there_before_the_agent_is_never_cancelled(
        tmp_path: Path, before: int | None, after: int) -> None:
    with clock_with(tmp_path, timer=RUNNING_TIMER) as (sim, phone):
        run_step(phone, delete("clock_timers", before, after))
        assert stored(sim, "timer") == RUNNING_TIMER


@pytest.mark.parametrize("watch", [RUNNING_WATCH, STOPPED_WATCH])
def test_a_stopwatch_the_attempt_started_is_stopped_and_reset(
        tmp_path: Path, watch: dict[str, Any]) -> None:
    with clock_with(tmp_path, stopwatch=watch) as (sim, phone):
        run_step(phone, delete("stopwatch", 0, 1))
        assert stored(sim, "stopwatch") == {"since": None, "banked": 0.0, "splits": []}


def test_a_stopwatch_going_before_the_agent_keeps_going(tmp_path: Path) -> None:
    with clock_with(tmp_path, stopwatch=RUNNING_WATCH) as (sim, phone):
        run_step(phone, delete("stopwatch", 1, 1))
        assert stored(sim, "stopwatch") == RUNNING_WATCH


def test_a_count_left_up_is_where_the_cancelling_starts(tmp_path: Path) -> None:
    with clock_with(tmp_path, timer=RUNNING_TIMER) as (sim, phone):
        assert run_probe(phone, "clock_timers", "", leave_open=True) == 1
        assert phone.app_state(CLOCK) == 4  # in front, on its Timers tab
        routes(sim)
        run_step(phone, delete("clock_timers", 0, 1))
        assert "POST /wda/apps/launch" not in routes(sim)
        assert stored(sim, "timer") == {"ends": None, "paused_left": None}


def test_a_count_that_grew_by_more_than_shows_fails_naming_the_step(tmp_path: Path) -> None:
    with clock_with(tmp_path, timer=RUNNING_TIMER) as (_, phone), pytest.raises(
            StepError, match=r"delete_created .*\(t\.yaml:7\): no running or paused timer"):
        run_step(phone, delete("clock_timers", 0, 2))


def test_select_tab_taps_only_when_the_tab_is_not_selected(tmp_path: Path) -> None:
    with clock_with(tmp_path, tab="Alarms") as (sim, phone):
        run_step(phone, Step("launch", CLOCK))
        run_step(phone, Step("select_tab", "World Clock"))
        assert stored(sim, "tab") == "World Clock"
        routes(sim)
        run_step(phone, Step("select_tab", "World Clock"))  # already: no tap
        assert "POST /wda/tap" not in routes(sim)


def test_select_tab_fails_naming_the_step_when_there_is_no_such_tab(tmp_path: Path) -> None:
    with clock_with(tmp_path) as (_, phone):
        run_step(phone, Step("launch", CLOCK))
        with pytest.raises(StepError, match=r"select_tab 'Bedtime' \(c\.yaml:3\): no 'Bedtime'"):
            run_step(phone, Step("select_tab", "Bedtime", file="c.yaml", line=3))


@pytest.mark.parametrize(("read", "shown", "count"), [
    (_running_timers, (El("Button", label="Pause"), El("Button", label="Cancel")), 1),
    (_running_timers, (El("PickerWheel", value="15 min"), El("Button", label="Start")), 0),
    (_running_timers, (El("NavigationBar", label="Timers"),), None),
    (_stopwatch_going, (El("Button", label="Reset"), El("Button", label="Start")), 1),
    (_stopwatch_going, (El("Button", label="Lap"), El("Button", label="Start")), 0),
    (_stopwatch_going, (El("Button", label="Lap"),), None),
], ids=["timer-running", "timer-idle", "timer-unreadable", "stopwatch-stopped",
        "stopwatch-zero", "stopwatch-unreadable"])
def test_a_tab_showing_neither_state_is_unreadable_not_zero(
        read: Callable[[PageSource], int], shown: tuple[El, ...], count: int | None) -> None:
    # a real phone's layout the counts do not know must not read as "nothing to stop"
    page = PageSource.parse(source(*shown, bundle=CLOCK))
    if count is None:
        with pytest.raises(ProbeError, match="shows"):
            read(page)
    else:
        assert read(page) == count


def test_only_the_tab_bar_s_button_counts_as_the_tab() -> None:
    named_like_a_tab = El("Button", label="Alarms", value="1")
    assert not _selected(PageSource.parse(source(named_like_a_tab, bundle=CLOCK)), ("Alarms",))
    in_the_bar = El("TabBar", label="Tab Bar", children=(named_like_a_tab,))
    assert _selected(PageSource.parse(source(in_the_bar, bundle=CLOCK)), ("Alarms",))


def test_the_alarms_count_and_cleaning_take_the_tab_bar_s_alarms_only() -> None:
    # the same rule as select_tab: a button named Alarms in the content is never the tab
    named_like_a_tab = El("Button", label="Alarms", value="1")
    alone = PageSource.parse(source(named_like_a_tab, bundle=CLOCK))
    assert _alarms_tab(alone) is None and not _on_alarms(alone)
    in_the_bar = PageSource.parse(source(
        El("TabBar", label="Tab Bar", children=(named_like_a_tab,)), bundle=CLOCK))
    assert _alarms_tab(in_the_bar) is not None and _on_alarms(in_the_bar)


DIALLED = "timer_dialled"


def dial(phone: Phone, minutes: int) -> None:
    """What a person does: open Clock's Timers tab, turn the minutes wheel, quit Clock."""
    run_steps(phone, [Step("launch", CLOCK), Step("select_tab", "Timers"),
                      Step("set_picker", options=(("wheel", "min"), ("value", f"{minutes} min"))),
                      Step("terminate", CLOCK)])


def restore(goal: str, rows: tuple[str, ...] | None) -> Step:
    bare = Step("restore_timer", goal, file="t.yaml", line=9)
    return with_counts(bare, {}, None if rows is None else {(DIALLED, goal): rows})


def test_clock_reopens_with_the_wheels_where_they_were_last_set(tmp_path: Path) -> None:
    with clock_with(tmp_path) as (_, phone):
        assert run_listed(phone, DIALLED, "0:15:00").rows == ("0:15:00",)  # a new phone's
        dial(phone, 5)
        listed = run_listed(phone, DIALLED, "0:05:00")
    assert (listed.count, listed.rows) == (1, ("0:05:00",))


def test_the_count_is_one_at_its_duration_only_and_its_row_is_the_reading(
        tmp_path: Path) -> None:
    with clock_with(tmp_path, restored_screen="1:30:00") as (_, phone):
        at = run_listed(phone, DIALLED, "1:30:00")
        off = run_listed(phone, DIALLED, "0:05:00")
        with pytest.raises(ProbeError, match="H:MM:SS"):
            run_listed(phone, DIALLED, "5 min")
    assert (at.count, at.rows, off.count, off.rows) == (1, ("1:30:00",), 0, ("1:30:00",))


def test_a_running_timer_shows_no_wheels_and_counts_none(tmp_path: Path) -> None:
    # the clock_timers count decides whose the timer is; this one is not "not read"
    running = {"ends": 1300.0, "paused_left": None}
    with clock_with(tmp_path, timer=running, restored_screen="0:05:00") as (_, phone):
        listed = run_listed(phone, DIALLED, "0:05:00")
    assert (listed.count, listed.rows) == (0, ())


def test_restore_timer_dials_back_to_the_reading_before_the_agent(tmp_path: Path) -> None:
    with clock_with(tmp_path, restored_screen="0:20:00") as (sim, phone):
        dial(phone, 5)
        run_step(phone, restore("0:05:00", ("0:20:00",)))
        assert sim.state()["foreground"] != CLOCK  # stopped, as every teardown step leaves it
        assert run_listed(phone, DIALLED, "0:20:00").count == 1


def test_wheels_left_at_the_duration_with_no_reading_go_to_a_new_phone_s(
        tmp_path: Path) -> None:
    # a Leftover: the count found them at the duration, so its row is not the owner's
    with clock_with(tmp_path, restored_screen="0:05:00") as (_, phone):
        run_step(phone, restore("0:05:00", ()))
        assert run_listed(phone, DIALLED, "0:15:00").count == 1


def test_restore_timer_does_nothing_when_no_count_was_taken(tmp_path: Path) -> None:
    with clock_with(tmp_path, restored_screen="0:05:00") as (sim, phone):
        run_step(phone, restore("0:05:00", None))
        assert CLOCK not in sim.state()["running"]  # type: ignore[operator]
        assert run_listed(phone, DIALLED, "0:05:00").count == 1
