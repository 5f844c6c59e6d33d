"""Screenshots are PNG wireframes at device pixels, showing what the screen shows."""

from __future__ import annotations

import base64
import io

import wda
from PIL import Image, ImageChops

from phoneshell.sim import DeviceFacts, render
from phoneshell.sim.render import printable
from phoneshell.sim.ui import Node, Rect, Screen


def test_screenshot_is_a_png_at_device_pixels(client):
    image = client.screenshot()
    assert image.size == (1206, 2622)
    data = client.screenshot(format="raw")
    assert data.startswith(b"\x89PNG\r\n\x1a\n")


def test_screenshot_follows_the_screen(client, app):
    home = client.screenshot()
    app.app_launch("com.apple.Preferences")
    settings = client.screenshot()
    assert ImageChops.difference(home, settings).getbbox() is not None
    app(className="SearchField").click()  # the keyboard comes up
    with_keyboard = client.screenshot()
    bottom = (0, 2622 - 800, 1206, 2622)
    assert ImageChops.difference(settings.crop(bottom), with_keyboard.crop(bottom)).getbbox()


def test_pixels_only_text_is_drawn_but_not_in_the_source(probe_sim):
    client = wda.Client(probe_sim.url)
    client.session("com.example.probe")
    assert "SEVEN" not in client.source()
    assert "SEVEN" not in str(client.source(format="json"))
    facts = DeviceFacts()
    frame = Rect(16, 300, 370, 60)

    def shot(pixels: str | None) -> Image.Image:
        root = Node("Application", Rect(0, 0, 402, 874), children=(
            Node("StaticText", frame, name="probe-image", pixels_text=pixels),))
        return Image.open(io.BytesIO(render.png(Screen.of(root, "x", 1), facts)))

    assert ImageChops.difference(shot("SEVEN").convert("RGB"),
                                 shot(None).convert("RGB")).getbbox() is not None


def test_screenshot_route_matches_the_client(raw, client):
    decoded = Image.open(io.BytesIO(base64.b64decode(raw("GET", "/screenshot").value)))
    assert decoded.size == client.screenshot().size


def test_text_the_font_lacks_is_drawn_as_near_ascii():
    assert printable("7 × 3 ÷ 1 − 2") == "7 x 3 / 1 - 2"
    assert printable("Café") == "Cafe"
    assert printable("plain") == "plain"


def test_text_with_line_breaks_is_drawn_line_by_line(client, app):
    # a footer of two paragraphs (VoiceOver's) failed every screenshot of its page
    facts = DeviceFacts()

    def shot(label: str) -> Image.Image:
        root = Node("Application", Rect(0, 0, 402, 874), children=(
            Node("Other", Rect(16, 300, 370, 120), label=label, accessible=True),))
        return Image.open(io.BytesIO(render.png(Screen.of(root, "x", 1), facts)))

    two = shot("First paragraph.\nSecond paragraph.")
    assert ImageChops.difference(two.convert("RGB"), shot("First paragraph.").convert("RGB")
                                 ).getbbox() is not None, "the second line is drawn too"
    app.app_launch("com.apple.Preferences")
    app(name="Accessibility").click()
    app(name="VoiceOver").click()
    assert client.screenshot().size == (1206, 2622)
