"""A swipe's way is its first move past the slop, in the bridge and in the simulated iPhone alike
(red team 65): UIKit's row swipe takes a horizontal start and ignores later moves down, so a
chain that goes left on a row and then down is a row's swipe left (Delete shown, all the way
done), not the scroll its end points say; one that starts down and ends left is a scroll."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
import wda
from bridge_rig import TOUCH, Rig, bin_first_note, perform, runner_bridge

from phoneshell.presses import logged_heading
from phoneshell.sim import SimServer
from phoneshell.sim.apps import Drag
from phoneshell.sim.apps.settings import open_page
from phoneshell.xcui import SETTINGS

NOTES = "com.apple.mobilenotes"
REFUSED = 403


def chain(start: tuple[float, float], *moves: tuple[float, float]) -> dict[str, object]:
    """A W3C finger that goes down at `start` and moves through each point (absolute), 100 ms a
    move, then lifts."""
    steps: list[dict[str, object]] = [
        {"type": "pointerMove", "duration": 0, "x": start[0], "y": start[1]},
        {"type": "pointerDown"}]
    steps += [{"type": "pointerMove", "duration": 100, "x": x, "y": y} for x, y in moves]
    steps.append({"type": "pointerUp"})
    return {"type": "pointer", "id": "f1", "parameters": TOUCH, "actions": steps}


@pytest.fixture
def rig(sim: SimServer, tmp_path: Path) -> Iterator[Rig]:
    """The simulator behind a bridge as a run starts it (the agent's rules apply)."""
    with runner_bridge(sim, tmp_path) as found:
        yield found


def _swipes(rig: Rig) -> list[dict[str, object]]:
    return [dict(e.params) for e in rig.events("R") if e.kind == "swipe"
            and e.stage in ("intent", "refused")]


def test_a_row_swiped_left_then_down_in_settings_is_refused(rig: Rig) -> None:
    """Settings > Keyboards: a keyboard's row swiped left 280 pt then down 300 pt deletes the
    keyboard on a phone, as a straight swipe left does; both are refused, naming the row."""
    s = wda.Client(rig.bridge.grant_agent()).session(SETTINGS)
    with rig.sim.lock:
        open_page(rig.sim.phone.running_state(SETTINGS), rig.sim.phone, "keyboards")
    x, y = s(label="English (US)").get(timeout=5).bounds.center
    status, message = perform(rig, s.session_id, chain((340, y), (60, y), (60, y + 300)))
    assert status == REFUSED, message
    assert "English (US)' left in Settings" in message
    logged = _swipes(rig)[-1]
    assert (logged["first_x"], logged["first_y"]) == (330, y)  # its first move: left
    assert logged_heading(logged) == "left"


def test_a_deleted_note_swiped_left_then_down_is_refused(rig: Rig) -> None:
    """Notes' Recently Deleted: a note's row swiped left then down deletes it for good on a
    phone; refused as the straight swipe is, and the note stays."""
    s = wda.Client(rig.bridge.grant_agent()).session(NOTES)
    title, (x, y) = bin_first_note(s)
    status, message = perform(rig, s.session_id, chain((380, y), (40, y), (40, y + 360)))
    assert status == REFUSED, message
    assert "for good" in message
    assert not s(label="Delete", className="Button").exists
    assert s(className="Cell", label=title).exists


def test_a_scroll_that_ends_left_is_a_scroll_in_both(rig: Rig) -> None:
    """A chain that goes down 150 pt first and then left 280 pt on a keyboard's row (its ends
    more across than down) is a scroll: the bridge forwards it in Settings (no row is
    swiped), logging its first move down; on a note's row the simulator scrolls and shows no
    Delete."""
    s = wda.Client(rig.bridge.grant_agent()).session(SETTINGS)
    with rig.sim.lock:
        open_page(rig.sim.phone.running_state(SETTINGS), rig.sim.phone, "keyboards")
    x, y = s(label="English (US)").get(timeout=5).bounds.center
    status, message = perform(rig, s.session_id, chain((340, y), (340, y + 150), (60, y + 150)))
    assert status == 200, message
    assert logged_heading(_swipes(rig)[-1]) == "down"
    notes = wda.Client(rig.bridge.grant_agent()).session(NOTES)
    x, y = notes(className="Cell").get(timeout=5).bounds.center
    status, message = perform(rig, notes.session_id, chain((340, y), (340, y + 150),
                                                           (60, y + 150)))
    assert status == 200, message
    assert not notes(label="Delete", className="Button").exists  # scrolled, no row swiped


def test_a_path_that_turns_inside_the_slop_is_refused(rig: Rig) -> None:
    """A finger that goes 9 pt left and then jumps far down: where it crosses the slop (going
    left) and the first point past it (down) disagree, and so would phones sampling it at
    different rates; the bridge refuses it, naming why."""
    s = wda.Client(rig.bridge.grant_agent()).session(NOTES)
    x, y = s(className="Cell").get(timeout=5).bounds.center
    status, message = perform(rig, s.session_id, chain((300, y), (291, y), (291, y + 200)))
    assert status == REFUSED, message
    assert "turns inside the 10 pt slop" in message


PATHS: Sequence[Sequence[tuple[float, float]]] = (
    ((-150, 0), (-150, 250)),   # left, then down
    ((0, 150), (-180, 150)),    # down, then left
    ((0, -150), (170, -150)),   # up, then right
    ((120, 0), (120, 250)),     # right, then down
    ((40, 0), (-160, 0)),       # right, then back left past the start
    ((-90, -8), (-90, 300)),    # mostly left, then down
    ((-12, -30), (-180, -30)),  # mostly up, then left
    ((100, 0), (100, -200)),    # right, then up
    ((-150, 0),),               # straight left
    ((0, 200),),                # straight down
)
"""Moves from where the finger goes down (points), each a segment of 100 ms."""


def _moves(at: tuple[float, float], path: Sequence[tuple[float, float]]) -> list[tuple[float,
                                                                                     float]]:
    return [(at[0] + dx, at[1] + dy) for dx, dy in path]


@pytest.mark.parametrize("path", PATHS, ids=[json.dumps(p) for p in PATHS])
def test_the_simulator_plays_each_path_the_way_the_bridge_logs_it(
        rig: Rig, path: Sequence[tuple[float, float]]) -> None:
    """For each multi-segment path, what the bridge logs (`logged_heading`) is what the
    simulated iPhone did: on a note's row, Delete shows exactly for a swipe left; on Settings'
    General page, the bridge refuses exactly a swipe left (a row's), the page goes back exactly
    for a swipe right, and its list scrolls exactly for a swipe up or down."""
    notes = wda.Client(rig.bridge.grant_agent()).session(NOTES)
    row = notes(className="Cell", label="Groceries").get(timeout=5).bounds
    status, message = perform(rig, notes.session_id,
                              chain((200, row.center[1]), *_moves((200, row.center[1]), path)))
    assert status == 200, message
    way = logged_heading(_swipes(rig)[-1])
    assert notes(label="Delete", className="Button").exists == (way == "left"), way

    s = wda.Client(rig.bridge.grant_agent()).session(SETTINGS)
    with rig.sim.lock:
        open_page(rig.sim.phone.running_state(SETTINGS), rig.sim.phone, "general")
        rig.sim.phone.drag(Drag(200, 600, 200, 560))  # off the top: it can scroll both ways
    row = s(label="Date & Time").get(timeout=5).bounds  # mid-page: on screen after
    at = (200.0, 500.0)
    status, message = perform(rig, s.session_id, chain(at, *_moves(at, path)))
    assert logged_heading(_swipes(rig)[-1]) == way
    assert (status == REFUSED) == (way == "left"), message  # a row's swipe left in Settings
    if way == "left":
        return
    went_back = not s(name="BackButton").exists
    assert went_back == (way == "right"), way
    if not went_back:
        moved = s(label="Date & Time").get(timeout=5).bounds.y != row.y
        assert moved == (way in ("up", "down")), way
