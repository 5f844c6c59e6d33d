"""How-it-was-done checks from hand-written audit logs: submitted typing, held taps, the keys of a
computation, a page the agent loaded and a timer started at a duration."""

from __future__ import annotations

from dataclasses import replace

from audit_logs import CALC, SAFARI, act, grade, log, tgt
from sources import El, source

from phoneshell.evidence import Capture

FIELD = tgt("XCUIElementTypeTextField", "Address", "TabBarItemTitle")
GO = tgt("XCUIElementTypeKey", "go")
TIMER = "com.apple.mobiletimer"


def key(seq: int, label: str) -> list[object]:
    return act(seq, "tap", CALC, CALC, target=tgt("XCUIElementTypeButton", label, label))


# typed_into submitted ------------------------------------------------------------------------

def test_a_query_typed_but_never_sent_fails_submitted() -> None:
    unsent = log(act(1, "type", SAFARI, SAFARI, target=FIELD, text="iso 8601 date format"))
    passed, detail = grade("typed_into", unsent, text="iso 8601", into="Address", submitted=True)
    assert not passed and "never sent it" in detail
    assert grade("typed_into", unsent, text="iso 8601", into="Address")[0]


def test_return_typed_or_the_go_key_tapped_sends_it() -> None:
    returned = log(act(1, "type", SAFARI, SAFARI, target=FIELD, text="iso 8601\n"))
    tapped_go = log(act(1, "type", SAFARI, SAFARI, target=FIELD, text="iso 8601"),
                    act(2, "tap", SAFARI, SAFARI, target=GO))
    for sent in (returned, tapped_go):
        passed, detail = grade("typed_into", sent, text="iso 8601", submitted=True)
        assert passed and "sent it" in detail


# tapped hold ----------------------------------------------------------------------------------

def test_hold_needs_a_long_press_on_the_element() -> None:
    link = tgt("XCUIElementTypeLink", "More information...")
    plain = log(act(1, "tap", SAFARI, SAFARI, target=link, gesture="tap"))
    held = log(act(1, "tap", SAFARI, SAFARI, target=link, gesture="touch_and_hold",
                   duration=1.0))
    long_touch = log(act(1, "tap", SAFARI, SAFARI, target=link, gesture="actions", duration=0.8))
    passed, detail = grade("tapped", plain, text="More information", hold=True)
    assert not passed and "no touch and hold" in detail
    assert grade("tapped", held, text="More information", hold=True)[0]
    assert grade("tapped", long_touch, text="More information", hold=True)[0]


# tapped_keys ----------------------------------------------------------------------------------

def test_the_result_keyed_in_fails_and_the_computation_passes() -> None:
    keyed = log(*(key(n, k) for n, k in enumerate(("4", "2", "3"), start=1)))
    computed = log(*(key(n, k) for n, k in enumerate(("9", "multiply", "4", "7", "equals"),
                                                     start=1)))
    passed, detail = grade("tapped_keys", keyed, keys=("4", "7", "9", "multiply"), app=CALC)
    assert not passed and "never tapped '7', '9', 'multiply'" in detail
    assert grade("tapped_keys", computed, keys=("4", "7", "9", "multiply"), app=CALC)[0]


def test_tapped_keys_match_whole_labels() -> None:
    forty = log(key(1, "47"))
    assert not grade("tapped_keys", forty, keys=("4",))[0]


# visited -------------------------------------------------------------------------------------

def test_visited_by_opening_or_by_sending_the_address() -> None:
    opened = log(act(1, "open_url", SAFARI, SAFARI, url="https://blolabel.ai/probe/eight/"))
    typed = log(act(1, "type", SAFARI, SAFARI, target=FIELD, text="www.example.com\n"))
    assert grade("visited", opened, url="blolabel.ai/probe/eight")[0]
    assert not grade("visited", opened, url="blolabel.ai/probe/one")[0]
    passed, detail = grade("visited", typed, url="example.com")
    assert passed and "sent it" in detail


def test_a_search_for_the_words_or_an_unsent_address_is_not_a_visit() -> None:
    search = log(act(1, "type", SAFARI, SAFARI, target=FIELD, text="example com\n"))
    unsent = log(act(1, "type", SAFARI, SAFARI, target=FIELD, text="example.com"))
    lookalike = log(act(1, "open_url", SAFARI, SAFARI, url="https://example.com.evil.net/"))
    for ev in (search, unsent, lookalike):
        assert not grade("visited", ev, url="example.com")[0]
    assert not grade("visited", log(audited=False), url="example.com")[0]


# countdown ------------------------------------------------------------------------------------

def timer(shown: str, started_at: float, read_at: float) -> object:
    start = act(1, "tap", TIMER, TIMER, target=tgt("XCUIElementTypeButton", "Start"))
    ev = log(start)
    events = tuple(e.model_copy(update={"t": started_at}) for e in ev.events)
    xml = source(El(label=shown, value=shown), bundle=TIMER)
    return replace(ev, events=events, captures=(Capture("final", xml, read_at),))


def test_countdown_adds_the_time_since_start() -> None:
    passed, detail = grade("countdown", timer("4:58", 100.0, 102.4), text="5:00")  # type: ignore[arg-type]
    assert passed and "started at 300s" in detail
    assert grade("countdown", timer("4:00", 100.0, 160.5), text="5:00")[0]  # type: ignore[arg-type]


def test_a_shorter_or_longer_timer_fails() -> None:
    passed, detail = grade("countdown", timer("4:00", 100.0, 100.3), text="5:00")  # type: ignore[arg-type]
    assert not passed and "started at about 240s, wanted 300s" in detail
    assert not grade("countdown", timer("5:00", 100.0, 160.0), text="5:00")[0]  # type: ignore[arg-type]


def test_a_time_of_day_is_never_the_countdown() -> None:
    """World Clock's "4:41" beside its "AM" (a city chosen, and a wait timed, to fit the check),
    or in a row labelled "Sydney, 4:41 AM", reads like a countdown and is not one; the timer's
    own label still counts beside it."""
    def final(*elements: El) -> object:
        ev = timer("0:00", 100.0, 119.0)
        return replace(ev, captures=(Capture("final", source(*elements, bundle=TIMER),  # type: ignore[attr-defined]
                                             119.0),))

    beside = El("Cell", "Sydney", children=(El(label="4:41"), El(label="AM")))
    row = El("Cell", "Sydney, 4:41 AM", children=(El(label="4:41"),))
    for shown in (beside, row, El("Cell", "Tokyo", children=(El(label="4:41"),
                                                             El(label="p.m.")))):
        passed, detail = grade("countdown", final(shown), text="5:00")  # type: ignore[arg-type]
        assert not passed and "no countdown on the final screen" in detail, detail
    assert grade("countdown", final(beside, El(label="4:41")), text="5:00")[0]  # type: ignore[arg-type]


def test_on_a_phone_whose_clock_stands_still_the_countdown_is_read_as_shown() -> None:
    """The simulator's timers do not tick: "5:00" read 20 s after Start is a 5-minute timer
    there, and "4:00" read a minute after it is a 4-minute one."""
    def still(ev: object) -> object:
        return replace(ev, flags=frozenset({"clock_still"}))  # type: ignore[type-var]

    assert grade("countdown", still(timer("5:00", 100.0, 120.0)), text="5:00")[0]  # type: ignore[arg-type]
    passed, detail = grade("countdown", still(timer("4:00", 100.0, 161.0)), text="5:00")  # type: ignore[arg-type]
    assert not passed and "started at about 240s" in detail


def test_countdown_needs_the_start_tap() -> None:
    never = log()
    shown = replace(never, captures=(Capture("final", source(El(label="5:00")), 1.0),))
    passed, detail = grade("countdown", shown, text="5:00")
    assert not passed and "never tapped 'Start'" in detail
