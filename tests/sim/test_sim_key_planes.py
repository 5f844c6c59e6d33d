"""The keyboard's numbers and symbols planes, tapped key by key through facebook-wda as an
agent that reads the keys off the screen does (red team 117: the numbers plane had no #+= key
and there was no symbols plane, so `[ ] { } # % ^ * + = _ \\ | ~ < > € £ ¥ •` could not be
typed by tapping); and the bridge's log reads text typed across the planes as the field
shows it."""

from __future__ import annotations

import xml.etree.ElementTree as ET
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
SYMBOLS = "[]{}#%^*+=_\\|~<>€£¥•"
KEY_TYPES = ("XCUIElementTypeKey", "XCUIElementTypeButton")


def _search(client: wda.Client) -> wda.Client:
    session = client.session(SETTINGS)
    session(className="SearchField").get(timeout=5).click()
    return session


def _shown(session: wda.Client) -> dict[str, ET.Element]:
    """The keys and buttons the source shows, by name."""
    root = ET.fromstring(session.source())
    return {e.get("name", ""): e for e in root.iter() if e.tag in KEY_TYPES}


def _keys(session: wda.Client) -> dict[str, tuple[str, str]]:
    """The keyboard's keys and buttons shown, by name: (short type, label)."""
    return {name: (e.tag.removeprefix("XCUIElementType"), e.get("label", ""))
            for name, e in _shown(session).items()}


def _press(session: wda.Client, name: str) -> None:
    """Tap the key named `name` at the middle of its frame, as an agent reading the screen
    taps (no query of names a predicate would have to escape: `\\`, `"`)."""
    key = _shown(session)[name]
    x, y, w, h = (int(key.get(a, "0")) for a in ("x", "y", "width", "height"))
    session.click(x + w // 2, y + h // 2)


def test_the_numbers_plane_has_the_symbols_key_and_the_symbols_plane_its_keys(client):
    session = _search(client)
    assert _keys(session)["shift"] == ("Button", "shift")
    session(name="more").click()
    keys = _keys(session)
    assert keys["shift"] == ("Button", "symbols") and keys["more"] == ("Key", "letters")
    session(name="shift").click()
    keys = _keys(session)
    assert keys["shift"] == ("Button", "numbers") and keys["more"] == ("Key", "letters")
    assert all(keys.get(char) == ("Key", char) for char in SYMBOLS + ".,?!'"), keys
    assert "1" not in keys and "q" not in keys
    session(name="shift").click()
    assert "1" in _keys(session) and "#" not in _keys(session), "123 goes back to the numbers"
    session(name="shift").click()
    session(name="more").click()
    keys = _keys(session)
    assert "q" in keys and keys["more"] == ("Key", "numbers"), "ABC goes back to the letters"


def _tap_across_planes(session: wda.Client, text: str) -> None:
    """Type `text` key by key, going round the planes as a person does till the key shows:
    123 (`more`) from the letters, #+= (`shift` there) from the numbers, ABC (`more`) from the
    symbols. Which plane shows is read off the shift key's label."""
    for char in text:
        name = "space" if char == " " else char
        for _ in range(3):
            keys = _keys(session)
            if name in keys:
                break
            session(name="shift" if keys["shift"][1] == "symbols" else "more").click()
        else:
            raise AssertionError(f"no plane has {char!r}")
        _press(session, name)


def test_every_symbol_is_typed_by_tapping_its_key(client):
    session = _search(client)
    _tap_across_planes(session, "a1 " + SYMBOLS)
    assert session(className="SearchField").get(timeout=2).value == "a1 " + SYMBOLS


@pytest.fixture
def rig(sim: SimServer, tmp_path: Path) -> Iterator[Rig]:
    with runner_bridge(sim, tmp_path) as found:
        yield found


@pytest.mark.slow  # 2.5 s measured: the README's command stays quick
def test_the_log_reads_text_typed_across_the_planes_as_the_field_shows_it(rig):
    session = _search(wda.Client(rig.bridge.url))
    typed = "50% off #2 [a+b]"
    _tap_across_planes(session, typed)
    assert session(className="SearchField").get(timeout=2).value == typed
    found = editings(actions(rig.events("R")))
    assert found and found[-1].text == typed, found[-1].text if found else "no editing"
    evidence = Evidence("t", 1.0, events=tuple(rig.events("R")), audited=True)
    result = grade_check(Check.make("typed_into", text=typed), evidence)  # type: ignore[arg-type]
    assert result.passed, result.detail
