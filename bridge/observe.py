"""What a read shows of the phone: the front app, the page tree, a digest of the screen.

Pure: turns the answer to a read (the bridge's own, or a client's passing through it) into an
`Observation`. Real WDA's facts (notes/wda-stack.md §2): `/wda/activeAppInfo` names the front
app; the XML source names it too, on the application node (`bundleId`), but carries no focus;
the JSON source carries `isFocused` but no bundle id. So an XML source gives the app, the tree
for hit-testing and a digest; a JSON source the tree with focus and a digest.

The digest hashes what a person would call the screen: each node's type, name, label, value
and frame, the status bar left out (its clock moves on its own). The XML and JSON sources of one
screen give the same digest.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass

from lxml import etree

from phoneshell.xcui import short_type, walk

APP_INFO_ROUTE = "/wda/activeAppInfo"
XML_ROUTE = "/source"
JSON_ROUTE = "/source?format=json"
_ROOT_BUNDLE = re.compile(rb'<XCUIElementTypeApplication\b[^>]*?\sbundleId="([^"]*)"')
_XML_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)
DIGEST_CHARS = 16
SKIPPED_TYPES = frozenset({"StatusBar"})
"""Subtrees the digest leaves out: they change without anyone acting."""

Tree = Mapping[str, object]


@dataclass(frozen=True)
class Observation:
    """What one read showed ("" and None for what it could not show)."""

    app: str = ""
    """The front app's bundle id."""
    screen: str = ""
    """A digest of the screen."""
    tree: Tree | None = None
    """The page tree in the JSON source's shape (short types, `rect`, "1"/"0" flags)."""
    focus_known: bool = False
    """The tree says which field has focus (only the JSON source does)."""

    @property
    def empty(self) -> bool:
        """Nothing was learnt."""
        return not (self.app or self.screen or self.tree is not None)


def _value(reply_body: bytes) -> object:
    try:
        data = json.loads(reply_body)
    except (ValueError, RecursionError):
        return None
    return data.get("value") if isinstance(data, dict) else None


def _number(text: str | None) -> float:
    try:
        return float(text) if text is not None else 0.0
    except ValueError:
        return 0.0


def _from_xml_node(element: etree._Element) -> dict[str, object]:
    """One XML element as a JSON-source node (the shape `bridge.targets` reads)."""
    get = element.get
    node: dict[str, object] = {
        "type": short_type(get("type") or str(element.tag)),
        "name": get("name"), "label": get("label"), "value": get("value"),
        "rect": {k: _number(get(k)) for k in ("x", "y", "width", "height")},
        "isEnabled": "1" if get("enabled") == "true" else "0",
        "isVisible": "1" if get("visible") == "true" else "0",
    }
    return node


def tree_from_xml(xml: str) -> Tree | None:
    """The XML page source as a JSON-source tree; None when it does not parse (a cut-off read)."""
    try:
        root = etree.fromstring(xml.encode("utf-8"), _XML_PARSER)
    except (etree.XMLSyntaxError, ValueError):
        return None
    top = _from_xml_node(root)
    stack = [(root, top)]
    while stack:  # iterative: real sources nest deep
        element, node = stack.pop()
        children = [_from_xml_node(child) for child in element if isinstance(child.tag, str)]
        if children:
            node["children"] = children
            stack.extend(zip((c for c in element if isinstance(c.tag, str)), children,
                             strict=True))
    return top


def digest(tree: Tree) -> str:
    """A short digest of a screen (see the module docstring)."""
    hasher = hashlib.sha256()
    skip_below: int | None = None
    for depth, node in walk(tree):
        if skip_below is not None and depth > skip_below:
            continue
        skip_below = None
        kind = short_type(str(node.get("type") or ""))
        if kind in SKIPPED_TYPES:
            skip_below = depth
            continue
        rect = node.get("rect")
        frame = [round(float(v)) if isinstance(v, (int, float)) else 0
                 for v in ((rect.get(k) for k in ("x", "y", "width", "height"))
                           if isinstance(rect, Mapping) else ())]
        fields = [str(depth), kind, *(str(node.get(k) or "") for k in ("name", "label", "value")),
                  *map(str, frame)]
        hasher.update("\x1f".join(fields).encode("utf-8", "replace") + b"\x1e")
    return hasher.hexdigest()[:DIGEST_CHARS]


def front_app(value: object) -> str:
    """The bundle id in an `/wda/activeAppInfo` value ("" when it names none)."""
    bundle = value.get("bundleId") if isinstance(value, Mapping) else None
    return bundle if isinstance(bundle, str) else ""


def from_xml(xml: str) -> Observation:
    """What an XML page source shows (the app from its first line even when it is cut off)."""
    match = _ROOT_BUNDLE.search(xml[:4096].encode("utf-8", "replace"))
    app = match.group(1).decode("utf-8", "replace") if match else ""
    tree = tree_from_xml(xml)
    return Observation(app, digest(tree) if tree is not None else "", tree, False)


def from_json_tree(tree: object) -> Observation:
    """What a JSON page source shows."""
    if not isinstance(tree, Mapping):
        return Observation()
    return Observation("", digest(tree), tree, True)


def from_read(method: str, route: str, query: tuple[tuple[str, str], ...],
              status: int, body: bytes) -> Observation:
    """What a read that passed through the bridge showed (empty for any other read).

    Args:
        route: the WDA route pattern the read took (with or without a session, the same).

    Only plain reads count: a source with attributes left out (`excluded_attributes`) would
    digest differently from the same screen read whole.
    """
    if method != "GET" or status != 200:
        return Observation()
    keys = dict(query)
    if route == APP_INFO_ROUTE:
        return Observation(front_app(_value(body)))
    if route != XML_ROUTE or set(keys) - {"format"}:
        return Observation()
    value = _value(body)
    if keys.get("format", "xml") == "xml" and isinstance(value, str):
        return from_xml(value)
    if keys.get("format") == "json":
        return from_json_tree(value)
    return Observation()
