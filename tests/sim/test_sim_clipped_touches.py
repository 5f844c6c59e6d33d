"""Where a touch lands on a row a bar hides the middle of (red team 135, RT135-1): the row takes
it on the strip of it that shows, as UIKit hit-tests by geometry, unless a modal presentation
is drawn over the screen, whose full-screen layer takes every touch on what it covers. The
simulator's own hit test on a screen as `Screen.of` reports it (the modal cover applied)."""

from __future__ import annotations

from phoneshell.sim.touch_paths import actionable, hit_path
from phoneshell.sim.ui import Node, Rect, Screen, Scroll

TAPPED: list[str] = []


def _screen(modal: bool) -> Screen:
    # A list under a collapsed bar (open from 116), a row at 89..142: its middle under the bar.
    row = Node("Cell", Rect(0, 89, 402, 53), label="iCloud Drive", visible=False,
               on_tap=lambda: TAPPED.append("row"))
    table = Node("Table", Rect(0, 0, 402, 874), children=(row,), scroll=Scroll(),
                 uncovered=Rect(0, 116, 402, 700))
    bar = Node("NavigationBar", Rect(0, 62, 402, 54), name="Browse")
    window = [Node("Other", Rect(0, 0, 402, 874), children=(table,)), bar]
    if modal:  # a layer that takes no touch itself, its panel at the bottom
        panel = Node("Other", Rect(0, 600, 402, 274), opaque=True,
                     children=(Node("Button", Rect(16, 620, 100, 44), label="Done"),))
        window.append(Node("Other", Rect(0, 0, 402, 874), children=(panel,), modal=True))
    return Screen.of(Node("Application", Rect(0, 0, 402, 874), children=(
        Node("Window", Rect(0, 0, 402, 874), children=tuple(window)),)), "app", 1)


def test_the_shown_strip_of_a_row_whose_middle_is_under_the_bar_takes_the_touch() -> None:
    root = _screen(modal=False).root
    for y in (116, 125, 141):
        taker = actionable(hit_path(root, 200, y))
        assert taker is not None and taker.label == "iCloud Drive", y
    assert [n.type for n in hit_path(root, 200, 110)][-1] == "NavigationBar"


def test_a_modal_layer_keeps_the_touch_from_the_row_it_covers() -> None:
    root = _screen(modal=True).root
    assert actionable(hit_path(root, 200, 125)) is None
    assert [n.type for n in hit_path(root, 200, 125)] == []
    assert [n.label for n in hit_path(root, 50, 640)][-1] == "Done"
