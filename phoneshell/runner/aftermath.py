"""What an agent's turn left on the phone, read from the attempt's audit log: a rig it broke by
its own actions (then its failure, not a skip), apps it left running that the task's teardown
does not stop (the runner stops them after it), and Settings switches it flipped (the runner sets
them back). Pure: reads events, never a phone."""

from __future__ import annotations

from collections.abc import Iterable

from phoneshell.audit import actions
from phoneshell.records import AuditEvent
from phoneshell.tasks import Step, Task
from phoneshell.xcui import SETTINGS, SPRINGBOARD, SWITCH

WDA_BUNDLE_MARKS = ("WebDriverAgent", ".xctrunner")
"""How a WDA runner's bundle id reads (com.facebook.WebDriverAgentRunner.xctrunner)."""


def agent_broke_rig(events: tuple[AuditEvent, ...]) -> str:
    """What the agent did, by its own logged actions, that can break the rig ("" when none):
    locking the phone, ending WDA's session, terminating WDA."""
    for action in actions(events):
        if action.phase != "agent":
            continue
        button, bundle = action.params.get("button"), str(action.params.get("bundle_id", ""))
        if action.kind == "press" and button in ("lock", "hid:12:48"):
            return f"the agent locked the phone (#{action.seq} press {button})"
        if action.kind == "terminate" and action.params.get("via") == "delete_session":
            return f"the agent ended WDA's session (#{action.seq} DELETE /session)"
        if action.kind == "terminate" and any(mark in bundle for mark in WDA_BUNDLE_MARKS):
            return f"the agent terminated WDA itself (#{action.seq} terminate {bundle})"
    return ""


def left_running(task: Task, shown: Iterable[str]) -> tuple[Step, ...]:
    """A terminate for each app `shown` in front while the agent ran (or at capture: the log's
    `apps_in_front`) that the task's teardown does not stop, never SpringBoard or WDA: a running
    app resumes where it was left, and the next attempt's agent must not start from there."""
    stopped = {s.arg for s in task.teardown if s.kind == "terminate"}
    return tuple(Step("terminate", app, file=task.file) for app in shown
                 if app not in stopped and app != SPRINGBOARD
                 and not any(mark in app for mark in WDA_BUNDLE_MARKS))


def flipped_switches(events: Iterable[AuditEvent]) -> dict[tuple[str, str], bool]:
    """The Settings switches the agent tapped, by label and the title of the page it was on
    (the bridge logs the labelled switch around a tapped knob, and the page), each with
    whether it was on before the attempt first tapped it: what
    `device.switches.set_switch` sets back. A setup that flipped one the agent then tapped is
    undone too: the phone is left as the attempt found it, not as its setup made it."""
    was: dict[tuple[str, str], bool] = {}
    tapped: set[tuple[str, str]] = set()
    for action in actions(events):
        target = action.target
        if (action.phase in ("setup", "agent") and action.kind == "tap" and target is not None
                and target.type == SWITCH and target.label and action.app_before == SETTINGS):
            key = (target.label, target.page)
            was.setdefault(key, target.value == "1")
            if action.phase == "agent":
                tapped.add(key)
    return {key: on for key, on in was.items() if key in tapped}
