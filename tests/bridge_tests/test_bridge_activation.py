"""The bridge logs a tap by id on a switch row where the phone performs it: at the activation
point iOS gives the row (its knob), so a view over the knob takes the tap and is what the log
names, on the phone and in the log alike. facebook-wda through a bridge on loopback, in front
of the simulator, with a test app whose row switch has a button drawn over its knob.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import wda
from bridge_rig import Rig, start_bridge

from phoneshell.records import AuditEvent
from phoneshell.sim import SimServer, layout, lists
from phoneshell.sim.apps import AppModel, Host, builtin_apps
from phoneshell.sim.ui import Node, Rect

ROW = "com.example.row"


@dataclass
class RowState:
    """A switch row, and whether a button covers its knob."""

    on: bool = False
    covered: bool = False
    pressed: list[str] = field(default_factory=list)


def _render(state: RowState, host: Host) -> Node:
    def flip() -> None:
        state.on = not state.on

    def press() -> None:
        state.pressed.append("cover")

    frame = Rect(lists.ROW_X, 200, lists.ROW_WIDTH, lists.ROW_HEIGHT)
    kids = [layout.nav_bar(host.facts, "Row"),
            lists.cell(lists.Row("Wake", switch=state.on, on_switch=flip), frame)]
    if state.covered:  # over the knob only: the row's centre stays clear
        kids.append(layout.button("Cover", Rect(frame.x + frame.width - 90, 195, 90, 62), press,
                                  name="cover"))
    return layout.screen(host.facts, kids)


ROW_APP = AppModel(ROW, "Row", RowState, _render)


@contextmanager
def _rig(tmp_path: Path, covered: bool) -> Iterator[tuple[Rig, RowState, wda.Session]]:
    with SimServer(apps=[*builtin_apps(), ROW_APP]) as sim:
        bridge, writer = start_bridge(sim, tmp_path)
        try:
            session = wda.Client(bridge.url).session(ROW)
            with sim.lock:
                state = sim.phone.running[ROW].state
                assert isinstance(state, RowState)
                state.covered = covered
                sim.phone.changed()
            yield Rig(sim, bridge, tmp_path), state, session
        finally:
            bridge.stop()
            writer.close()


def _last_tap(rig: Rig) -> AuditEvent:
    tap = [e for e in rig.events() if e.stage == "intent"][-1]
    assert tap.kind == "tap"
    return tap


@pytest.mark.parametrize("by", [{"label": "Wake"}, {"name": "Wake", "className": "Cell"}],
                         ids=["switch", "cell"])
@pytest.mark.parametrize("covered", [False, True], ids=["clear", "covered"])
def test_a_tap_by_id_on_a_switch_row_acts_and_is_logged_at_its_knob(
        tmp_path: Path, by: dict[str, str], covered: bool) -> None:
    with _rig(tmp_path, covered) as (rig, state, s):
        s(**by).get(timeout=3).tap()
        tap = _last_tap(rig)
        assert tap.target is not None
        if covered:
            assert (state.on, state.pressed) == (False, ["cover"])
            assert (tap.target.type, tap.target.name) == ("XCUIElementTypeButton", "cover")
        else:
            assert (state.on, state.pressed) == (True, [])
            assert (tap.target.type, tap.target.label) == ("XCUIElementTypeSwitch", "Wake")
