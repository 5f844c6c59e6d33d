"""Compass (com.apple.compass): the heading the phone points at, its position and elevation.

The dial is drawn; the heading under it is a StaticText such as "274° W" (degrees and the
nearest of the eight compass points), over the coordinates, the place and the elevation. The
phone lies still on a desk, so the heading is the phone's own (`DeviceFacts.heading`: 274° on
the reference phone, drawn per simulated phone from its seed, as each real phone points its own
way) unless the app's store sets `heading` (a number of degrees), e.g.
`{"com.apple.compass": {"heading": 90}}` for "90° E". Tapping the dial locks the current heading,
as on the real app ("Heading locked" shows; tap again to unlock).
"""

from __future__ import annotations

from dataclasses import dataclass

from phoneshell.sim import layout
from phoneshell.sim.apps import AppModel, Host, register
from phoneshell.sim.ui import Node, Rect

BUNDLE_ID = "com.apple.compass"
POINTS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
COORDINATES = "37°19′55″ N  122°1′49″ W"
PLACE = "Cupertino, CA"
ELEVATION = "236 ft Elevation"


@dataclass
class CompassState:
    """Compass keeps no UI state: what it shows comes from the phone's (fixed) sensors."""


def heading(host: Host) -> int:
    """The heading in whole degrees, 0-359, from the store or the phone's facts."""
    return round(host.store(BUNDLE_ID).number("heading", host.facts.heading)) % 360


def describe(degrees: int) -> str:
    """The heading as the app writes it: degrees and the nearest compass point ("274° W")."""
    return f"{degrees}° {POINTS[round((degrees % 360) / 45) % 8]}"


def render(state: CompassState, host: Host) -> Node:
    """The dial, the heading, and where the phone is."""
    f = host.facts
    side = f.width - 60
    dial = Node("Other", Rect(30, 150, side, side), name="Compass dial",
                children=tuple(
                    # The cardinal letters are painted on the dial, not accessibility elements.
                    Node("StaticText", Rect(30 + x, 150 + y, 24, 24), pixels_text=letter,
                         accessible=False)
                    for letter, x, y in (("N", side // 2 - 12, 10), ("E", side - 34, side // 2),
                                         ("S", side // 2 - 12, side - 34),
                                         ("W", 10, side // 2))))
    below = 170 + side
    kids = [dial, layout.centred_text(f, describe(heading(host)), below, 48),
            layout.centred_text(f, COORDINATES, below + 70),
            layout.centred_text(f, PLACE, below + 96),
            layout.centred_text(f, ELEVATION, below + 122)]
    return layout.screen(f, kids, key="compass")


APP = register(AppModel(BUNDLE_ID, "Compass", CompassState, render))
