"""Replaying logged actions on the simulated iPhone: what the log saw happen happens again, and
what the log cannot reproduce is refused by name."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import pytest

from phoneshell.agents.replay import replay_action
from phoneshell.audit import Action, ActionKind
from phoneshell.device import Phone
from phoneshell.errors import StepError
from phoneshell.records import Scalar
from phoneshell.sim import SimServer
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
    {"x": 100, "y": 400, "gesture": "w3c_actions", "duration": 0.8},  # a W3C long press
], ids=["touch-and-hold", "w3c-long-press"])
def test_a_logged_long_press_is_replayed_as_one(params: Mapping[str, Scalar]) -> None:
    with SimServer() as sim:
        phone = Phone(sim.url, effect_timeout_s=1.0)
        phone.launch(CALC)
        before, _ = sim.ledger()
        replay_action(phone, logged("tap", params))
        _, inputs = sim.ledger(before)
    assert [e["route"] for e in inputs] == ["POST /wda/touchAndHold"]
