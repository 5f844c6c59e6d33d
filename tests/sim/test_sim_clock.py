"""Clock: tabs, alarms (add, cancel, save, edit, delete, persist), picker wheels (tap, drag,
element value, pickerwheel select), the stopwatch and timers on the sim's running clock, and the
suite's regexes against what Clock shows."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import wda
from PIL import Image

from phoneshell.sim import SimServer
from phoneshell.sim.render import wheel_face
from phoneshell.tree import PageSource

CLOCK = "com.apple.mobiletimer"
TABS = ["World Clock", "Alarms", "Stopwatch", "Timers"]


@pytest.fixture
def clock(client: wda.Client) -> wda.Client:
    """A session on a freshly launched Clock."""
    return client.session(CLOCK)


def advance(raw, seconds: float) -> float:
    reply = raw("POST", "/phoneshell/sim/clock", {"advance": seconds})
    assert reply.status == 200, reply.text
    return reply.json["clock_s"]


def wheels(session: wda.Client) -> list[wda.Element]:
    found = session(className="XCUIElementTypePickerWheel").find_elements()
    return sorted(found, key=lambda e: e.bounds.x)


def values(session: wda.Client) -> list[str]:
    return [w.value for w in wheels(session)]


def alarm_labels(client: wda.Client) -> list[str]:
    page = PageSource.parse(client.source())
    return [e.label for e in page.on_screen() if e.type == "XCUIElementTypeCell"
            and re.match(r"\d{1,2}:\d\d", e.label)]


def shown_texts(client: wda.Client) -> list[str]:
    page = PageSource.parse(client.source())
    return [t for e in page.on_screen() for _, t in e.texts()]


def hits(client: wda.Client, pattern: str) -> list[tuple[str, str]]:
    """(element type, first matching text) for every on-screen element the pattern matches,
    searched per attribute as `regex_on_screen` does."""
    page, regex = PageSource.parse(client.source()), re.compile(pattern)
    found = []
    for element in page.on_screen():
        texts = [t for _, t in element.texts() if regex.search(t)]
        if texts:
            found.append((element.short_type, texts[0]))
    return found


def open_add_sheet(clock: wda.Client) -> None:
    clock(name="Alarms").click()
    clock(name="Add").click()
    assert clock(name="Save").exists


def tap_off_centre(clock: wda.Client, wheel: wda.Element, rows: float) -> None:
    box = wheel.bounds
    clock.tap(box.x + box.width // 2, box.y + box.height // 2 + round(rows * 34))


# -- tabs -----------------------------------------------------------------------------------

def test_first_launch_opens_on_world_clock_and_tabs_mark_the_selected_one(clock):
    for tab in TABS:
        assert clock(name=tab, className="Button").exists, tab
    page = PageSource.parse(clock.source())
    traits = {e.label: e.traits for e in page.on_screen() if e.label in TABS
              and e.type == "XCUIElementTypeButton"}
    assert traits == {"World Clock": "Button, Selected", "Alarms": "Button",
                      "Stopwatch": "Button", "Timers": "Button"}
    assert "Cupertino, 9:41 AM" in shown_texts(clock)
    clock(name="Timers").click()
    assert clock(name="Timers", className="Button").get(timeout=1).value == "1"
    assert clock(name="World Clock", className="Button").get(timeout=1).value is None


def test_clock_reopens_on_the_last_tab_even_after_a_terminate(clock, sim):
    clock(name="Stopwatch").click()
    clock.app_terminate(CLOCK)
    clock.app_launch(CLOCK)
    assert clock(name="Stopwatch", className="Button").get(timeout=1).value == "1"
    assert clock(name="World Clock", className="Button").get(timeout=1).value is None
    sim.phone.reset()  # a new phone opens on the first tab
    clock.app_launch(CLOCK)
    assert clock(name="World Clock", className="Button").get(timeout=1).value == "1"


def test_a_running_stopwatch_and_timer_outlive_a_terminate(clock, client, raw):
    clock(name="Stopwatch").click()
    clock(name="Start").click()
    advance(raw, 2)
    clock(name="Lap").click()
    clock.app_terminate(CLOCK)
    advance(raw, 3)  # Clock is not running: a phone's stopwatch keeps time all the same
    clock.app_launch(CLOCK)
    assert {"00:05.00", "Lap 1, 00:02.00"} <= set(shown_texts(client))
    assert clock(name="Stop").exists
    clock(name="Timers").click()
    wheels(clock)[1].set_text("5 min")
    clock(name="Start").click()
    clock(name="Pause").click()
    clock.app_terminate(CLOCK)
    advance(raw, 60)
    clock.app_launch(CLOCK)  # still paused, on the tab left
    assert "5:00" in shown_texts(client) and clock(name="Resume").exists
    clock(name="Resume").click()
    clock.app_terminate(CLOCK)
    advance(raw, 120)
    clock.app_launch(CLOCK)
    assert "3:00" in shown_texts(client)
    assert values(clock) == []  # the countdown shows, not the picker
    clock.app_terminate(CLOCK)
    advance(raw, 180)  # it ran out while Clock was closed
    clock.app_launch(CLOCK)
    # over, the picker shows again at the duration last set, kept over the terminates
    assert values(clock) == ["0 hours", "5 min", "0 sec"]


def test_adding_a_city_filters_by_typing_and_persists(clock, client):
    clock(name="Add").click()
    clock.send_keys("lon")
    assert clock(label="London").exists and not clock(label="Tokyo").exists
    clock(label="London").click()
    assert "London, 5:41 PM" in shown_texts(client)
    clock.app_terminate(CLOCK)
    clock.app_launch(CLOCK)
    assert {"Cupertino, 9:41 AM", "London, 5:41 PM"} <= set(shown_texts(client))


# -- alarms ---------------------------------------------------------------------------------

def test_the_new_alarm_sheet_starts_at_the_wall_time_and_cancel_saves_nothing(clock, client,
                                                                               sim):
    open_add_sheet(clock)
    assert values(clock) == ["9 o\u2019clock", "41 minutes", "AM"]
    # titled in a navigation bar, as iOS titles the sheet by what Save will do
    assert clock(className="NavigationBar", name="Add Alarm").exists
    assert clock(xpath="//XCUIElementTypeNavigationBar[@name='Add Alarm']"
                       "/XCUIElementTypeButton[@name='Cancel']").exists
    clock(name="Cancel").click()
    assert alarm_labels(client) == []
    assert sim.state()["stores"].get(CLOCK, {}).get("alarms", []) == []


def test_save_stores_the_alarm_switched_on_and_it_outlives_a_terminate(clock, client, sim):
    open_add_sheet(clock)
    clock(name="Save").click()
    assert alarm_labels(client) == ["9:41 AM, Alarm"]
    switch = clock(className="Switch", label="9:41 AM, Alarm").get(timeout=1)
    assert switch.value == "1"
    stored = sim.state()["stores"][CLOCK]["alarms"]
    assert [(a["hour"], a["minute"], a["label"], a["enabled"]) for a in stored] == [
        (9, 41, "", True)]
    clock.app_terminate(CLOCK)
    clock.app_launch(CLOCK)
    clock(name="Alarms").click()
    assert alarm_labels(client) == ["9:41 AM, Alarm"]
    sim.reset()
    client.session(CLOCK)(name="Alarms").click()
    assert alarm_labels(client) == []


def test_a_named_alarm_and_its_switch(clock, client, sim):
    open_add_sheet(clock)
    clock(className="TextField", name="Label").click()
    clock.send_keys("Wake Up\n")
    clock(name="Save").click()
    assert alarm_labels(client) == ["9:41 AM, Wake Up"]
    clock(className="Switch", label="9:41 AM, Wake Up").click()
    assert clock(className="Switch", label="9:41 AM, Wake Up").get(timeout=1).value == "0"
    assert sim.state()["stores"][CLOCK]["alarms"][0]["enabled"] is False


def test_tapping_a_row_edits_the_alarm(clock, client):
    open_add_sheet(clock)
    clock(name="Save").click()
    clock(label="9:41 AM, Alarm", className="Cell").click()
    assert clock(className="NavigationBar", name="Edit Alarm").exists
    assert not clock(className="NavigationBar", name="Add Alarm").exists
    wheels(clock)[1].set_text("05 minutes")
    clock(name="Save").click()
    assert alarm_labels(client) == ["9:05 AM, Alarm"]
    clock(label="9:05 AM, Alarm", className="Cell").click()
    clock(name="Delete Alarm").click()
    assert alarm_labels(client) == []


def test_the_list_stays_in_the_source_behind_the_sheet_but_takes_no_taps(clock, client):
    open_add_sheet(clock)
    clock(name="Save").click()
    clock(name="Add").click()
    # Behind the sheet, in the source but not visible, as a real phone reports what a modal
    # presentation covers.
    behind = clock(label="9:41 AM, Alarm", className="Cell").get(timeout=1)
    assert behind.visible is False and alarm_labels(client) == []
    clock.tap(50, 817)  # where the World Clock tab is, under the sheet: nothing happens
    assert clock(name="Save").exists


def save_alarms(clock: wda.Client, *minutes: str) -> None:
    for minute in minutes:
        clock(name="Add").click()
        wheels(clock)[1].set_text(minute)
        clock(name="Save").click()


def row_centre(clock: wda.Client, label: str) -> tuple[int, int, int]:
    """The row's left edge, vertical centre and width (ints: facebook-wda reads floats as
    fractions of the screen)."""
    box = clock(label=label, className="Cell").get(timeout=1).bounds
    return box.x, box.y + box.height // 2, box.width


def test_swipe_left_shows_delete_and_delete_removes_only_that_row(clock, client):
    clock(name="Alarms").click()
    save_alarms(clock, "10 minutes", "20 minutes")
    x, y, width = row_centre(clock, "9:10 AM, Alarm")
    clock.swipe(x + width * 6 // 10, y, x + width * 2 // 10, y)
    delete = clock(name="Delete", className="Button").get(timeout=1)
    assert y - 48 <= delete.bounds.center[1] <= y + 48
    clock.swipe(x + width * 2 // 10, y, x + width * 6 // 10, y)  # a right swipe puts it away
    assert not clock(name="Delete", className="Button").exists
    clock.swipe(x + width * 6 // 10, y, x + width * 2 // 10, y)
    clock(name="Delete", className="Button").click()
    assert alarm_labels(client) == ["9:20 AM, Alarm"]


def test_a_full_swipe_deletes_at_once(clock, client):
    clock(name="Alarms").click()
    save_alarms(clock, "10 minutes")
    x, y, width = row_centre(clock, "9:10 AM, Alarm")
    clock.swipe(x + width * 9 // 10, y, x + width // 20, y)
    assert alarm_labels(client) == []


def test_edit_mode_deletes_through_the_row_button(clock, client):
    clock(name="Alarms").click()
    save_alarms(clock, "10 minutes")
    clock(name="Edit").click()
    clock(name="Delete 9:10 AM, Alarm").click()
    clock(name="Delete", className="Button").click()
    assert alarm_labels(client) == []
    clock(name="Done").click()
    assert clock(name="Edit").exists


# -- picker wheels --------------------------------------------------------------------------

def test_a_tap_above_or_below_the_centre_steps_a_wheel(clock):
    open_add_sheet(clock)
    hour = wheels(clock)[0]
    tap_off_centre(clock, hour, 1.25)
    assert wheels(clock)[0].value == "10 o\u2019clock"
    tap_off_centre(clock, hour, -1.25)
    tap_off_centre(clock, hour, -1.25)
    assert wheels(clock)[0].value == "8 o\u2019clock"
    tap_off_centre(clock, hour, 0)  # the middle row: nothing happens
    assert wheels(clock)[0].value == "8 o\u2019clock"


def test_a_vertical_drag_turns_a_wheel_by_whole_rows(clock):
    open_add_sheet(clock)
    box = wheels(clock)[1].bounds
    cx, cy = box.center
    clock.swipe(cx, cy + 51, cx, cy - 51)  # up by three rows: three later minutes
    assert wheels(clock)[1].value == "44 minutes"
    clock.swipe(cx, cy - 40, cx, cy + 40)
    assert wheels(clock)[1].value == "42 minutes"


def test_hours_and_minutes_wrap_and_am_pm_does_not(clock):
    open_add_sheet(clock)
    hour, minute, period = wheels(clock)
    hour.set_text("12 o\u2019clock")
    minute.set_text("59 minutes")
    tap_off_centre(clock, hour, 1.25)
    tap_off_centre(clock, minute, 1.25)
    assert values(clock)[:2] == ["1 o\u2019clock", "00 minutes"]
    tap_off_centre(clock, period, -1.25)  # AM is the first row: nothing above it
    assert values(clock)[2] == "AM"
    tap_off_centre(clock, period, 1.25)
    tap_off_centre(clock, period, 1.25)  # PM is the last row
    assert values(clock)[2] == "PM"


def test_element_value_selects_a_row_and_refuses_a_value_the_wheel_lacks(clock, raw):
    open_add_sheet(clock)
    hour = wheels(clock)[0]
    hour.set_text("7 o\u2019clock")
    assert hour.value == "7 o\u2019clock"
    reply = raw("POST", f"/session/{clock.session_id}/element/{hour.id}/value",
                {"value": ["13 o\u2019clock"]})
    assert reply.status == 500 and reply.value["error"] == "unknown error"
    assert hour.value == "7 o\u2019clock"


def test_the_minute_wheel_says_its_number_as_it_draws_it(clock, raw):
    # A phone's UIDatePicker reads "00 minutes", "05 minutes" (red team 124): the value keeps
    # the padding the wheel draws, and a value it lacks ("5 minutes") is refused as WDA does
    open_add_sheet(clock)
    minute = wheels(clock)[1]
    for value in ("05 minutes", "00 minutes", "01 minutes"):
        minute.set_text(value)
        assert minute.value == value
        assert wheel_face(value) == (value.split(" ")[0], "")  # drawn as spoken: one table
    for unpadded in ("5 minutes", "0 minutes", "1 minute"):
        reply = raw("POST", f"/session/{clock.session_id}/element/{minute.id}/value",
                    {"value": [unpadded]})
        assert reply.status == 500 and "no value" in reply.value["message"], unpadded
    assert minute.value == "01 minutes"


def test_pickerwheel_select_steps_like_wda_and_fails_at_an_end(clock, raw):
    open_add_sheet(clock)
    minute, period = wheels(clock)[1], wheels(clock)[2]

    def select(element: wda.Element, body: dict) -> object:
        return raw("POST", f"/session/{clock.session_id}/wda/pickerwheel/{element.id}/select", body)

    assert select(minute, {"order": "next", "offset": 0.2}).status == 200
    assert minute.value == "42 minutes"
    assert select(minute, {"order": "previous"}).status == 200
    assert minute.value == "41 minutes"
    assert select(period, {"order": "next"}).status == 200
    stuck = select(period, {"order": "next"})
    # FBElementCommands answers a wheel that did not move with invalid element state (400)
    assert stuck.status == 400 and stuck.value["error"] == "invalid element state"
    assert "has not been changed" in stuck.value["message"]
    assert select(minute, {"order": "next", "offset": 0.7}).status == 400
    assert select(minute, {"order": "sideways"}).status == 400
    save = clock(name="Save").get(timeout=1)
    not_a_wheel = select(save, {"order": "next"})  # WDA: invalid argument, not a crash
    assert not_a_wheel.status == 400 and not_a_wheel.value["error"] == "invalid argument"


# -- stopwatch and timers -------------------------------------------------------------------

def test_the_stopwatch_runs_on_the_sims_clock(clock, client, raw):
    clock(name="Stopwatch").click()
    assert clock(name="Lap").get(timeout=1).enabled is False
    clock(name="Start").click()
    assert clock(name="Stop").exists and clock(name="Lap").get(timeout=1).enabled
    assert "00:00.00" in shown_texts(client)
    first = client.source()
    assert client.source() == first  # nothing ticks until the clock is advanced
    advance(raw, 3.5)
    assert "00:03.50" in shown_texts(client)
    clock(name="Lap").click()
    advance(raw, 1.2)
    assert {"00:04.70", "Lap 2, 00:01.20", "Lap 1, 00:03.50"} <= set(shown_texts(client))
    clock(name="Stop").click()
    advance(raw, 10)
    assert "00:04.70" in shown_texts(client)
    assert clock(name="Reset").exists and clock(name="Start").exists
    clock(name="Reset").click()
    assert "00:00.00" in shown_texts(client) and not clock(label="Lap 1, 00:03.50").exists


def test_a_stopwatch_stopped_before_the_clock_moved_is_at_zero_with_no_laps(clock, client, sim):
    # The sim's clock moves only when told, so Start, Lap, Stop read one instant: the
    # stopwatch is at zero, shows as a reset one does, and keeps no lap it cannot show.
    clock(name="Stopwatch").click()
    clock(name="Start").click()
    clock(name="Lap").click()
    clock(name="Stop").click()
    assert "00:00.00" in shown_texts(client) and clock(name="Start").exists
    assert clock(name="Lap").get(timeout=1).enabled is False
    assert sim.state()["stores"][CLOCK]["stopwatch"]["splits"] == []


def test_a_timer_counts_down_pauses_and_ends(clock, client, raw):
    clock(name="Timers").click()
    assert values(clock) == ["0 hours", "15 min", "0 sec"]
    assert clock(name="Cancel").get(timeout=1).enabled is False
    wheels(clock)[1].set_text("5 min")
    clock(name="Start").click()
    assert "5:00" in shown_texts(client) and clock(name="Pause").exists
    advance(raw, 1)
    assert "4:59" in shown_texts(client)
    clock(name="Pause").click()
    advance(raw, 30)
    assert "4:59" in shown_texts(client)
    clock(name="Resume").click()
    advance(raw, 298.5)
    assert "0:01" in shown_texts(client)
    advance(raw, 0.5)
    assert values(clock) == ["0 hours", "5 min", "0 sec"]  # over: the picker is back
    clock(name="Start").click()
    clock(name="Cancel").click()
    assert values(clock) == ["0 hours", "5 min", "0 sec"]


def test_start_is_dimmed_at_zero(clock):
    clock(name="Timers").click()
    wheels(clock)[1].set_text("0 min")
    assert clock(name="Start").get(timeout=1).enabled is False


def test_the_clock_route_refuses_going_back(raw, sim):
    assert raw("POST", "/phoneshell/sim/clock", {"advance": -1}).status == 400
    assert raw("POST", "/phoneshell/sim/clock", {"advance": "soon"}).status == 400
    assert advance(raw, 2) == sim.state()["clock_s"] == 2


# -- the suite's regexes --------------------------------------------------------------------

def test_timer_regexes_match_the_right_wheel_and_nothing_else(clock, client):
    clock(name="Timers").click()
    hour, minute, _ = wheels(clock)
    hour.set_text("1 hour")
    minute.set_text("30 min")
    assert hits(client, r"(?<![0-9])1 hour") == [("PickerWheel", "1 hour")]
    assert hits(client, r"(?<![0-9])30 min") == [("PickerWheel", "30 min")]
    assert hits(client, r"(?<![0-9])5 min") == []
    minute.set_text("5 min")
    assert hits(client, r"(?<![0-9])5 min") == [("PickerWheel", "5 min")]
    for decoy in ("15 min", "25 min", "45 min"):
        minute.set_text(decoy)
        assert hits(client, r"(?<![0-9])5 min") == [], decoy
    hour.set_text("11 hours")
    assert hits(client, r"(?<![0-9])1 hour") == []


def test_the_running_timer_matches_the_five_minute_pattern(clock, client, raw):
    clock(name="Timers").click()
    wheels(clock)[1].set_text("5 min")
    clock(name="Start").click()
    pattern = r"0?[34]:\d\d|0?5:00"
    for step, shown in ((0, "5:00"), (1, "4:59"), (60, "3:59"), (59, "3:00")):
        advance(raw, step)
        assert hits(client, pattern) == [("StaticText", shown)]
    advance(raw, 1)
    assert hits(client, pattern) == []  # 2:59: under three minutes is out of the window


def test_alarm_regexes_read_the_wheels_not_the_list_behind(clock, client):
    clock(name="Alarms").click()
    clock(name="Add").click()
    hour, minute, _ = wheels(clock)
    hour.set_text("10 o\u2019clock")
    minute.set_text("30 minutes")
    clock(name="Save").click()  # "10:30 AM, Alarm" now sits behind the next sheet
    clock(name="Add").click()
    hour, minute, _ = wheels(clock)
    hour.set_text("7 o\u2019clock")
    minute.set_text("30 minutes")
    assert hits(client, r"(?<![0-9])7 o.clock") == [("PickerWheel", "7 o\u2019clock")]
    assert hits(client, r"(?<![0-9])30 minutes") == [("PickerWheel", "30 minutes")]
    # The list behind the sheet is covered: a bare 30 does not match its "10:30 AM" row.
    assert hits(client, r"30") == [("PickerWheel", "30 minutes")]


def test_every_clock_screen_renders_and_a_sheet_hides_what_it_covers(clock, client):
    shots = {}
    for tab in TABS:
        clock(name=tab).click()
        shots[tab] = client.screenshot(format="raw")
    clock(name="Alarms").click()
    clock(name="Add").click()
    sheet = Image.open(io.BytesIO(client.screenshot(format="raw"))).convert("RGB")
    assert sheet.size == (1206, 2622)
    # The tab bar under the sheet is painted over: its strip is one plain colour.
    assert len(sheet.crop((12, 2400, 1194, 2520)).getcolors() or ()) == 1
    assert len(set(shots.values())) == len(TABS)


# -- state file -----------------------------------------------------------------------------

@pytest.fixture
def seeded(tmp_path: Path) -> Iterator[SimServer]:
    state = {"version": 1, "stores": {CLOCK: {
        "alarms": [{"id": 1, "hour": 6, "minute": 0, "label": "Wake Up",
                    "repeat": "every weekday", "enabled": True},
                   {"id": 2, "hour": 25, "minute": 0}, "not an alarm"],
        "cities": [{"city": "Tokyo"}, {"city": "Atlantis"}],
        "tab": "Nowhere", "stopwatch": {"since": "soon", "banked": True, "splits": [1, "x"]},
        "timer": ["not", "a", "record"]}}}
    path = tmp_path / "state.json"
    path.write_text(json.dumps(state))
    with SimServer(state_file=path) as server:
        yield server


def test_alarms_and_cities_come_from_the_state_file_and_bad_records_are_skipped(seeded):
    session = wda.Client(seeded.url).session(CLOCK)
    assert "Tokyo, 2:41 AM" in shown_texts(session)
    assert not any(t.startswith("Cupertino") for t in shown_texts(session))
    session(name="Alarms").click()
    assert alarm_labels(session) == ["6:00 AM, Wake Up, every weekday"]


def test_a_bad_stored_tab_stopwatch_or_timer_reads_as_none(seeded):
    client = wda.Client(seeded.url)
    clock = client.session(CLOCK)
    assert clock(name="World Clock", className="Button").get(timeout=1).value == "1"
    clock(name="Stopwatch").click()
    assert "00:00.00" in shown_texts(client) and clock(name="Start").exists
    clock(name="Timers").click()
    assert values(clock) == ["0 hours", "15 min", "0 sec"]


def test_a_double_tap_on_pause_lands_twice_and_the_timer_runs_on(sim, clock, raw):
    """Pause redraws itself as Resume in place: a double tap is two taps on the one button
    (pause, resume), by id or at a point; the timer runs on. A row that opens a page takes
    one tap of a double tap, the rest dropped in the transition (below)."""
    clock(label="Timers").click()
    clock(label="Start").click()
    pause = clock(label="Pause").get()
    raw("POST", f"/session/{clock.session_id}/wda/element/{pause.id}/doubleTap", {})
    assert clock(label="Pause").exists and not clock(label="Resume").exists
    timer = sim.state()["stores"]["com.apple.mobiletimer"]["timer"]
    assert timer["paused_left"] is None and timer["ends"] is not None
    x, y = pause.bounds.center
    raw("POST", f"/session/{clock.session_id}/wda/doubleTap", {"x": x, "y": y})
    assert clock(label="Pause").exists


def test_a_double_tap_on_a_row_opens_its_page_once(client, raw):
    settings = client.session("com.apple.Preferences")
    general = settings(label="General").get()
    raw("POST", f"/session/{settings.session_id}/wda/element/{general.id}/doubleTap", {})
    assert settings(label="About").exists  # General's page, its first row not tapped through
    assert not settings(label="Name").exists
