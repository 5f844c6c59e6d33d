"""SpringBoard's screens over an app: the power-off screen and Control Center.

Both put SpringBoard in front (`activeAppInfo` says so, as for Notification Center) and go back
to the app they were opened over (`back`).

* **The power-off screen** (inferred; no dump): Settings > General > Shut Down opens it.
  "slide to power off" at the top, slid past nine tenths of its track, turns the phone off; let
  go short of that, it springs back. Cancel at the bottom.
* **Control Center**: a downward drag from the top edge's right part (where the status bar's
  battery and signal are: x past seven tenths of the width) opens it, as on a Face ID iPhone
  (further left, the same drag opens Notification Center), inside "ControlCenterView" > the
  "ControlCenterLayoutView" scroll view. It draws what an iOS 18/26 Control Center's first
  page holds, each control named and typed as real iPhones do where UI-testing tools drive
  them (the four connectivity toggles), else by an inferred name (no dump of it exists):
  - the connectivity module: `airplane-mode-button`, `cellular-data-button`, `wifi-button`,
    `bluetooth-button`, Switches valued "1"/"0" that switch Settings' own values; the Wi-Fi
    one is labelled with its network ("Wi-Fi, HomeNet");
  - the Now Playing module (`now-playing-button`, "Play"), which plays nothing here;
  - Orientation Lock (`orientation-lock-button`, a Switch): on, the phone no longer turns what
    shows when it is turned (`/orientation` answers as WDA does when nothing turned);
  - Screen Mirroring (`screen-mirroring-button`), which finds nothing to mirror to;
  - Focus (`focus-button`, a Switch: Do Not Disturb): on, a notification comes in without a
    banner (it is kept in Notification Center);
  - the brightness and volume sliders (`brightness-slider`, `volume-slider`): the first is
    Settings' Display & Brightness slider, the second the volume the side buttons change;
  - the flashlight (`flashlight-button`, a Switch) and Silent Mode (`silent-mode-button`, a
    Switch: Sounds & Haptics' switch);
  - launchers (`timer-button`, `calculator-button`, `camera-button`), which open Clock's
    timer and Calculator (the camera shows nothing, and Control Center closes);
  - the top's "+" (`edit-button`, which adds controls) and power (`power-off-button`, which
    opens the power-off screen).
  A tap outside the modules closes it, back to the app underneath, on the page it was on; so
  does a swipe up from the bottom edge (`springboard.close_from_bottom`); home goes home. A
  swipe up mid-screen closes nothing: on iOS 18+ it pages through Control Center's pages (one
  page here, so it moves nothing).

  A long press is no tap there (`ControlLayer`): on a toggle of the connectivity module it
  expands the module, as iOS 17-26 do, switching nothing: over Control Center, the six toggles
  of a real expanded module (the four, `airdrop-button` "AirDrop, Contacts Only" and
  `personal-hotspot-button`, Settings' "Allow Others to Join"; the two names inferred; no VPN
  is configured, and Satellite shows only out of coverage). A long press on its Wi-Fi or
  Bluetooth toggle opens that toggle's list (the networks and devices Settings lists, and
  "Wi-Fi Settings..." / "Bluetooth Settings...", which open Settings' page). A tap outside the
  expanded panel closes it, back to the first page; home closes Control Center. A long press
  anywhere else in Control Center changes nothing here (a phone opens that control's own
  expanded view or menu, or on the empty space Control Center's editing: not modelled).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from phoneshell.sim import layout
from phoneshell.sim.apps import Host
from phoneshell.sim.apps.settings import SettingsState, open_page, switch_default, toggler
from phoneshell.sim.apps.settings_pages import SLIDER_DEFAULTS
from phoneshell.sim.ui import Handler, Node, Rect
from phoneshell.xcui import CONTROL_CENTER, POWER_OFF, SETTINGS

ORIENTATION_LOCK, FOCUS, FLASHLIGHT = "orientation_lock", "focus", "flashlight"
"""The Settings store's keys of Control Center's own switches (off on a new phone)."""
VOLUME, VOLUME_DEFAULT = "volume", 8
"""The Settings store's key of the volume (0-16 steps), and a new phone's."""
CLOCK, CALCULATOR = "com.apple.mobiletimer", "com.apple.calculator"

TOGGLES = (("airplane-mode-button", "Airplane Mode", "airplane"),
           ("cellular-data-button", "Cellular Data", "cellular_data"),
           ("wifi-button", "Wi-Fi", "wifi"), ("bluetooth-button", "Bluetooth", "bluetooth"))
"""Control Center's connectivity toggles: name, label, and the Settings value each switches."""
MODULE = Rect(24, 110, 170, 170)
"""Where the connectivity module lies (its four toggles two by two)."""
SWITCHES = (("orientation-lock-button", "Orientation Lock", ORIENTATION_LOCK,
             Rect(24, 296, 77, 77)),
            ("focus-button", "Focus", FOCUS, Rect(24, 389, 170, 77)),
            ("flashlight-button", "Flashlight", FLASHLIGHT, Rect(24, 482, 77, 77)),
            ("silent-mode-button", "Silent Mode", "silent", Rect(24, 575, 77, 77)))
"""Control Center's other switches: name, label, Settings store key, frame."""
LAUNCHERS = (("timer-button", "Timer", CLOCK, Rect(117, 482, 77, 77)),
             ("calculator-button", "Calculator", CALCULATOR, Rect(208, 482, 77, 77)),
             ("camera-button", "Camera", "", Rect(301, 482, 77, 77)))
"""Control Center's launchers: name, label, the app each opens ("" none here), frame."""
VOLUME_STEPS = 16
"""The volume's steps (the side buttons move it one at a time)."""
EXPANDED = Rect(24, 200, 354, 330)
"""Where the expanded connectivity module lies, over Control Center's first page."""
HOTSPOT = "hotspot"
"""The Settings store's key of Personal Hotspot's "Allow Others to Join"."""
LISTS = {"wifi": ("Wi-Fi", ("Cafe Guest", "Neighbor-5G", "Library Wi-Fi")),
         "bluetooth": ("Bluetooth", ("AirPods Pro", "Car Audio"))}
"""What a long press on the expanded module's Wi-Fi or Bluetooth opens: the title, and the
networks or devices Settings' page lists (the Wi-Fi one below the network joined)."""


@dataclass
class ControlLayer:
    """What shows over Control Center's first page: nothing, the connectivity module expanded,
    or the Wi-Fi or Bluetooth list a long press on its toggle there opens."""

    shows: Literal["", "module", "wifi", "bluetooth"] = ""


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


def _switch(name: str, label: str, on: bool, frame: Rect, flip: Handler) -> Node:
    return Node("Switch", frame, name=name, label=label, value="1" if on else "0",
                traits="ToggleButton, Button", on_tap=flip)


def _control(host: Host, name: str, title: str, key: str, frame: Rect) -> Node:
    """The Switch of Settings' value `key`: Control Center turns what Settings turns."""
    store, default = host.store(SETTINGS), switch_default(host.facts, key)
    on = store.flag(key, default)
    return _switch(name, _label(host, title, key, on), on, frame, toggler(store, key, default))


def _connectivity(host: Host, layer: ControlLayer) -> Node:
    def expand() -> None:
        layer.shows = "module"

    # A long press on any of its toggles expands the module: none of them switches.
    return Node("Other", MODULE, children=tuple(
        replace(_control(host, name, title, key, Rect(
            MODULE.x + 12 + (i % 2) * 82, MODULE.y + 12 + (i // 2) * 82, 64, 64)), on_hold=expand)
        for i, (name, title, key) in enumerate(TOGGLES)))


def _expanded(host: Host, layer: ControlLayer) -> Node:
    """The connectivity module expanded: its six toggles, three rows of two."""
    def listing(which: str) -> Handler | None:
        def show() -> None:
            layer.shows = "wifi" if which == "wifi" else "bluetooth"
        return show if which in LISTS else None

    store = host.store(SETTINGS)
    hotspot = store.flag(HOTSPOT, switch_default(host.facts, HOTSPOT))
    frames = [Rect(EXPANDED.x + 48 + (i % 2) * 160, EXPANDED.y + 24 + (i // 2) * 100, 96, 80)
              for i in range(6)]
    toggles = [replace(_control(host, name, title, key, frame), on_hold=listing(key))
               for (name, title, key), frame in zip(TOGGLES, frames, strict=False)]
    # AirDrop's tap opens a menu of who may send (Receiving Off, Contacts Only, Everyone for 10
    # Minutes) on a phone: not modelled, nothing reads it here.
    toggles.append(layout.button("AirDrop, Contacts Only", frames[4], lambda: None,
                                 name="airdrop-button"))
    toggles.append(_switch("personal-hotspot-button", "Personal Hotspot, " + (
        "Discoverable" if hotspot else "Not Discoverable"), hotspot, frames[5],
        toggler(store, HOTSPOT, switch_default(host.facts, HOTSPOT))))
    return _panel("connectivity-expanded", toggles)


def _listed(host: Host, layer: ControlLayer, back: Handler) -> Node:
    """The Wi-Fi networks or Bluetooth devices a long press on the expanded toggle opens."""
    which = "wifi" if layer.shows == "wifi" else "bluetooth"
    title, names = LISTS[which]
    on = host.store(SETTINGS).flag(which, switch_default(host.facts, which))
    joined = [host.facts.wifi_network] if which == "wifi" else []
    rows: list[Node] = [layout.text(title, Rect(EXPANDED.x + 20, EXPANDED.y + 16, 200, 24),
                                    header=True)]
    # Joining a network or connecting a device is not modelled: a row's tap does nothing.
    rows += [layout.button(name, Rect(EXPANDED.x + 20, EXPANDED.y + 56 + i * 44, 314, 44),
                           lambda: None, selected=name in joined)
             for i, name in enumerate([*joined, *names] if on else [])]

    def settings() -> None:
        back()
        host.launch(SETTINGS)
        state = host.running_state(SETTINGS)
        if isinstance(state, SettingsState):
            open_page(state, host, which)

    rows.append(layout.button(f"{title} Settings…", Rect(
        EXPANDED.x + 20, EXPANDED.bottom - 56, 314, 44), settings))
    return _panel(f"{which}-list", rows)


def _panel(key: str, children: list[Node]) -> Node:
    # the panel takes the touches between its controls (only its surround closes it)
    return Node("Other", EXPANDED, key=key, on_tap=lambda: None, children=tuple(children))


def _sliders(host: Host) -> tuple[Node, ...]:
    store = host.store(SETTINGS)
    brightness = store.number("brightness", SLIDER_DEFAULTS["brightness"])

    def bright(position: float) -> None:
        store.put("brightness", round(position, 3))

    def loud(position: float) -> None:
        host.volume = round(position * VOLUME_STEPS)

    return (layout.slider("Brightness", brightness, Rect(208, 296, 77, 170), bright,
                          name="brightness-slider"),
            layout.slider("Volume", host.volume / VOLUME_STEPS, Rect(301, 296, 77, 170), loud,
                          name="volume-slider"))


def _launcher(host: Host, app: str, back: Handler) -> Handler:
    def launch() -> None:
        back()
        if app and any(a.bundle_id == app for a in host.apps()):
            host.launch(app)
    return launch


def control_center(host: Host, back: Handler, layer: ControlLayer) -> Node:
    """Control Center (see the module docstring), with what `layer` shows over it."""
    f = host.facts
    full = Rect(0, 0, f.width, f.height)
    controls: list[Node] = [
        layout.button("Add a Control", Rect(24, 52, 44, 44), lambda: None, name="edit-button"),
        layout.button("Power", Rect(f.width - 68, 52, 44, 44), host.show_power_off,
                      name="power-off-button"),
        _connectivity(host, layer),
        Node("Other", Rect(208, 110, 170, 170), children=(
            layout.button("Play", Rect(220, 200, 60, 60), lambda: None,
                          name="now-playing-button"),)),
        layout.button("Screen Mirroring", Rect(117, 296, 77, 77), lambda: None,
                      name="screen-mirroring-button")]
    controls += [_control(host, name, label, key, frame) for name, label, key, frame in SWITCHES]
    controls += _sliders(host)
    controls += [layout.button(label, frame, _launcher(host, app, back), name=name)
                 for name, label, app, frame in LAUNCHERS]
    layout_view = Node("ScrollView", full, name="ControlCenterLayoutView",
                       children=tuple(controls))
    over: tuple[Node, ...] = ()
    if layer.shows:
        def collapse() -> None:
            layer.shows = ""
        panel = _expanded(host, layer) if layer.shows == "module" else _listed(host, layer, back)
        # the space around the panel takes the touch: the panel closes, back to the first page
        over = (layout.modal_layer(f, [panel], collapse),)
    # a tap on the empty space around the modules reaches the view itself: it closes; a long
    # press there opens Control Center's editing on a phone (not modelled: nothing happens)
    return Node("Other", full, name=CONTROL_CENTER, key="control-center", on_tap=back,
                on_hold=lambda: None, children=(layout_view, *over))
