"""What typing does to the field, through facebook-wda as on a phone: `/wda/keys` and an
element's value hand text to XCTest's typeText untranslated ("\\b" and "\\x7f" delete, "\\n" and
"\\r" are Return, WebDriver's private-use key codes are characters), and W3C key actions map
those codes as WDA's FBMapIfSpecialCharacter does, each key by its first composed character."""

from __future__ import annotations

import pytest
import wda

SETTINGS = "com.apple.Preferences"


def _search(client: wda.Client) -> tuple[wda.Client, wda.Element]:
    session = client.session(SETTINGS)
    field = session(className="SearchField").get(timeout=2)
    field.click()
    return session, field


def _value(session: wda.Client) -> str:
    return str(session(className="SearchField").get(timeout=2).value)


@pytest.mark.parametrize(("typed", "shown"), [
    ("benchmarx\ue003k", "benchmarx\ue003k"),  # Selenium's Keys.BACK_SPACE is no key here
    ("Wi\ue007Fi\ue006", "Wi\ue007Fi\ue006"),  # nor are its Enter and Return
    ("Wi-Fx\x7fi", "Wi-Fi"),  # XCUIKeyboardKeyDelete deletes, as "\b" does
    ("Wi-Fxx\b\x7fi", "Wi-Fi"),  # WDA's own clear types "\b\x7f" per character
])
def test_wda_keys_types_what_typetext_types(client, typed, shown):
    session, _ = _search(client)
    session.send_keys(typed)
    assert _value(session) == shown
    assert session(className="Keyboard").exists  # no Return was typed


def test_a_carriage_return_is_return_as_a_newline_is(client):
    session, _ = _search(client)
    session.send_keys("Wi-Fi\r")
    assert _value(session) == "Wi-Fi" and not session(className="Keyboard").exists


def test_an_elements_value_types_through_typetext_too(client):
    session, field = _search(client)
    field.set_text("ab\x7fc\ue003")  # POST /element/:id/value
    assert _value(session) == "ac\ue003"


def _perform(session: wda.Client, body: dict[str, object]) -> None:
    session.http.post(f"/session/{session.session_id}/actions", data=body)


def _keys(*values: str) -> dict[str, object]:
    steps = [{"type": kind, "value": v} for v in values for kind in ("keyDown", "keyUp")]
    return {"actions": [{"type": "key", "id": "keyboard", "actions": steps}]}


@pytest.mark.parametrize(("values", "shown"), [
    (("W", "i", "\ue027", "F", "x", "\ue017", "i"), "Wi-Fi"),  # Delete is XCUIKeyboardKeyDelete
    (("\ue01a", "\ue01b", "\ue023", "\ue024", "\ue025", "\ue026", "\ue028", "\ue029"),
     "019*+,./"),  # the numpad's keys
    (("\ue018", "\ue019", "\ue00d", "\ue05d", "\ue004"), ";=  \t"),
    (("a", "\ue008", "\ue012", "\ue03d", "\ue031", "\ue05c", "b"), "ab"),  # shift, arrows, F1
    (("\ue05e", "\uf8ff"), "\ue05e\uf8ff"),  # past WebDriver's codes: characters
    (("Wifi", "i"), "Wi"),  # a key types its value's first character only
    (("e\u0301x", "\U0001f44d\U0001f3fdy", "\U0001f1eb\U0001f1f7z"),
     "e\u0301\U0001f44d\U0001f3fd\U0001f1eb\U0001f1f7"),  # composed characters stay whole
])
def test_w3c_key_actions_map_webdrivers_codes_as_wda_does(client, values, shown):
    session, _ = _search(client)
    _perform(session, _keys(*values))
    assert _value(session) == shown


def test_w3c_enter_and_return_end_the_editing(client):
    for code in ("\ue006", "\ue007"):
        session, _ = _search(client)
        _perform(session, _keys("x", code))
        assert not session(className="Keyboard").exists, repr(code)


def test_keys_held_together_type_in_the_order_they_come_up(client):
    session, _ = _search(client)
    steps = [{"type": "keyDown", "value": "a"}, {"type": "keyDown", "value": "b"},
             {"type": "keyUp", "value": "b"}, {"type": "keyUp", "value": "a"}]
    _perform(session, {"actions": [
        {"type": "key", "id": "keyboard", "actions": steps}]})
    assert _value(session) == "ba"


def test_an_empty_key_value_is_refused_as_wda_refuses_it(client):
    session, _ = _search(client)
    with pytest.raises(wda.WDARequestError, match="non-empty string"):
        _perform(session, _keys(""))


def test_keys_given_a_string_fail_as_wda_fails_and_type_nothing(client):
    """WDA's handleKeys joins `value` with componentsJoinedByString:, which a string lacks: it
    raises and answers 500, typing nothing; a list is typed (red team 84)."""
    session, _ = _search(client)
    before = _value(session)
    with pytest.raises(wda.WDAUnknownError, match="componentsJoinedByString"):
        session.http.post(f"/session/{session.session_id}/wda/keys", data={"value": "Blue"})
    assert _value(session) == before
    session.http.post(f"/session/{session.session_id}/wda/keys", data={"value": list("Blue")})
    assert _value(session) == "Blue"
