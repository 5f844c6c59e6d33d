"""AgentHorizon's `click` carries as many clicks as the phone took presses from the logged tap
(`presses.press_count`, the one definition): a triple tap the bridge logs as `taps` (a W3C chain
or `tapWithNumberOfTaps`) was exported as one click."""

from __future__ import annotations

import pytest

from phoneshell.judges.horizon import action_of
from phoneshell.records import ItemStep


@pytest.mark.parametrize(("params", "clicks"), [
    ({"x": 10, "y": 20}, 1),
    ({"x": 10, "y": 20, "gesture": "double_tap"}, 2),
    ({"x": 10, "y": 20, "gesture": "taps", "taps": 3, "touches": 1}, 3),
    ({"x": 10, "y": 20, "gesture": "taps", "taps": 2, "touches": 2}, 1),
])
def test_a_tap_exports_as_many_clicks_as_it_pressed(params: dict[str, int | str],
                                                    clicks: int) -> None:
    step = ItemStep(n=1, action="Tapped", kind="tap", params=params)
    assert action_of(step) == {"type": "click", "parameters": {
        "x": 10, "y": 20, "button": "left", "num_clicks": clicks}}
