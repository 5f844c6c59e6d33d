"""`set_picker` turns wheels by taps against the simulated iPhone, and fails naming the step
where no wheel matches, where the value cannot be reached, or where the phone ignores taps."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

from phoneshell.device import Phone, run_step, run_steps
from phoneshell.errors import StepError
from phoneshell.sim import SimServer, layout
from phoneshell.sim.apps import AppModel, Host, builtin_apps
from phoneshell.sim.ui import Node, Rect, Wheel
from phoneshell.tasks import Step, load_task
from phoneshell.tree import PageSource

CLOCK = "com.apple.mobiletimer"


def pick(wheel: str, value: str) -> Step:
    return Step("set_picker", options=(("wheel", wheel), ("value", value)),
                file="test.yaml", line=7)


def wheel_values(phone: Phone) -> list[str]:
    page = PageSource.parse(phone.source())
    found = [e for e in page.on_screen() if e.type == "XCUIElementTypePickerWheel"]
    return [e.value for e in sorted(found, key=lambda e: e.x)]


@pytest.fixture
def alarm_sheet(phone: Phone) -> Phone:
    """Clock's Add Alarm sheet, its wheels at 9:41 AM."""
    run_steps(phone, [Step("launch", CLOCK), Step("tap", "Alarms"), Step("tap", "Add")])
    return phone


@pytest.fixture
def timers(phone: Phone) -> Phone:
    """Clock's Timers tab, its wheels at 0 hours 15 min 0 sec."""
    run_steps(phone, [Step("launch", CLOCK), Step("tap", "Timers")])
    return phone


def test_a_task_files_set_picker_steps_dial_the_alarm(alarm_sheet, tmp_path: Path):
    path = tmp_path / "demo.yaml"
    path.write_text("""id: demo.alarm
name: Dial 7:30 PM
instruction: Dial 7:30 PM.
checks:
- foreground_app: com.apple.mobiletimer
solution:
- set_picker: {wheel: "o'clock", value: "7 o'clock"}
- set_picker: {wheel: minutes, value: 30 minutes}
- set_picker: {wheel: 3, value: PM}
""")
    task = load_task(path)
    assert task.solution is not None
    assert task.solution[0].option("wheel") == "o'clock"
    assert "wheel=\"o'clock\"" in task.solution[0].describe()
    run_steps(alarm_sheet, task.solution)
    assert wheel_values(alarm_sheet) == ["7 o\u2019clock", "30 minutes", "PM"]


def test_values_compare_without_case_spacing_or_apostrophe_shape(alarm_sheet):
    run_step(alarm_sheet, pick("1", "  11   O\u2019CLOCK "))
    assert wheel_values(alarm_sheet)[0] == "11 o\u2019clock"


@pytest.mark.parametrize(("written", "shown"), [
    ("5 minutes", "05 minutes"), ("05 minutes", "05 minutes"), ("0 minutes", "00 minutes"),
    ("1 minute", "01 minutes"),
])
def test_a_number_is_met_however_its_padding_is_written(alarm_sheet, written, shown):
    # iOS pads the alarm's minute wheel as it draws it ("05 minutes"); a task file, or the
    # harness putting back an owner's 6:05 alarm, may write the number plainly
    run_step(alarm_sheet, pick("minute", written))
    assert wheel_values(alarm_sheet)[1] == shown


def test_a_wheel_already_at_the_value_is_left_alone(alarm_sheet):
    before = alarm_sheet.source()
    run_step(alarm_sheet, pick("3", "AM"))
    assert alarm_sheet.source() == before


def test_am_pm_is_reached_from_either_end(alarm_sheet):
    run_step(alarm_sheet, pick("3", "PM"))
    run_step(alarm_sheet, pick("3", "AM"))  # down first: PM is the end, so it turns back up
    assert wheel_values(alarm_sheet)[2] == "AM"


def test_timer_wheels_by_name(timers):
    run_step(timers, pick("hour", "1 hour"))
    run_step(timers, pick("min", "30 min"))
    run_step(timers, pick("sec", "45 sec"))
    assert wheel_values(timers) == ["1 hour", "30 min", "45 sec"]


@pytest.mark.parametrize(("wheel", "message"), [
    ("fortnight", "no wheel on screen match 'fortnight'"),
    ("s", "2 wheels on screen match 's'"),
    ("4", "there is no wheel 4"),
])
def test_a_wheel_that_cannot_be_told_apart_fails_naming_the_step(timers, wheel, message):
    with pytest.raises(StepError) as caught:
        run_step(timers, pick(wheel, "5 min"))
    assert message in caught.value.message
    assert "set_picker wheel=" in caught.value.message and "(test.yaml:7)" in caught.value.message
    assert "0 hours" in caught.value.message  # it lists the wheels there are


def test_no_wheel_on_screen(phone):
    run_step(phone, Step("launch", CLOCK))
    with pytest.raises(StepError, match="no picker wheel on screen"):
        run_step(phone, pick("min", "5 min"))


@pytest.mark.parametrize(("wheel", "value"), [
    ("o'clock", "13 o'clock"),   # the hour wheel wraps: it comes round without meeting it
    ("minute", "60 minutes"),
    ("3", "Noon"),               # AM/PM stops at both ends
    ("minute", "30"),            # digits alone are not the value
])
def test_an_unreachable_value_fails_and_says_what_the_wheel_reads(alarm_sheet, wheel, value):
    with pytest.raises(StepError, match="cannot be turned to"):
        run_step(alarm_sheet, pick(wheel, value))


def test_a_phone_that_ignores_taps_fails_the_step(alarm_sheet, sim: SimServer):
    sim.fault_on("drop-writes")
    with pytest.raises(StepError, match="ignored the taps"):
        run_step(alarm_sheet, pick("minute", "45 minutes"))
    assert wheel_values(alarm_sheet)[1] == "41 minutes"


# -- a wheel whose rows are small, so XCTest's 20% tap jumps several at once ------------------

@dataclass
class DialState:
    """A 0-99 wheel with 10-point rows: a tap 43 points off centre moves it four rows."""

    wheel: Wheel = field(default_factory=lambda: Wheel(tuple(f"{n} units" for n in range(100)),
                                                       50, row_height=10))


def _render_dial(state: DialState, host: Host) -> Node:
    f = host.facts
    return layout.screen(f, [layout.nav_bar(f, "Dial"),
                             layout.picker(Rect(16, 200, 370, 216),
                                           [(state.wheel, Rect(100, 200, 200, 216))])])


DIAL = AppModel("com.example.dial", "Dial", DialState, _render_dial)


def test_overshooting_taps_are_shortened_until_the_value_is_met():
    with SimServer(apps=[*builtin_apps(), DIAL]) as server:
        phone = Phone(server.url, effect_timeout_s=1.0)
        run_step(phone, Step("launch", "com.example.dial"))
        run_step(phone, pick("units", "52 units"))
        assert wheel_values(phone) == ["52 units"]
        run_step(phone, pick("1", "37 units"))
        assert wheel_values(phone) == ["37 units"]
