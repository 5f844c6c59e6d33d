"""The path checks read typing as the phone typed it: an agent types through the real bridge into
the simulator, and the field's text replayed from the audit log (`keystrokes.editings`) is the
text the field shows. "\\x7f" (XCUIKeyboardKeyDelete) deletes, "\\r" is Return, WebDriver's
private-use key codes sent to `/wda/keys` are characters, and W3C key actions are logged as WDA
maps and types them (a key's first character, in the order the keys come up)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import wda
from bridge_tests.bridge_rig import Rig, runner_bridge

from phoneshell.audit import actions
from phoneshell.checks import Check, grade_check
from phoneshell.checks.keystrokes import editings
from phoneshell.evidence import Evidence
from phoneshell.sim import SimServer

SETTINGS = "com.apple.Preferences"


@pytest.fixture
def rig(sim: SimServer, tmp_path: Path) -> Iterator[Rig]:
    with runner_bridge(sim, tmp_path) as found:
        yield found


def _typed_and_shown(rig: Rig, type_it: object) -> tuple[str, str, list[str]]:
    """Type into Settings' search field through the bridge: what the log says the field holds,
    what the field shows, and every send the log records."""
    session = wda.Client(rig.bridge.url).session(SETTINGS)
    session(className="SearchField").get(timeout=5).click()
    if isinstance(type_it, str):
        session.send_keys(type_it)
    else:
        session.http.post(f"/session/{session.session_id}/actions", data=type_it)
    shown = session(className="SearchField").get(timeout=2).value
    found = editings(actions(rig.events("R")))
    assert found, "the log holds no editing"
    sends = [s.last_line for s in found[-1].states if s.sent]
    return found[-1].text.rsplit("\n", 1)[-1], str(shown), sends


@pytest.mark.parametrize("typed", [
    "benchmarx\ue003k",  # no Backspace through /wda/keys: the field reads "...x\ue003k"
    "Wi-Fx\x7fi",  # XCUIKeyboardKeyDelete deletes
    "Wi-Fxx\b\x7fi",  # WDA's own clear: "\b\x7f" per character
])
def test_wda_keys_replay_as_the_field_shows(rig, typed):
    logged, shown, _ = _typed_and_shown(rig, typed)
    assert logged == shown


def test_a_carriage_return_sends_as_a_newline_does(rig):
    logged, _, sends = _typed_and_shown(rig, "Wi-Fi\r")
    assert sends == ["Wi-Fi"]


def _keys(*steps: tuple[str, str]) -> dict[str, object]:
    return {"actions": [{"type": "key", "id": "keyboard",
                         "actions": [{"type": kind, "value": v} for kind, v in steps]}]}


def _pressed(*values: str) -> dict[str, object]:
    return _keys(*[(kind, v) for v in values for kind in ("keyDown", "keyUp")])


@pytest.mark.parametrize("body", [
    _pressed("W", "i", "\ue027", "F", "x", "\ue017", "i"),  # W3C Delete is "\x7f"
    _pressed("\ue01a", "\ue01b", "\ue025", "\ue028", "\ue05d", "\ue100"),  # numpad, past codes
    _pressed("Wifi", "\u00e9\u0301x"),  # a key types its value's first composed character
    _keys(("keyDown", "a"), ("keyDown", "b"), ("keyUp", "b"), ("keyUp", "a")),  # "ba"
])
def test_w3c_keys_are_logged_as_wda_types_them(rig, body):
    logged, shown, _ = _typed_and_shown(rig, body)
    assert logged == shown


def test_a_w3c_return_is_a_send(rig):
    _, _, sends = _typed_and_shown(rig, _pressed("W", "i", "\ue006"))
    assert sends == ["Wi"]


def test_a_typed_check_passes_only_on_what_the_field_got(rig):
    """`typed` reads the same text: "benchmark" sent with Selenium's Backspace code through
    `/wda/keys` was never typed, as a phone never typed it."""
    _typed_and_shown(rig, "benchmarx\ue003k")
    evidence = Evidence("t", 1.0, events=tuple(rig.events("R")), audited=True)
    result = grade_check(Check.make("typed_into", text="benchmark"), evidence)  # type: ignore[arg-type]
    assert not result.passed, result.detail
