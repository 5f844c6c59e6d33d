"""What an agent's logged actions changed of the phone's settings: the Settings values it changed
(switches, options, sliders, Display & Brightness's Light and Dark Buttons, and Control Center's
connectivity toggles), each with what it was before, and the phone's own states it sent a change
of through WDA (how it is held, light or dark, a simulated location). The runner sets them back
after the attempt (`runner.setback`, said in `teardown.switched`); the `settings_unchanged`
check, and the owner watch in every task that did not ask for them (`runner.owner`), fail on
them (`checks.effects.settings_left`). Pure: reads audit events, never a phone.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from phoneshell.audit import Action, actions
from phoneshell.records import AuditEvent
from phoneshell.wda_routes import DEVICE_STATES
from phoneshell.xcui import (
    APPEARANCE,
    APPEARANCE_BUTTONS,
    APPEARANCE_PAGE,
    CONTROL_TOGGLES,
    SETTINGS,
    SPRINGBOARD,
    SWITCH,
    settings_value,
)

__all__ = ["Changed", "SettingKind", "changed_device", "changed_settings", "setting_of"]


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


SettingKind = Literal["switch", "choice", "slider", "control", "button"]


@dataclass(frozen=True)
class Changed:
    """A Settings value the agent changed, and what it was before the attempt first changed it
    (what `device.settings_values` sets back)."""

    kind: SettingKind
    label: str
    """The switch's or the slider's label; for a choice, the title of its list's page; for a
    Control Center toggle, its name (`wifi-button`); for Buttons that choose, what they choose
    ("Appearance")."""
    page: str
    """The title of the page it was changed on ("" when the log has none)."""
    was: str
    """What it was: "1" or "0" for a switch or a toggle, the option or Button chosen ("Never",
    "Light"), the slider's value ("50%")."""

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


def setting_of(action: Action) -> Changed | None:
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
    found = settings_value(action.kind, target.type, target.label, target.page, target.chosen,
                           action.params)
    if found == "switch":
        return Changed("switch", target.label, target.page, "1" if target.value == "1" else "0")
    if found == "button":
        # The chosen Button reads "1"; a tap on the other one changes the appearance from it.
        was = target.label if target.value == "1" else APPEARANCE_BUTTONS[target.label]
        return Changed("button", APPEARANCE, APPEARANCE_PAGE, was)
    if found == "choice":
        return Changed("choice", target.page, target.page, target.chosen)
    if found == "slider":
        return Changed("slider", target.label, target.page, target.value)
    return None


def changed_settings(events: Iterable[AuditEvent]) -> tuple[Changed, ...]:
    """The Settings values the agent changed, in the order it first touched them: switches it
    tapped or slid sideways (the bridge logs the labelled switch around a knob), options it
    tapped in a list of options (logged with the option chosen before), the appearance's Light
    and Dark Buttons it tapped, sliders it tapped, dragged or set, and Control Center's toggles
    it tapped or dragged (by their names), each with the title of the page it was on and what it
    was before the attempt first touched it. A setup that changed one the agent then touched is
    undone too: the phone is left as the attempt found it, not as its setup made it."""
    was: dict[tuple[str, str, str], Changed] = {}
    touched: set[tuple[str, str, str]] = set()
    for action in actions(events):
        if action.phase not in ("setup", "agent"):
            continue
        found = setting_of(action)
        if found is None:
            continue
        key = (found.kind, found.label, found.page)
        was.setdefault(key, found)
        if action.phase == "agent":
            touched.add(key)
    return tuple(changed for key, changed in was.items() if key in touched)
