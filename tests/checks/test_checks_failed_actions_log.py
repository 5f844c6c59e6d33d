"""`Action.acted` route by route, and the readers that need a phone state the simulator cannot
fail on cue (a way back, the rig, a timer), from hand-written logs whose errors are the bridge's
own words: WDA's error answers as `answers.outcome_of` writes them, and no answer as
`bridge.upstream` words it for a link that closed or timed out (the relay test of
test_checks_failed_actions.py shows the bridge writing one)."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from dataclasses import replace

import pytest
from audit_logs import act, log, tgt
from sources import El, source

from bridge.upstream import Upstream, UpstreamDown
from phoneshell.audit import actions, agent_broke_rig
from phoneshell.checks import Check, grade_check
from phoneshell.checks.backs import way_back
from phoneshell.evidence import Capture
from phoneshell.keyboard_dismiss import DISMISS_VIA
from phoneshell.records import AuditEvent

SETTINGS, SB, TIMER = "com.apple.Preferences", "com.apple.springboard", "com.apple.mobiletimer"
WDA_ERROR = "invalid element state: Did not know how to dismiss the keyboard"
BACK = tgt("XCUIElementTypeButton", "General", "BackButton")


def _no_answer(hang: bool) -> str:
    """The bridge's words for a request WDA never answered: a listener that takes the request
    and says nothing until the bridge gives up (`hang`), or one that refuses it."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(4)
    port = listener.getsockname()[1]
    if not hang:
        listener.close()
    try:
        Upstream(f"http://127.0.0.1:{port}").send("POST", "/session/S/wda/tap", b"{}", {},
                                                  timeout_s=0.2)
    except UpstreamDown as exc:
        return exc.message
    finally:
        listener.close()
    raise AssertionError("the listener answered")


@pytest.fixture(scope="module")
def unanswered() -> Iterator[str]:
    yield _no_answer(hang=True)


def failed(seq: int, kind: str, before: str, error: str, target: object = None,
           after: str = "", **params: object) -> list[AuditEvent]:
    """An action WDA failed (`error`), as the bridge logs it (no after read on no answer)."""
    intent, outcome = act(seq, kind, before, after or before, target=target, **params)
    return [intent, outcome.model_copy(update={"ok": False, "error": error,
                                               "app_after": after})]


def _acted(events: list[AuditEvent]) -> bool | None:
    return actions(events)[-1].acted


def test_what_each_failed_route_did(unanswered: str) -> None:
    refused = _no_answer(hang=False)
    assert "timed out" in unanswered and "the connection was refused" in refused
    key = tgt("XCUIElementTypeKey", "s", "s")
    cases: list[tuple[list[AuditEvent], bool | None]] = [
        (act(1, "tap", SB, SB), True),
        (act(1, "tap", SB, None), None),  # no outcome: the bridge stopped first
        (failed(1, "tap", SB, "no such element: gone"), False),
        (failed(1, "tap", SB, WDA_ERROR, key, gesture="tap", via=DISMISS_VIA), True),
        (failed(1, "tap", SB, unanswered, key, gesture="tap", via=DISMISS_VIA), None),
        (failed(1, "tap", SB, unanswered), None),
        (failed(1, "tap", SB, refused), False),
        (failed(1, "launch", SB, refused, bundle_id=SETTINGS), False),
        (failed(1, "swipe", SB, "unknown error: x", gesture="swipe", direction="up"), False),
        (failed(1, "swipe", SB, "unknown error: x", gesture="drag"), False),
        (failed(1, "swipe", SB, "unknown error: max scroll", gesture="scroll_to"), None),
        (failed(1, "swipe", SB, "unknown error: x", gesture="scroll", direction="down"), None),
        (failed(1, "swipe", SB, "unknown error: x", gesture="picker_select"), None),
        (failed(1, "type", SB, "unknown error: x", text="abc"), None),
        (failed(1, "launch", SB, "unknown error: x", bundle_id=SETTINGS), None),
        (failed(1, "open_url", SB, "unknown error: x", url="https://a.example"), None),
    ]
    assert [_acted(events) for events, _ in cases] == [want for _, want in cases]
    assert "never answered" in actions(failed(1, "tap", SB, unanswered))[0].untold()


def test_a_launch_that_failed_may_have_reset_the_way_back(unanswered: str) -> None:
    """A launch WDA failed may have restarted the app (a launch can act, then time out): the
    way back after it is not the app's own, whatever the backs after it."""
    after = actions([*failed(2, "launch", SETTINGS, "unknown error: timed out launching",
                             bundle_id=SETTINGS),
                     *act(3, "tap", SETTINGS, SETTINGS, target=BACK)])
    way = way_back(after, SETTINGS)
    assert way.broke and "a launch starts the app afresh" in way.broke, way


def test_a_back_the_phone_may_have_taken_is_no_back_counted(unanswered: str) -> None:
    after = actions(failed(2, "tap", SETTINGS, unanswered, BACK))
    way = way_back(after, SETTINGS)
    assert way.backs == () and "never answered" in way.unknown, way


def test_an_app_back_unseen_on_another_screen_breaks_the_way_back(unanswered: str) -> None:
    """A tap on SpringBoard WDA never answered (a Spotlight result opens the app on a page of
    its own) shows where the app came back on the screen the next action began on."""
    left = act(2, "tap", SETTINGS, SB, target=tgt("XCUIElementTypeButton", "x"))
    left[0] = left[0].model_copy(update={"screen_before": "about"})
    back = act(4, "tap", SETTINGS, SETTINGS, target=BACK)
    back[0] = back[0].model_copy(update={"screen_before": "wifi"})
    way = way_back(actions([*left, *failed(3, "tap", SB, unanswered), *back]), SETTINGS)
    assert "came back on another screen" in way.broke, way


def test_a_rig_breaking_tap_that_may_have_run_breaks_the_rig(unanswered: str) -> None:
    restart = tgt("XCUIElementTypeButton", "Restart")
    closed = unanswered.replace("it timed out", "the connection closed before an answer came")
    assert "restart the phone" in agent_broke_rig(tuple(failed(1, "tap", SB, closed, restart)))
    assert agent_broke_rig(tuple(failed(1, "tap", SB, "no such element: x", restart))) == ""


def test_a_start_that_may_not_have_run_starts_no_countdown(unanswered: str) -> None:
    """countdown: a Start WDA never answered may or may not have started the timer, so when
    the countdown began cannot be told. Read as nothing, the earlier Start of another timer
    made a five-minute timer just started pass for a six-minute one a minute in."""
    start = tgt("XCUIElementTypeButton", "Start")
    ev = log(act(1, "tap", TIMER, TIMER, target=start),
             failed(2, "tap", TIMER, unanswered, start))
    events = tuple(e.model_copy(update={"t": 100.0 if e.seq == 1 else 160.0}) for e in ev.events)
    xml = source(El(label="5:00", value="5:00"), bundle=TIMER)
    shown = replace(ev, events=events, captures=(Capture("final", xml, 160.5),))
    result = grade_check(Check.make("countdown", "6:00"), shown)
    assert not result.passed and "never answered" in result.detail, result.detail
