"""Calculator turned to landscape shows the Scientific keypad, as an iPhone does, and its
parentheses group: the red team's honest (12 + 8) x 5 on it could never show in a simulated
run while landscape showed only the portrait keys."""

from __future__ import annotations

import pytest
import wda
from lxml import etree

from phoneshell.keypad import CLOSE, OPEN, SCIENTIFIC, CalculatorState, display, press, work

CALCULATOR = "com.apple.calculator"


@pytest.fixture
def turned(client: wda.Client) -> wda.Client:
    """A session on Calculator, turned to landscape."""
    s = client.session(CALCULATOR)
    s.orientation = "LANDSCAPE"
    return s


def keys(session: wda.Client, *names: str) -> str:
    for name in names:
        session(className="XCUIElementTypeButton", name=name).click()
    return session(name="Result").get(timeout=1).value


def test_landscape_shows_the_scientific_keypad_on_the_turned_screen(turned, raw):
    root = etree.fromstring(raw("GET", "/source").value.encode())
    buttons = {n.get("name"): n for n in root.iter("XCUIElementTypeButton")}
    assert {OPEN, CLOSE, *SCIENTIFIC, "7", "equals", "All clear"} <= set(buttons)
    for node in (*buttons.values(), *root.iter("XCUIElementTypeStaticText")):
        x, y = int(node.get("x")), int(node.get("y"))
        assert x >= 0 and x + int(node.get("width")) <= 874, node.get("name")
        assert y >= 0 and y + int(node.get("height")) <= 402, node.get("name")
    # ( sits left of the basic keys, on the All clear row, as on the phone
    assert int(buttons[OPEN].get("x")) < int(buttons["All clear"].get("x"))
    assert buttons[OPEN].get("y") == buttons["All clear"].get("y")
    turned.orientation = "PORTRAIT"
    assert not turned(name=OPEN).exists and turned(name="7").exists


def test_the_parentheses_group_as_written(turned):
    assert keys(turned, OPEN, "1", "2", "add", "8", CLOSE) == "20"
    assert keys(turned, "multiply", "5", "equals") == "100"
    assert keys(turned, "All clear", "5", "multiply", OPEN, "8", "add", "1", "2",
                "equals") == "100"  # = closes what is open
    assert keys(turned, "All clear", "2", "multiply", OPEN, "3", "add", OPEN, "4", "subtract",
                "1", CLOSE, "multiply", "2", CLOSE, "equals") == "18"
    # a key the arithmetic does not compute changes nothing here
    assert keys(turned, "All clear", "9", "sin") == "9"


@pytest.mark.parametrize("written", [
    "( 1 2 + 8 ) × 5 =", "5 ( 2 + 3 ) =", "( 2 + 3 ) ( 1 + 1 ) =", ") 5 × 2 =",
    "( 2 4 0 + 1 5 % ) × 2 =", "( 1 ÷ 0 ) + 2 =", "1 + ( 2 =",
])
def test_the_check_replays_what_the_phone_showed(written: str) -> None:
    names = {"(": OPEN, ")": CLOSE, "×": "multiply", "÷": "divide", "+": "add",
             "=": "equals", "%": "percent"}
    pressed = [names.get(k, k) for k in written.split()]
    state = CalculatorState()
    for key in pressed:
        press(state, key)
    assert work(pressed).shown == display(state), written
