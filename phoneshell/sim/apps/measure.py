"""Measure (com.apple.measure): the camera view that measures, and the Level.

The Measure tab is a camera view with a reticle and the hint "Move iPhone to start"; the
"Add a point" button stays dimmed, because the simulated iPhone never moves and so never finds
a surface (a real one dims it the same way until it does). The Level tab shows the tilt, "0°"
unless the store sets `tilt` (degrees). Tabs switch with the buttons at the bottom; the camera
permission prompt of a first launch is not modelled (access counts as granted).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from phoneshell.sim import layout
from phoneshell.sim.apps import AppModel, Host, register
from phoneshell.sim.facts import DeviceFacts
from phoneshell.sim.ui import Handler, Node, Rect

BUNDLE_ID = "com.apple.measure"
Tab = Literal["Measure", "Level"]
TABS: tuple[Tab, ...] = ("Measure", "Level")


@dataclass
class MeasureState:
    """Which tab shows."""

    tab: Tab = "Measure"


def _measure(f: DeviceFacts) -> list[Node]:
    camera = Node("Other", Rect(0, 0, f.width, f.height), name="Camera", children=(
        layout.image("Reticle", Rect(f.width // 2 - 30, f.height // 2 - 30, 60, 60)),))
    return [camera, layout.centred_text(f, "Move iPhone to start", 140, 17),
            replace(layout.button("Add a point", Rect(f.width // 2 - 36, 660, 72, 72), None,
                                  enabled=False), pixels_text="+"),
            layout.button("Undo", Rect(24, 676, 44, 44), None, enabled=False),
            layout.button("Measurements", Rect(f.width - 68, 676, 44, 44), None,
                          enabled=False)]


def _level(f: DeviceFacts, tilt: int) -> list[Node]:
    return [layout.centred_text(f, f"{tilt}°", f.height // 2 - 60, 96)]


def render(state: MeasureState, host: Host) -> Node:
    """The tab that shows, over the Measure/Level switch."""
    f = host.facts
    tilt = round(host.store(BUNDLE_ID).number("tilt", 0))
    body = _measure(f) if state.tab == "Measure" else _level(f, tilt)

    def choose(tab: Tab) -> Handler:
        def pick() -> None:
            state.tab = tab
        return pick

    tabs = layout.tab_bar(f, [(t, choose(t)) for t in TABS], TABS.index(state.tab))
    return layout.screen(f, [*body, tabs], key=f"measure:{state.tab}")


APP = register(AppModel(BUNDLE_ID, "Measure", MeasureState, render))
