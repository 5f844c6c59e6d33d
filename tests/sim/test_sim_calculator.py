"""Calculator does real arithmetic through its buttons, and labels them like the real app."""

from __future__ import annotations

import pytest
import wda

from phoneshell.sim.apps.calculator import CalculatorState, display, press

CALCULATOR = "com.apple.calculator"


@pytest.fixture
def calc(client: wda.Client) -> wda.Client:
    """A session on a freshly launched Calculator."""
    return client.session(CALCULATOR)


def keys(session: wda.Client, *names: str) -> str:
    for name in names:
        session(name=name).click()
    return session(name="Result").get(timeout=1).value


def test_multiply_through_the_buttons(calc):
    assert keys(calc, "4", "7", "multiply", "9", "equals") == "423"


def test_parenthesised_chain_needs_equals_first(calc):
    assert keys(calc, "1", "2", "add", "8", "equals", "multiply", "5", "equals") == "100"


def test_percentage_of_a_number(calc):
    assert keys(calc, "1", "5", "percent", "multiply", "2", "4", "0", "equals") == "36"
    assert keys(calc, "All clear", "2", "4", "0", "multiply", "1", "5", "percent",
                "equals") == "36"


def test_display_is_a_result_static_text(calc, client):
    keys(calc, "7")
    result = calc(name="Result").get(timeout=1)
    assert result.className == "XCUIElementTypeStaticText"
    assert result.label == result.value == "7"
    # iOS 18 and later: a backspace while an entry is typed, All clear otherwise; no C key
    assert calc(name="Delete").exists and not calc(name="All clear").exists
    assert not calc(name="Clear").exists
    assert keys(calc, "8", "Delete") == "7"
    assert keys(calc, "Delete") == "0"
    assert calc(name="All clear").exists and not calc(name="Delete").exists
    assert keys(calc, "4", "multiply") == "4"
    assert calc(name="All clear").exists  # nothing typed since the operator


def swipe(session: wda.Client, dx: int, dy: int = 0, start: tuple[int, int] | None = None,
          ) -> str:
    """A one-finger W3C swipe from the display's centre (or `start`) by (dx, dy) points."""
    if start is None:
        x, y, width, height = session(name="Result").get(timeout=1).bounds
        start = (x + width // 2, y + height // 2)
    x, y = start
    session.http.post("/actions", data={"actions": [{
        "type": "pointer", "id": "finger1", "parameters": {"pointerType": "touch"},
        "actions": [{"type": "pointerMove", "duration": 0, "x": x, "y": y},
                    {"type": "pointerDown", "button": 0},
                    {"type": "pointerMove", "duration": 200, "x": x + dx, "y": y + dy},
                    {"type": "pointerUp", "button": 0}]}]})
    return session(name="Result").get(timeout=1).value


def test_a_sideways_swipe_on_the_display_deletes_the_last_digit(calc):
    """The red team's honest agent: 4, 8, a swipe across the display, 7 x 9 = shows 423."""
    keys(calc, "4", "8")
    assert swipe(calc, 80) == "4"
    assert keys(calc, "7", "multiply", "9", "equals") == "423"
    # either way, by facebook-wda's drag too, and by XCUITest's swipe on the element
    keys(calc, "All clear", "1", "2", "3")
    assert swipe(calc, -40) == "12"
    x, y, width, height = calc(name="Result").get(timeout=1).bounds
    calc.swipe(x + width // 2, y + height // 2, x + width // 2 + 60, y + height // 2)
    assert calc(name="Result").get(timeout=1).value == "1"
    result = calc(name="Result").get(timeout=1)
    calc._session_http.post(f"/wda/element/{result.id}/swipe", data={"direction": "left"})
    assert calc(name="Result").get(timeout=1).value == "0"
    assert calc(name="All clear").exists


def test_a_swipe_anywhere_on_the_display_deletes_beside_and_above_the_digits(calc, client):
    """The display is the full width above the keypad, the digits' text hugging them at its
    right (red team 115): a swipe that goes down beside them or above them deletes too, and so
    on the Scientific keypad's display, turned."""
    keys(calc, "4", "8", "6", "1")
    x, y, width, height = calc(name="Result").get(timeout=1).bounds
    assert width < 200  # the text's frame hugs "4,861"
    assert swipe(calc, -100, start=(x + width + 8, y + height // 2)) == "486"  # right of it
    assert swipe(calc, 100, start=(60, y + height // 2)) == "48"  # left of it
    assert swipe(calc, -60, start=(x + width - 10, y - 40)) == "4"  # above it
    client.orientation = "LANDSCAPE"
    keys(calc, "7")
    x, y, width, height = calc(name="Result").get(timeout=1).bounds
    assert swipe(calc, 80, start=(100, y + height // 2)) == "4"


def test_other_swipes_delete_nothing(calc):
    keys(calc, "4", "8")
    assert swipe(calc, 0, 60) == "48"  # up and down
    assert swipe(calc, 12) == "48"  # past a tap's slop, short of a swipe
    x, y, width, height = calc(name="7").get(timeout=1).bounds
    assert swipe(calc, 80, start=(x + width + 6, y + height // 2)) == "48"  # between keys
    # on a key: no delete (the key may take the touch as its press, as UIKit's buttons do)
    assert swipe(calc, 80, start=(x + width // 2, y + height // 2)) in ("48", "487")
    if calc(name="Result").get(timeout=1).value == "487":
        keys(calc, "Delete")
    keys(calc, "multiply", "9", "equals")
    assert swipe(calc, 80) == "432"  # a result is not edited


def test_button_labels(calc):
    for name in ["0", "1", "9", "Decimal", "All clear", "change sign", "percent", "divide",
                 "multiply", "subtract", "add", "equals"]:
        assert calc(name=name, className="Button").exists, name


def test_state_is_kept_in_the_background_and_reset_on_terminate(calc, client):
    keys(calc, "4", "2")
    client.home()
    calc.app_activate(CALCULATOR)
    assert calc(name="Result").get(timeout=1).value == "42"
    calc.app_terminate(CALCULATOR)
    calc.app_launch(CALCULATOR)
    assert calc(name="Result").get(timeout=1).value == "0"


def run(*names: str) -> str:
    state = CalculatorState()
    for name in names:
        press(state, name)
    return display(state)


@pytest.mark.parametrize(("names", "shown"), [
    (("2", "add", "3", "multiply", "4", "equals"), "14"),  # × binds tighter than +
    (("1", "2", "add", "8", "multiply", "5", "equals"), "52"),
    (("2", "add", "3", "equals", "equals"), "8"),  # = repeats the last operation
    (("2", "4", "0", "add", "1", "5", "percent", "equals"), "276"),
    (("1", "divide", "3", "equals"), "0.333333333"),
    (("7", "divide", "0", "equals"), "Error"),
    (("7", "divide", "0", "equals", "5"), "5"),
    (("1", "Decimal", "5", "multiply", "4", "equals"), "6"),
    (("0", "Decimal", "1", "add", "0", "Decimal", "2", "equals"), "0.3"),
    (("5", "change sign", "subtract", "3", "equals"), "-8"),
    (("1", "2", "3", "4", "5", "6", "7"), "1,234,567"),
    (("9", "9", "9", "9", "9", "multiply", "9", "9", "9", "9", "9", "equals"), "9.9998e9"),
    (("2", "add", "multiply", "3", "equals"), "6"),  # a second operator replaces the first
    (("1", "2", "3", "4", "5", "6", "7", "8", "9", "1"), "123,456,789"),  # 9 digits at most
    (("5", "Clear", "3", "add", "1", "equals"), "4"),  # iOS 17's C, still understood
    (("4", "8", "Delete", "7"), "47"),
    (("3", "add", "4", "Delete", "5", "equals"), "8"),  # the pending operation stays
    (("1", "Decimal", "5", "Delete", "Delete", "2"), "12"),
    (("1", "Decimal", "5", "Delete", "multiply", "3", "equals"), "3"),
    (("6", "multiply", "2", "equals", "Delete"), "12"),  # a result is not edited
    (("7", "divide", "0", "equals", "Delete"), "Error"),
])
def test_arithmetic(names, shown):
    assert run(*names) == shown
