"""SpringBoard's screens over an app: the power-off screen and Control Center.

Both put SpringBoard in front (`activeAppInfo` says so, as for Notification Center) and go back
to the app they were opened over (`back`).

* **The power-off screen** (inferred; no dump): Settings > General > Shut Down opens it.
  "slide to power off" at the top, slid past nine tenths of its track, turns the phone off; let
  go short of that, it springs back. Cancel at the bottom.
* **Control Center**: a downward drag from the top edge's right part (where the status bar's
  battery and signal are: x past seven tenths of the width) opens it, as on a Face ID iPhone
  (further left, the same drag opens Notification Center). Its connectivity module holds the
  toggles real iPhones name (`airplane-mode-button`, `cellular-data-button`, `wifi-button`,
  `bluetooth-button`: Switches valued "1"/"0", the names UI-testing tools drive them by) inside
  "ControlCenterView" > the "ControlCenterLayoutView" scroll view; the Wi-Fi toggle is labelled
  with its network ("Wi-Fi, HomeNet"). They switch Settings' own values. A tap outside the
  modules closes it, back to the app underneath; so does home. The rest of a real Control
  Center (media, brightness, volume, the flashlight, Focus) is not drawn.
"""

from __future__ import annotations

from phoneshell.sim import layout
from phoneshell.sim.apps import Host
from phoneshell.sim.apps.settings import BUNDLE_ID as SETTINGS
from phoneshell.sim.apps.settings_pages import SWITCH_DEFAULTS
from phoneshell.sim.ui import Handler, Node, Rect
from phoneshell.xcui import POWER_OFF

TOGGLES = (("airplane-mode-button", "Airplane Mode", "airplane"),
           ("cellular-data-button", "Cellular Data", "cellular_data"),
           ("wifi-button", "Wi-Fi", "wifi"), ("bluetooth-button", "Bluetooth", "bluetooth"))
"""Control Center's connectivity toggles: name, label, and the Settings value each switches."""
MODULE = Rect(24, 110, 170, 170)
"""Where the connectivity module lies (its four toggles two by two)."""


def power_off_screen(host: Host, back: Handler) -> Node:
    """The power-off screen (see the module docstring)."""
    f = host.facts
    full = Rect(0, 0, f.width, f.height)

    def slid(position: float) -> None:
        if position >= 0.9:
            host.power_off()

    track = layout.slider(POWER_OFF, 0.0, Rect(24, 90, f.width - 48, 84), slid)
    return Node("Other", full, key="power-off", children=(
        layout.wrap(Node("Other", full, children=(
            track, layout.button("Cancel", Rect((f.width - 76) // 2, 730, 76, 76), back))),
            2),))


def _label(host: Host, title: str, key: str, on: bool) -> str:
    if key == "wifi":
        return f"Wi-Fi, {host.facts.wifi_network if on else 'Off'}"
    return title


def control_center(host: Host, back: Handler) -> Node:
    """Control Center (see the module docstring)."""
    f = host.facts
    store = host.store(SETTINGS)
    full = Rect(0, 0, f.width, f.height)
    toggles = []
    for i, (name, title, key) in enumerate(TOGGLES):
        on = store.flag(key, SWITCH_DEFAULTS[key])

        def flip(key: str = key) -> None:
            store.put(key, not store.flag(key, SWITCH_DEFAULTS[key]))

        frame = Rect(MODULE.x + 12 + (i % 2) * 82, MODULE.y + 12 + (i // 2) * 82, 64, 64)
        toggles.append(Node("Switch", frame, name=name, label=_label(host, title, key, on),
                            value="1" if on else "0", traits="ToggleButton, Button",
                            on_tap=flip))
    module = Node("Other", MODULE, children=tuple(toggles))
    layout_view = Node("ScrollView", full, name="ControlCenterLayoutView",
                       children=(Node("Other", full, children=(module,)),))
    # a tap on the empty space around the modules reaches the view itself: it closes
    return Node("Other", full, name="ControlCenterView", key="control-center", on_tap=back,
                children=(layout_view,))
