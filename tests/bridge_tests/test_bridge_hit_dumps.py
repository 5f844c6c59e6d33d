"""The bridge's hit test on real iPhone trees (the reference data's ios-sources/, and the iOS 26
keyboard of tests/keyboard_dump.py): what a touch is logged as (`node_at`, then `blocker`, as
`Aiming._aim_at` names it) is what a phone hands the touch to.

* iOS 26 names its visible scroll indicators ("Vertical scroll bar, 2 pages", over a list's
  right edge): a name is no sign of a panel, and a tap on a row's right side opens the row.
* The share sheet's popover lies over a full-screen "PopoverDismissRegion": a touch outside
  the popover closes it, whatever lies beneath.
* The share sheet reports its remote contents in the popover's own coordinates (from 0,0 while
  the popover sits at 9,477): such frames name no touch (a touch at (60, 300), on the dismiss
  region, was logged as the Copy cell).
* The keyboard's globe and dictation buttons lie in its area beside the Keyboard, inside the
  Keyboard's frame: a touch on one is that button's, not a bare `Keyboard`'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest
from keyboard_dump import node, phone_tree

from bridge.hits import blocker
from bridge.observe import from_xml
from bridge.targets import node_at
from phoneshell.xcui import walk


def _tree(path: Path) -> object:
    tree = from_xml(path.read_text()).page
    assert tree is not None, path
    return tree.tree


def _logged(tree: object, x: float, y: float) -> Mapping[str, object]:
    found = node_at(tree, x, y)
    assert found is not None, (x, y)
    return blocker(tree, found, x, y) or found


@pytest.mark.parametrize(("dump", "point", "row"), [
    ("settings-root-ios26.2-sim.xml", (380, 382), "com.apple.settings.general"),
    ("settings-root-ios26.2-sim.xml", (375, 170), "com.apple.settings.primaryAppleAccount"),
    ("safari-start-page-ios26.2-sim.xml", (380, 450), "favoritesItemIdentifierContent"),
    ("safari-start-page-ios26.2-sim.xml", (380, 82),
     "onboardingItemIdentifierContent-CustomizeStartPage"),
])
def test_a_tap_on_a_visible_scroll_indicator_is_the_rows(ios_sources: Path, dump: str,
                                                         point: tuple[int, int], row: str) -> None:
    logged = _logged(_tree(ios_sources / dump), *point)
    assert logged.get("name") == row, (point, logged.get("type"), logged.get("name"))


@pytest.mark.slow  # 4.8 s measured: the README's command stays quick
def test_no_point_of_a_visible_scroll_indicator_is_logged_as_it(
        ios_dumps: tuple[Path, ...]) -> None:
    seen = 0
    for dump in ios_dumps:
        tree = _tree(dump)
        bars = [n["rect"] for _, n in walk(tree) if "scroll bar" in str(n.get("name"))
                and n.get("isVisible") != "0" and isinstance(n.get("rect"), Mapping)]
        for r in bars:
            for x in range(int(r["x"]), int(r["x"] + r["width"]), 7):
                for y in range(int(r["y"]), int(r["y"] + r["height"]), 37):
                    seen += 1
                    name = str(_logged(tree, x, y).get("name") or "")
                    assert "scroll bar" not in name, (dump.name, x, y, name)
    assert seen > 100  # the dumps show some


SHARE = "safari-squoosh-share-sheet-ios26.xml"
POPOVER = (9, 477, 384, 388)


@pytest.mark.parametrize("point", [(60, 300), (150, 300), (200, 40), (5, 870), (397, 600),
                                   (210, 408), (200, 350)])  # the page's Paste, its button
def test_a_tap_outside_the_share_popover_is_the_dismiss_regions(ios_sources: Path,
                                                                point: tuple[int, int]) -> None:
    logged = _logged(_tree(ios_sources / SHARE), *point)
    assert (logged.get("name"), logged.get("label")) == ("PopoverDismissRegion",
                                                        "dismiss popup"), point


@pytest.mark.slow  # 4.8 s measured: the README's command stays quick
def test_frames_in_the_popovers_own_coordinates_name_no_touch(ios_sources: Path) -> None:
    """Inside the popover a touch is logged as no element of its remote contents (their frames
    say nothing of where they are on screen): never a cell, a button or a caption."""
    tree = _tree(ios_sources / SHARE)
    remote = {id(n) for _, n in walk(tree) if n.get("name") == "ShareSheet.RemoteContainerView"}
    inside = {id(m) for _, n in walk(tree) if id(n) in remote for _, m in walk(n)}
    x0, y0, w, h = POPOVER
    for x in range(x0 + 2, x0 + w, 19):
        for y in range(y0 + 2, y0 + h, 23):
            logged = _logged(tree, x, y)
            assert logged.get("type") in ("Other", "XCUIElementTypeOther"), (x, y, logged)
            assert not logged.get("name") or id(logged) not in inside, (x, y, logged)
            assert not logged.get("label"), (x, y, logged)


FIELD = node("TextField", 17, 383, 368, 44, name="username", isAccessible="1", isFocused="1")


@pytest.mark.parametrize(("point", "name"), [((42, 810), "Next keyboard"),
                                             ((359, 810), "dictation")])
def test_the_globe_and_dictation_are_logged_as_themselves(point: tuple[int, int],
                                                          name: str) -> None:
    logged = _logged(phone_tree(FIELD), *point)
    assert (logged.get("type"), logged.get("name")) == ("Button", name), logged
