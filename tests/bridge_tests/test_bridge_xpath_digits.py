"""An XPath's numbers are ASCII digits, as XPath 1.0 (and WDA's parser) reads them: a number in
another script's digits was read as a number by the bridge's cost reader (red team 145's
class: `\\d` in a parser of agent text takes any script's digits), and WDA then saw a query the
bridge had not read as it does. Pure: the rule itself (`bridge.finds`)."""

from __future__ import annotations

import pytest

from bridge.finds import xpath_cost


def test_an_ascii_position_is_read() -> None:
    assert xpath_cost("//XCUIElementTypeCell[2]") == ""
    assert xpath_cost("//*[string-length(@value) > 3.5]") == ""


@pytest.mark.parametrize("digit", ["２", "\u0662", "\u09e8"])  # full-width, Arabic-Indic, Bengali
def test_a_position_in_other_digits_is_not_read_as_a_number(digit: str) -> None:
    query = f"//XCUIElementTypeCell[{digit}]"
    assert xpath_cost(query) == ("the bridge cannot read it as XPath 1.0 from character 23 "
                                 f"({digit + ']'!r})")
