"""The input probe: does a gesture reach the screen? A phone can answer every read and drop
every touch (a locked phone, a wedged HID event system), and WDA still says 200 to each.

API:

    probe_input(phone, timeout_s=3.0) -> InputProbe     reached: bool, detail: str
    screen_difference(png_a, png_b) -> float            share of the screen that differs

With an app in front it presses home: the home screen replacing the app is a gesture that
reached the screen, and nothing more is needed (a press is a HID event, as a touch is, and a
wedged event system or a locked phone drops both). On the home screen already it pages the home
screen sideways and back, comparing screenshots. It never taps, so it opens, changes and deletes
nothing; the phone ends on the home screen, on the page it was on.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image, ImageChops

from phoneshell.device.phone import SPRINGBOARD, Phone, wait_until
from phoneshell.device.steps import is_home_screen
from phoneshell.errors import DeviceError

CHANGED_FRACTION = 0.01
"""A swipe counts as seen when more than this share of the screen changed (a clock tick is less)."""


@dataclass(frozen=True)
class InputProbe:
    """What the probe saw."""

    reached: bool
    """Whether a gesture changed the screen."""
    detail: str


def probe_input(phone: Phone, timeout_s: float = 3.0) -> InputProbe:
    """Press home when an app is in front (the home screen coming up is the proof); on the
    home screen, swipe sideways and back (a changed screenshot is the proof).

    Args:
        phone: the phone, through WDA.
        timeout_s: how long each gesture may take to show (animations on a real phone).

    Raises:
        DeviceError: WDA failed a request (unreachable, no session, a screenshot not a PNG).
    """
    with phone.keeping_reads():
        if is_home_screen(phone):  # one source: it names the app in front too
            return _page_sideways(phone, timeout_s)
        was = phone.foreground().bundle_id
        front = _go_home(phone, timeout_s)
        if front != SPRINGBOARD:
            return InputProbe(False, f"input does not reach the screen: home was pressed and "
                                     f"{front} stayed in front")
        if was != SPRINGBOARD:
            return InputProbe(True, f"pressing home put the home screen in front of {was}")
        return _page_sideways(phone, timeout_s)


def _page_sideways(phone: Phone, timeout_s: float) -> InputProbe:
    """Swipe the home screen to a neighbouring page and back; input reaches the screen when
    the screenshot changed."""
    width, height = phone.screen_size()
    y = height // 2
    left, right = (round(width * 0.1), y), (round(width * 0.9), y)
    before = phone.screenshot_png()
    # Right to left shows the next home page (or the App Library on the last); left to right
    # the previous page (or Today View on the first). One of the two moves on any phone. The
    # drags cover 80% of the width: past half, a page turns even without momentum.
    for there, back in ((right, left), (left, right)):
        phone.drag(there, back)
        share = _wait_for_change(phone, before, timeout_s)
        if share > CHANGED_FRACTION:
            phone.drag(back, there)
            restored = wait_until(lambda: screen_difference(before, phone.screenshot_png())
                                  <= CHANGED_FRACTION, timeout_s)
            return InputProbe(True, f"a sideways swipe on the home screen changed {share:.0%} "
                                    "of the screen" + ("" if restored else
                                                       "; the home screen did not look the "
                                                       "same after swiping back"))
    return InputProbe(False, "input does not reach the screen: swipes both ways on the home "
                             "screen left the screenshot unchanged")


def screen_difference(a: bytes, b: bytes) -> float:
    """The share of the screen that differs between two PNG screenshots (0.0 to 1.0).

    Raises:
        DeviceError: either is not a readable image.
    """
    try:
        if a == b:  # a settle or a wait reads an unchanged screen most: decoded once, to be
            with Image.open(io.BytesIO(a)) as one:  # sure it is an image, and not compared
                one.load()
            return 0.0
        with Image.open(io.BytesIO(a)) as one, Image.open(io.BytesIO(b)) as two:
            if one.size != two.size:
                return 1.0
            # Quarter size: fast on a 3x screen, and blind to a pixel of antialiasing.
            size = (max(1, one.width // 4), max(1, one.height // 4))
            small_one = one.convert("L").resize(size, Image.Resampling.BOX)
            small_two = two.convert("L").resize(size, Image.Resampling.BOX)
    except (OSError, ValueError) as exc:
        raise DeviceError(f"a screenshot is not a readable PNG ({exc})") from exc
    moved = ImageChops.difference(small_one, small_two).point(lambda v: 255 if v > 24 else 0)
    return moved.histogram()[255] / (size[0] * size[1])


def _wait_for_change(phone: Phone, before: bytes, timeout_s: float) -> float:
    """Poll screenshots until the screen differs from `before`; return the share changed."""
    share = 0.0

    def changed() -> bool:
        nonlocal share
        share = screen_difference(before, phone.screenshot_png())
        return share > CHANGED_FRACTION

    wait_until(changed, timeout_s)
    return share


def _go_home(phone: Phone, timeout_s: float) -> str:
    """Press home (WDA's route, then the hardware button); return the app then in front."""
    phone.home()
    if phone.poll(lambda: phone.foreground().bundle_id == SPRINGBOARD, timeout_s):
        return SPRINGBOARD
    # /wda/homescreen sometimes does nothing on a real phone; the button press is the fallback.
    phone.press("home")
    phone.poll(lambda: phone.foreground().bundle_id == SPRINGBOARD, timeout_s)
    return phone.foreground().bundle_id


__all__ = ["CHANGED_FRACTION", "InputProbe", "probe_input", "screen_difference"]
