"""What a read shows of the phone: the front app, the page tree, a digest of the screen.

Pure: turns the answer to a read (the bridge's own, or a client's passing through it) into an
`Observation`. Real WDA's facts (notes/wda-stack.md §2): `/wda/activeAppInfo` names the front
app; the XML source names it too, on the application node (`bundleId`), but carries no focus;
the JSON source carries `isFocused` but no bundle id. So an XML source gives the app, the tree
for hit-testing and a digest; a JSON source the tree with focus and a digest.

The digest hashes what a person would call the screen: each node's type, name, label, value
and frame, the status bar left out (its clock moves on its own), and so is a window holding a
notification banner (`xcui.is_banner`: the system's window of its own at the screen's top,
never a name an app's text can carry): the phone shows one over any app by itself, so its
coming or going is no change an agent made around the bridge (red team 105: a message arriving
after an honest finish failed it as tampering). The XML and JSON sources of one screen give the
same digest.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from lxml import etree

from phoneshell.xcui import is_banner, short_type, walk

APP_INFO_ROUTE = "/wda/activeAppInfo"
XML_ROUTE = "/source"
JSON_ROUTE = "/source?format=json"
_ROOT_BUNDLE = re.compile(rb'<XCUIElementTypeApplication\b[^>]*?\sbundleId="([^"]*)"')
_XML_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)
DIGEST_CHARS = 16
_RECT = ("x", "y", "width", "height")
SKIPPED_TYPES = frozenset({"StatusBar"})
"""Subtrees the digest leaves out: they change without anyone acting."""

Tree = Mapping[str, object]


class Page:
    """A page source as read, turned into the JSON source's shape only when a target is looked
    for in it (most pages are replaced by the next read before anyone looks)."""

    def __init__(self, tree: Tree | None = None, xml_root: etree._Element | None = None) -> None:
        self._tree, self._xml_root = tree, xml_root

    @functools.cached_property
    def tree(self) -> Tree | None:
        """The tree (short types, `rect`, "1"/"0" flags), as `bridge.targets` reads it."""
        if self._tree is not None or self._xml_root is None:
            return self._tree
        return _tree_from_root(self._xml_root)

    @property
    def root_rect(self) -> tuple[float, float, float, float] | None:
        """The root's frame (x, y, width, height): the application's, which is the screen's
        (read off the XML root without building the tree); None when the page has none."""
        parts: list[float] = []
        if self._xml_root is not None:
            found = [self._xml_root.get(k) for k in _RECT]
            parts = [_number(v) for v in found] if None not in found else []
        elif self._tree is not None and isinstance(self._tree.get("rect"), Mapping):
            rect: Mapping[str, object] = self._tree["rect"]  # type: ignore[assignment]
            parts = [float(v) for v in (rect.get(k) for k in _RECT)
                     if isinstance(v, (int, float)) and not isinstance(v, bool)]
        if len(parts) != 4 or parts[2] <= 0 or parts[3] <= 0:
            return None
        return parts[0], parts[1], parts[2], parts[3]


@dataclass(frozen=True)
class Observation:
    """What one read showed ("" and None for what it could not show)."""

    app: str = ""
    """The front app's bundle id."""
    screen: str = ""
    """A digest of the screen."""
    page: Page | None = None
    """The page source, for targets."""
    focus_known: bool = False
    """The page says which field has focus (only the JSON source does)."""

    @property
    def tree(self) -> Tree | None:
        """The page tree in the JSON source's shape (built on first use)."""
        return self.page.tree if self.page is not None else None

    @property
    def empty(self) -> bool:
        """Nothing was learnt."""
        return not (self.app or self.screen or self.page is not None)


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
        # a tap's target is the element VoiceOver names there (`bridge.targets.node_at`)
        "isAccessible": "1" if get("accessible") == "true" else "0",
    }
    if get("traits") is not None:  # newer WDA's (a Settings row's Button trait: settings_controls)
        node["traits"] = get("traits")
    return node


def _parse(xml: str) -> etree._Element | None:
    try:
        return etree.fromstring(xml.encode("utf-8"), _XML_PARSER)
    except (etree.XMLSyntaxError, ValueError):
        return None  # a cut-off read


def _tree_from_root(root: etree._Element) -> Tree:
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


Row = tuple[int, str, str, str, str, tuple[int, ...]]
"""What the digest reads of a node: depth, short type, name, label, value, frame."""
_NOT_IN_XML = dict.fromkeys(c for c in (*range(0x20), *range(0xD800, 0xE000), 0xFFFE, 0xFFFF)
                            if chr(c) not in "\t\n\r")
"""Characters WDA drops from the XML source (`fb_xmlSafeStringWithReplacement:@""`) and keeps
in the JSON one: left out of the digest, so one screen read both ways digests alike (a note
holding a control character an agent typed would else read as a change nobody made)."""


def _without_banners(rows: Iterator[Row]) -> Iterator[Row]:
    """`rows` without each window (a child of the application node) that holds a banner's
    view, as `xcui.is_banner` tells one: by its place, type and frame, never by its name alone
    (red team 110: a note titled with the view's name hid its window's changes). One window's
    rows are held at a time."""
    held: list[Row] = []
    banner = False
    above: list[tuple[str, str]] = []  # (type, name) of the window and the views a row is in
    window, height = -1, 0.0
    for row in rows:
        depth, kind, name, frame = row[0], row[1], row[2], row[5]
        if depth <= 1:  # the application node, or the next window: the one before is whole
            if not banner:
                yield from held
            held, banner = [], False
        if depth == 0:
            height = float(frame[3]) if len(frame) == 4 else 0.0
            yield row
            continue
        if depth == 1:
            window += 1
        del above[depth - 1:]
        banner = banner or is_banner(kind, name, frame[1] if len(frame) == 4 else -1.0, above,
                                     window, height)
        above.append((kind, name))
        held.append(row)
    if not banner:
        yield from held


def _digest(rows: Iterator[Row]) -> str:
    """A short digest of a screen's rows in document order (see the module docstring)."""
    hasher = hashlib.sha256()
    skip_below: int | None = None
    for depth, kind, name, label, value, frame in _without_banners(rows):
        if skip_below is not None and depth > skip_below:
            continue
        skip_below = None
        if kind in SKIPPED_TYPES:
            skip_below = depth
            continue
        fields = (str(depth), kind, name.translate(_NOT_IN_XML), label.translate(_NOT_IN_XML),
                  value.translate(_NOT_IN_XML), *map(str, frame))
        hasher.update("\x1f".join(fields).encode("utf-8", "replace") + b"\x1e")
    return hasher.hexdigest()[:DIGEST_CHARS]


def _json_rows(tree: Tree) -> Iterator[Row]:
    for depth, node in walk(tree):
        rect = node.get("rect")
        frame = tuple(round(float(v)) if isinstance(v, (int, float)) else 0
                      for v in ((rect.get(k) for k in ("x", "y", "width", "height"))
                                if isinstance(rect, Mapping) else ()))
        yield (depth, short_type(str(node.get("type") or "")), str(node.get("name") or ""),
               str(node.get("label") or ""), str(node.get("value") or ""), frame)


def _xml_rows(root: etree._Element) -> Iterator[Row]:
    stack: list[tuple[int, etree._Element]] = [(0, root)]
    while stack:  # iterative and in document order, as `walk` is
        depth, element = stack.pop()
        if not isinstance(element.tag, str):
            continue
        get = element.get
        frame = tuple(round(_number(get(k))) for k in ("x", "y", "width", "height"))
        yield (depth, short_type(get("type") or str(element.tag)), get("name") or "",
               get("label") or "", get("value") or "", frame)
        stack.extend((depth + 1, child) for child in reversed(element))


def digest(tree: Tree) -> str:
    """A short digest of a screen from its JSON-source tree."""
    return _digest(_json_rows(tree))


def front_app(value: object) -> str:
    """The bundle id in an `/wda/activeAppInfo` value ("" when it names none)."""
    bundle = value.get("bundleId") if isinstance(value, Mapping) else None
    return bundle if isinstance(bundle, str) else ""


def from_xml(xml: str) -> Observation:
    """What an XML page source shows (the app from its first line even when it is cut off)."""
    match = _ROOT_BUNDLE.search(xml[:4096].encode("utf-8", "replace"))
    app = match.group(1).decode("utf-8", "replace") if match else ""
    root = _parse(xml)
    if root is None:
        return Observation(app)
    return Observation(app, _digest(_xml_rows(root)), Page(xml_root=root), False)


def from_json_tree(tree: object) -> Observation:
    """What a JSON page source shows."""
    if not isinstance(tree, Mapping):
        return Observation()
    return Observation("", digest(tree), Page(tree), True)


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
