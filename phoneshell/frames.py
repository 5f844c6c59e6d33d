"""Screenshots as judges see them: a PNG scaled down to a long edge, and uniform sampling.

Shared by the bridge (which captures trajectory frames) and the judges (which show them), so
both scale the same way. Pure: bytes in, bytes out; never touches a device.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image, UnidentifiedImageError

DEFAULT_LONG_EDGE = 600
"""MobileJudgeBench's baseline judge sees screenshots at long edge 600 px."""
DEFAULT_FRAMES = 48
"""MobileJudgeBench's baseline judge sees 48 screenshots, uniformly sampled."""


class FrameError(ValueError):
    """Bytes that are not an image Pillow can read."""


@dataclass(frozen=True)
class Scaled:
    """A PNG no larger than the long edge asked for."""

    png: bytes
    width: int
    height: int


def scale_png(data: bytes, long_edge: int = DEFAULT_LONG_EDGE) -> Scaled:
    """`data` (any image Pillow reads) as a PNG whose longer side is at most `long_edge` pixels.

    Raises:
        FrameError: not an image.
    """
    try:
        image: Image.Image = Image.open(io.BytesIO(data))
        image.load()
    except (UnidentifiedImageError, OSError, ValueError) as exc:
        raise FrameError(f"not an image ({exc})") from exc
    width, height = image.size
    factor = min(1.0, long_edge / max(width, height, 1))
    if factor < 1.0:
        # Palette images (the simulator's) resample only by nearest neighbour, which drops the
        # thin strokes of text; in RGB, Lanczos keeps small labels legible at 600 px.
        image = image.convert("RGBA" if "A" in image.getbands() else "RGB")
        size = (max(1, round(width * factor)), max(1, round(height * factor)))
        # reducing_gap: shrink by an integer factor first, then resample: about 3x faster on
        # a 1206x2622 screenshot, and no visible difference at this size.
        image = image.resize(size, Image.Resampling.LANCZOS, reducing_gap=2.0)
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=3)
    return Scaled(out.getvalue(), *image.size)


def sample_uniform(count: int, wanted: int) -> list[int]:
    """Indices of `wanted` of `count` frames, spread evenly, always the first and the last.

    All of them when `wanted` >= `count`; [] when there are none or none are wanted.
    """
    if count <= 0 or wanted <= 0:
        return []
    if wanted >= count:
        return list(range(count))
    if wanted == 1:
        return [count - 1]  # the end state says most about the outcome
    step = (count - 1) / (wanted - 1)
    return sorted({round(i * step) for i in range(wanted)})
