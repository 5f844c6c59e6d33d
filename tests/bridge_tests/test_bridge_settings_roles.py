"""A Settings row's own role decides what a touch on it is (red team 65): an option of a list of
options only in the section of the one row that shows the checkmark, every row there plain (no
chevron, no control of its own); a row of another section, or one the tree cannot place, is
judged as the row it is, whatever checkmark the page shows. The row's own Button is found by
structure, not by a label iOS builds apart from the cell's (the iOS 26 About dump's Capacity).
Settings' own navigation comes before labels written for other surfaces (the share sheet's
AirDrop, the edit menu's Paste). Decision-level on trees shaped as a phone's pages and on the
real dumps (the reference data's ios-sources/); over HTTP in test_bridge_settings_rows.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from bridge.observe import from_xml
from bridge.settings_controls import settings_at
from bridge.targets import node_at, target_in
from phoneshell.lasting import (
    SETTINGS_ACTS,
    SETTINGS_LINK,
    SETTINGS_OPTION,
    SETTINGS_SHOWN,
    outlasts_run,
)
from phoneshell.xcui import SAFARI, SETTINGS, walk

Tree = dict[str, object]


def _rect(y: float, h: float = 52, x: float = 16, w: float = 370) -> dict[str, float]:
    return {"x": x, "y": y, "width": w, "height": h}


def _text(label: str, y: float) -> Tree:
    return {"type": "StaticText", "label": label, "value": label,
            "rect": _rect(y + 15, 22, 32, 200)}


def _check(y: float) -> Tree:
    return {"type": "Button", "label": "checkmark", "name": "checkmark",
            "rect": _rect(y + 16, 20, 340, 20)}


def _chevron(y: float) -> Tree:
    return {"type": "Button", "label": "chevron", "name": "chevron", "traits": "NotEnabled, Button",
            "rect": _rect(y + 18, 15, 351, 11)}


def _info(y: float) -> Tree:
    return {"type": "Button", "label": "More Info", "name": "More Info", "traits": "Button",
            "rect": _rect(y + 15, 22, 340, 22)}


def _cell(label: str, y: float, *kids: Tree, traits: str = "Button") -> Tree:
    return {"type": "Cell", "label": label, "name": label, "traits": traits, "rect": _rect(y),
            "isVisible": "1", "children": [_text(label, y), *kids]}


def _page(title: str, *cells: Tree) -> Tree:
    return {"type": "Application", "rect": _rect(0, 874, 0, 402), "children": [
        {"type": "NavigationBar", "name": title, "rect": _rect(62, 54, 0, 402)},
        {"type": "Table", "rect": _rect(0, 874, 0, 402), "children": list(cells)}]}


def _judge(tree: Tree, node: Tree) -> tuple[str, str, str]:
    """(the option chosen before, the role, why it is refused: "" when forwarded) of a tap at
    the node's centre."""
    rect = node["rect"]
    assert isinstance(rect, dict)
    point = (rect["x"] + rect["width"] / 2, rect["y"] + rect["height"] / 2)
    target = target_in(tree, node)
    role = settings_at(tree, target, point)
    why = outlasts_run("tap", SETTINGS, target.label, page=target.page, name=target.name,
                       target_type=target.type, settings=role, chosen=target.chosen)
    return target.chosen, role, why


def test_a_button_row_of_another_section_is_no_option() -> None:
    """Ringtone on a phone: Tone Store and Download All Purchased Tones sit in their own section
    above the tones; with a tone checked below, a tap on them was taken for a choice."""
    download = _cell("Download All Purchased Tones", 152)
    apex = _cell("Apex", 302)
    tree = _page("Ringtone", _cell("Tone Store", 100), download,
                 _cell("Reflection", 250, _check(250)), apex)
    chosen, role, why = _judge(tree, download)
    assert (chosen, role) == ("", "")
    assert "Cell 'Download All Purchased Tones'" in why
    assert _judge(tree, apex) == ("Reflection", SETTINGS_OPTION, "")


@pytest.mark.parametrize("odd", [
    pytest.param(lambda y: _cell("Custom", y, _chevron(y)), id="a row with a chevron"),
    pytest.param(lambda y: _cell("Other Network", y, _info(y)), id="a row with More Info"),
])
def test_a_section_holding_a_row_that_is_not_plain_is_no_list_of_options(odd) -> None:  # type: ignore[no-untyped-def]
    other = _cell("Cafe Guest", 152)
    tree = _page("Wi-Fi", _cell("HomeNet", 100, _check(100)), other, odd(204))
    chosen, role, why = _judge(tree, other)
    assert chosen == "HomeNet", "the checkmark is in its section"
    assert role != SETTINGS_OPTION and why, (role, why)


def test_several_checkmarks_in_a_section_are_no_single_choice() -> None:
    other = _cell("Oxford Thesaurus", 204)
    tree = _page("Dictionary", _cell("Apple Dictionary", 100, _check(100)),
                 _cell("New Oxford American Dictionary", 152, _check(152)), other)
    chosen, role, why = _judge(tree, other)
    assert (chosen, role) == ("", "") and why


def test_a_touch_on_the_right_or_bottom_edge_of_a_text_is_placed_by_it() -> None:
    """Two texts alike (a link's title, a joinable network's): a touch on the first one's right
    or bottom edge lands on it alone, so its row's role is the touch's, not "" for the pair
    (the frame holds every edge, unlike `Rect.contains`)."""
    link = _cell("Home", 100, _chevron(100))
    tree = _page("Wi-Fi", link, _cell("Home", 300, _info(300)))
    text = link["children"][0]  # type: ignore[index]
    target = target_in(tree, text)
    right, bottom = (32 + 200, 115 + 11), (32 + 100, 115 + 22)
    assert settings_at(tree, target, right) == SETTINGS_LINK
    assert settings_at(tree, target, bottom) == SETTINGS_LINK


def test_a_choice_the_tree_cannot_place_fails_closed() -> None:
    """A tap logged with an option chosen before but no role (an ambiguous settings_at) was
    forwarded as a choice; it is refused, and passes only on an option's own row (or as what
    only shows, which changes nothing)."""
    for under in ("", SETTINGS_ACTS):
        assert outlasts_run("tap", SETTINGS, "Apex", page="Ringtone", name="Apex",
                            target_type="XCUIElementTypeCell", settings=under,
                            chosen="Reflection"), under
    assert outlasts_run("tap", SETTINGS, "Apex", page="Ringtone", name="Apex",
                        target_type="XCUIElementTypeCell", settings=SETTINGS_OPTION,
                        chosen="Reflection") == ""


def test_settings_navigation_comes_before_other_surfaces_labels() -> None:
    """General > AirDrop and an app's Paste from Other Apps are rows with a chevron: they open
    pages. The share sheet's AirDrop and the edit menu's Paste stay refused where they are."""
    for label in ("AirDrop", "Paste from Other Apps"):
        assert outlasts_run("tap", SETTINGS, label, target_type="XCUIElementTypeCell",
                            settings=SETTINGS_LINK) == "", label
        assert outlasts_run("tap", SETTINGS, label, target_type="XCUIElementTypeCell",
                            settings=""), label
    assert "device nearby" in outlasts_run("tap", SAFARI, "AirDrop")
    assert "paste" in outlasts_run("tap", SAFARI, "Paste")


def _dump(path: Path) -> Tree:
    page = from_xml(path.read_text()).page
    assert page is not None and isinstance(page.tree, dict), path
    return page.tree


def test_on_the_about_dump_every_row_is_placed_by_structure(ios_sources: Path) -> None:
    """The dump's Capacity cell is labelled "Capacity, 994, 61 GB", its Button "Capacity,
    994,61 GB": every About row, touched anywhere on it, only shows or opens a page."""
    tree = _dump(ios_sources / "settings-general-about-ios26.2-sim.xml")
    roles: dict[str, set[str]] = {}
    for _, cell in walk(tree):
        if cell.get("type") != "Cell" or cell.get("isVisible") == "0":
            continue
        for _, node in walk(cell):
            if node.get("type") not in ("Cell", "Button", "StaticText"):
                continue  # a separator on the edge lies under the next row too
            rect = node.get("rect")
            assert isinstance(rect, dict)
            x, y = rect["x"] + rect["width"] / 2, rect["y"] + rect["height"] / 2
            hit = node_at(tree, x, y)
            if hit is None:
                continue  # off the screen's part the tree places
            role = settings_at(tree, target_in(tree, hit), (x, y))
            roles.setdefault(str(cell.get("name")), set()).add(role)
    assert roles["User Data Capacity"] == {SETTINGS_SHOWN}
    assert roles["User Data Available"] == {SETTINGS_SHOWN}
    assert roles["SW_VERSION_SPECIFIER"] == {SETTINGS_LINK}
    assert all(found <= {SETTINGS_SHOWN, SETTINGS_LINK} for found in roles.values()), roles
