"""Setting back what an agent changed that no teardown step undoes: the Settings values it
changed (switches, options, sliders, and Control Center's connectivity toggles) and the phone's
own state it changed through WDA (how the phone is held, light or dark, a simulated location).
Each is put back to what it was before the attempt touched it (a Settings value, by the log) or
before the run began (the phone's state, as read then), last changed first, where the phone
reads it otherwise: one it reads as it was is set nothing, said so, and kept (`as_was`) as the
phone's word that the agent left it unchanged. Each is said for the results row
(`teardown.switched`)."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping
from typing import NamedTuple

from phoneshell.changes import Changed
from phoneshell.device import Phone
from phoneshell.device.device_state import read_state, set_device_state
from phoneshell.device.settings_values import set_back
from phoneshell.errors import DeviceError, StepError

Guarded = Callable[[str, Callable[[], object]], object]
"""Runs what it is given and returns its result, or None once it has kept the failure."""


SettingKey = tuple[str, str, str]
"""A Settings value as the log names it: its kind, label and page (`Changed`)."""


class SetBack(NamedTuple):
    """What setting back the agent's Settings values, or the phone's own states, came to."""

    said: list[str]
    """One line for each, for the row (`teardown.switched`)."""
    as_was: list[SettingKey]
    """Those the phone showed at what they were before the attempt, so nothing was set back:
    the phone's word that the agent left them unchanged (`Teardown.as_was`, which the owner
    watch reads)."""
    stays: list[str]
    """Those not set back (not found, or the set-back failed), each as "Brightness (was 70%)"
    (`Teardown.stays`, which the run's end says)."""


def set_back_settings(phone: Phone, changed: tuple[Changed, ...], guarded: Guarded) -> SetBack:
    """Set back each Settings value the agent changed, last changed first (a switch may hide
    the rows of others: Wi-Fi off hides Ask to Join Networks, so each is found as the agent
    found it); one line for each, and those found as they were."""
    said: list[str] = []
    as_was: list[SettingKey] = []
    stays: list[str] = []
    for value in reversed(changed):
        found = guarded(f"setting back {value.kind} {value.label!r}",
                        functools.partial(set_back, phone, value.kind, value.label, value.page,
                                          value.was))
        back = f"back {value.shown}" if value.kind in ("switch", "control") else \
            f"back to {value.shown}"
        if found == "set":
            said.append(f"{value.title}: set {back}")
        elif found == "as was":  # the agent put it back itself, or its touch changed nothing
            as_was.append((value.kind, value.label, value.page))
            said.append(f"{value.title}: found {value.shown} as it was; nothing set back")
        elif found == "":
            where = ("in Control Center" if value.kind == "control" else
                     f"on the page {value.page!r}" if value.page else "on a page of its name")
            said.append(f"{value.title}: was {value.shown}; not found {where}, so left as the "
                        "agent left it")
        else:  # the error says why
            said.append(f"{value.title}: was {value.shown}; could not be set back")
        if found not in ("set", "as was"):
            stays.append(f"{value.title} (was {value.shown})")
    return SetBack(said, as_was, stays)


def shown(name: str, value: str) -> str:
    """A phone state's value for a person ("PORTRAIT", "dark", "48.85, 2.35", "none")."""
    if name == "location" and value:
        where = json.loads(value)
        return f"{where['latitude']}, {where['longitude']}"
    return value or "none"


def set_back_device(phone: Phone, changed: tuple[str, ...], before: Mapping[str, str],
                    guarded: Guarded) -> SetBack:
    """Set back each state of the phone the agent sent a change of to what the run found
    (`before`), where the phone reads it otherwise: each is read first (one read; the log says
    only that a change was sent, not that WDA made it or that the agent left it so), and one
    found as it was is set nothing and kept in `as_was` as ("device", name, ""). One line for
    each, saying so where a state could not be read, before the run or now."""
    said: list[str] = []
    as_was: list[SettingKey] = []
    stays: list[str] = []
    for name in reversed(changed):
        if name not in before:
            said.append(f"{name}: changed by the agent; what it was before the run could not be "
                        "read, so left as the agent left it")
            stays.append(f"the phone's {name} (as the agent left it)")
            continue
        was = shown(name, before[name])
        now = guarded(f"reading the phone's {name}", functools.partial(read_state, phone, name))
        if now == before[name]:  # the agent put it back, sent what it was, or WDA refused it
            as_was.append(("device", name, ""))
            said.append(f"{name}: found {was} as it was; nothing set back")
            continue
        done = guarded(f"setting back the phone's {name}",
                       functools.partial(set_device_state, phone, name, before[name]))
        if now is None:  # unread: set back all the same, and never taken as it was
            said.append(f"{name}: was {was}; could not be read after the attempt, " +
                        ("set back" if done else "nor set back"))
        else:
            said.append(f"{name}: set back to {was}" if done else
                        f"{name}: was {was}; could not be set back")
        if not done:
            stays.append(f"the phone's {name} (was {was})")
    return SetBack(said, as_was, stays)


class HeldBack:
    """The phone's own states the agent changed (how it is held, light or dark, a simulated
    location), set back once, as early as the attempt allows: right after the end state is
    captured (the capture must see the screen as the agent left it), so the counts after it,
    the owner watch and the teardown start from the phone as the run set it up (a count in
    landscape finds the keyboard over half the screen, and an honest agent's note went
    uncounted and undeleted). The teardown sets them back here too when the capture never
    came to it (`now` does it once)."""

    def __init__(self, phone: Phone, changed: tuple[str, ...], before: Mapping[str, str]):
        self.phone, self.changed, self.before = phone, changed, before
        self.said: list[str] = []
        self.as_was: list[SettingKey] = []
        """Those the phone read as the run found them (`set_back_device`)."""
        self.stays: list[str] = []
        """Those not set back (`SetBack.stays`)."""
        self.errors: list[str] = []
        self.done = False

    def now(self, guarded: Guarded | None = None) -> None:
        """Set them back, unless done already; a failure is kept in `errors` (and given to
        `guarded` as well when it is the teardown's), never raised."""
        if self.done:
            return
        self.done = True

        def keep(what: str, do: Callable[[], object]) -> object:
            try:
                return do()
            except (StepError, DeviceError) as exc:
                self.errors.append(str(exc))
                return None

        self.said, self.as_was, self.stays = set_back_device(self.phone, self.changed,
                                                             self.before, guarded or keep)
