"""What an agent's turn left on the phone, read from the attempt's audit log: a rig it broke by
its own actions (then its failure, not a skip: `audit.agent_broke_rig`, which `grade` applies
too) and apps it left running that the task's teardown does not stop (the runner stops them
after it). The Settings values and the phone's own state it
changed, which the runner sets back (`runner.setback`), are read by `phoneshell.changes` (the
`settings_unchanged` check reads them too) and named here for the runner. Pure: reads events,
never a phone."""

from __future__ import annotations

from collections.abc import Iterable

from phoneshell.audit import agent_broke_rig
from phoneshell.changes import Changed, changed_device, changed_settings
from phoneshell.rig_down import is_wda
from phoneshell.tasks import Step, Task
from phoneshell.xcui import SPRINGBOARD

__all__ = ["Changed", "agent_broke_rig", "changed_device", "changed_settings", "left_running"]


def left_running(task: Task, shown: Iterable[str]) -> tuple[Step, ...]:
    """A terminate for each app `shown` in front while the agent ran (or at capture: the log's
    `apps_in_front`) that the task's teardown does not stop, never SpringBoard or WDA: a running
    app resumes where it was left, and the next attempt's agent must not start from there."""
    stopped = {s.arg for s in task.teardown if s.kind == "terminate"}
    return tuple(Step("terminate", app, file=task.file) for app in shown
                 if app not in stopped and app != SPRINGBOARD
                 and not is_wda(app))
