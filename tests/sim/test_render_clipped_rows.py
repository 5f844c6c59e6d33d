"""Screenshots draw what a finger can press: a row a bar hides the middle of (reported
visible="false") shows its strip below the bar, clipped to its list's open part, the bar drawn
over the rest (RT135-1's scroll: a tap on that strip opens the row, so a vision agent must see it
there); what the bar covers stays the bar's."""

from __future__ import annotations

import io

import wda
from PIL import Image

from phoneshell.sim.render import BACKGROUND, WHITE

SCALE = 3


def _shot(client: wda.Client) -> Image.Image:
    return Image.open(io.BytesIO(client.screenshot(format="raw"))).convert("RGB")


def _colours(image: Image.Image, top_pt: int, bottom_pt: int) -> set[tuple[int, int, int]]:
    """The colours drawn across a row's width (x 16..386) between two heights, in points."""
    part = image.crop((16 * SCALE, top_pt * SCALE, 386 * SCALE, bottom_pt * SCALE))
    return {colour for _, colour in part.getcolors(maxcolors=1 << 16) or []}


def test_the_strip_of_a_row_whose_middle_is_under_the_bar_is_drawn_below_the_bar(
        client: wda.Client) -> None:
    s = client.session("com.apple.Preferences")
    s.swipe(200, 750, 200, 750 - 311, 0.05)
    bar = s(className="XCUIElementTypeNavigationBar").get(timeout=3).bounds
    row = s(className="XCUIElementTypeButton", label="Bluetooth").get(timeout=3)
    box = row.bounds
    bar_bottom = bar.y + bar.height
    assert not row.visible and box.y < bar_bottom < box.y + box.height  # its middle under it
    image = _shot(client)
    strip = _colours(image, bar_bottom, box.y + box.height)
    assert strip - {BACKGROUND}, "the strip that takes a tap is blank"
    assert WHITE in strip  # the row's own white band
    # Above the strip the bar is drawn over the row: none of the row's white shows there.
    assert WHITE not in _colours(image, max(box.y, bar.y), bar_bottom)
