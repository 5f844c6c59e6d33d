"""What the tools tell a model is true (red team 104): a change past a row's 80th character is a
change, and `read` gives the whole text; "more content below" shows on a lazily loaded list; a
point is checked as it is sent; `null` is an argument left out, for `done` as for the claim
file. Tools on the simulated iPhone behind the bridge, through facebook-wda's HTTP."""

from __future__ import annotations

from pathlib import Path

import pytest
from agents.screen_script import find_row

from phoneshell.agents.observation import build_observation
from phoneshell.agents.tools import PhoneTools
from phoneshell.audit import read_audit
from phoneshell.sim import SimServer
from phoneshell.tree import PageSource

SENTENCE = "The quick brown fox jumps over the lazy dog"


def row_now(tools: PhoneTools, label: str) -> str:
    """The id of the row labelled `label` in the latest observation."""
    assert tools.latest is not None
    return find_row(tools.latest.as_text(), label).id


def test_typing_past_the_80th_character_is_a_change_and_read_gives_the_whole_note(
        tools: PhoneTools, sim: SimServer) -> None:
    # Nine sentences typed one call at a time: seven of them used to be "the screen did not
    # change", as only the table's first 80 characters were compared.
    tools.call("open_app", {"name": "Notes"})
    tools.call("tap", {"id": row_now(tools, "New Note")})
    typed = ""
    for n in range(4):
        part = (" " if n else "") + SENTENCE
        reply = tools.call("type", {"text": part})
        typed += part
        assert not reply.error and reply.text.startswith(f"observation {3 + n} ·"), reply.text
    assert tools.latest is not None
    row = find_row(tools.latest.as_text(), "Note")
    assert row.flags == ("focused", "cut") and row.text.endswith("…") and len(row.text) == 80
    whole = f"Note = {typed}"
    assert tools.call("read", {"id": row.id}).text == (
        f"{row.id}\tTextView\t{len(whole)} characters:\n{whole}")
    # read asks the phone nothing: it reads the observation, WDA gone or not
    sim.fault_on("gone")
    try:
        assert tools.call("read", {"id": row.id, "start": 150}).text == (
            f"{row.id}\tTextView\t{len(whole)} characters, 150 to {len(whole)} here:\n"
            f"{whole[150:]}")
    finally:
        sim.fault_off("gone")
    assert tools.call("read", {"id": "1.1"}).text.startswith("read: id 1.1 is from observation 1")
    assert tools.call("read", {"id": row.id, "start": -1}).text == (
        "read: 'start' must be at least 0; got -1")


@pytest.mark.slow  # 1.9 s measured: the README's command stays quick
def test_a_long_list_says_it_goes_on_and_its_end_does_not(tools: PhoneTools,
                                                          reference: Path) -> None:
    # UIKit loads only the cells on screen: nothing of Settings' list lies past the bottom
    # edge, on a phone (the dump) as on the simulator; its last loaded row reaches it.
    dump = (reference / "ios-sources" / "settings-root-ios26.2-sim.xml").read_text()
    assert build_observation(1, PageSource.parse(dump)).more_below
    seen = tools.call("open_app", {"name": "Settings"}).text
    assert "\nmore content below: swipe down to see it\n" in seen
    assert "more content above" not in seen, "the list's first row is at its top edge"
    for _ in range(5):
        tools.call("swipe", {"direction": "down"})
    assert tools.latest is not None and "Developer" in tools.latest.as_text()
    assert not tools.latest.more_below, "the list's end is on screen"
    assert "\nmore content above: swipe up to see it\n" in tools.latest.as_text(), (
        "its first loaded row lies across its top edge")


def test_a_point_is_checked_as_it_is_sent(tools: PhoneTools, tmp_path: Path) -> None:
    # 401.6 passed the check on a 402-wide screen and was sent as 402; 873.7 as 874 (the
    # bottom edge, where a drag is the home gesture).
    tools.call("open_app", {"name": "Settings"})
    told = [tools.call("swipe", {"from_x": 401.6, "from_y": 400, "to_x": 100, "to_y": 400}),
            tools.call("swipe", {"from_x": 200, "from_y": 873.7, "to_x": 200, "to_y": 300}),
            tools.call("tap", {"x": 401.5, "y": 10})]
    assert [t.text for t in told] == [
        "swipe: (401.6, 400) is off the screen (sent as whole points: (402, 400)): from_x runs "
        "from 0 to under 402 and from_y from 0 to under 874 (the screen is 402x874 points); "
        "nothing was done",
        "swipe: (200, 873.7) is off the screen (sent as whole points: (200, 874)): from_x runs "
        "from 0 to under 402 and from_y from 0 to under 874 (the screen is 402x874 points); "
        "nothing was done",
        "tap: (401.5, 10) is off the screen (sent as whole points: (402, 10)): x runs from 0 to "
        "under 402 and y from 0 to under 874 (the screen is 402x874 points); nothing was done"]
    assert not tools.call("swipe", {"from_x": 401.4, "from_y": 600, "to_x": 200.2,
                                    "to_y": 300}).error
    drags = [e.params for e in read_audit(tmp_path / "R" / "audit.jsonl").records
             if e.kind == "swipe" and e.stage == "intent" and e.params.get("gesture") == "drag"]
    assert [(d["from_x"], d["from_y"], d["to_x"], d["to_y"]) for d in drags] == [
        (401, 600, 200, 300)], "only the one on the screen was sent, as checked"


def test_null_is_an_argument_left_out(tools: PhoneTools) -> None:
    # OpenAI's strict mode sends every field, an optional one as null; the claim file reads
    # `"answer": null` as no answer. The tools read it the same way, `done` through the claim
    # file's own reader.
    seen = tools.call("observe", {})
    reply = tools.call("tap", {"id": find_row(seen.text, "Notes").id, "x": None, "y": None})
    assert not reply.error and "app: Notes" in reply.text
    assert tools.call("swipe", {"direction": None, "from_x": None}).text.startswith(
        "swipe: give a direction")
    assert tools.call("done", {"status": None}).text == (
        "done: missing argument 'status' (it is null)")
    assert tools.call("done", {"status": "done", "nope": None}).text.startswith(
        "done: unknown argument 'nope'")
    assert tools.call("done", {"status": "done", "answer": True}).text == (
        "done: 'answer' must be a string, not bool")
    assert tools.call("done", {"status": "done", "answer": None, "summary": None}).text == (
        "claim recorded: done; the attempt is over")
    assert tools.claim is not None and (tools.claim.answer, tools.claim.summary) == ("", "")


def buttons_page(labels: list[str]) -> PageSource:
    """A page source of small buttons in a grid, one per label."""
    cells = "".join(
        f'<XCUIElementTypeButton type="XCUIElementTypeButton" name="b{i}" label="{label}" '
        f'enabled="true" visible="true" x="{i % 10 * 40}" y="{100 + i // 10 * 40}" '
        'width="30" height="30"/>' for i, label in enumerate(labels))
    return PageSource.parse(
        '<?xml version="1.0" encoding="UTF-8"?><AppiumAUT><XCUIElementTypeApplication '
        'type="XCUIElementTypeApplication" name="Probe" label="Probe" enabled="true" '
        f'visible="true" x="0" y="0" width="402" height="874">{cells}'
        '</XCUIElementTypeApplication></AppiumAUT>')


def test_a_change_in_a_row_past_the_tables_last_is_a_change() -> None:
    labels = [f"key {n}" for n in range(130)]
    before = build_observation(1, buttons_page(labels))
    assert len(before.rows) == 120 and "(10 more elements not listed)" in before.as_text()
    labels[125] = "key changed"
    after = build_observation(1, buttons_page(labels))
    assert after.as_text() == before.as_text(), "the table is the same..."
    assert after.signature() != before.signature(), "...and the screen is not"
