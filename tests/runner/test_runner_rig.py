"""The rig check after a failure: a read or two when the attempt's own log vouches for the phone,
a handful of requests when it does not, and it still finds a phone that drops input."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import wda

from phoneshell.audit import read_audit
from phoneshell.errors import RIG_DOWN, DeviceError
from phoneshell.records import AuditEvent
from phoneshell.runner import Rig, open_rig
from phoneshell.runner.rig import RigDown, check_rig
from phoneshell.sim import SimServer


@pytest.fixture
def rig(sim: SimServer, tmp_path: Path) -> Iterator[Rig]:
    with open_rig(sim.url, tmp_path, effect_timeout_s=0.3) as found:
        found.enter("R", "t", 1, "agent")
        yield found


def agent_turn(rig: Rig, tmp_path: Path, *taps: tuple[int, int]) -> list[AuditEvent]:
    """The agent's logged taps in Settings, as an attempt's slice of the log."""
    session = wda.Client(rig.bridge.grant_agent(confined=True)).session("com.apple.Preferences")
    for x, y in taps:
        session.tap(x, y)
    rig.bridge.revoke_agent()
    rig.enter("R", "t", 1, "check")
    return list(rig.audit_slice("R", "t", 1, 0)[0])  # as the runner reads it: outcomes written


def cost(sim: SimServer, rig: Rig, events: list[AuditEvent]) -> int:
    before = sim.request_counts()["total"]
    check_rig(rig, events)
    return sim.request_counts()["total"] - before


def test_a_log_that_shows_the_phone_answering_costs_one_read(sim: SimServer, rig: Rig,
                                                             tmp_path: Path) -> None:
    events = agent_turn(rig, tmp_path, (100, 370))  # opens Wi-Fi: the screen changed
    assert cost(sim, rig, events) == 1


def test_an_agent_that_sent_no_gesture_costs_one_read(sim: SimServer, rig: Rig,
                                                      tmp_path: Path) -> None:
    events = agent_turn(rig, tmp_path)  # only the session's launch: no gesture
    assert cost(sim, rig, events) == 1


def test_gestures_that_changed_nothing_are_probed_in_a_handful_of_requests(
        sim: SimServer, rig: Rig, tmp_path: Path) -> None:
    events = agent_turn(rig, tmp_path, (300, 6))  # the status bar: nothing happens
    assert 2 < cost(sim, rig, events) <= 6


def test_a_phone_that_drops_input_is_found(sim: SimServer, rig: Rig, tmp_path: Path) -> None:
    events = agent_turn(rig, tmp_path, (300, 6))
    sim.set_faults(["drop-writes"])
    with pytest.raises(RigDown, match="input does not reach the screen"):
        check_rig(rig, events)


def test_actions_wda_refused_on_a_phone_that_refuses_the_harness_too_are_the_rigs(
        sim: SimServer, rig: Rig, tmp_path: Path) -> None:
    session = wda.Client(rig.bridge.grant_agent(confined=True)).session("com.apple.Preferences")
    sim.set_faults(["stale-session"])
    with pytest.raises(wda.WDAError):
        session.tap(100, 370)
    rig.bridge.revoke_agent()
    rig.enter("R", "t", 1, "check")
    events = list(read_audit(tmp_path / "R" / "audit.jsonl").records)
    with pytest.raises(RIG_DOWN, match="rejected every session"):
        check_rig(rig, events)


def test_actions_wda_refused_on_a_phone_that_works_cost_a_session_read_more(
        sim: SimServer, rig: Rig, tmp_path: Path) -> None:
    session = wda.Client(rig.bridge.grant_agent(confined=True)).session("com.apple.Preferences")
    with pytest.raises(wda.WDAError):  # the agent's own bad request: no such app
        session.app_launch("com.example.no-such-app")
    rig.bridge.revoke_agent()
    rig.enter("R", "t", 1, "check")
    events = list(rig.audit_slice("R", "t", 1, 0)[0])
    assert any(e.phase == "agent" and e.ok is False for e in events)
    # the lock, a session for the harness (a run's has one from setup), and one session read
    assert cost(sim, rig, events) == 3


@pytest.mark.parametrize("leave", [
    lambda s: s.swipe(360, 400, 40, 400),  # the home screen's last page (2 of 2)
    lambda s: s.swipe(200, 300, 200, 600),  # Spotlight, over the home screen
])
@pytest.mark.slow  # 1.8 s measured: the README's command stays quick
def test_a_home_screen_left_where_a_sideways_drag_moves_nothing_takes_input(
        sim: SimServer, rig: Rig, tmp_path: Path, leave: Callable[[wda.Client], None]) -> None:
    """An agent that left SpringBoard where paging sideways moves nothing (its last page,
    Spotlight), then tapped something that changed nothing and failed, failed on a phone that
    works: its failure is scored, not skipped as the rig's (which would stop the run)."""
    session = wda.Client(rig.bridge.grant_agent(confined=True)).session()
    leave(session)
    session.tap(300, 6)  # the status bar: nothing happens
    rig.bridge.revoke_agent()
    rig.enter("R", "t", 1, "check")
    # its own drag changed the screen; a log of only its dud tap would not
    dud = [e for e in rig.audit_slice("R", "t", 1, 0)[0] if e.kind != "swipe"]
    check_rig(rig, dud)  # no RigDown
    leave(wda.Client(sim.url).session())
    sim.set_faults(["drop-writes"])
    with pytest.raises(RigDown, match="input does not reach the screen"):
        check_rig(rig, dud)


def test_every_kind_of_rig_down_is_a_device_error() -> None:
    """The runner catches a phone's failures as `DeviceError` (`endstate.capture_or_blame`
    retries the end state's capture on any): a `RIG_DOWN` kind outside that tree would pass
    through it untried."""
    assert all(issubclass(kind, DeviceError) for kind in RIG_DOWN)


@pytest.mark.parametrize(("clock_runs", "breaks"), [(False, 1), (True, 0)])
def test_on_a_phone_whose_clock_runs_a_timer_ticking_is_no_custody_break(
        sim: SimServer, tmp_path: Path, clock_runs: bool, breaks: int) -> None:
    """A running timer's screen changes by itself, a second at a time. Where the phone's clock
    runs (a real phone's; the simulator's when the rig is told it does), the chain of custody
    holds the phone to its front app only, so a second going by is no break; where it moves
    only when told (the simulator's), the same change with no logged action is one (CI's
    failure: a rig taken for one whose clock runs, with a custody still comparing screens)."""
    with open_rig(sim.url, tmp_path, effect_timeout_s=0.3, clock_runs=clock_runs) as rig:
        assert rig.clock_runs is clock_runs
        rig.enter("R", "t", 1, "agent")
        session = wda.Client(rig.bridge.grant_agent()).session("com.apple.mobiletimer")
        for label in ("Timers", "Start"):
            session(label=label, type="XCUIElementTypeButton").click()
        session.source()
        sim.advance_clock(1.0)  # the timer shows a second less
        session.source()
        rig.bridge.revoke_agent()
        found = [e for e in read_audit(tmp_path / "R" / "audit.jsonl").records
                 if e.stage == "custody"]
    assert len(found) == breaks, found
