"""Which apps the runner stops after an agent's turn, read from hand-written audit logs: never
SpringBoard or WDA, never what the teardown stops already, and an app seen only by a custody
line too."""

from __future__ import annotations

from audit_logs import CALC, PREFS, SAFARI, SB, act

from phoneshell.audit import apps_in_front
from phoneshell.records import AuditEvent
from phoneshell.runner.aftermath import left_running
from phoneshell.tasks import Step, Task

WDA = "com.facebook.WebDriverAgentRunner.xctrunner"
MAPS = "com.apple.Maps"


def task(*stops: str) -> Task:
    return Task(id="t", name="t", instruction="x", app=CALC, checks=(),
                teardown=tuple(Step("terminate", app) for app in stops))


def stopped(events: list[AuditEvent], *stops: str) -> list[str]:
    return [s.arg for s in left_running(task(*stops), apps_in_front(events))]


def test_apps_the_agent_had_in_front_beyond_the_teardown_are_stopped() -> None:
    events = [*act(1, "launch", SB, PREFS, bundle_id=PREFS), *act(2, "tap", PREFS, SAFARI),
              *act(3, "launch", SAFARI, CALC, bundle_id=CALC)]
    assert stopped(events, CALC) == [PREFS, SAFARI], "in the order first seen"
    assert stopped(events, CALC, PREFS, SAFARI) == []


def test_springboard_wda_and_other_phases_are_never_stopped() -> None:
    events = [*act(1, "launch", SB, WDA, bundle_id=WDA), *act(2, "home", WDA, SB),
              *act(3, "launch", SB, MAPS, phase="setup", bundle_id=MAPS),
              *act(4, "launch", SB, SAFARI, phase="probe", bundle_id=SAFARI)]
    assert stopped(events) == [], "WDA is the rig; setup and probes are the harness's own"


def test_an_app_only_a_custody_line_saw_is_stopped_too() -> None:
    # the agent reached the phone around the bridge: no action, but capture saw Maps in front
    custody = AuditEvent(v=1, run_id="r", task_id="t", attempt=1, phase="check", seq=5, t=5.0,
                         kind="other", stage="custody", app_before=CALC, app_after=MAPS)
    assert stopped([*act(1, "launch", SB, CALC, bundle_id=CALC), custody], CALC) == [MAPS]
