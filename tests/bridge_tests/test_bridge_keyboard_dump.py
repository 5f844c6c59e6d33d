"""Where the keyboard is, on a real iPhone's tree (iOS 26 dumps, tests/keyboard_dump.py): its
window is full-screen and its "inputView" empty and hidden, so neither tells."""

from __future__ import annotations

from keyboard_dump import node, phone_tree

from bridge.targets import in_keyboard, keyboard_at, node_at

FIELD = node("TextField", 17, 383, 368, 44, name="username", isAccessible="1", isFocused="1")
GO = node("Button", 16, 100, 80, 44, name="Go", label="go", isAccessible="1")


def test_the_keyboards_parts_are_found_on_a_real_tree() -> None:
    tree = phone_tree(FIELD, GO, return_name="Go")
    for point in ((350, 779), (78, 779), (42, 840), (359, 840), (359, 874), (200, 570)):
        hit = node_at(tree, *point)
        assert hit is not None and in_keyboard(tree, hit), point
        assert keyboard_at(tree, *point), point
    for point in ((56, 122), (200, 405), (200, 300)):  # the app's own Go button, its field
        hit = node_at(tree, *point)
        assert hit is not None and not in_keyboard(tree, hit), point
        assert not keyboard_at(tree, *point), point


def test_no_keyboard_no_keyboard_area() -> None:
    """The hidden window's "inputView" alone is no keyboard (the field lost its focus)."""
    tree = phone_tree(FIELD)
    tree["children"] = tree["children"][:2]
    assert not keyboard_at(tree, 200, 700)
