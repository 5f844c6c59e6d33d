"""The owner's pasteboard is as out of reach through the phone's own screens as through WDA's
routes: every press that reads it (Paste) or replaces it (Copy, Cut, Copy Link, a share sheet's
Copy, refused for the panel it lies in) is refused, worded as the routes' refusal is, and
logged as refused with its target; the pasteboard holds what the owner copied before and after.
Driven by facebook-wda through the bridge against the simulated iPhone, whose Notes and Safari
read and write the pasteboard as iOS does."""

from __future__ import annotations

import pytest
import wda
from bridge_rig import Rig, leaked

from phoneshell.lasting import outlasts_run
from phoneshell.pasteboard import READS, WRITES, uses_pasteboard
from phoneshell.sim import SimServer
from phoneshell.sim.phone import PASTEBOARD
from phoneshell.xcui import NOTES, SETTINGS

SAFARI = "com.apple.mobilesafari"
SECRET = "OWNER-SECRET-4111-1111"
TAIL = ": no task needs it, and nothing after the run sets it back"


def owner_copied(sim: SimServer, text: str = SECRET) -> None:
    """The owner copied `text` before the run (around the bridge, as on their own phone)."""
    with sim.lock:
        sim.phone.store(PASTEBOARD).put("text", text)


def pasteboard(sim: SimServer) -> str:
    return str(sim.state()["stores"].get(PASTEBOARD, {}).get("text", ""))


def refused(rig: Rig) -> list[tuple[str, str, str]]:
    """(target type, label, reason) of each refused line, once (facebook-wda retries a refused
    tap at a point by its legacy route)."""
    found: list[tuple[str, str, str]] = []
    for e in rig.events():
        line = (e.target.type if e.target else "", e.target.label if e.target else "", e.error)
        if e.stage == "refused" and line not in found:
            found.append(line)
    return found


def menu(session: wda.Client) -> list[str]:
    return [e.label for e in session(className="MenuItem").find_elements()]


def note_with(session: wda.Client, text: str) -> None:
    session(label="New Note", className="Button").click()
    session.send_keys(text)


def test_notes_edit_menu_copy_cut_and_paste_are_refused(rig: Rig, sim: SimServer) -> None:
    owner_copied(sim)
    session = wda.Client(rig.bridge.url).session(NOTES)
    note_with(session, "anchor")
    word = session(className="TextView").get(timeout=2).bounds
    session.tap_hold(word.x + 30, word.y + 20, 1.0)  # on "anchor": the word's menu
    assert menu(session) == ["Cut", "Copy", "Paste", "Select All", "Look Up"]
    for item in ("Copy", "Cut", "Paste"):
        with pytest.raises(wda.WDARequestError, match="copied last"):
            session(label=item, className="MenuItem").click()
    session(label="Select All", className="MenuItem").click()  # reads nothing: forwarded
    assert [e.stage for e in rig.events() if e.target and e.target.label == "Select All"] \
        == ["intent"]  # its outcome is written with the next read
    session.tap_hold(200, 500, 1.0)  # below the text: the caret's menu, Paste in it
    with pytest.raises(wda.WDARequestError, match="pasteboard"):
        session(label="Paste", className="MenuItem").click()
    assert refused(rig) == [
        ("XCUIElementTypeMenuItem", "Copy", WRITES + TAIL),
        ("XCUIElementTypeMenuItem", "Cut", WRITES + TAIL),
        ("XCUIElementTypeMenuItem", "Paste", READS + TAIL)]
    assert session(className="TextView").get().value == "anchor", "nothing cut or pasted"
    assert pasteboard(sim) == SECRET, "the owner's pasteboard is as they left it"
    assert leaked(rig.runs / "unscoped" / "audit.jsonl", SECRET) == [], "never shown, never logged"


def test_safaris_copy_link_and_the_share_sheets_copy_are_refused(rig: Rig,
                                                                 sim: SimServer) -> None:
    owner_copied(sim)
    session = wda.Client(rig.bridge.url).session(SAFARI)
    session(name="TabBarItemTitle").click()
    session.send_keys("example.com\n")
    link = session(label="More information...").get(timeout=5)
    session.tap_hold(*link.bounds.center, 1.0)
    with pytest.raises(wda.WDARequestError, match="copied last"):
        session(label="Copy Link").click()
    session(label="Share\u2026").click()
    copy = session(label="Copy").get(timeout=2)
    with pytest.raises(wda.WDARequestError, match="copied last"):
        copy.tap()  # by id: refused for the panel it lies in (test_bridge_paste_share_sheet)
    found = refused(rig)
    assert [(label, reason) for _, label, reason in found[:1]] == [("Copy Link", WRITES + TAIL)]
    assert "Cell 'Copy' by id" in found[1][2] and "the pasteboard" in found[1][2]
    assert pasteboard(sim) == SECRET


def test_the_wda_routes_and_the_screens_are_refused_alike(rig: Rig, sim: SimServer) -> None:
    owner_copied(sim)
    client = wda.Client(rig.bridge.url)
    for route in ("/wda/getPasteboard", "/wda/setPasteboard"):
        with pytest.raises(wda.WDAError, match="copied last"):
            client.http.post(route, {"contentType": "plaintext", "content": "eA=="})
    assert pasteboard(sim) == SECRET


@pytest.mark.parametrize("label, why", [
    ("Paste", READS), ("Paste and Go", READS), ("Paste and Search", READS),
    ("Paste and Match Style", READS), ("Allow Paste", READS), ("Paste...", READS),
    ("Copy", WRITES), ("Cut", WRITES), ("Copy Link", WRITES),
    ("Copy Link with Highlight", WRITES), ("Copy Address", WRITES), ("Copy Photo", WRITES),
    ("Copy\u2026", WRITES),
    ("Don't Allow Paste", ""), ("Copyright", ""), ("Select All", ""), ("Pasted", ""),
    ("Copy of the plan, 9:41 AM", ""), ("Look Up", ""), ("Share\u2026", "")])
def test_every_press_of_the_pasteboard_is_known_by_its_label(label: str, why: str) -> None:
    assert uses_pasteboard(label.lower().replace("...", "\u2026")) == why
    for app in (NOTES, SAFARI, SETTINGS, "com.example.any"):
        assert outlasts_run("tap", app, label) == why
    assert outlasts_run("alert_accept", NOTES, label) == ""  # not a press of it
    assert outlasts_run("tap", NOTES, "", {"gesture": "alert_accept", "button": label}) == why
