"""An element's value and clear routes on what is not a text field act as real WDA 16's do.

WDA has no type gate there (`handleSetValue` -> `fb_typeText` -> `fb_prepareForTextInput`):
typing taps the element for keyboard focus, up to twice while no keyboard shows (once when one
is up already), and fails only after; clear answers 200 at once when the element's value is nil
or empty and taps first otherwise. A raw client sees those taps act, as on a phone.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import wda

from phoneshell.sim import SimServer, layout
from phoneshell.sim.apps import AppModel, Host, builtin_apps
from phoneshell.sim.ui import EditText, Node, Rect

SETTINGS, COUNTER = "com.apple.Preferences", "com.example.counter"


@dataclass
class CounterState:
    """A button that stays on screen and counts its presses, and a field."""

    presses: int = 0
    note: EditText = field(default_factory=lambda: EditText(placeholder="Note"))


def _render(state: CounterState, host: Host) -> Node:
    def press() -> None:
        state.presses += 1

    return layout.screen(host.facts, [
        layout.nav_bar(host.facts, "Counter"),
        layout.button("Count", Rect(16, 150, 200, 44), press, name="count"),
        layout.text_field(state.note, Rect(16, 220, 370, 44), name="note"),
    ])


@pytest.fixture
def counter_sim() -> Iterator[SimServer]:
    """The built-in apps and the counter."""
    with SimServer(apps=[*builtin_apps(), AppModel(COUNTER, "Counter", CounterState,
                                                   _render)]) as server:
        yield server


Raw = Callable[..., Any]


def _session(raw: Raw, bundle: str) -> str:
    made = raw("POST", "/session", {"capabilities": {"alwaysMatch": {"bundleId": bundle}}})
    return f"/session/{made.value['sessionId']}"


def _element(raw: Raw, scope: str, name: str) -> str:
    found = raw("POST", scope + "/element", {"using": "accessibility id", "value": name})
    return str(found.value["ELEMENT"])


def _title(raw: Raw) -> str:
    titles = re.findall(r'NavigationBar[^>]*name="([^"]*)"', raw("GET", "/source").value)
    return titles[0] if titles else ""


def test_a_value_sent_to_a_settings_row_taps_it_then_fails(raw: Raw) -> None:
    scope = _session(raw, SETTINGS)
    row = _element(raw, scope, "com.apple.settings.general")
    answer = raw("POST", f"{scope}/element/{row}/value", {"value": "x"})
    assert answer.status == 400 and answer.value["error"] == "invalid element state"
    assert "is not ready for text input" in answer.value["message"]
    assert _title(raw) == "General"  # the tap opened the row's page, as on a phone


def test_clear_leaves_a_row_with_no_value_alone_and_taps_one_showing_a_value(
        raw: Raw) -> None:
    scope = _session(raw, SETTINGS)
    general = _element(raw, scope, "com.apple.settings.general")
    assert raw("POST", f"{scope}/element/{general}/clear").status == 200
    assert _title(raw) == "Settings"  # a nil value: WDA answers at once, no tap
    wifi = _element(raw, scope, "com.apple.settings.wifi")  # its value is "HomeNet"
    answer = raw("POST", f"{scope}/element/{wifi}/clear")
    assert answer.status == 400 and "not ready for text input" in answer.value["message"]
    assert _title(raw) == "Wi-Fi"


def test_typing_into_a_button_taps_it_twice_or_once_when_the_keyboard_is_up(
        counter_sim: SimServer) -> None:
    session = wda.Client(counter_sim.url).session(COUNTER)
    state = counter_sim.phone.running[COUNTER].state
    with pytest.raises(wda.WDARequestError, match="not ready for text input"):
        session(name="count").get(timeout=2).set_text("x")
    assert state.presses == 2  # type: ignore[attr-defined]  # MAX_PREPARE_TRIES, no keyboard
    session(name="note").get(timeout=2).set_text("hi")  # the keyboard comes up for the field
    with pytest.raises(wda.WDARequestError, match="not ready for text input"):
        session(name="count").get(timeout=2).set_text("x")
    assert state.presses == 3  # type: ignore[attr-defined]  # once: the keyboard was up
    assert state.note.text == "hi"  # type: ignore[attr-defined]
    session(name="note").get(timeout=2).clear_text()  # a field is cleared, as before
    assert state.note.text == ""  # type: ignore[attr-defined]
