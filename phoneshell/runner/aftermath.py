"""What an agent's turn left on the phone, read from the attempt's audit log: a rig it broke by
its own actions (then its failure, not a skip) and apps it left running that the task's teardown
does not stop (the runner stops them after it). The Settings values and the phone's own state it
changed, which the runner sets back (`runner.setback`), are read by `phoneshell.changes` (the
`settings_unchanged` check reads them too) and named here for the runner. Pure: reads events,
never a phone."""

from __future__ import annotations

from collections.abc import Iterable

from phoneshell.audit import actions
from phoneshell.changes import Changed, changed_device, changed_settings
from phoneshell.records import AuditEvent
from phoneshell.tasks import Step, Task
from phoneshell.xcui import SIDE_BUTTON_HID, SPRINGBOARD, is_wda, takes_rig_down

__all__ = ["Changed", "agent_broke_rig", "changed_device", "changed_settings", "left_running"]


def _power_button(button: object) -> bool:
    """Whether a press's button is the side button named by its IOHID page and usage, read as
    numbers the way WDA reads them (unsignedIntValue drops a fraction): a log written before the
    bridge refused fractions may hold "hid:12.0:48.0" or "hid:12:48.4", WDA's 12 and 48."""
    kind, _, numbers = str(button).partition(":")
    try:
        found = tuple(int(float(n)) for n in numbers.split(":"))
    except (ValueError, OverflowError):
        return False
    return kind == "hid" and found == SIDE_BUTTON_HID


def agent_broke_rig(events: tuple[AuditEvent, ...]) -> str:
    """What the agent did, by its own logged actions, that can break the rig ("" when none):
    locking the phone, ending WDA's session, terminating WDA, acting on a control that powers
    the phone off, erases or restarts it, or turns off UI Automation (`xcui.takes_rig_down`:
    the bridge refuses those, so one here got past it), or sending a command WDA was still
    running when the bridge stopped waiting (the phone answers nothing else meanwhile)."""
    for action in actions(events):
        if action.phase != "agent":
            continue
        target = action.target
        if target is not None and action.ok is not False:
            why = takes_rig_down(action.kind, action.app_before, target.type, target.label,
                                 target.value, target.page, target.chosen, action.params)
            if why:
                return (f"the agent acted on {target.label!r} (#{action.seq} {action.kind}): "
                        f"{why}")
        button, bundle = action.params.get("button"), str(action.params.get("bundle_id", ""))
        if action.kind == "press" and (button == "lock" or _power_button(button)):
            return f"the agent locked the phone (#{action.seq} press {button})"
        if action.kind == "terminate" and action.params.get("via") == "delete_session":
            return f"the agent ended WDA's session (#{action.seq} DELETE /session)"
        if action.kind == "terminate" and is_wda(bundle):
            return f"the agent terminated WDA itself (#{action.seq} terminate {bundle})"
        if action.ok is False and UPSTREAM_TIMEOUT in action.error:
            # WDA runs one command at a time: while the agent's runs on, nothing else answers
            return (f"the agent's #{action.seq} {action.kind} kept WDA busy past the bridge's "
                    f"wait ({action.error})")
    return ""


UPSTREAM_TIMEOUT = "timed out"
"""How the bridge's log words an action WDA did not answer in time (`bridge.upstream`)."""


def left_running(task: Task, shown: Iterable[str]) -> tuple[Step, ...]:
    """A terminate for each app `shown` in front while the agent ran (or at capture: the log's
    `apps_in_front`) that the task's teardown does not stop, never SpringBoard or WDA: a running
    app resumes where it was left, and the next attempt's agent must not start from there."""
    stopped = {s.arg for s in task.teardown if s.kind == "terminate"}
    return tuple(Step("terminate", app, file=task.file) for app in shown
                 if app not in stopped and app != SPRINGBOARD
                 and not is_wda(app))
