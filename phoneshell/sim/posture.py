"""How the simulated phone is held and set to look and sound: its orientation, the screen as
turned, the volume and the appearance (light or dark).

`Posture` is part of `phone.Phone` (its base): what it reads and writes lives where a phone
keeps it, the volume and appearance in Settings' store (so they outlast a restart), Orientation
Lock in Control Center's switch, which way the phone is held in the phone's own state.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from phoneshell.sim.apps import AppModel
from phoneshell.sim.apps.settings import BUNDLE_ID as SETTINGS
from phoneshell.sim.apps.settings_pages import APPEARANCE
from phoneshell.sim.apps.system_screens import ORIENTATION_LOCK, VOLUME, VOLUME_DEFAULT
from phoneshell.sim.facts import DeviceFacts, as_switched
from phoneshell.sim.store import Store

ORIENTATIONS = ("PORTRAIT", "LANDSCAPE", "UIA_DEVICE_ORIENTATION_LANDSCAPERIGHT",
                "UIA_DEVICE_ORIENTATION_PORTRAIT_UPSIDEDOWN")
"""WDA's names for the ways the phone can be held (LANDSCAPE is home button to the right)."""
LANDSCAPES = frozenset(ORIENTATIONS[1:3])


class Posture:
    """The phone's orientation, volume and appearance (see the module docstring)."""

    device_orientation: str
    """How the phone is held (WDA's names); what shows turns only if the app rotates."""
    locked: bool
    foreground: str
    stores: dict[str, Store]
    _apps: dict[str, AppModel[Any]]
    _facts: DeviceFacts
    _turned: DeviceFacts

    if TYPE_CHECKING:  # the phone's own (`phone.Phone`)
        def store(self, bundle_id: str) -> Store: ...

        def changed(self) -> None: ...

    def _hold(self, facts: DeviceFacts) -> None:
        """Take `facts` as the phone's own, held upright, and as turned sideways."""
        self._facts = facts
        self._turned = replace(facts, width=facts.height, height=facts.width)

    @property
    def own_facts(self) -> DeviceFacts:
        """The facts the phone was made with: held upright, before Settings' switches."""
        return self._facts

    @property
    def facts(self) -> DeviceFacts:
        """Device identity and geometry, the screen as turned: in landscape its width and
        height swap, so apps laid out from the facts lay out turned; times of day as Settings'
        "24-Hour Time" switch shows them (`as_switched`)."""
        facts = self._facts if self.orientation not in LANDSCAPES else self._turned
        return as_switched(facts, self.stores.get(SETTINGS))

    @property
    def orientation(self) -> str:
        """The interface orientation of what shows: the phone's when the front app rotates.

        iPhone apps never turn upside down (Face ID phones have no such interface), and
        SpringBoard, its lock screen and apps that do not rotate stay portrait.
        """
        if (self.device_orientation not in LANDSCAPES or self.locked
                or self.store(SETTINGS).flag(ORIENTATION_LOCK)):
            return "PORTRAIT"  # Control Center's Orientation Lock holds every app upright
        return self.device_orientation if self._apps[self.foreground].rotates else "PORTRAIT"

    @property
    def volume(self) -> int:
        """Ringer/media volume steps, 0-16 (the volume buttons and Control Center change it;
        kept in Settings' store, so it outlasts a restart, as on a phone)."""
        return int(self.store(SETTINGS).number(VOLUME, VOLUME_DEFAULT))

    @volume.setter
    def volume(self, steps: int) -> None:
        self.store(SETTINGS).put(VOLUME, steps)

    @property
    def appearance(self) -> str:
        """Light or dark mode: `/wda/device/appearance`, or Settings > Display & Brightness's
        Light and Dark (one value, kept in Settings' store)."""
        return self.store(SETTINGS).text(APPEARANCE, "light")

    @appearance.setter
    def appearance(self, name: str) -> None:
        self.store(SETTINGS).put(APPEARANCE, name)
        self.changed()

    def rotate(self, orientation: str) -> bool:
        """Turn the phone; return whether what shows turned with it (WDA's success test)."""
        self.device_orientation = orientation
        self.changed()
        return self.orientation == orientation
