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
    assert calc(name="Clear").exists and not calc(name="All clear").exists
    keys(calc, "Clear")
    assert calc(name="All clear").exists


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
    (("5", "Clear", "3", "add", "1", "equals"), "4"),
])
def test_arithmetic(names, shown):
    assert run(*names) == shown
