"""Targets in a JSON page source: the focused field, the element under a point, secure fields."""

from __future__ import annotations

import pytest

from bridge.context import context_from_json, make_context
from bridge.targets import (
    MASK,
    chosen_before,
    focused_node,
    input_with_focus,
    is_secure,
    keyboard_at,
    keys_are_secret,
    node_at,
    rect_of,
    target_in,
    to_target,
)
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
    # nothing accessible under the finger: a row's text is the row's (UIKit hands the touch to
    # the cell, which iOS 26 reports as a container)
    hit = node_at(TREE, 70, 315)
    assert hit is not None and to_target(hit) == Target(
        type="XCUIElementTypeCell", label="Wi-Fi", name="com.apple.settings.wifi")
    cell = node_at(TREE, 300, 320)  # inside the cell, beside its text; the hidden twin ignored
    assert cell is not None and cell["name"] == "com.apple.settings.wifi"
    done = node_at(TREE, 360, 810)  # a child outside its zero-size container is still found
    assert done is not None and done["label"] == "Done"
    outside = node_at(TREE, 1000, 1000)
    assert outside is None


def test_a_container_whose_frame_is_not_a_number_still_has_its_children_found() -> None:
    """A view's frame can be NaN on a phone: it holds no point, and the hit test still looks
    below it, as below a zero-size group (its subtree's bound is its children's alone)."""
    nan = float("nan")
    tree = node("Application", 0, 0, 402, 874,
                node("Window", 0, 0, 402, 874,
                     node("Button", 16, 500, 370, 52, label="Under", isAccessible="1"),
                     node("Other", 0, 0, 0, 0,
                          node("Other", nan, nan, nan, nan,
                               node("Button", 350, 800, 40, 40, label="Done",
                                    isAccessible="1")),
                          node("Other", nan, 0, 402, 874))))
    done = node_at(tree, 360, 810)
    assert done is not None and done["label"] == "Done"
    under = node_at(tree, 100, 520)
    assert under is not None and under["label"] == "Under"


def test_a_row_whose_cell_is_a_container_is_what_a_touch_on_it_names() -> None:
    """iOS 26 reports cells as containers (accessible="false") with their texts unspoken, and
    a screen's empty views may lie over them: a touch on the row names its cell, not an empty
    view (the owner's alarm opened in Clock's Edit mode was logged as an unnamed Other, and
    the owner watch missed its save)."""
    frame = (0, 168, 402, 96)
    clock = node("Application", 0, 0, 402, 874, node(
        "Window", 0, 0, 402, 874,
        node("Cell", *frame, node("StaticText", 60, 176, 104, 58, label="9:41",
                                  isAccessible="0"),
             label="9:41 AM, Owner wake", name="9:41 AM, Owner wake", isAccessible="0"),
        node("Other", 0, 0, 402, 874, node("Other", 0, 0, 402, 874, isAccessible="0"),
             isAccessible="0")))
    for x, y in ((201, 216), (100, 200)):
        hit = node_at(clock, x, y)
        assert hit is not None and hit["label"] == "9:41 AM, Owner wake", (x, y, hit)


def test_an_accessible_element_wins_over_the_empty_views_laid_over_it() -> None:
    # The General > About dump's cell: content, then a background view over the whole cell.
    frame = (20, 292, 362, 54)
    about = node("Application", 0, 0, 402, 874, node(
        "Cell", *frame, node("Other", *frame, node("StaticText", 36, 308, 113, 22,
                                                   label="Model Number", isAccessible="0")),
        node("Other", *frame, node("Other", *frame)),
        label="Model Number, A3256LL/A", name="ProductModel", isAccessible="1"))
    hit = node_at(about, 300, 318)
    assert hit is not None and hit["name"] == "ProductModel"
    text = node_at(about, 40, 318)  # on the title: still the cell VoiceOver reads
    assert text is not None and text["name"] == "ProductModel"


def test_the_focused_field_and_secure_masking() -> None:
    field = focused_node(TREE)
    assert field is not None and is_secure(field)
    assert to_target(field) == Target(type="XCUIElementTypeSecureTextField", name="pass",
                                      value=MASK)
    assert not is_secure(node("TextField", 0, 0, 1, 1))
    assert is_secure(node("TextField", 0, 0, 1, 1, isSecure="1"))
    assert focused_node(node("Application", 0, 0, 1, 1)) is None


def keyboard_over(field: dict[str, object], *more: dict[str, object]) -> dict[str, object]:
    return node("Application", 0, 0, 402, 874, node("Window", 0, 0, 402, 874, field, *more),
                node("Keyboard", 0, 583, 402, 291,
                     node("Key", 224, 645, 34, 42, label="h", name="h"),
                     node("Button", 300, 800, 90, 42, label="Go", name="Go")))


def test_a_key_is_masked_unless_a_plain_field_is_known_to_have_focus() -> None:
    plain = keyboard_over(node("TextField", 16, 150, 370, 44, name="user", isFocused="1"))
    secret = keyboard_over(node("SecureTextField", 16, 210, 370, 44, name="pw", isFocused="1"))
    unknown = keyboard_over(node("TextField", 16, 150, 370, 44, name="user"))
    masked = Target(type="XCUIElementTypeKey", label=MASK, name=MASK, value=MASK, keyboard=True)
    key = node_at(plain, 240, 660)
    assert key is not None
    assert target_in(plain, key) == Target(type="XCUIElementTypeKey", label="h", name="h",
                                           keyboard=True)
    assert (keys_are_secret(plain), keys_are_secret(secret), keys_are_secret(unknown)) == (
        False, True, True)
    assert target_in(secret, key) == target_in(unknown, key) == masked
    field = node_at(plain, 100, 170)  # only keys are masked by focus; fields keep their names
    assert field is not None and target_in(secret, field).name == "user"
    attributes = {"type": "XCUIElementTypeKey", "label": "h", "name": "h", "value": None}
    assert to_target(attributes, secret=True) == masked  # an element's attributes read alike


def test_the_keyboards_return_button_is_told_from_a_button_so_labelled_elsewhere() -> None:
    """iOS draws the Return key as a Button inside the Keyboard ("Go"); a Done or Go button of
    the app's own (a tab overview's Done) sends nothing typed, and the log must tell them
    apart, by where they sit, whether tapped at a point or named by id."""
    tree = keyboard_over(node("TextField", 16, 150, 370, 44, name="url", isFocused="1"),
                         node("Button", 300, 60, 80, 44, label="Go", name="Go"))
    ours, theirs = node_at(tree, 340, 820), node_at(tree, 340, 80)
    assert ours is not None and theirs is not None
    assert target_in(tree, ours).keyboard and not target_in(tree, theirs).keyboard
    assert keyboard_at(tree, 345, 821) and not keyboard_at(tree, 340, 82)
    assert not target_in(tree, node_at(tree, 100, 170)).keyboard  # type: ignore[arg-type]


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


def test_a_target_names_the_page_it_is_on_by_the_navigation_bar_drawn_last() -> None:
    switch = node("Switch", 16, 300, 370, 52, label="Reduce Motion", value="0")
    page = node("Application", 0, 0, 402, 874,
                node("NavigationBar", 0, 62, 402, 54, name="Motion"),
                node("NavigationBar", 0, 62, 402, 54, name="Accessibility", isVisible="0"),
                switch)
    assert target_in(page, switch).page == "Motion"  # the bar still in the tree is not shown
    sheet = dict(page, children=[*page["children"],  # type: ignore[misc]
                                 node("NavigationBar", 0, 400, 402, 54, name="Share")])
    assert target_in(sheet, switch).page == "Share"
    assert target_in(TREE, switch).page == ""  # no bar: no page


def option(title: str, y: int, chosen: bool = False) -> dict[str, object]:
    """A cell of a list of options as Settings draws it: the chosen one holds the checkmark."""
    mark = (node("Button", 346, y + 16, 20, 20, label="checkmark", name="checkmark",
                 isAccessible="0"),) if chosen else ()
    return node("Cell", 20, y, 362, 52,
                node("Other", 20, y, 362, 52, node("StaticText", 36, y + 15, 90, 22,
                                                   label=title, isAccessible="0")),
                *mark, label=title, name=title, isAccessible="1")


def test_a_tap_in_a_list_of_options_names_the_option_chosen_before() -> None:
    never, minute = option("Never", 133, chosen=True), option("1 minute", 186)
    page = node("Application", 0, 0, 402, 874,
                node("NavigationBar", 0, 62, 402, 54, name="Auto-Lock"),
                node("Table", 0, 116, 402, 758, node("Other", 0, 116, 402, 17), never, minute))
    hit = node_at(page, 200, 210)
    assert hit is minute
    assert (target_in(page, minute).chosen, target_in(page, minute).page) == ("Never",
                                                                              "Auto-Lock")
    assert target_in(page, never).chosen == "Never"  # the chosen one itself: no change
    inside = minute["children"][0]  # type: ignore[index]
    assert chosen_before(page, inside) == "Never"  # a text inside the row: the same list
    # no checkmark, two of them (several chosen), or no row: no option is named
    plain = node("Table", 0, 116, 402, 758, option("Wi-Fi", 133), option("Bluetooth", 186))
    assert target_in(plain, plain["children"][0]).chosen == ""  # type: ignore[index]
    both = node("Table", 0, 116, 402, 758, option("A", 133, True), option("B", 186, True))
    assert chosen_before(both, both["children"][1]) == ""  # type: ignore[index]
    assert target_in(TREE, TREE).chosen == ""


def xml_shaped(*inputs: dict[str, object], keyboard: bool = True) -> dict[str, object]:
    """A tree as an XML source gives it: no node says which has focus."""
    kids = [{k: v for k, v in field.items() if k != "isFocused"} for field in inputs]
    if keyboard:
        kids.append(node("Keyboard", 0, 560, 402, 300, node("Key", 10, 600, 30, 40, label="a")))
    return node("Application", 0, 0, 402, 874, node("Window", 0, 0, 402, 874, *kids))


def test_an_xml_tree_tells_the_focus_only_by_its_one_input_under_a_keyboard() -> None:
    search = node("SearchField", 16, 150, 370, 36, name="Search")
    found = input_with_focus(xml_shaped(search), focus_known=False)
    assert found is not None and found["name"] == "Search"
    secret = input_with_focus(xml_shaped(node("SecureTextField", 16, 200, 370, 36, name="pw")),
                              focus_known=False)
    assert secret is not None and is_secure(secret)  # so its typing is masked
    # two inputs: either may have it; no keyboard: none has it
    assert input_with_focus(xml_shaped(search, node("SecureTextField", 16, 200, 370, 36)),
                            focus_known=False) is None
    assert input_with_focus(xml_shaped(search, keyboard=False), focus_known=False) is None
    # a JSON tree says: the flagged one, however many there are
    assert input_with_focus(TREE, focus_known=True) == focused_node(TREE)
