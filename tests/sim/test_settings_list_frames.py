"""Settings' lists are laid out as the real iOS 26 dumps lay them: the list spans the screen under
its bars (0,0,402,874 on all three), and every cell and section footer sits at the dump's frame.

Red team 124 (RT124-2, RT124-5): the simulator framed each list between its bars (About's Table
at 0,116,402,758), and wrapped footers at 44 characters, 16 + 18 points a line with 34 after,
so Motion's last row lay 104 points below a phone's. Each case drives a fresh simulator to the
page with facebook-wda over HTTP (as `scripts/fidelity_screens.py` reaches it) and compares its
source with the dump.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import wda
from fidelity_screens import SCREENS
from lxml import etree

from phoneshell.sim import SimServer

SLACK_PT = 3
"""How far a frame may stray from the dump's (cells are 53 points here, 54 there, overlapping
the next by one)."""
LISTS = ("XCUIElementTypeTable", "XCUIElementTypeCollectionView")

Frame = tuple[int, int, int, int]


def _frame(node: etree._Element) -> Frame:
    return tuple(int(float(node.get(k, "0"))) for k in ("x", "y", "width", "height"))  # type: ignore[return-value]


def _laid_out(xml: bytes) -> tuple[Frame, dict[str, Frame]]:
    """The first list's frame, and the frame of each cell (by its identifier, or the one of
    the control inside an unnamed Settings-root cell) and each section footer in it."""
    root = etree.fromstring(xml)
    found = next(n for n in root.iter() if n.get("type") in LISTS)
    placed: dict[str, Frame] = {}
    for node in found.iter():
        kind = node.get("type", "").removeprefix("XCUIElementType")
        if kind == "Cell":
            name = node.get("name") or next(
                (c.get("name") for c in node.iter() if c is not node and c.get("name")
                 and c.get("type") in ("XCUIElementTypeButton", "XCUIElementTypeSwitch")), "")
            placed.setdefault(f"cell {name}", _frame(node))
        elif (kind == "Other" and node.get("accessible") == "true" and node.get("name")
              and " scroll bar, " not in node.get("name", "")):
            placed.setdefault(f"footer {node.get('name')}", _frame(node))
    return _frame(found), placed


def _sim_source(screen: str) -> bytes:
    with SimServer() as sim:
        client = wda.Client(sim.url)
        SCREENS[screen][1](client, sim.url)
        return client.source().encode()


def _strays(real: dict[str, Frame], ours: dict[str, Frame], shift: int = 0) -> list[str]:
    return [f"{key}: dump {frame}, here {ours[key]}" for key, frame in real.items()
            if max(abs(a - b) for a, b in zip(frame, (ours[key][0], ours[key][1] - shift,
                                                        *ours[key][2:]), strict=True))
            > SLACK_PT]


@pytest.mark.parametrize(("screen", "cells", "footers"), [
    ("Settings > Accessibility > Motion", 6, 4), ("Settings > General > About", 11, 0)])
def test_a_settings_page_lays_out_its_list_as_the_dump(screen: str, cells: int, footers: int,
                                                       ios_sources: Path) -> None:
    real_list, real = _laid_out((ios_sources / SCREENS[screen][0]).read_bytes())
    our_list, ours = _laid_out(_sim_source(screen))
    assert our_list == real_list == (0, 0, 402, 874)
    # About's last cell (CERT_TRUST_SETTINGS, below the fold) is kept by the dump, not here
    both = {key: frame for key, frame in real.items() if key in ours}
    shown = sum(key.startswith("footer ") for key in both)
    assert (len(both) - shown, shown) == (cells, footers), sorted(set(real) - set(ours))
    assert _strays(both, ours) == []


def test_the_settings_root_lays_out_its_list_as_the_dump(ios_sources: Path) -> None:
    real_list, real = _laid_out((ios_sources / SCREENS["Settings"][0]).read_bytes())
    our_list, ours = _laid_out(_sim_source("Settings"))
    assert our_list == real_list == (0, 0, 402, 874)
    account = "cell com.apple.settings.primaryAppleAccount"
    assert _strays({account: real[account]}, ours) == []
    # The dump's simulator shows an iCloud follow-up where a phone lists its radios (Airplane
    # Mode to Battery): the General section is held to the dump from its first row down.
    general = "cell com.apple.settings.general"
    shift = ours[general][1] - real[general][1]
    section = [key for key in real if key in ours and real[key][1] >= real[general][1]]
    assert len(section) >= 5, section
    assert _strays({key: real[key] for key in section}, ours, shift) == []
