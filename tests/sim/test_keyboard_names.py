"""The keyboard's names, types and place in the tree, as a real iPhone's (iOS 26 dumps: an Other
in its own window, holding the Keyboard and, in an Other, the globe and dictation buttons;
the Return key a Button named for the field's return key type and labelled in lower case; the
123 key a Key named "more")."""

from __future__ import annotations

import wda

SAFARI = "com.apple.mobilesafari"
SETTINGS = "com.apple.Preferences"


def _names(session: wda.Client, chain: str) -> list[tuple[str, str, str]]:
    found = session(classChain=chain).find_elements()
    return [(e.className.removeprefix("XCUIElementType"), e._prop("attribute/name"), e.label)
            for e in found]


def test_the_return_key_is_named_for_the_field_and_labelled_in_lower_case(app):
    session = app
    session.app_activate(SETTINGS)
    session(className="XCUIElementTypeSearchField").click()
    keyboard = "**/XCUIElementTypeKeyboard/**"
    assert _names(session, keyboard + "/*[`name == 'Search'`]") == [("Button", "Search",
                                                                     "search")]
    assert _names(session, keyboard + "/*[`name == 'search'`]") == []
    assert _names(session, keyboard + "/*[`name == 'more'`]") == [("Key", "more", "numbers")]
    assert _names(session, keyboard + "/*[`name == 'shift'`]") == [("Button", "shift", "shift")]
    assert session(name="Search", className="Button").exists
    session(name="more").click()
    assert _names(session, keyboard + "/*[`name == 'more'`]") == [("Key", "more", "letters")]


def test_safaris_address_field_has_go(app):
    session = app
    session.app_activate(SAFARI)
    session(name="TabBarItemTitle").click()
    go = session(className="Button", name="Go").get(timeout=2)
    assert go.label == "go"
    session.send_keys("example.com")
    go.click()
    assert not session(className="Keyboard").exists


def test_the_keyboard_is_in_its_own_window_inside_an_input_view(app, client):
    session = app
    session.app_activate(SETTINGS)
    session(className="XCUIElementTypeSearchField").click()
    windows = session(classChain="XCUIElementTypeWindow").find_elements()
    assert len(windows) == 2
    last = windows[-1].bounds
    assert (last.y, last.height) == (583, 291)
    under = _names(session, "XCUIElementTypeWindow[2]/XCUIElementTypeOther/*")
    assert under == [("Keyboard", None, None), ("Other", None, None)]
    below = _names(session, "XCUIElementTypeWindow[2]/XCUIElementTypeOther/Other/*")
    assert below == [("Button", "Next keyboard", "Next keyboard"),
                     ("Button", "dictation", "Dictate")]
    row = _names(session, "**/XCUIElementTypeKeyboard/*[`rect.y > 750`]")
    assert row == [("Key", "more", "numbers"), ("Button", "emoji", "Emoji"),
                   ("Key", "space", " "), ("Button", "Search", "search")]


def test_the_space_key_is_named_space_and_labelled_a_space(app):
    """As on a phone (iOS 26 dumps): a log that read the key's label "space" as what it typed
    hid that a phone's space key says " "."""
    session = app
    session.app_activate(SETTINGS)
    session(className="XCUIElementTypeSearchField").click()
    for key in "wi":
        session(className="Key", name=key).click()
    space = session(className="Key", name="space").get(timeout=1)
    assert space.label == " "
    space.click()
    session(className="Button", name="emoji").click()
    session(className="Key", name="f").click()
    assert session(className="XCUIElementTypeSearchField").get(timeout=1).value == "wi f"


def test_a_tap_on_the_keyboard_below_its_keys_reaches_nothing_behind(app):
    """The keyboard's window takes a tap between the globe and dictation: the field keeps the
    focus and nothing behind it is tapped."""
    session = app
    session.app_activate(SETTINGS)
    session(className="XCUIElementTypeSearchField").click()
    session.click(200, 860)
    assert session(className="Keyboard").exists
    session(name="emoji").click()
    assert session(className="Keyboard").exists


def test_hide_keyboard_presses_a_key_by_name_or_label(app, raw):
    """WDA's dismiss matches a key's name or its label (facebook-wda refuses the route, so it
    goes raw)."""
    session = app
    session.app_activate(SETTINGS)
    for key in ("Search", "search"):
        session(className="XCUIElementTypeSearchField").click()
        answer = raw("POST", f"/session/{session.session_id}/wda/keyboard/dismiss",
                     {"keyNames": [key]})
        assert answer.status == 200, answer
        assert not session(className="Keyboard").exists
