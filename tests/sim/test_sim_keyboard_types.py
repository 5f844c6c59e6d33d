"""The keyboard a field asks for (red team 124, RT124-3: every field had the letters keyboard,
so Safari's address had no ".", Contacts' Phone had letters and no digits, Email no "@").
Driven through facebook-wda as an agent that reads the keys off the screen and taps them;
and the bridge's log reads text typed on the phone pad as the field shows it."""

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

SAFARI = "com.apple.mobilesafari"
CONTACTS = "com.apple.MobileAddressBook"
KEYS = "//XCUIElementTypeKeyboard//*[self::XCUIElementTypeKey or self::XCUIElementTypeButton]"


def _keys(session: wda.Client) -> list[tuple[str, str]]:
    """The keyboard's keys and buttons in order: (short type, name)."""
    root = ET.fromstring(session.source())
    board = next(root.iter("XCUIElementTypeKeyboard"))
    return [(e.tag.removeprefix("XCUIElementType"), e.get("name", "")) for e in board.iter()
            if e.tag in ("XCUIElementTypeKey", "XCUIElementTypeButton")]


def _tap(session: wda.Client, *names: str) -> None:
    """Tap each key at the middle of its frame, found in the keyboard by name."""
    for name in names:
        root = ET.fromstring(session.source())
        board = next(root.iter("XCUIElementTypeKeyboard"))
        key = next(e for e in board.iter() if e.get("name") == name)
        x, y, w, h = (int(key.get(a, "0")) for a in ("x", "y", "width", "height"))
        session.click(x + w // 2, y + h // 2)


def _contact_field(client: wda.Client, name: str) -> wda.Client:
    session = client.session(CONTACTS)
    session(name="Add").get(timeout=5).click()
    session(name=name, className="XCUIElementTypeTextField").get(timeout=5).click()
    return session


def test_safaris_address_has_a_period_beside_space(client):
    session = client.session(SAFARI)
    session(name="TabBarItemTitle").get(timeout=5).click()
    bottom = [name for _, name in _keys(session)][-5:]
    assert bottom == ["more", "emoji", "space", ".", "Go"], bottom
    session(className="XCUIElementTypeTextField").get(timeout=2).set_text("\b")
    _tap(session, "a", ".", "b")
    assert session(className="XCUIElementTypeTextField").get(timeout=2).value == "a.b"


def test_contacts_email_has_at_and_period(client):
    session = _contact_field(client, "Email")
    names = [name for _, name in _keys(session)]
    assert names[-6:] == ["more", "emoji", "space", "@", ".", "Return"], names
    _tap(session, "a", "@", "b", ".", "c")
    assert session(name="Email", className="XCUIElementTypeTextField").get().value == "a@b.c"


def test_contacts_phone_has_the_phone_pad_and_types_only_its_keys(client):
    session = _contact_field(client, "Phone")
    keys = _keys(session)
    assert [n for _, n in keys] == [*"123456789", "+*#", "0", "Delete"], keys
    assert all(kind == "Key" for kind, _ in keys), "no Return, no shift: a pad of keys only"
    _tap(session, "5", "5", "5", "+*#")
    assert {n for _, n in _keys(session)} == {"*", "#", "+", "123", "Delete"}
    _tap(session, "#", "Delete", "*", "123", "1")
    assert session(name="Phone", className="XCUIElementTypeTextField").get().value == "555*1"


@pytest.fixture
def rig(sim: SimServer, tmp_path: Path) -> Iterator[Rig]:
    with runner_bridge(sim, tmp_path) as found:
        yield found


def test_the_log_reads_the_phone_pad_as_the_field_shows_it(rig):
    # A card's phone row named "Phone" calls, and the bridge refuses a tap on it; the edit
    # page's field of that name only takes focus, and is tapped through the bridge
    session = wda.Client(rig.bridge.url)
    _contact_field(session, "Phone")
    _tap(session, "5", "5", "+*#", "+", "Delete", "#", "123", "0")
    assert session(name="Phone", className="XCUIElementTypeTextField").get().value == "55#0"
    found = editings(actions(rig.events("R")))
    assert found and found[-1].text == "55#0", found[-1].text if found else "no editing"
    evidence = Evidence("t", 1.0, events=tuple(rig.events("R")), audited=True)
    result = grade_check(Check.make("typed_into", text="55#0"), evidence)  # type: ignore[arg-type]
    assert result.passed, result.detail
