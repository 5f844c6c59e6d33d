"""What makes two judgeset items the same trajectory: what a judge is shown that an agent could
change, whole; never the status bar, which moves on its own. Pure: reads no file.

A frame's digest is of its pixels with the status bar's band blanked: the simulated iPhone
seeds its battery per run, and a real phone's clock and battery always move, so the raw PNG
bytes of two runs doing the same nothing never matched (red team 137, RT137-5). Nothing else on
screen is masked: two trajectories that differ anywhere below the band stay two items.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
from collections.abc import Sequence

from PIL import Image

from phoneshell.audit import Action
from phoneshell.records import JudgeItem

STATUS_BAR_PT = 54
"""The status bar's height in points: the `XCUIElementTypeStatusBar` frame (0, 0, 402, 54) of
the iOS 26 SpringBoard dumps (docs/reference ios-sources) and the simulator's; an app's own
page source does not list it, so it is not read per frame. A phone with a shorter bar (20 pt
on a Home-button iPhone) has a little more masked than its bar, never less."""
SCREEN_LONG_PT = 874
"""The long edge of the simulated iPhone 17 Pro's screen in points: the frame's scale when
no page source of the attempt says the screen's size."""


def status_bar_rows(width_px: int, height_px: int, screen_pt: tuple[int, int] | None) -> int:
    """The rows of a frame the status bar covers: `STATUS_BAR_PT` at the frame's scale, which
    is its long edge over the screen's in points (`screen_pt`, width and height, from the
    attempt's page source; None: `SCREEN_LONG_PT`)."""
    long_pt = max(screen_pt) if screen_pt and max(screen_pt) > 0 else SCREEN_LONG_PT
    return min(height_px, math.ceil(STATUS_BAR_PT * max(width_px, height_px) / long_pt))


def frame_digest(png: bytes, screen_pt: tuple[int, int] | None = None) -> str:
    """The sha256 of a frame's pixels (size and mode included) with the status bar's band
    blanked; of the bytes themselves when they are no image Pillow reads."""
    try:
        opened = Image.open(io.BytesIO(png))
        opened.load()
    except (OSError, ValueError):
        return hashlib.sha256(png).hexdigest()
    image = opened.convert("RGBA")
    width, height = image.size
    image.paste((0, 0, 0, 0), (0, 0, width, status_bar_rows(width, height, screen_pt)))
    digest = hashlib.sha256(f"{width}x{height}:".encode())
    digest.update(image.tobytes())
    return digest.hexdigest()


def _logged(action: Action) -> dict[str, object]:
    """An action as the audit log holds it, less what differs between any two plays (its
    sequence number, times, and WDA's element id)."""
    return {"kind": action.kind, "ok": action.ok, "error": action.error,
            "params": {k: v for k, v in action.params.items() if k != "element"},
            "target": action.target.to_plain() if action.target else None,
            "field": action.field.to_plain() if action.field else None,
            "app_before": action.app_before, "app_after": action.app_after}


def content_key(item: JudgeItem, acts: Sequence[Action], pngs: Sequence[bytes],
                screen_pt: tuple[int, int] | None = None) -> str:
    """What makes two items the same trajectory: the instruction, the claim, the item as a
    judge is shown it, every logged action whole (every param, all the text typed, the target
    with its full label) and every frame's `frame_digest`; never the words alone, which cut
    long values and leave params out (two attempts typing 395 and 439 characters read alike),
    nor the raw frames, whose status bar differs between any two runs."""
    shown = item.to_plain()
    shown.pop("id", None)
    text = json.dumps([shown, [_logged(a) for a in acts],
                       [frame_digest(png, screen_pt) for png in pngs]],
                      sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()
