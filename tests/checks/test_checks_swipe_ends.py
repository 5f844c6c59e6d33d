"""A swipe's logged points, read once (`xcui.swipe_ends`) by every check that replays a swipe:
the way back (`backs`), a field's editing kept by a scroll (`keystrokes`), a digit swiped off
Calculator's display (`worked`) and a switch slid sideways (`xcui.sideways`). Four numbers or
no points: a true or false is no point (the bridge refuses one), where two of the four copies
had read it as 1 or 0."""

from __future__ import annotations

import pytest
from audit_logs import PREFS, act

from phoneshell.audit import Action, actions
from phoneshell.checks.backs import way_back
from phoneshell.checks.keystrokes import scrolls_in_place
from phoneshell.xcui import sideways, swipe_ends


def swipe(**params: object) -> Action:
    return actions(act(1, "swipe", PREFS, PREFS, gesture="drag", **params))[0]


def test_the_points_are_four_numbers_or_none() -> None:
    ends = dict(from_x=0, from_y=400, to_x=300.5, to_y=410)
    assert swipe_ends(ends) == (0.0, 400.0, 300.5, 410.0)
    for bad in ({}, dict(ends, to_y=None), dict(ends, from_x=False), dict(ends, from_x="0")):
        assert swipe_ends(bad) is None, bad


@pytest.mark.parametrize("start", [False, True])
def test_a_swipe_whose_points_are_true_or_false_is_no_way_back(start: bool) -> None:
    assert way_back([swipe(from_x=0, from_y=400, to_x=300, to_y=400)], PREFS).backs == (
        "a swipe right",)
    assert way_back([swipe(from_x=start, from_y=400, to_x=300, to_y=400)], PREFS).backs == ()


def test_a_swipe_whose_points_are_true_or_false_scrolls_nothing_in_place() -> None:
    assert scrolls_in_place(swipe(from_x=200, from_y=500, to_x=200, to_y=300))
    assert not scrolls_in_place(swipe(from_x=True, from_y=500, to_x=True, to_y=300))
    assert scrolls_in_place(swipe(direction="up"))  # by direction, no points at all


def test_sideways_reads_the_direction_before_the_points() -> None:
    assert sideways(dict(direction="left", from_x=200, from_y=100, to_x=200, to_y=600))
    assert not sideways(dict(from_x=True, from_y=1, to_x=300, to_y=1))
    assert sideways(dict(from_x=1, from_y=1, to_x=300, to_y=1))
