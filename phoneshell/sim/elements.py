"""Element references for WDA's element routes: find by strategy, ids, attributes.

Element ids are made as WDA makes them (`element_uid`) from the element's accessibility id,
bound to a node's identity (`Screen.of` explains identity), so the same element keeps its id
across finds, re-renders and sessions, and an id whose element has left the screen resolves to
nothing (WDA's `stale element reference`). Registries (which ids a session handed out) are per
session, as WDA's element cache is.
"""

from __future__ import annotations

import copy
import re
import threading
import uuid
import zlib
from collections import OrderedDict
from dataclasses import dataclass

from lxml import etree

from phoneshell.sim.attributes import Attribute, attribute_alias, attribute_value
from phoneshell.sim.class_chains import class_chain, element_type, type_matches
from phoneshell.sim.predicates import SelectorError, predicate
from phoneshell.sim.source import OPTIONAL_ATTRIBUTES, to_xml, xml
from phoneshell.sim.store import JSON
from phoneshell.sim.ui import Node, Screen, walk
from phoneshell.sim.wire import WdaError
from phoneshell.xcui import TYPE_PREFIX

W3C_ELEMENT_KEY = "element-6066-11e4-a52e-4f735466cecf"
STRATEGIES = ("accessibility id", "id", "name", "class name", "class chain",
              "predicate string", "xpath", "link text", "partial link text")


def element_uid(ax_id: int, pid: int) -> str:
    """An element's id as WDA writes it (`FBElementUtils uidWithAccessibilityElement:`): 16
    bytes, the accessibility element id (64 bits, little-endian), the process id (32 bits),
    four zero bytes, printed as an NSUUID: `0C000000-0000-0000-471A-000000000000`."""
    raw = ax_id.to_bytes(8, "little") + pid.to_bytes(4, "little") + bytes(4)
    return str(uuid.UUID(bytes=raw)).upper()


class AccessibilityIds:
    """The accessibility element ids apps give their elements: a counter per process, so
    small numbers, each element's number kept while the phone runs (in every session), and
    a relaunched app's elements (new identities) numbered afresh.

    Shared by every registry of the process (a new session's registry starts empty, yet finds
    an element under the id it had), bounded: the oldest numbers are forgotten past `MOST`,
    as an app's released elements are, and such an element is numbered anew if it shows again.
    """

    MOST = 200_000

    def __init__(self) -> None:
        self._ids: OrderedDict[tuple[int, str], int] = OrderedDict()
        self._next: dict[int, int] = {}
        self._lock = threading.Lock()  # simulators in one process find at the same time

    def of(self, pid: int, key: str) -> int:
        """The accessibility id of the element `key` in process `pid`."""
        with self._lock:
            number = self._ids.get((pid, key))
            if number is None:
                # an app has made some elements before any is found: start a little way in
                number = self._next.get(pid, 2 + zlib.crc32(pid.to_bytes(4, "little")) % 40)
                self._next[pid] = number + 1
                self._ids[pid, key] = number
                if len(self._ids) > self.MOST:
                    self._ids.popitem(last=False)
            return number


AX_IDS = AccessibilityIds()
"""The one table of accessibility ids: elements belong to the phone, not to a session."""


class ElementRegistry:
    """The element ids one WDA session handed out (WDA's per-session element cache)."""

    def __init__(self, ax_ids: AccessibilityIds = AX_IDS) -> None:
        self._ax_ids = ax_ids
        self._ids: dict[str, str] = {}
        self._keys: dict[str, str] = {}
        self._described: dict[str, str] = {}

    def reference(self, key: str, pid: int) -> dict[str, JSON]:
        """The JSON element reference for an identity in process `pid`."""
        element_id = self._ids.get(key)
        if element_id is None:
            element_id = element_uid(self._ax_ids.of(pid, key), pid)
            self._ids[key] = element_id
            self._keys[element_id] = key
        return {"ELEMENT": element_id, W3C_ELEMENT_KEY: element_id}

    def resolve(self, screen: Screen, element_id: str) -> Node | None:
        """The node an id refers to, if it is on the current screen."""
        key = self._keys.get(element_id)
        return None if key is None else screen.by_key.get(key)

    def references(self, screen: Screen, nodes: list[Node]) -> list[JSON]:
        """References for nodes of `screen`, in the order given (each id remembers how XCTest
        would describe its element, for the error once it is gone: `missing`)."""
        key_by_node = {id(n): k for n, k in zip(screen.nodes, screen.keys, strict=True)}
        refs: list[JSON] = []
        for node in nodes:
            ref = self.reference(key_by_node[id(node)], screen.pid)
            self._described[str(ref["ELEMENT"])] = f'"{node.label or node.name or ""}" {node.type}'
            refs.append(ref)
        return refs

    def missing(self, element_id: str) -> WdaError:
        """WDA's 404 for an id that names no element on screen, in its two wordings: an id this
        session never issued is not in FBElementCache ("either not present or it has expired
        from the internal cache"); one it issued whose element has gone fails its snapshot
        (XCUIElement+FBUtilities: "The previously found element ... is not present in the
        current view anymore"), naming the element as XCTest describes it."""
        if element_id not in self._keys:
            return WdaError("stale element reference", f'The element identified by '
                            f'"{element_id}" is either not present or it has expired from the '
                            "internal cache. Try to find it again")
        described = self._described.get(element_id, element_id)
        return WdaError("stale element reference", f'The previously found element '
                        f'"{described}" is not present in the current view anymore. Make sure '
                        "the application UI has the expected state")


def find(screen: Screen, using: str, value: str, context: Node | None = None) -> list[Node]:
    """Elements at or below `context` (default: the application) matching a WDA locator.

    As WDA's `FBFindElementCommands`: class name, predicate string, link text and xpath may
    answer the element searched from itself (WDA tests it before its descendants); class
    chains and ids search below it only.

    Raises:
        SelectorError: a class chain or xpath WDA cannot parse (`invalid selector`).
        WdaError: a query WDA refuses otherwise (`invalid argument`, `unknown error`).
    """
    scope = context or screen.root
    if using == "xpath":
        return _xpath(screen, value, scope)
    if using == "class chain":
        return class_chain(value, scope, screen)
    if using in ("accessibility id", "id", "name"):
        return [n for n in walk(scope) if n is not scope and n.name == value]
    if using == "class name":
        kind = element_type(value)
        if kind is None:  # FBElementTypeTransformer refuses a short or unknown name
            raise WdaError("invalid argument", f"Invalid argument for class used '{value}'. "
                                               f"Did you mean {TYPE_PREFIX}{value}?")
        return [n for n in walk(scope) if type_matches(n, kind)]
    if using == "predicate string":
        test = predicate(value)
    elif using in ("link text", "partial link text"):
        test = predicate(_link_predicate(value, partial=using == "partial link text"))
    else:
        raise SelectorError(f"unsupported locator strategy '{using}'; "
                            f"supported: {', '.join(STRATEGIES)}")
    return [n for n in walk(scope) if test(n, screen)]


def _link_predicate(value: str, partial: bool) -> str:
    """The predicate WDA builds for link text: "attribute=text", or the name without "="."""
    parts = value.split("=")
    attr, text = (parts[0] if len(parts) > 1 else "name"), parts[-1].replace("'", "\\'")
    return f"{attr} LIKE '*{text}*'" if partial else f"{attr} == '{text}'"


@dataclass(frozen=True)
class XmlTree:
    """The XML source parsed by lxml, with each element's node (one per screen, kept on it)."""

    elements: tuple[etree._Element, ...]
    """Every element in document order, parallel to `Screen.nodes` (the first is the root)."""
    nodes: dict[etree._Element, Node]
    """The node each element was serialised from. Holding the elements here also keeps lxml's
    proxies alive, so xpath results are these very objects."""


_PARSER = etree.XMLParser(huge_tree=True, resolve_entities=False, no_network=True)
"""Reads a source of any size: libxml2 refuses a text of over 10 MB (a note that long) unless
told, and the source is the simulator's own XML, with no entities to expand."""


def xml_tree(screen: Screen, optional: tuple[str, ...] = ()) -> XmlTree:
    """The screen's XML source parsed for xpath, once per screen (finds are polled).

    Args:
        screen: what is on the display.
        optional: names from `source.OPTIONAL_ATTRIBUTES` that the query names
            (`named_optional`), written into this document though the page source leaves
            them out.
    """

    def parse() -> XmlTree:
        # The XML the source route serves (plus what the query names); lxml's iter() and
        # Screen.nodes walk the tree in the same order, which maps elements back to nodes.
        text = to_xml(screen, optional=optional) if optional else xml(screen)
        elements = tuple(etree.fromstring(text.encode(), _PARSER).iter())
        return XmlTree(elements, dict(zip(elements, screen.nodes, strict=True)))

    if not optional:
        return screen.derived("xml-tree", parse)
    # One such document per screen, the last asked for: a poll repeats its query, and a note
    # of megabytes must not be kept in each of the 32 sets a query could name.
    last = screen.derived("xml-tree-optional", dict[tuple[str, ...], XmlTree])
    if optional not in last:
        last.clear()
        last[optional] = parse()
    return last[optional]


_ANY_ATTRIBUTE = re.compile(r"[^\w@]@\*[^\w]")
_NAMED = {a: re.compile(rf"[^\w@]@{a}[^\w]") for a in OPTIONAL_ATTRIBUTES}


def named_optional(query: str) -> tuple[str, ...]:
    """The optional attributes an xpath query's document holds on a phone.

    WDA does not run xpath on the page source: `FBXPath` writes a document for each query with
    the attributes the query names, found by the pattern `[^\\w@]@NAME[^\\w]`, and every
    attribute where `@*` appears the same way (`elementAttributesWithXPathQuery:`). So
    `//*[@hittable='true']` finds the hittable elements, though `/source` has no `hittable`.
    """
    if _ANY_ATTRIBUTE.search(query):
        return OPTIONAL_ATTRIBUTES
    return tuple(a for a in OPTIONAL_ATTRIBUTES if _NAMED[a].search(query))


def _scoped_tree(screen: Screen, scope: Node, optional: tuple[str, ...] = ()) -> XmlTree:
    """The document WDA evaluates an xpath from `scope` on: its subtree, with it as the root.

    `FBXPath matchesWithRootElement:` writes a fresh document whose root element is the element
    searched from and evaluates the query with that root as the context node, so `/X`,
    `(//X)[n]`, `last()` and every axis count inside the element, never in the page around it
    (red team 116: from Settings' list `(//XCUIElementTypeStaticText)[3]` is "Wi-Fi" on a phone).
    From the application this is the screen's own tree (`xml_tree`); from any other element a
    copy of its part of that tree, kept for the last element and attribute set asked for (a
    poll repeats its query, and each element's copy would hold its part of the page again).
    """
    tree = xml_tree(screen, optional)
    if scope is screen.root:
        return tree
    at = screen.nodes.index(scope)
    last = screen.derived("xml-subtree", dict[tuple[int, tuple[str, ...]], XmlTree])
    if (at, optional) not in last:
        start = tree.elements[at]
        root = copy.deepcopy(start)  # lxml gives the copy a document of its own, it at the root
        root.tail = None  # the indentation after the element is not part of its document
        elements = tuple(root.iter())
        nodes = {c: tree.nodes[e] for c, e in zip(elements, start.iter(), strict=True)}
        last.clear()
        last[at, optional] = XmlTree(elements, nodes)
    return last[at, optional]


def _xpath(screen: Screen, query: str, scope: Node) -> list[Node]:
    tree = _scoped_tree(screen, scope, named_optional(query))
    # XCUIElementTypeAny is written as "*", since no XML tag is named Any
    query = query.replace(TYPE_PREFIX + "Any", "*")
    try:
        found = tree.elements[0].xpath(query)
    except (etree.XPathError, RecursionError) as exc:
        raise SelectorError(f"Cannot evaluate results for XPath expression '{query}': "
                            f"{exc}") from exc
    # A number, string or boolean has no node set, and a node set holding anything but
    # elements (an attribute) has no element for WDA to answer: both find nothing.
    if not isinstance(found, list) or not all(isinstance(e, etree._Element) for e in found):
        return []
    return [tree.nodes[e] for e in found if e in tree.nodes]


def rect(node: Node) -> dict[str, JSON]:
    """The element's frame as WDA's rect object (as reported: `Node.reported`)."""
    f = node.reported
    return {"x": f.x, "y": f.y, "width": f.width, "height": f.height}


def attribute(node: Node, name: str, uid: str, screen: Screen) -> JSON:
    """One element attribute as WDA's `attribute/:name` returns it (`uid`: the element's id).

    The names are the predicates' (`attributes.attribute_alias`, WDA's one table): a name WDA
    does not know answers its "The attribute '...' is unknown" (`isVisible` among them: the
    JSON source's key, not an attribute), never null. `UID` is the element's id, as WDA's
    `wdUID` is; `index` its place among its parent's children on `screen`, as the source's
    `index` says.

    Raises:
        WdaError: an unknown attribute name.
    """
    alias = attribute_alias(name)
    f = node.reported
    values: dict[str, JSON] = {
        "type": node.wd_type, "name": node.name, "label": node.label, "value": node.value,
        "placeholderValue": node.placeholder, "traits": node.trait_text, "UID": uid,
        **{a: _number_or_text(attribute_value(node, a, screen))
           for a in ("minValue", "maxValue", "customActions")},
        "frame": f"{{{{{f.x}, {f.y}}}, {{{f.width}, {f.height}}}}}",
        "enabled": node.enabled, "visible": node.visible, "accessible": node.is_accessible,
        "selected": node.selected, "focused": node.focused,
        **{a: bool(attribute_value(node, a, screen))
           for a in ("hittable", "accessibilityContainer")},
        "rect": rect(node), "nativeFrame": rect(node),
        "index": _number_or_text(attribute_value(node, "index", screen)),
    }
    return values.get(alias)


def _number_or_text(value: Attribute) -> JSON:
    # minValue, maxValue (NSNumber) and customActions (a text) are nil where not modelled
    return value if isinstance(value, (str, int, float)) else None
