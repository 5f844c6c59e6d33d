"""Text of any length costs what shows of it: screenshots, typing and finds stay quick.

The time bounds here are generous ceilings on pathological slowness (the cases measured
minutes, or crashed, before), not timed performance tests: each answers in well under a
second on a laptop.
"""

from __future__ import annotations

import base64
import io
import time
from collections.abc import Callable
from typing import Any

import pytest
import wda
from PIL import Image, ImageChops

from phoneshell.sim import DeviceFacts, SimServer, layout, render
from phoneshell.sim.apps.notes_edit import TEXT_FRAME, word_spans
from phoneshell.sim.ui import EditText, Node, Rect, Screen, Wheel

SLOW_S = 5.0
"""Longer than this is the quadratic (or worse) cost the tests guard against."""
FACTS = DeviceFacts()
SCREEN_PX = (1206, 2622)
NOTES = "com.apple.mobilenotes"
LONG_TEXTS = {"50,000 short words": "ab " * 50_000, "one 300,000-character word": "x" * 300_000}


def _timed_screenshot(raw: Callable[..., Any]) -> tuple[float, Image.Image]:
    start = time.monotonic()
    answer = raw("GET", "/screenshot")
    elapsed = time.monotonic() - start
    return elapsed, Image.open(io.BytesIO(base64.b64decode(answer.value)))


@pytest.mark.parametrize("text", LONG_TEXTS.values(), ids=LONG_TEXTS.keys())
def test_a_huge_note_is_drawn_quickly_opened_and_in_the_list(client: wda.Client, raw, text):
    notes = client.session(NOTES)
    notes(label="New Note").click()
    start = time.monotonic()
    notes.send_keys(text)
    assert time.monotonic() - start < SLOW_S, "typing is linear in the text's length"
    for where in ("opened", "done", "list"):
        if where == "done":
            notes(label="Done").click()
        elif where == "list":
            notes(name="BackButton").click()
        elapsed, image = _timed_screenshot(raw)
        assert elapsed < SLOW_S, f"the screenshot {where} took {elapsed:.1f} s"
        assert image.size == SCREEN_PX
    assert notes(labelContains=text[:40]).exists


def test_typing_two_million_characters_takes_a_moment(client: wda.Client, raw):
    notes = client.session(NOTES)
    notes(label="New Note").click()
    start = time.monotonic()
    answer = raw("POST", f"/session/{notes.session_id}/wda/keys", {"value": ["ab " * 700_000]})
    assert answer.status == 200
    assert time.monotonic() - start < SLOW_S
    assert len(notes(className="TextView").get(timeout=1).value) == 2_100_000


def _every_kind(label: str) -> Node:
    """One node of every kind the screenshot draws text for, each labelled `label`."""
    field = EditText(placeholder="Search", text=label, focused=True)
    view = EditText(multiline=True, text=label, focused=True)
    wheel = Wheel((label, label, label), index=1)
    kids = (
        layout.nav_bar(FACTS, label, back=label, on_back=None, large=True),
        layout.text(label, Rect(16, 180, 370, 22)),
        Node("Other", Rect(0, 210, 402, 40), label=label, accessible=True),
        layout.button(label, Rect(16, 250, 120, 44), None),
        layout.button(label, Rect(160, 250, 80, 80), None),
        Node("Button", Rect(16, 300, 120, 44), label=label, traits="StaticText"),
        layout.search_field(field, Rect(16, 340, 370, 36)),
        layout.text_field(EditText(text=label), Rect(16, 380, 370, 36)),
        layout.text_field(view, Rect(16, 420, 370, 120)),
        Node("PickerWheel", Rect(16, 540, 370, 160), value=wheel.value, wheel=wheel),
        Node("Icon", Rect(16, 700, 76, 90), label=label, name=label),
        Node("Image", Rect(100, 700, 280, 60), pixels_text=label),
        Node("Key", Rect(300, 800, 40, 42), label=label),
        layout.alert(FACTS, label, label, [(label, lambda: None), ("OK", lambda: None)]),
        layout.sheet(FACTS, label, [(label, lambda: None)], lambda: None),
    )
    return Node("Application", Rect(0, 0, FACTS.width, FACTS.height), children=kids)


@pytest.mark.parametrize("text", [*LONG_TEXTS.values(), "é→ " * 100_000, "\n" * 300_000],
                         ids=[*LONG_TEXTS.keys(), "non-ASCII words", "empty lines"])
@pytest.mark.slow  # 1.5 s measured: the README's command stays quick
def test_every_kind_of_text_draws_huge_text_quickly(text):
    start = time.monotonic()
    image = Image.open(io.BytesIO(render.png(Screen.of(_every_kind(text), "x", 1), FACTS)))
    assert time.monotonic() - start < SLOW_S
    assert image.size == SCREEN_PX


def _ink(image: Image.Image, box: tuple[int, int, int, int]) -> bool:
    part = image.convert("RGB").crop(box)
    return ImageChops.difference(part, Image.new("RGB", part.size, (242, 242, 247))
                                 ).getbbox() is not None


def test_a_word_wider_than_its_frame_is_broken_over_lines():
    frame = Rect(16, 300, 200, 300)
    root = Node("Application", Rect(0, 0, FACTS.width, FACTS.height),
                children=(layout.text("W" * 60, frame),))
    image = Image.open(io.BytesIO(render.png(Screen.of(root, "x", 1), FACTS)))
    s = FACTS.scale
    assert _ink(image, (16 * s, 300 * s, 216 * s, 600 * s))
    assert not _ink(image, (216 * s + 2, 300 * s, 402 * s, 600 * s)), "nothing past the frame"


def test_holding_any_line_of_a_broken_word_selects_all_of_it(sim: SimServer, client, raw):
    word = "abcdefghij" * 12
    text = f"Title\n{word} tail"
    notes = client.session(NOTES)
    notes(label="New Note").click()
    notes.send_keys(text)
    notes(label="Done").click()
    pieces = [r for start, _, r in word_spans(text, TEXT_FRAME) if start == 6]
    assert len(pieces) > 1, "the word is drawn over several lines"
    notes.tap_hold(*pieces[1].center, 1.0)
    notes(label="Copy").click()
    assert sim.state()["stores"]["com.apple.pasteboard"]["text"] == word


@pytest.mark.slow  # 2.8 s measured: the README's command stays quick
def test_an_xpath_find_reads_a_note_longer_than_lxml_takes_by_default(client: wda.Client, raw):
    notes = client.session(NOTES)
    notes(label="New Note").click()
    # 12.5 MB of text, escaped to 32 MB in the source: libxml2 refuses over 10 MB unless told
    raw("POST", f"/session/{notes.session_id}/wda/keys", {"value": ["line\n" * 2_500_000]})
    assert notes(xpath="//XCUIElementTypeTextView").exists
