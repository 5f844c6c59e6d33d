"""An element's value and clear routes on what is not a text input are refused at the bridge.

Real WDA taps such an element for keyboard focus before it fails (`fb_prepareForTextInput`), so
`el.set_text` on a Start button would press it while the log held only a failed `type`: the
bridge refuses the request, logged, with WDA's error. A slider and a picker wheel still take a
value (WDA moves them), and a text field still takes text. facebook-wda through a bridge on
loopback, in front of the simulator (which taps as WDA does: `tests/sim/test_sim_value_taps.py`).
"""

from __future__ import annotations

import re

import pytest
import wda
from bridge_rig import Rig, refused_unsent, sent

SETTINGS = "com.apple.Preferences"


def _title(client: wda.Client) -> str:
    titles = re.findall(r'NavigationBar[^>]*name="([^"]*)"', client.source())
    return titles[0] if titles else ""


@pytest.mark.parametrize(("name", "write"), [
    ("com.apple.settings.general", lambda el: el.set_text("x")),
    ("com.apple.settings.wifi", lambda el: el.clear_text()),  # its value: "HomeNet"
    ("com.apple.settings.airplaneMode", lambda el: el.set_text("1")),  # a Switch
])
def test_a_value_or_clear_on_what_is_no_text_input_is_refused_untouched(
        rig: Rig, name: str, write: object) -> None:
    client = wda.Client(rig.bridge.url)
    session = client.session(SETTINGS)
    element = session(name=name, className="Switch" if "airplane" in name else "Button")
    inputs = rig.sim.ledger()[0]
    with pytest.raises(wda.WDARequestError, match="not a text input") as raised:
        write(element.get(timeout=3))  # type: ignore[operator]
    assert "phoneshell bridge refused" in str(raised.value)
    assert "invalid element state" in str(raised.value)
    assert rig.sim.ledger()[0] == inputs, "the phone got it"  # nothing tapped
    assert _title(client) == "Settings"
    last = rig.events()[-1]
    assert last.stage == "refused" and "element/:id/click" in str(last.error)


def test_a_slider_still_takes_a_value_and_is_logged_at_it(rig: Rig) -> None:
    session = wda.Client(rig.bridge.url).session(SETTINGS)
    session.swipe_up()
    session(label="Display & Brightness", className="Button").click()
    session(label="Text Size", className="Cell").click()
    session(className="Slider", label="Text Size").get(timeout=3).set_text("0.8")
    moved = rig.intents()[-1]
    assert moved.kind == "type" and moved.target is not None
    assert moved.target.type == "XCUIElementTypeSlider" and moved.target.value == "50%"
    assert session(className="Slider", label="Text Size").get(timeout=3).value == "80%"


def test_a_search_field_still_takes_text_and_is_cleared(rig: Rig) -> None:
    session = wda.Client(rig.bridge.url).session(SETTINGS)
    session(className="SearchField").get(timeout=3).set_text("Wi")
    typed = rig.intents()[-1]
    assert typed.kind == "type" and typed.params["text"] == "Wi"
    session(className="SearchField").get(timeout=3).clear_text()
    cleared = rig.intents()[-1]
    assert cleared.kind == "type" and cleared.params["via"] == "clear"
    assert cleared.target is not None and cleared.target.value == "Wi"


def test_keys_given_a_string_are_refused_as_wda_types_nothing_of_them(rig: Rig) -> None:
    """`/wda/keys` with `"value": "Blue"`: WDA fails on a string and types nothing, so the log
    must not say it typed; the same text as a list, and an element's value or an alert's text
    given a string (which WDA types), are logged as typing (red team 84)."""
    session = wda.Client(rig.bridge.url).session(SETTINGS)
    session(className="SearchField").get(timeout=3).click()
    path = f"/session/{session.session_id}/wda/keys"
    message = refused_unsent(rig, path, {"value": "Blue"})
    assert "only as a list of characters" in message
    sent(rig, path, {"value": list("Blue")})
    assert session(className="SearchField").get().value == "Blue"
    typed = [e for e in rig.events() if e.kind == "type" and e.stage == "intent"]
    assert [e.params["text"] for e in typed] == ["Blue"]
