"""A selection in a text is replaced by what comes next, as UIKit does: after the edit menu's
Select All, or a word selected by a hold, a delete deletes the selection alone and a character
typed takes its place, by every way text reaches a field (`/wda/keys`, a tap on the keyboard's
key, W3C key actions, an element's value); a tap in the text collapses it to the caret."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import wda

from phoneshell.sim import SimServer
from phoneshell.sim.apps.notes_edit import TEXT_FRAME, word_spans
from phoneshell.xcui import NOTES

Route = Callable[[wda.Client, str], None]


def _keys(session: wda.Client, chars: str) -> None:
    session.send_keys(chars)  # POST /wda/keys


def _key_tap(session: wda.Client, chars: str) -> None:
    name = {"\b": "delete"}.get(chars, chars)
    session(name=name, className="Key").get(timeout=2).click()


def _w3c(session: wda.Client, chars: str) -> None:
    key = {"\b": "\ue003"}.get(chars, chars)  # WebDriver's Backspace, which WDA maps to "\b"
    steps = [{"type": "keyDown", "value": key}, {"type": "keyUp", "value": key}]
    session.http.post(f"/session/{session.session_id}/actions",
                      data={"actions": [{"type": "key", "id": "keyboard", "actions": steps}]})


def _value(session: wda.Client, chars: str) -> None:
    # POST /element/:id/value: the text view has the focus already, so WDA taps nothing
    session(className="TextView").get(timeout=2).set_text(chars)


ROUTES = {"keys": _keys, "key tap": _key_tap, "w3c": _w3c, "value": _value}


def _note(sim: SimServer, text: str) -> wda.Client:
    """A new note holding `text`, being edited."""
    session = wda.Client(sim.url).session(NOTES)
    session(label="New Note", className="Button").click()
    session.send_keys(text)
    return session


def _body(session: wda.Client) -> str:
    return session(className="TextView").get(timeout=2).value or ""


def _select_all(session: wda.Client) -> None:
    view = session(className="TextView").get(timeout=2).bounds
    session.tap_hold(view.x + 8, view.y + 16, 1.0)
    session(label="Select All", className="MenuItem").click()


def _hold_word(session: wda.Client, text: str, word: str) -> None:
    """Touch and hold `word` of the note's `text` where it is drawn: it is selected."""
    start = text.index(word)
    frame = next(r for s, _, r in word_spans(text, TEXT_FRAME) if s == start)
    session.tap_hold(*frame.center, 1.0)
    assert session(label="Cut", className="MenuItem").exists


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize(("chars", "left"), [("\b", ""), ("x", "x")])
def test_select_all_then_a_key_replaces_the_whole_note(sim: SimServer, route: str, chars: str,
                                                       left: str) -> None:
    session = _note(sim, "anchor bolt")
    _select_all(session)
    ROUTES[route](session, chars)
    assert _body(session) == left
    assert not session(className="Menu").exists  # the edit changed the text: the menu is gone


def test_a_tap_after_select_all_leaves_the_caret_and_deletes_one(sim: SimServer) -> None:
    session = _note(sim, "anchor bolt")
    _select_all(session)
    session(className="TextView").click()
    session.send_keys("\b")
    assert _body(session) == "anchor bol"


@pytest.mark.parametrize(("keys", "bodies"), [
    (["x", "y"], ["keep x more", "keep xy more"]),  # typing goes on after what replaced it
    (["\b", "\b"], ["keep  more", "keep more"]),  # the next delete takes the space before
])
def test_a_held_word_is_replaced_where_it_is(sim: SimServer, keys: list[str],
                                             bodies: list[str]) -> None:
    text = "keep drop more"
    session = _note(sim, text)
    _hold_word(session, text, "drop")
    seen = []
    for key in keys:
        session.send_keys(key)
        seen.append(_body(session))
    assert seen == bodies


def test_a_tap_moves_the_caret_from_the_middle_to_the_end(sim: SimServer) -> None:
    text = "keep drop more"
    session = _note(sim, text)
    _hold_word(session, text, "drop")
    session.send_keys("x")
    session(className="TextView").click()  # where a tap puts the caret here: the text's end
    session.send_keys("z")
    assert _body(session) == "keep x morez"


def test_done_drops_the_selection(sim: SimServer) -> None:
    session = _note(sim, "anchor bolt")
    _select_all(session)
    session(label="Done", className="Button").click()
    session(className="TextView").click()
    session.send_keys("x")
    assert _body(session) == "anchor boltx"


def test_typing_after_cut_goes_where_the_word_was(sim: SimServer) -> None:
    text = "keep drop more"
    session = _note(sim, text)
    _hold_word(session, text, "drop")
    session(label="Cut", className="MenuItem").click()  # on the phone itself: the bridge refuses
    session.send_keys("x")
    assert _body(session) == "keep x more"


def test_a_second_tap_on_safaris_address_types_after_its_url(sim: SimServer) -> None:
    session = wda.Client(sim.url).session("com.apple.mobilesafari")
    session(name="TabBarItemTitle").click()
    session.send_keys("example.com\n")
    session(name="TabBarItemTitle").click()  # the page's URL, all selected
    session(name="TabBarItemTitle").click()  # the caret now, at the end
    session.send_keys("x")
    assert session(name="TabBarItemTitle").get(timeout=2).value == "https://example.com/x"
