"""Replaying logged actions on the simulated iPhone: what the log saw happen happens again, and
what the log cannot reproduce is refused by name."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import pytest
import wda

from phoneshell.agents.replay import replay_action
from phoneshell.audit import Action, ActionKind
from phoneshell.device import Phone, run_step
from phoneshell.errors import StepError
from phoneshell.records import Scalar
from phoneshell.sim import SimServer
from phoneshell.tasks import Step
from phoneshell.xcui import SPRINGBOARD

CALC = "com.apple.calculator"


def logged(kind: ActionKind, params: Mapping[str, Scalar], before: str = CALC,
           after: str = CALC) -> Action:
    """An agent action as the audit log keeps it (intent joined with a good outcome)."""
    return Action(7, "agent", kind, 1.0, params, before, after, None, True, "")


@pytest.fixture
def phone() -> Iterator[Phone]:
    with SimServer() as sim:
        phone = Phone(sim.url, effect_timeout_s=1.0)
        phone.launch(CALC)
        yield phone


def test_a_session_close_that_ended_its_app_ends_it_again(phone: Phone) -> None:
    replay_action(phone, logged("terminate", {"via": "delete_session"}, after=SPRINGBOARD))
    assert phone.foreground().bundle_id == SPRINGBOARD


def test_a_session_close_that_left_the_app_running_changes_nothing(phone: Phone) -> None:
    replay_action(phone, logged("terminate", {"via": "delete_session", "bundle_id": CALC}))
    assert phone.foreground().bundle_id == CALC


def test_what_the_log_cannot_reproduce_is_refused_by_name(phone: Phone) -> None:
    with pytest.raises(StepError, match="typed into a secure field"):
        replay_action(phone, logged("type", {"text": "***"}))
    with pytest.raises(StepError, match="^#7 agent tap ok: the log does not say enough"):
        replay_action(phone, logged("tap", {}))
    with pytest.raises(StepError, match="does not say enough"):
        replay_action(phone, logged("terminate", {}))


@pytest.mark.parametrize("params", [
    {"x": 100, "y": 400, "gesture": "touch_and_hold", "duration": 1.0},  # /wda/touchAndHold
    {"x": 100, "y": 400, "gesture": "actions", "duration": 0.8},  # a W3C long press
], ids=["touch-and-hold", "w3c-long-press"])
def test_a_logged_long_press_is_replayed_as_one(params: Mapping[str, Scalar]) -> None:
    with SimServer() as sim:
        phone = Phone(sim.url, effect_timeout_s=1.0)
        phone.launch(CALC)
        before, _ = sim.ledger()
        replay_action(phone, logged("tap", params))
        _, inputs = sim.ledger(before)
    assert [e["route"] for e in inputs] == ["POST /wda/touchAndHold"]


def test_a_new_session_is_replayed_as_one_and_the_replay_goes_on_in_it() -> None:
    # facebook-wda's `session()` (no app): WDA ends the session before, launches nothing, and
    # the client acts in the new one from then on
    with SimServer() as sim:
        phone = Phone(sim.url, effect_timeout_s=1.0)
        phone.launch(CALC)
        before, _ = sim.ledger()
        phone = replay_action(phone, logged("other", {"route": "/session"}))
        phone = replay_action(phone, logged("tap", {"x": 100, "y": 400, "gesture": "tap"}))
        _, inputs = sim.ledger(before)
        assert phone.foreground().bundle_id == CALC
        made = wda.httpdo(f"{sim.url}/status", "GET", None, 5.0)["sessionId"]
    assert [e["route"] for e in inputs] == ["POST /session", "POST /wda/tap"]
    assert inputs[1]["path"] == f"/session/{made}/wda/tap", "no try in the session before"


def test_a_session_naming_an_app_starts_it_afresh_in_front(phone: Phone) -> None:
    settings = "com.apple.Preferences"
    phone.launch(settings)
    run_step(phone, Step.tap_on("General", "Button"))
    phone = replay_action(phone, logged("launch", {"bundle_id": settings, "via": "session"},
                                        before=settings, after=settings))
    assert phone.foreground().bundle_id == settings
    shown = phone.page().on_screen()
    assert not [e for e in shown if e.name == "BackButton"], "back at its first page"


@pytest.mark.parametrize("params", [
    {"route": "/appium/settings", "settings": "shouldUseCompactResponses"},
    {"route": "/wda/expectNotification", "timeout": 1},
    {"route": "/actions"},  # a touch chain of pauses only
    {"route": "/wda/video/stop"},
], ids=["settings", "notification-wait", "pauses", "video-stop"])
def test_what_touched_nothing_is_replayed_as_nothing(params: Mapping[str, Scalar]) -> None:
    with SimServer() as sim:
        phone = Phone(sim.url, effect_timeout_s=1.0)
        before, _ = sim.ledger()
        replay_action(phone, logged("other", params))
        # a tap WDA failed before it acted, and one whose log says no finger went down
        failed = Action(7, "agent", "tap", 1.0, {"x": 1, "y": 2, "gesture": "tap"}, CALC, CALC,
                        None, False, "no such element")
        replay_action(phone, failed)
        replay_action(phone, logged("tap", {"gesture": "taps", "taps": 0, "touches": 1}))
        _, inputs = sim.ledger(before)
    assert inputs == []


@pytest.mark.parametrize(("kind", "params", "why"), [
    ("other", {"route": "/orientation"}, "changed the phone's orientation to a value the log"),
    ("other", {"route": "/wda/device/appearance"}, "the phone's appearance"),
    ("other", {"route": "/wda/lock/somewhere"}, r"does not say enough .*/wda/lock/somewhere"),
    ("type", {"text": "", "via": "clear", "element": "E1"}, "cleared a field"),
    ("tap", {"x": 100, "y": 400, "gesture": "two_finger_tap"}, "two finger tap: a replay"),
    ("tap", {"x": 100, "y": 400, "gesture": "taps", "taps": 3, "touches": 1}, "3 tap"),
    # a chain that went sideways first, then up: the phone took it sideways
    ("swipe", {"from_x": 200, "from_y": 437, "to_x": 230, "to_y": 60, "first_x": 210,
               "first_y": 437, "gesture": "actions"}, "first move went right, its ends up"),
    ("swipe", {"from_x": 200, "from_y": 437, "to_x": 200, "to_y": 60, "fingers": 2,
               "gesture": "actions"}, "2 fingers"),
], ids=["orientation", "appearance", "unknown", "clear", "two-fingers", "three-taps", "hooked",
        "two-finger-slide"])
def test_what_the_log_cannot_replay_as_it_was_is_refused_before_anything_is_sent(
        kind: ActionKind, params: Mapping[str, Scalar], why: str) -> None:
    with SimServer() as sim:
        phone = Phone(sim.url, effect_timeout_s=1.0)
        before, _ = sim.ledger()
        with pytest.raises(StepError, match=why):
            replay_action(phone, logged(kind, params))
        _, inputs = sim.ledger(before)
    assert inputs == []


def test_a_double_tap_and_a_held_slide_are_replayed_as_they_were() -> None:
    with SimServer() as sim:
        phone = Phone(sim.url, effect_timeout_s=1.0)
        phone.launch(CALC)
        before, _ = sim.ledger()
        replay_action(phone, logged("tap", {"x": 100, "y": 400, "gesture": "double_tap"}))
        # a chain that held 0.6 s, then slid 0.2 s: pressed as long as it held
        replay_action(phone, logged("swipe", {"from_x": 200, "from_y": 600, "to_x": 200,
                                              "to_y": 300, "duration": 0.2, "hold": 0.6,
                                              "gesture": "actions"}))
        _, inputs = sim.ledger(before)
    assert [e["route"] for e in inputs] == ["POST /wda/doubleTap",
                                            "POST /wda/dragfromtoforduration"]
