"""Double taps: a text view being edited selects the word double-tapped and shows the edit menu,
as iOS does (and as a long press does); elsewhere a double tap is two taps. WDA's doubleTap and
tapWithNumberOfTaps, and a W3C chain of two taps when they are quick and close together.
facebook-wda over HTTP to the simulator."""

from __future__ import annotations

import pytest
import wda
from quick_taps import quick_taps

from phoneshell.sim import SimServer

NOTES, CALCULATOR = "com.apple.mobilenotes", "com.apple.calculator"
WORD = (30, 143)


def _note(sim: SimServer) -> wda.Session:
    s = wda.Client(sim.url).session(NOTES)
    s(label="New Note", className="XCUIElementTypeButton").get(timeout=3).tap()
    s.send_keys("anchor")
    return s


def _menu(s: wda.Session) -> list[str]:
    return [str(e.label) for e in s(xpath="//XCUIElementTypeMenu/*").find_elements()]


def _chain(s: wda.Session, second: tuple[int, int], pause_ms: int) -> None:
    def tap(x: int, y: int) -> list[dict[str, object]]:
        return [{"type": "pointerMove", "duration": 0, "x": x, "y": y},
                {"type": "pointerDown", "button": 0}, {"type": "pause", "duration": 40},
                {"type": "pointerUp", "button": 0}]
    finger = {"type": "pointer", "id": "finger1", "parameters": {"pointerType": "touch"},
              "actions": [*tap(*WORD), {"type": "pause", "duration": pause_ms}, *tap(*second)]}
    s.http.post("/actions", data={"actions": [finger]})


def test_a_double_tap_on_a_word_selects_it_with_the_edit_menu():
    with SimServer() as sim:
        s = _note(sim)
        s.double_tap(*WORD)
        assert _menu(s) == ["Cut", "Copy", "Select All", "Look Up"]
        s(label="Copy").get().tap()
        assert sim.phone.store("com.apple.pasteboard").text("text") == "anchor"
        view = s(className="XCUIElementTypeTextView").get()
        view.http.post("/wda/element/" + view.id + "/tapWithNumberOfTaps",
                       {"numberOfTaps": 2, "numberOfTouches": 1})  # at its centre: no word
        assert _menu(s)[:2] == ["Select", "Select All"]


@pytest.mark.parametrize(("second", "pause_ms", "menu"), [
    (WORD, 120, True),
    (WORD, 1000, False),  # two taps
    ((WORD[0] + 150, WORD[1] + 200), 120, False),  # two taps far apart
], ids=["quick", "slow", "apart"])
def test_a_w3c_chain_of_two_taps_is_a_double_tap_when_quick_and_close(second, pause_ms, menu):
    with SimServer() as sim:
        s = _note(sim)
        _chain(s, second, pause_ms)
        assert bool(_menu(s)) is menu


def test_a_double_tap_on_a_key_is_two_taps():
    with SimServer() as sim:
        s = wda.Client(sim.url).session(CALCULATOR)
        key = s(label="7", className="XCUIElementTypeButton").get(timeout=3)
        s.double_tap(key.bounds.center.x, key.bounds.center.y)
        assert s(label="77").exists


@pytest.mark.parametrize("way", ["doubleTap", "w3c"])
def test_a_double_tap_on_a_row_that_opens_a_page_drops_its_second_tap(way):
    # The second tap lands while General's page slides in: a phone drops it, so General shows,
    # not the row of General's page under the finger (iPhone Storage), whichever way it came.
    with SimServer() as sim:
        s = wda.Client(sim.url).session("com.apple.Preferences")
        x, y = s(label="General").get(timeout=3).bounds.center
        if way == "doubleTap":
            s.double_tap(x, y)
        else:
            s.http.post("/actions", data={"actions": [quick_taps(x, y)]})
        assert s(label="About").exists and not s(label="Offload Unused Apps").exists
