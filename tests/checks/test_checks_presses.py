"""One definition of a press (`presses.press_count`, read as `Action.presses`) for every check
that counts them: a one-finger tap is one, a double tap two, tapWithNumberOfTaps of one finger
and N taps N, no tap none; several fingers down together (twoFingerTap, 2 touches, a touch
chain's) may be a press or not (the simulator takes none; UIKit may hand a button one of the
touches), so they never count as one and an absence they may break is unproven. Red team 48: a
two-finger tap on About passed `tapped` About, and two-finger taps on a timer's Pause, 60 s apart,
read as a pause and a resume, so a six-minute timer passed as five. Hand-written audit logs."""

from __future__ import annotations

from dataclasses import replace

import pytest
from audit_logs import CALC, PREFS, act, grade, log, tgt
from sources import El, source

from phoneshell.evidence import Capture
from phoneshell.presses import press_count

ABOUT = tgt("XCUIElementTypeCell", "About", "About")
TIMER = "com.apple.mobiletimer"
TWO = {"gesture": "two_finger_tap"}
TAPS0 = {"gesture": "taps", "taps": 0, "touches": 1}
TAPS_TWO_FINGERS = {"gesture": "taps", "taps": 1, "touches": 2}
TAPS2 = {"gesture": "taps", "taps": 2, "touches": 1}
OLD_TAPS = {"gesture": "taps"}
"""A multi-tap as the bridge logged it before it logged the counts it forwards."""


@pytest.mark.parametrize(("kind", "params", "presses"), [
    ("tap", {}, 1), ("tap", {"gesture": "tap"}, 1), ("tap", {"gesture": "click"}, 1),
    ("tap", {"gesture": "slide", "via": "actions"}, 1), ("tap", {"gesture": "actions"}, 1),
    ("tap", {"gesture": "touch_and_hold", "duration": 1.0}, 1),
    ("tap", {"gesture": "alert_accept"}, 1), ("tap", {"gesture": "double_tap"}, 2),
    ("tap", TAPS2, 2), ("tap", {**TAPS2, "taps": 3}, 3), ("tap", TAPS0, 0),
    ("tap", {**TAPS0, "touches": 2}, 0), ("tap", TAPS_TWO_FINGERS, None), ("tap", TWO, None),
    ("tap", {"gesture": "multi_touch", "fingers": 2}, None), ("tap", OLD_TAPS, None),
    ("tap", {"gesture": "keyboard_dismiss"}, None), ("tap", {"gesture": "new_gesture"}, None),
    ("swipe", {"gesture": "swipe"}, 0), ("type", {"text": "a"}, 0),
])
def test_press_count_is_what_the_phone_takes(kind: str, params: dict[str, object],
                                             presses: int | None) -> None:
    assert press_count(kind, params) == presses


def _about(**params: object) -> object:
    """Settings > General, then a touch on About with `params`, then Back."""
    back = tgt("XCUIElementTypeButton", "Settings", "BackButton")
    return log(act(1, "tap", PREFS, PREFS, target=tgt("XCUIElementTypeCell", "General")),
               act(2, "tap", PREFS, PREFS, target=ABOUT, **params),
               act(3, "tap", PREFS, PREFS, target=back))


@pytest.mark.parametrize("params", [TWO, TAPS_TWO_FINGERS, OLD_TAPS],
                         ids=["twoFingerTap", "one tap of two fingers", "counts not logged"])
def test_a_touch_that_may_be_no_press_never_passes_tapped_and_leaves_its_absence_unproven(
        params: dict[str, object]) -> None:
    passed, detail = grade("tapped", _about(**params), text="About")  # type: ignore[arg-type]
    assert not passed and "#2 " in detail and "may or may not take as a press" in detail, detail
    passed, detail = grade("tapped", _about(**params), text="About",  # type: ignore[arg-type]
                           negate=True)
    assert not passed and detail.startswith("absence unproven: #2"), detail


def test_no_tap_at_all_is_no_press_of_it() -> None:
    passed, detail = grade("tapped", _about(**TAPS0), text="About")  # type: ignore[arg-type]
    assert not passed and "the agent tapped 'General', 'Settings'" in detail, detail
    assert grade("tapped", _about(**TAPS0), text="About", negate=True)[0]  # type: ignore[arg-type]


@pytest.mark.parametrize("params", [{}, {"gesture": "tap"}, TAPS2, {"gesture": "double_tap"},
                                    {"gesture": "touch_and_hold", "duration": 1.0}])
def test_a_press_of_one_finger_still_counts(params: dict[str, object]) -> None:
    passed, detail = grade("tapped", _about(**params), text="About")  # type: ignore[arg-type]
    assert passed and detail == "tapped XCUIElementTypeCell 'About'", detail


def test_tapped_keys_counts_each_press_of_a_multi_tap_and_breaks_at_a_maybe() -> None:
    def key(seq: int, label: str, **params: object) -> list[object]:
        return act(seq, "tap", CALC, CALC, target=tgt("XCUIElementTypeButton", label, label),
                   **params)
    twice = log(key(1, "7", **TAPS2), key(2, "equals"))
    assert grade("tapped_keys", twice, keys=("7", "7", "equals"))[0]  # type: ignore[arg-type]
    assert not grade("tapped_keys", twice, keys=("7", "equals"))[0]  # type: ignore[arg-type]
    for maybe in (TWO, TAPS_TWO_FINGERS):  # the phone may not have keyed the first 7
        two = log(key(1, "7", **maybe), key(2, "7"), key(3, "equals"))
        assert not grade("tapped_keys", two, keys=("7", "7", "equals"))[0]  # type: ignore[arg-type]
    nothing = log(key(1, "7"), key(2, "7", **TAPS0), key(3, "equals"))
    assert not grade("tapped_keys", nothing, keys=("7", "7", "equals"))[0]  # type: ignore[arg-type]


def _timer(*taps: tuple[str, float, dict[str, object]], shown: str, read_at: float) -> object:
    """A timer whose agent touched each (label, at, params) in Clock in turn, Start first; the
    final screen shows `shown` with Cancel and Pause (running)."""
    ev = log(*(act(n, "tap", TIMER, TIMER, target=tgt("XCUIElementTypeButton", label, label),
                   **params) for n, (label, _, params) in enumerate(taps, 1)))
    at = {n: tap[1] for n, tap in enumerate(taps, 1)}
    events = tuple(e.model_copy(update={"t": at[e.seq]}) for e in ev.events)
    xml = source(El(label=shown, value=shown), El("Button", "Cancel", name="Cancel"),
                 El("Button", "Pause", name="Pause"), bundle=TIMER)
    return replace(ev, events=events, captures=(Capture("final", xml, read_at),))


@pytest.mark.parametrize("params", [TWO, TAPS_TWO_FINGERS],
                         ids=["twoFingerTap", "one tap of two fingers"])
def test_countdown_takes_no_time_off_for_touches_that_may_not_have_paused_it(
        params: dict[str, object]) -> None:
    # red team 48: a six-minute timer "paused" and "resumed" by two-finger taps 60 s apart
    # shows 5:00 left at 61 s; read as a pause, it passed a five-minute check
    six = _timer(("Start", 100.0, {}), ("Pause", 100.5, params), ("Pause", 160.5, params),
                 shown="5:00", read_at=161.0)
    passed, detail = grade("countdown", six, text="5:00")  # type: ignore[arg-type]
    assert not passed and "#2 " in detail and "may or may not have toggled the timer" in detail, \
        detail
    started = _timer(("Start", 100.0, params), shown="5:00", read_at=100.5)
    passed, detail = grade("countdown", started, text="5:00")  # type: ignore[arg-type]
    assert not passed and "when the countdown started cannot be told" in detail, detail


def test_countdown_counts_a_real_press_and_each_tap_of_a_multi_tap() -> None:
    # no tap at all on Pause: the six-minute timer ran the whole minute and fails
    none = _timer(("Start", 100.0, {}), ("Pause", 100.5, TAPS0), ("Pause", 160.5, TAPS0),
                  shown="5:00", read_at=161.0)
    passed, detail = grade("countdown", none, text="5:00")  # type: ignore[arg-type]
    assert not passed and "started at about 361s" in detail, detail
    # two taps on Pause at once (pause, resume): it ran the whole minute
    both = _timer(("Start", 100.0, {}), ("Pause", 100.5, TAPS2), shown="4:00", read_at=160.0)
    assert grade("countdown", both, text="5:00")[0]  # type: ignore[arg-type]
    # a real pause and resume 60 s apart: the minute paused is not time run
    real = _timer(("Start", 100.0, {}), ("Pause", 100.5, {}), ("Resume", 160.5, {}),
                  shown="5:00", read_at=161.0)
    assert not grade("countdown", real, text="6:00")[0]  # type: ignore[arg-type]
    assert grade("countdown", real, text="5:00")[0]  # type: ignore[arg-type]


def test_a_search_ended_by_a_touch_that_may_be_no_press_opened_nothing_from_it() -> None:
    search = tgt("XCUIElementTypeSearchField", "Search", "Search", "Search")
    about = tgt("XCUIElementTypeCell", "About", "About")
    for params, opened in ((TWO, False), (TAPS0, False), ({}, True), (TAPS2, True)):
        ev = log(act(1, "tap", PREFS, PREFS, target=search),
                 act(2, "type", PREFS, PREFS, target=search, text="About"),
                 act(3, "tap", PREFS, PREFS, target=about, **params))
        passed, detail = grade("opened_from_search", ev, text="About",  # type: ignore[arg-type]
                               result="About")
        assert passed == opened, (params, detail)
