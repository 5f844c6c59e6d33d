"""Every simulator screen with a real iOS 26 dump is held to its shape (scripts/fidelity.py).

Each case drives a fresh simulator to the screen with facebook-wda over HTTP, reads its source,
and measures it against the dump: depth and element count at least 0.6 and 0.5 of the real
ones, at least half of the real accessible (type, name) pairs, the real identifier on every
element both show, each scroll view both show reported `visible` as the real one is, each
element both name with the real `accessible` flag and traits, each named element both show at
one frame reported `visible` as the real one is, a value wherever the real dump has one, and
the real dump's values themselves on every element both show (type, name and label alike), but
the recorded phone's own facts (fidelity.DEVICE_FACTS).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fidelity import (
    DEPTH_GOAL,
    ELEMENTS_GOAL,
    PAIRS_GOAL,
    SCREENS,
    Comparison,
    Shape,
    compare,
    measure,
)


@pytest.mark.parametrize("screen", list(SCREENS))
def test_the_screen_is_shaped_like_its_real_dump(screen: str, reference: Path) -> None:
    found = compare(screen, reference / "ios-sources")
    assert found.depth_ratio >= DEPTH_GOAL, (found.sim.depth, found.real.depth)
    assert found.elements_ratio >= ELEMENTS_GOAL, (found.sim.elements, found.real.elements)
    assert found.pairs_ratio >= PAIRS_GOAL, found.missing_pairs
    assert found.wrong_ids == []
    assert found.wrong_visible == []
    assert found.wrong_flags == []
    assert found.wrong_shown == []
    assert found.missing_values == []
    assert found.wrong_values == []
    assert found.missing_attributes == []


def test_the_measure_counts_what_it_says() -> None:
    xml = ('<?xml version="1.0" encoding="UTF-8"?>\n'
           '<XCUIElementTypeApplication type="XCUIElementTypeApplication" name="A" label="A">'
           '<XCUIElementTypeOther type="XCUIElementTypeOther" accessible="false">'
           '<XCUIElementTypeCell type="XCUIElementTypeCell" name="ROW" label="Row, 1" '
           'accessible="true"/>'
           '<XCUIElementTypeStaticText type="XCUIElementTypeStaticText" name="Row" label="Row" '
           'accessible="true"/></XCUIElementTypeOther></XCUIElementTypeApplication>')
    shape = measure(xml)
    assert (shape.depth, shape.elements, shape.wrappers) == (3, 4, 1)
    assert shape.pairs == {("Cell", "ROW"), ("StaticText", "Row")}
    assert shape.ids == {("Cell", "Row, 1", "ROW")}
    # a scroll view's visibility, held to the real dump's
    def shaped(visible: str) -> Shape:
        lists = ('<XCUIElementTypeCollectionView type="XCUIElementTypeCollectionView" '
                 f'visible="{visible}" height="600"/>')
        return measure(xml.replace('accessible="false">', f'accessible="false">{lists}', 1))

    assert shaped("false").lists == {("CollectionView", "", "false")}
    assert Comparison("s", "d", shaped("true"), shaped("false")).wrong_visible == [
        ("CollectionView", "", "false")]
    assert Comparison("s", "d", shaped("false"), shaped("false")).wrong_visible == []
    # an element both name, a container there and a button here
    flagged = measure(xml.replace('name="ROW" label="Row, 1" accessible="true"',
                                  'name="ROW" label="Row, 1" accessible="false" traits=""'))
    assert Comparison("s", "d", shape, flagged).wrong_flags == [
        ("Cell", "ROW", "false ''", "true ''")]
    assert Comparison("s", "d", flagged, flagged).wrong_flags == []
    # an element at the same frame, hidden there and shown here; a value there, none here
    def placed(attributes: str) -> Shape:
        return measure(xml.replace('name="Row" label="Row"', f'name="Row" label="Row" '
                                   f'x="1" y="2" width="3" height="4" {attributes}'))

    real = placed('visible="false" value="9:41 AM"')
    assert real.placed >= {("StaticText", "Row", "1 2 3 4", "false")}
    assert Comparison("s", "d", placed('visible="true"'), real).wrong_shown == [
        ("StaticText", "Row", "1 2 3 4", "false")]
    assert Comparison("s", "d", placed('visible="true"'), real).missing_values == [
        ("StaticText", "Row")]
    assert Comparison("s", "d", real, real).wrong_shown == []
    assert Comparison("s", "d", real, real).missing_values == []
    # the same element with another value there (a heading's level, a text's own spaces)
    def valued(value: str) -> Shape:
        return measure(xml.replace('name="Row" label="Row"',
                                   f'name="Row" label="Row" value="{value}"'))

    assert Comparison("s", "d", valued("Row"), valued("Row ")).wrong_values == [
        ("StaticText", "Row", "Row", "'Row '", "'Row'")]
    assert Comparison("s", "d", valued("Row "), valued("Row ")).wrong_values == []
    assert not Comparison("s", "d", valued("Row"), valued("Row ")).meets_goal
    # but for a phone's own fact, which the modelled phone has as its own
    wifi = xml.replace('StaticText type="XCUIElementTypeStaticText" name="Row" label="Row"',
                       'Other type="XCUIElementTypeOther" name="3 of 3 Wi-Fi bars" value="{}"')
    assert Comparison("s", "d", measure(wifi.format("HomeNet, 3 of 3 Wi-Fi bars")),
                      measure(wifi.format("SSID, 3 of 3 Wi-Fi bars"))).wrong_values == []
    bar = measure(xml.replace('name="Row" label="Row"', 'name="Vertical scroll bar, 2 pages"'))
    assert not {name for _, name, *_ in bar.placed} & {"Vertical scroll bar, 2 pages"}
    with pytest.raises(ValueError, match="not a page source"):
        measure("<unclosed")
