"""Notes keeps no empty note: one emptied through the pasteboard's edit menu (Select All, Cut) or
by deleting what was typed is gone once Notes stops with it open, as when it is left by Back, so
the harness's counts of notes (a probe starts Notes afresh) see no note the agent left empty."""

from __future__ import annotations

import pytest
import wda

from phoneshell.sim import SimServer
from phoneshell.sim.phone import PASTEBOARD
from phoneshell.xcui import NOTES


def stored(sim: SimServer) -> list[str]:
    return [n["text"] for n in sim.state()["stores"].get(NOTES, {}).get("notes", [])]


def cut_all(session: wda.Client) -> None:
    """Select All and Cut from the word's menu (on the phone itself: the bridge refuses Cut)."""
    view = session(className="TextView").get(timeout=2).bounds
    session.tap_hold(view.x + 30, view.y + 20, 1.0)
    session(label="Select All", className="MenuItem").click()
    session(label="Cut", className="MenuItem").click()


@pytest.mark.parametrize("empty", ["cut", "deleted"])
def test_a_note_left_empty_is_gone_when_notes_stops(sim: SimServer, empty: str) -> None:
    session = wda.Client(sim.url).session(NOTES)
    session(label="New Note", className="Button").click()
    session.send_keys("the owner's")  # Notes' store holds every note from here
    session(label="Done", className="Button").click()
    before = stored(sim)
    session(label="New Note", className="Button").click()
    session.send_keys("scratch")
    if empty == "cut":
        cut_all(session)
        assert sim.state()["stores"][PASTEBOARD]["text"] == "scratch"
    else:
        session.send_keys("\b" * len("scratch"))
    session(label="Done", className="Button").click()
    assert len(stored(sim)) == len(before) + 1, "kept while it is open, as on the phone"
    session.home()
    session.app_terminate(NOTES)
    assert stored(sim) == before
    session = wda.Client(sim.url).session(NOTES)
    assert not session(label="New Note", className="Cell").exists


def test_a_note_with_text_outlives_notes_stopping(sim: SimServer) -> None:
    session = wda.Client(sim.url).session(NOTES)
    session(label="New Note", className="Button").click()
    session.send_keys("kept")
    session.app_terminate(NOTES)
    assert stored(sim)[0] == "kept"
