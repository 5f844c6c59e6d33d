"""Where a count's search results stop showing is read from the page (the keyboard's top, else
the screen's bottom), never from a share of a portrait screen's height: in landscape the
keyboard covers half of a 402-point-tall screen."""

from __future__ import annotations

from sources import El, source

from phoneshell.device.probes import fits_on_screen
from phoneshell.tree import PageSource

NOTES = "com.apple.mobilenotes"


def page(rows: int, size: tuple[int, int], keyboard_top: int | None, top: int = 60,
         ) -> tuple[PageSource, list]:
    """A page of `rows` 44-point cells from `top`, under a keyboard from `keyboard_top`."""
    cells = [El("Cell", f"note {i}", frame=(0, top + 44 * i, size[0], 44)) for i in range(rows)]
    board = () if keyboard_top is None else (
        El("Keyboard", frame=(0, keyboard_top, size[0], size[1] - keyboard_top)),)
    parsed = PageSource.parse(source(*cells, *board, bundle=NOTES, size=size))
    return parsed, [e for e in parsed.on_screen() if e.short_type == "Cell"]


def test_rows_above_a_landscape_keyboard_fit() -> None:
    # landscape: the keyboard's top at 202, where 55% of the height would say 221
    fits, rows = page(3, (874, 402), 202)  # they end at 192
    assert fits_on_screen(fits, rows)
    under, rows = page(4, (874, 402), 202, top=30)  # the fourth runs 162-206, under it
    assert not fits_on_screen(under, rows)


def test_rows_end_at_the_keyboard_the_page_shows() -> None:
    # portrait: the rows end at 544, above the keyboard at 583 (55% of 874 is 480)
    fits, rows = page(11, (402, 874), 583)
    assert fits_on_screen(fits, rows)
    under, rows = page(13, (402, 874), 583)
    assert not fits_on_screen(under, rows)


def test_without_a_keyboard_rows_must_end_above_the_screen_bottom() -> None:
    fits, rows = page(7, (874, 402), None)  # 60 + 7 * 44 = 368
    assert fits_on_screen(fits, rows)
    cut, rows = page(8, (874, 402), None)  # the eighth runs on past 402
    assert not fits_on_screen(cut, rows)
