"""Screenshots draw what the screen shows, not what the tree says of it: the status bar that is
visible (SpringBoard's tree holds hidden copies too), and a picker wheel's rows as the wheel
draws them ("7"), not the value VoiceOver speaks ("7 o’clock")."""

from __future__ import annotations

import io

import wda
from PIL import Image, ImageChops

from phoneshell.sim.render import WALLPAPER, wheel_face
from phoneshell.sim.render_text import text_length

SCALE = 3
BLACK = (0, 0, 0)


def shot(client: wda.Client) -> Image.Image:
    return Image.open(io.BytesIO(client.screenshot(format="raw"))).convert("RGB")


def ink_box(image: Image.Image, box: tuple[int, int, int, int], ink: tuple[int, int, int],
            ) -> tuple[int, int, int, int] | None:
    """The bounding box (in `image`'s pixels) of the pixels of colour `ink` inside `box`."""
    part = image.crop(box)
    off = ImageChops.difference(part, Image.new("RGB", part.size, ink)).convert("L")
    found = off.point(lambda v: 255 if v == 0 else 0).getbbox()
    return None if found is None else (found[0] + box[0], found[1] + box[1],
                                       found[2] + box[0], found[3] + box[1])


def test_the_home_screen_draws_its_visible_status_bar_not_a_hidden_card_copy(client):
    client.session("com.apple.mobiletimer")  # running: its switcher card keeps a status bar
    client.home()
    image = shot(client)
    # the time's frame (40-104 x 18-42 points): the wallpaper alone without the status bar
    clock = (40 * SCALE, 18 * SCALE, 104 * SCALE, 42 * SCALE)
    battery = (330 * SCALE, 18 * SCALE, 374 * SCALE, 42 * SCALE)
    for what, box in (("time", clock), ("battery", battery)):
        part = image.crop(box)
        assert ImageChops.difference(part, Image.new("RGB", part.size, WALLPAPER)).getbbox(), (
            f"no {what} drawn over the wallpaper")


def fits(drawn: int, text: str, pt: int) -> bool:
    """Whether ink `drawn` pixels wide is `text` at `pt` points (the font's advance holds a
    little space either side of the ink)."""
    advance = text_length(text, pt * SCALE)
    return 0.6 * advance <= drawn <= advance + 2 * SCALE


def _band(wheel: wda.Element) -> tuple[int, int, int, int]:
    box = wheel.bounds
    middle = box.y + (box.height - 34) // 2
    return (box.x * SCALE, middle * SCALE, (box.x + box.width) * SCALE, (middle + 34) * SCALE)


def _wheels(session: wda.Client) -> list[wda.Element]:
    found = session(className="XCUIElementTypePickerWheel").find_elements()
    return sorted(found, key=lambda e: e.bounds.x)


def test_alarm_wheels_draw_the_numbers_not_the_spoken_values(client):
    clock = client.session("com.apple.mobiletimer")
    clock(name="Alarms").click()
    clock(name="Add").click()
    wheels = _wheels(clock)
    values = [w.value for w in wheels]
    assert "o\u2019clock" in values[0] and "minute" in values[1], values
    image = shot(client)
    for wheel, value in zip(wheels[:2], values[:2], strict=True):
        face, unit = wheel_face(value)
        assert face.isdigit() and not unit, (value, face)
        found = ink_box(image, _band(wheel), BLACK)
        assert found is not None, f"nothing drawn for {value!r}"
        drawn = found[2] - found[0]
        # as wide as the number, far narrower than the spoken value would be
        assert fits(drawn, face, 20), (value, drawn)
        assert drawn < text_length(value, 20 * SCALE) / 2, (value, drawn)


def test_timer_wheels_draw_the_number_with_its_unit_beside(client):
    clock = client.session("com.apple.mobiletimer")
    clock(name="Timers").click()
    wheels = _wheels(clock)
    values = [w.value for w in wheels]
    assert values == ["0 hours", "15 min", "0 sec"], values
    image = shot(client)
    for wheel, value in zip(wheels, values, strict=True):
        face, unit = wheel_face(value)
        assert (face, unit) == tuple(value.split(" ")), value
        left, top, right, bottom = _band(wheel)
        half = left + (right - left) // 2
        number = ink_box(image, (left, top, half, bottom), BLACK)
        beside = ink_box(image, (half, top, right, bottom), BLACK)
        assert number is not None and beside is not None, value
        assert fits(number[2] - number[0], face, 20), value
        assert fits(beside[2] - beside[0], unit, 17), value


def test_other_values_draw_as_they_are():
    assert wheel_face("AM") == ("AM", "")
    assert wheel_face("10 AM") == ("10 AM", "")
    assert wheel_face("01 minutes") == ("01", "")  # the number as the value spells it
    assert wheel_face("07 o\u2019clock") == ("07", "")
    assert wheel_face("1 hour") == ("1", "hour")
