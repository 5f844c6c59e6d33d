"""The windows of an application's tree, and the status bar, which only SpringBoard's holds.

In the iOS 26 dumps an app's tree is its window (the screen inside UIKit's wrapper views) and,
while typing, the keyboard's window; it has no status bar: the clock and battery belong to
SpringBoard, whose own tree lists them in a status-bar window among a dozen system windows
(most of them hidden). Screenshots show the status bar over every app all the same
(`render.py` draws it from the facts). Pure: builds nodes, never keeps state.
"""

from __future__ import annotations

from collections.abc import Sequence

from phoneshell.sim.facts import DeviceFacts
from phoneshell.sim.layout import wrap
from phoneshell.sim.ui import Node, Rect

STATUS_BAR_HEIGHT = 54


def app_windows(facts: DeviceFacts, body: Node, keyboard: Node | None = None,
                above: Sequence[Node] = ()) -> tuple[Node, ...]:
    """An app's windows: its screen, the keyboard's window while typing, then `above`.

    Args:
        facts: screen geometry.
        body: the app's screen, as its `render` built it.
        keyboard: the keyboard, while a field of the app has focus.
        above: windows shown over the app (a notification banner).
    """
    full = Rect(0, 0, facts.width, facts.height)
    windows = [Node("Window", full, children=(body,))]
    if keyboard is not None:
        # The keyboard lives in its own window over the bottom of the screen, its "inputView"
        # the window's child (iOS 26.5 dump); the window takes the touches no key takes.
        area = Rect(0, keyboard.frame.y, facts.width, facts.height - keyboard.frame.y)
        windows.append(Node("Window", area, children=(keyboard,), on_tap=lambda: None))
    return (*windows, *above)


def status_bar(facts: DeviceFacts, *, clock: bool = True, visible: bool = True) -> Node:
    """SpringBoard's status bar as the dumps name it: time, cellular, Wi-Fi and battery.

    Args:
        facts: the time, battery and Wi-Fi network it reports.
        clock: whether it shows the time (Notification Center shows the big clock instead).
        visible: whether the bar and its views report visible. Its cellular, Wi-Fi and
            battery items report visible either way: Notification Center's dump has them
            visible="true" in a bar reported hidden (a phone draws them there).
    """
    level = f"{round(facts.battery_level * 100)}% battery power"
    charge = {2: "Charging", 3: "Fully charged"}.get(facts.battery_state, "Not charging")
    bars = "3 of 3 Wi-Fi bars"
    items = []
    if clock:
        items.append(Node("StaticText", Rect(52, 22, 44, 21), label=facts.time_text,
                          name=facts.time_text, value=facts.time_text,
                          traits="StaticText, UpdatesFrequently", visible=visible))
    items += [
        Node("Other", Rect(288, 26, 20, 13), name="Cellular", label="Cellular", value="No SIM",
             accessible=True),
        Node("Other", Rect(315, 26, 17, 13), name=bars, value=f"{facts.wifi_network}, {bars}",
             accessible=True),
        Node("Other", Rect(339, 26, 28, 13), name=level, label=level, value=charge,
             accessible=True, traits="UpdatesFrequently"),
    ]
    bar = Rect(0, 0, facts.width, STATUS_BAR_HEIGHT)
    inner = wrap(Node("Other", bar, children=tuple(items), visible=visible), 1, visible=visible)
    return Node("StatusBar", bar, children=(inner,), visible=visible)


def switcher_window(facts: DeviceFacts, recent: Sequence[tuple[str, str]],
                    shown: Node | None = None) -> Node:
    """The app switcher's window, hidden until the switcher shows: one card per app running in
    the background ((bundle id, name) pairs), each holding a snapshot of that app's screen with
    its status bar, as the banner dump shows SpringBoard keep them. While the App Switcher shows
    (`shown`: its content, `apps/app_switcher.py`), the window is visible and holds that."""
    full = Rect(0, 0, facts.width, facts.height)
    if shown is not None:
        return Node("Window", full, name="SBSwitcherWindow:Main", children=(
            wrap(Node("Other", full, children=(Node("ScrollView", full), shown)), 3),))

    def hid(*children: Node, frame: Rect = full, name: str | None = None,
            label: str | None = None) -> Node:
        return Node("Other", frame, name=name, label=label, children=children, visible=False)

    cards = []
    for bundle, name in recent:
        snapshot = Node("ScrollView", Rect(0, -facts.height // 2, facts.width,
                                           facts.height * 3 // 2), visible=False, children=(
            wrap(status_bar(facts, visible=False), 9, full, visible=False),))
        cards.append(hid(wrap(snapshot, 5, full, visible=False),
                         name=f"card:{bundle}:sceneID:{bundle}-default", label=name))
    content = hid(hid(hid(hid())), *cards, name="AppSwitcherContentView")
    return Node("Window", full, name="SBSwitcherWindow:Main", visible=False, children=(
        wrap(Node("Other", full, visible=False, children=(
            Node("ScrollView", full, visible=False), content)), 3, visible=False),))


def hidden_windows(facts: DeviceFacts, count: int) -> list[Node]:
    """SpringBoard's idle system windows (the switcher, alerts, the Dynamic Island's...):
    present in its tree, hidden, each a couple of empty views deep."""
    full = Rect(0, 0, facts.width, facts.height)
    return [Node("Window", full, visible=False, children=(
        wrap(Node("Other", full, visible=False), 1, visible=False),)) for _ in range(count)]


def island_windows(facts: DeviceFacts) -> list[Node]:
    """The Dynamic Island's hidden windows, as every SpringBoard dump lists them."""
    full = Rect(0, 0, facts.width, facts.height)
    pill = Rect(facts.width // 2 - 63, 14, 126, 37)

    def hid(frame: Rect, *children: Node) -> Node:
        return Node("Other", frame, children=children, visible=False)

    return [
        Node("Window", full, visible=False, children=(
            hid(full, hid(full, hid(pill, hid(pill)))),)),
        Node("Window", full, visible=False, children=(hid(full, hid(
            full, hid(full, hid(pill, hid(pill), hid(pill, hid(pill)), hid(pill))),
            hid(full, hid(pill, hid(pill)), hid(pill, hid(pill))),
            hid(Rect(pill.x + 80, 28, 9, 9)))),)),
    ]
