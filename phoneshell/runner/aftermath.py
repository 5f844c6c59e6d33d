"""What an agent's turn left on the phone, read from the attempt's audit log: a rig it broke by
its own actions (then its failure, not a skip), apps it left running that the task's teardown
does not stop (the runner stops them after it), the Settings values it changed (switches,
options, sliders, Control Center's toggles) and the phone's own state it changed through WDA
(the runner sets them back: `runner.setback`). Pure: reads events, never a phone."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from phoneshell.audit import Action, actions
from phoneshell.records import AuditEvent
from phoneshell.tasks import Step, Task
from phoneshell.wda_routes import DEVICE_STATES
from phoneshell.xcui import (
    CELL,
    CONTROL_TOGGLES,
    SETTINGS,
    SIDE_BUTTON_HID,
    SLIDER,
    SPRINGBOARD,
    SWITCH,
    is_wda,
    sideways,
    takes_rig_down,
)


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


def changed_device(events: Iterable[AuditEvent]) -> tuple[str, ...]:
    """The phone's own states the agent sent a change of (`wda_routes.DEVICE_STATES`: how it
    is held, light or dark, a simulated location), in the order first sent; whatever WDA
    answered, since a phone turns even where WDA answers "Unable To Rotate Device"."""
    found: list[str] = []
    for action in actions(events):
        route = str(action.params.get("route", ""))
        if (action.phase == "agent" and action.kind == "other" and route in DEVICE_STATES
                and DEVICE_STATES[route] not in found):
            found.append(DEVICE_STATES[route])
    return tuple(found)


SettingKind = Literal["switch", "choice", "slider", "control"]


@dataclass(frozen=True)
class Changed:
    """A Settings value the agent changed, and what it was before the attempt first changed it
    (what `device.settings_values` sets back)."""

    kind: SettingKind
    label: str
    """The switch's or the slider's label; for a choice, the title of its list's page; for a
    Control Center toggle, its name (`wifi-button`)."""
    page: str
    """The title of the page it was changed on ("" when the log has none)."""
    was: str
    """What it was: "1" or "0" for a switch or a toggle, the option chosen, the slider's value
    ("50%")."""

    @property
    def shown(self) -> str:
        """What it was, for a person: "on", "Never", "50%"."""
        if self.kind in ("switch", "control"):
            return "on" if self.was == "1" else "off"
        return self.was

    @property
    def title(self) -> str:
        """What it is, for a person: "Wi-Fi", "Auto-Lock", "Wi-Fi (Control Center)"."""
        if self.kind == "control":
            return f"{CONTROL_TOGGLES.get(self.label, self.label)} (Control Center)"
        return self.label


def _setting(action: Action) -> Changed | None:
    """The Settings value an action in Settings (or a Control Center toggle one on SpringBoard)
    aimed at, with what it was before."""
    target = action.target
    # A drag that starts on a Control Center toggle flips it too (a short one lifts inside the
    # control, as a tap does; the simulator flips one slid sideways): setting back one that
    # did not change costs a read and changes nothing.
    if (target is not None and action.kind in ("tap", "swipe")
            and action.app_before == SPRINGBOARD and target.type == SWITCH
            and target.name in CONTROL_TOGGLES):
        return Changed("control", target.name, "", "1" if target.value == "1" else "0")
    if target is None or action.app_before != SETTINGS:
        return None
    if (action.kind == "tap" or (action.kind == "swipe" and sideways(action.params))) \
            and target.type == SWITCH and target.label:
        return Changed("switch", target.label, target.page, "1" if target.value == "1" else "0")
    if action.kind == "tap" and target.type == CELL and target.chosen and target.page:
        return Changed("choice", target.page, target.page, target.chosen)
    if action.kind in ("tap", "swipe", "type") and target.type == SLIDER and target.label:
        return Changed("slider", target.label, target.page, target.value)
    return None


def changed_settings(events: Iterable[AuditEvent]) -> tuple[Changed, ...]:
    """The Settings values the agent changed, in the order it first touched them: switches it
    tapped or slid sideways (the bridge logs the labelled switch around a knob), options it
    tapped in a list of options (logged with the option chosen before), sliders it tapped,
    dragged or set, and Control Center's toggles it tapped or dragged (by their names), each
    with the title of the page it was on and what it was before the attempt first touched it.
    A setup that changed one the agent then touched is undone too: the phone is left as the
    attempt found it, not as its setup made it."""
    was: dict[tuple[str, str, str], Changed] = {}
    touched: set[tuple[str, str, str]] = set()
    for action in actions(events):
        if action.phase not in ("setup", "agent"):
            continue
        found = _setting(action)
        if found is None:
            continue
        key = (found.kind, found.label, found.page)
        was.setdefault(key, found)
        if action.phase == "agent":
            touched.add(key)
    return tuple(changed for key, changed in was.items() if key in touched)
