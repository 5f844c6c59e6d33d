"""Targets in a JSON page source: the focused field, the element under a point, secure fields."""

from __future__ import annotations

import pytest

from bridge.context import context_from_json, make_context
from bridge.targets import MASK, focused_node, is_secure, node_at, rect_of, to_target
from phoneshell.audit import Target
from phoneshell.errors import BridgeError


def node(kind: str, x: int, y: int, w: int, h: int, *children: dict[str, object],
         **attrs: object) -> dict[str, object]:
    found: dict[str, object] = {"type": kind, "rect": {"x": x, "y": y, "width": w, "height": h},
                                "isVisible": "1", "isFocused": "0", **attrs}
    if children:
        found["children"] = list(children)
    return found


TREE = node("Application", 0, 0, 402, 874,
            node("Window", 0, 0, 402, 874,
                 node("Cell", 16, 300, 370, 52,
                      node("StaticText", 60, 311, 45, 21, label="Wi-Fi", name="Wi-Fi",
                           value="Wi-Fi"),
                      label="Wi-Fi", name="com.apple.settings.wifi"),
                 node("TextField", 16, 150, 370, 36, name="user", value="alice"),
                 node("SecureTextField", 16, 200, 370, 36, name="pass", value="\u2022\u2022",
                      isFocused="1"),
                 node("Button", 16, 300, 370, 52, label="hidden", isVisible="0"),
                 node("Other", 0, 0, 0, 0, node("Button", 350, 800, 40, 40, label="Done"))))


def test_the_deepest_visible_element_under_a_point() -> None:
    hit = node_at(TREE, 70, 315)
    assert hit is not None and to_target(hit) == Target(
        "XCUIElementTypeStaticText", label="Wi-Fi", name="Wi-Fi", value="Wi-Fi")
    cell = node_at(TREE, 300, 320)  # inside the cell, beside its text; the hidden twin ignored
    assert cell is not None and cell["name"] == "com.apple.settings.wifi"
    done = node_at(TREE, 360, 810)  # a child outside its zero-size container is still found
    assert done is not None and done["label"] == "Done"
    outside = node_at(TREE, 1000, 1000)
    assert outside is None


def test_the_focused_field_and_secure_masking() -> None:
    field = focused_node(TREE)
    assert field is not None and is_secure(field)
    assert to_target(field) == Target("XCUIElementTypeSecureTextField", name="pass", value=MASK)
    assert not is_secure(node("TextField", 0, 0, 1, 1))
    assert is_secure(node("TextField", 0, 0, 1, 1, isSecure="1"))
    assert focused_node(node("Application", 0, 0, 1, 1)) is None


def test_rects_are_read_strictly() -> None:
    rect = rect_of({"x": 20, "y": 200, "width": 350, "height": 50})
    assert rect is not None and rect.centre == (195, 225)  # facebook-wda's integer centre
    assert rect_of({"x": "1"}) is None and rect_of(None) is None


def test_a_context_is_checked_before_it_names_a_folder() -> None:
    ctx = context_from_json({"run_id": "R-1", "task_id": "t", "attempt": 1, "phase": "probe"})
    assert ctx.to_json() == {"run_id": "R-1", "task_id": "t", "attempt": 1, "phase": "probe"}
    for bad in ({"run_id": "../x", "phase": "agent"}, {"run_id": "unscoped", "phase": "agent"},
                {"run_id": "r", "phase": "unscoped"}, {"run_id": "r"},
                {"run_id": "r", "phase": "agent", "colour": "red"},
                {"run_id": "r", "phase": "agent", "attempt": True}, ["r"]):
        with pytest.raises(BridgeError):
            context_from_json(bad)
    with pytest.raises(BridgeError, match="phase"):
        make_context("r", "t", 1, "grading")
