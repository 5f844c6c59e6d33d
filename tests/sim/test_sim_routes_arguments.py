"""Every argument WDA reads on a route is honoured by the simulator, or refused with WDA's error.

A route that reads part of WDA's arguments and answers 200 ignoring the rest lies to the agent:
`pickerwheel/:id/select {"value": "30 min", "maxAttempts": 40}` turned the wheel one row and
said it was done, where FBElementCommands' handleWheelSelect turns it until it shows the value
or answers 400 `invalid element state`. The table walks routes and their arguments, each with
the status, WDA error and outcome real WDA gives (FBElementCommands.m, FBElementCache.m,
XCUIElement+FBPickerWheel.m), over real HTTP to the simulated iPhone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import wda

CLOCK = "com.apple.mobiletimer"
NEVER_ISSUED = "00000000-0000-0000-0000-000000000000"


def _timer_wheels(session: wda.Client) -> list[wda.Element]:
    session(label="Timers").get(timeout=3).click()
    found = session(className="XCUIElementTypePickerWheel").find_elements()
    return sorted(found, key=lambda e: e.bounds.x)  # hours, minutes, seconds


@pytest.fixture
def timer(client: wda.Client) -> wda.Client:
    return client.session(CLOCK)


# (body, status, error, minute wheel's value after; "" when the error is the point). The
# minute wheel starts at "15 min" and wraps over 0..59.
SELECT_TABLE: list[tuple[dict[str, Any], int, str, str]] = [
    ({"order": "next"}, 200, "", "16 min"),  # no value: one row
    ({"order": "previous", "offset": 0.15}, 200, "", "14 min"),
    ({"order": "previous", "offset": 0.3}, 200, "", "13 min"),  # too far off: two rows
    ({"order": "NEXT", "value": "30 min"}, 200, "", "30 min"),  # order is lowercased
    ({"order": "next", "value": "30 min", "maxAttempts": 40, "offset": 0.15}, 200, "", "30 min"),
    ({"order": "previous", "value": "0 min", "maxAttempts": "20"}, 200, "", "0 min"),
    # fewer rows than the value is away: the wheel stops where the attempts ran out
    ({"order": "next", "value": "30 min", "maxAttempts": 3}, 400, "invalid element state",
     "18 min"),
    # a value no row has: every attempt played, a wrapping wheel goes round (60 rows: 5 on)
    ({"order": "next", "value": "no such row", "maxAttempts": 65}, 400,
     "invalid element state", "20 min"),
    ({"order": "next", "value": "30 min", "maxAttempts": 0}, 400, "invalid element state",
     "15 min"),
    ({"order": "sideways"}, 400, "invalid argument", "15 min"),
    ({"order": "next", "offset": 0.7}, 400, "invalid argument", "15 min"),
    ({"order": "next", "offset": 0}, 400, "invalid argument", "15 min"),
    # an array has no doubleValue: Foundation's unrecognized selector, WDA's unknown error
    ({"order": "next", "offset": [1]}, 500, "unknown error", "15 min"),
]


@pytest.mark.parametrize(("body", "status", "error", "after"), SELECT_TABLE)
def test_pickerwheel_select_reads_every_argument(timer: wda.Client, raw: Callable[..., Any],
                                                 body: dict[str, Any], status: int,
                                                 error: str, after: str) -> None:
    minute = _timer_wheels(timer)[1]
    assert minute.value == "15 min"
    reply = raw("POST", f"/session/{timer.session_id}/wda/pickerwheel/{minute.id}/select", body)
    assert reply.status == status, reply.json
    if error:
        assert reply.value["error"] == error, reply.value
    assert minute.value == after


def test_pickerwheel_select_names_the_value_it_never_reached(timer, raw) -> None:
    minute = _timer_wheels(timer)[1]
    reply = raw("POST", f"/session/{timer.session_id}/wda/pickerwheel/{minute.id}/select",
                {"order": "next", "value": "no such row", "maxAttempts": 7})
    assert reply.value["message"] == ("Cannot select the expected picker wheel value "
                                      "'no such row' after 7 attempts")


def test_pickerwheel_select_on_a_wheel_at_its_end_or_on_no_wheel(client, raw) -> None:
    clock = client.session(CLOCK)
    clock(name="Alarms").click()
    clock(name="Add").click()
    period = sorted(clock(className="XCUIElementTypePickerWheel").find_elements(),
                    key=lambda e: e.bounds.x)[-1]  # AM/PM: two rows, no wrap
    path = f"/session/{clock.session_id}/wda/pickerwheel/%s/select"
    raw("POST", path % period.id, {"order": "next"})
    stuck = raw("POST", path % period.id, {"order": "next", "value": "AM"})
    assert (stuck.status, stuck.value["error"]) == (400, "invalid element state")
    assert "has not been changed" in stuck.value["message"]
    save = clock(name="Save").get(timeout=1)
    wrong = raw("POST", path % save.id, {"order": "next"})
    assert (wrong.status, wrong.value["error"]) == (400, "invalid argument")
    assert "expected to be a valid Picker Wheel control" in wrong.value["message"]


def test_an_unknown_id_and_a_gone_one_say_what_wda_says(timer, raw) -> None:
    never = raw("GET", f"/session/{timer.session_id}/element/{NEVER_ISSUED}/rect")
    assert (never.status, never.value["error"]) == (404, "stale element reference")
    assert never.value["message"] == (
        f'The element identified by "{NEVER_ISSUED}" is either not present or it has expired '
        "from the internal cache. Try to find it again")
    timers = timer(label="Timers").get(timeout=3)
    raw("POST", "/wda/homescreen")
    gone = raw("GET", f"/session/{timer.session_id}/element/{timers.id}/rect")
    assert (gone.status, gone.value["error"]) == (404, "stale element reference")
    assert gone.value["message"].startswith('The previously found element ""Timers" Button" is '
                                            "not present in the current view anymore")


# (route under the element, body, status, error): x and y are an offset from the element's
# top-left corner, both or neither.
OFFSET_TABLE: list[tuple[str, dict[str, Any], int, str]] = [
    ("tap", {"x": 10}, 400, "invalid argument"),
    ("doubleTap", {"y": 10}, 400, "invalid argument"),
    ("touchAndHold", {"x": 10, "duration": 0.1}, 400, "invalid argument"),
]


@pytest.mark.parametrize(("route", "body", "status", "error"), OFFSET_TABLE)
def test_an_element_gesture_needs_both_coordinates(timer, raw, route, body, status,
                                                   error) -> None:
    timers = timer(label="Timers").get(timeout=3)
    reply = raw("POST", f"/session/{timer.session_id}/wda/element/{timers.id}/{route}", body)
    assert (reply.status, reply.value["error"]) == (status, error)


def test_an_element_tap_at_an_offset_lands_from_its_corner(timer, raw) -> None:
    wheels = _timer_wheels(timer)
    minute = wheels[1]
    frame = minute.bounds
    # a point a row below the wheel's centre, given from the wheel's corner: the wheel turns
    below = {"x": frame.width // 2, "y": frame.height // 2 + 34}
    reply = raw("POST", f"/session/{timer.session_id}/wda/element/{minute.id}/tap", below)
    assert reply.status == 200
    assert minute.value == "16 min"
    # the same offset from the screen's corner (the old reading) lands elsewhere
    assert (frame.x, frame.y) != (0, 0)
