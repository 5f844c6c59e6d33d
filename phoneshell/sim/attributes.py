"""WDA's element attributes as read from a node: one table behind predicates, class chains,
the `attribute/:name` route, the page source and xpath, so no reader knows a name another
refuses or reads a value another reads otherwise.

The names are the FBElement protocol's `wd` properties, by their short alias (`label`) or their
`wd` name (`wdLabel`), case as written (FBElementUtils' `wdAttributeNameForAttributeName`).
"""

from __future__ import annotations

from collections.abc import Callable

from phoneshell.sim import covers
from phoneshell.sim.ui import Node, Screen
from phoneshell.sim.wire import WdaError

On = Screen | None
"""The screen a node is read on, for the attributes that depend on more than the node (its
`index`, whether it is `hittable`); None where no attribute is read (a predicate's constant)."""
Attribute = str | int | None | dict[str, int]
"""An element attribute's value as WDA gives it: a text, a number (a flag is 0 or 1), nil, or
a rect's dictionary."""


def _rect(node: Node) -> dict[str, int]:
    f = node.reported
    return {"x": f.x, "y": f.y, "width": f.width, "height": f.height}


def _index(node: Node, on: On) -> int:
    """`node`'s index among its parent's children on `on` (0 without a screen)."""
    if on is None:
        return 0
    return on.derived("indexes", lambda: indexes(on.root)).get(id(node), 0)


def _hittable(node: Node, on: On) -> bool:
    """XCTest's `isHittable` (`covers.hits`): worked out for the whole screen the first time
    any element's is asked for, never while the screen is only read or drawn."""
    if on is None or not (node.visible and node.enabled):
        return False
    return id(node) in on.derived("hits", lambda: covers.hits(on.root))


_ATTRIBUTES: dict[str, Callable[[Node, On], Attribute]] = {
    "name": lambda n, _: n.name, "label": lambda n, _: n.label, "value": lambda n, _: n.value,
    "type": lambda n, _: n.wd_type, "placeholderValue": lambda n, _: n.placeholder,
    "traits": lambda n, _: n.trait_text, "UID": lambda n, _: None,
    "minValue": lambda n, _: None, "maxValue": lambda n, _: None,
    "customActions": lambda n, _: None,
    "enabled": lambda n, _: int(n.enabled), "visible": lambda n, _: int(n.visible),
    "accessible": lambda n, _: int(n.is_accessible), "selected": lambda n, _: int(n.selected),
    "focused": lambda n, _: int(n.focused),
    "hittable": lambda n, on: int(_hittable(n, on)),
    "accessibilityContainer": lambda n, _: int(n.holds_accessible),
    "index": lambda n, on: _index(n, on),
    "rect": lambda n, _: _rect(n), "frame": lambda n, _: _rect(n),
    "nativeFrame": lambda n, _: _rect(n),
}
"""WDA's element attributes (the FBElement protocol's `wd` properties) by their short alias.

`accessibilityContainer` is WDA's `isWDAccessibilityContainer` (FBXCElementSnapshotWrapper+
Helpers): whether any child is an accessibility element or, in turn, such a container, so
whether an accessible element lies anywhere below (`Node.holds_accessible`): a cell holding a
switch, a list, a window, the application; never an accessible element itself, whose insides
UIKit does not expose, nor a leaf. It is no attribute of either page source."""
_KEYS = {**{a: a for a in _ATTRIBUTES},
         **{"wd" + (a if a == "UID" else a[0].upper() + a[1:]): a for a in _ATTRIBUTES}}
"""Every key WDA accepts (alias and `wd` name, case-sensitive), to its alias."""


def attribute_alias(name: str) -> str:
    """The short alias of a WDA element attribute name (`wdLabel` -> `label`), as FBElementUtils'
    `wdAttributeNameForAttributeName` looks it up for a predicate, a class chain and the
    `attribute/:name` route alike: one table, so no route knows a name another refuses.

    Raises:
        WdaError: a name WDA does not know ("The attribute 'x' is unknown").
    """
    alias = _KEYS.get(name)
    if alias is None:
        raise WdaError("unknown error", f"The attribute '{name}' is unknown. Valid attribute "
                                        f"names are: ({', '.join(sorted(_KEYS))})")
    return alias


def attribute_value(node: Node, alias: str, on: On) -> Attribute:
    """An element attribute's value as WDA's FBElement gives it (`alias`: as `attribute_alias`
    names it; `on`: the screen `node` is on): the one reading behind predicates, class chains,
    `attribute/:name` and xpath."""
    return _ATTRIBUTES[alias](node, on)


def indexes(root: Node) -> dict[int, int]:
    """Every node's index among its parent's children, below `root` (WDA's `index`)."""
    found: dict[int, int] = {}
    stack = [root]
    while stack:
        node = stack.pop()
        for at, child in enumerate(node.children):
            found[id(child)] = at
        stack.extend(node.children)
    return found
