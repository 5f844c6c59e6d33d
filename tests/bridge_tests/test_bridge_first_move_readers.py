"""Every reader of a logged swipe's way asks one rule (`presses.logged_heading`): the first move
past the slop for a touch chain, the finger's way for WDA's swipe and scroll by direction (a
scroll "right" drags the finger left), and the edge slides judged by it too."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import wda
from bridge_rig import Rig, runner_bridge

from phoneshell.lasting import outlasts_run
from phoneshell.presses import first_move, heading, logged_heading, system_slide, turns_in_slop
from phoneshell.sim import SimServer
from phoneshell.sim.apps.settings import open_page
from phoneshell.xcui import NOTES, SETTINGS, sideways

SCREEN = (0.0, 0.0, 402.0, 874.0)


@pytest.fixture
def rig(sim: SimServer, tmp_path: Path) -> Iterator[Rig]:
    with runner_bridge(sim, tmp_path) as found:
        yield found


def test_a_scroll_right_on_a_keyboard_row_drags_it_left_and_is_refused(rig: Rig) -> None:
    """WDA's scroll "right" on an element drags the finger left across it (`scroll_drags`): on
    a keyboard's row, a swipe left. The rule read the scroll's direction as the finger's and
    let it through."""
    s = wda.Client(rig.bridge.grant_agent()).session(SETTINGS)
    with rig.sim.lock:
        open_page(rig.sim.phone.running_state(SETTINGS), rig.sim.phone, "keyboards")
    row = s(label="English (US)").get(timeout=5)
    with pytest.raises(wda.WDARequestError, match="left in Settings"):
        row.scroll("right", 0.9)
    assert s(label="English (US)").exists


def test_a_dogleg_is_judged_by_its_first_move_by_every_reader() -> None:
    """Left 280 then down 300: left for the Settings and Recently Deleted rules and sideways
    for a switch; down 150 then left 280: a scroll for all of them."""
    row_swipe = {"from_x": 340, "from_y": 159, "to_x": 60, "to_y": 459, "first_x": 330,
                 "first_y": 159, "gesture": "actions"}
    scroll = {"from_x": 340, "from_y": 159, "to_x": 60, "to_y": 309, "first_x": 340,
              "first_y": 169, "gesture": "actions"}
    assert logged_heading(row_swipe) == "left" and sideways(row_swipe)
    assert logged_heading(scroll) == "down" and not sideways(scroll)
    assert outlasts_run("swipe", NOTES, "a note", row_swipe, page="Recently Deleted")
    assert not outlasts_run("swipe", NOTES, "a note", scroll, page="Recently Deleted")


def test_the_way_follows_the_first_move_and_the_lift_along_its_axis() -> None:
    down = (200.0, 400.0)
    assert first_move([down, (195.0, 400.0), (195.0, 700.0)]) == (195.0, 408.66)
    assert heading(down, (60.0, 700.0), (190.0, 400.0)) == "left"
    assert heading(down, (260.0, 700.0), (190.0, 400.0)) == "right"  # lifted right of start
    assert heading(down, (60.0, 420.0), (200.0, 410.0)) == "down"
    assert turns_in_slop([down, (191.0, 400.0), (191.0, 600.0)])
    assert not turns_in_slop([down, (100.0, 400.0), (100.0, 800.0)])
    assert logged_heading({"direction": "down", "gesture": "scroll"}) == "up"
    assert logged_heading({"direction": "down", "gesture": "swipe"}) == "down"


def test_an_edge_slide_is_the_systems_by_its_first_move() -> None:
    """From the top edge: down 100 then right 300 opens Notification Center on a phone (its
    pan took the downward start); right 100 then down 300 is no edge slide."""
    assert system_slide(SCREEN, (100.0, 10.0), (400.0, 110.0), (100.0, 20.0))
    assert not system_slide(SCREEN, (100.0, 10.0), (200.0, 310.0), (110.0, 10.0))
