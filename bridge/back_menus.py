"""Whether a touched element is an item of the back button's history menu, and how many pages
back it goes: what the audit target's `pages_back` says, so a check can count a menu pick of a
page two levels up as two backs (`checks.backs`).

On iOS 14 and later a touch and hold on a navigation bar's back button opens a menu of the pages
behind the one shown, nearest first, each item titled with its page's title; choosing one goes
back to it at once. The page source says so without the hold that opened it: while the menu
shows, no navigation bar is visible (the menu covers the page, `targets.page_title` reads the
covered one), the covered bar's back button is labelled with the page right under it, and that
is the menu's first item. Pure: reads a JSON source, never the phone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bridge.touched import ancestry
from phoneshell.presses import MENUS
from phoneshell.xcui import short_type, walk

BACK_BUTTON = "BackButton"
"""The name iOS gives a navigation bar's back button (as `checks.backs` reads it)."""
LISTS = MENUS | {"CollectionView"}
"""Types that hold a context menu's items: the simulator's `Menu`, and the collection view a
phone may list them in (UIKit draws its menus with one)."""
ITEMS = frozenset({"Button", "MenuItem", "Cell"})
"""Types of a menu's items (a phone's collection view may report its rows as cells)."""


def pages_back(tree: object, node: Mapping[str, object]) -> int:
    """How many pages back choosing `node` goes, if it is (or lies in) an item of the back
    button's history menu shown in `tree`: its place among the menu's items, from 1; 0 for
    anything else. The menu is the list holding `node` whose first item is labelled as the
    back button of the covered navigation bar, shown while no bar is visible."""
    back = _covered_back(tree)
    if not back:
        return 0
    line = ancestry(tree, node)
    for at in range(len(line) - 1, -1, -1):
        if _kind(line[at]) in LISTS and _visible(line[at]):
            items = _items(line[at])
            if not items or _label(items[0]) != back:
                return 0
            item = next((i for i, it in enumerate(items) if any(it is n for n in line)), None)
            return 0 if item is None else item + 1
    return 0


def _covered_back(tree: object) -> str:
    """The label of the back button of the last-drawn navigation bar, when every bar is
    covered (a modal over the page); "" when a bar shows, or the covered one has no back."""
    back = ""
    for _, node in walk(tree):
        if _kind(node) != "NavigationBar":
            continue
        if _visible(node):
            return ""
        button = next((c for _, c in walk(node) if _kind(c) == "Button"
                       and c.get("name") == BACK_BUTTON), None)
        back = "" if button is None else _label(button)
    return back


def _items(menu: Mapping[str, object]) -> Sequence[Mapping[str, object]]:
    """A menu's items in order: its outermost descendants of an item's type."""
    found: list[Mapping[str, object]] = []
    stack: list[object] = list(reversed(_children(menu)))
    while stack:
        node = stack.pop()
        if not isinstance(node, Mapping):
            continue
        if _kind(node) in ITEMS:
            found.append(node)
        else:
            stack.extend(reversed(_children(node)))
    return found


def _children(node: Mapping[str, object]) -> list[object]:
    children = node.get("children")
    return children if isinstance(children, list) else []


def _kind(node: Mapping[str, object]) -> str:
    value = node.get("type")
    return short_type(value) if isinstance(value, str) else ""


def _label(node: Mapping[str, object]) -> str:
    value = node.get("label")
    return value if isinstance(value, str) else ""


def _visible(node: Mapping[str, object]) -> bool:
    return node.get("isVisible") != "0"
