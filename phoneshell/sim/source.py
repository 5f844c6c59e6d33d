"""Serialise a screen to WebDriverAgent's page-source formats: XML, JSON and accessible JSON.

Formats follow notes/wda-stack.md §2 and the real iOS 26 dumps: XML attribute order is WDA's
`supportedAttributes` order, `value`/`name`/`label` are omitted when None, booleans are
"true"/"false", `index` is the position among siblings, `placeholderValue` only on text inputs,
and only the application node carries `processId` and `bundleId`. Pure: reads nodes, changes
nothing (`xml` keeps what it builds on the screen, which is no change to the phone). The text of
`format=description` is XCTest's, in `source_text.py`.

The query's options are WDA's (`FBDebugCommands` handleGetSourceCommand, `FBXPath`
xmlStringWithRootElement:options:, `XCUIApplication+FBHelpers` dictionaryForElement:): `scope`
wraps the XML's application node in an element of that name (Appium asks for `AppiumAUT`), and
`excluded_attributes` is split at every comma, as given (no trimming), for XML and JSON alike.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from phoneshell.sim.attributes import attribute_value
from phoneshell.sim.store import JSON
from phoneshell.sim.ui import TEXT_INPUTS, Node, Screen
from phoneshell.sim.wire import WdaError
from phoneshell.xcui import TYPE_PREFIX

XML_HEADER = '<?xml version="1.0" encoding="UTF-8"?>\n'

# libxml2's text writer escapes these inside attribute values.
_INVALID = frozenset(chr(c) for c in (*range(0x20), *range(0xD800, 0xE000), 0xFFFE, 0xFFFF)
                     if chr(c) not in "\n\r\t")
"""Characters XML 1.0 does not allow. WDA drops them from every text it writes into the source
(`fb_xmlSafeStringWithReplacement:@""`), so a control character typed into a note reads as if
it were not there: written raw, it would make the whole source malformed."""
_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;",
                          "\n": "&#10;", "\r": "&#13;", "\t": "&#9;",
                          **dict.fromkeys(_INVALID)})
_NEEDS_ESCAPING = frozenset('&<>"\n\r\t') | _INVALID
_DROP_INVALID = str.maketrans(dict.fromkeys(_INVALID))
_NAME_START = ("A-Z_a-z\xc0-\xd6\xd8-\xf6\xf8-\u02ff\u0370-\u037d\u037f-\u1fff\u200c\u200d"
               "\u2070-\u218f\u2c00-\u2fef\u3001-\ud7ff\uf900-\ufdcf\ufdf0-\ufffd"
               "\U00010000-\U000effff")
_XML_NAME = re.compile(f"[{_NAME_START}][{_NAME_START}\\-.0-9\xb7\u0300-\u036f\u203f\u2040]*")
"""XML's `NCName` (a `Name` without a colon): what libxml2's parser takes as an element's name
with no namespace declared (a prefix, as in `my:scope`, is one it reports undeclared)."""

OPTIONAL_ATTRIBUTES = ("hittable", "nativeFrame", "minValue", "maxValue", "customActions")
"""Attributes of WDA's `supportedAttributes` that its page source leaves out (each behind an
`include...InPageSource` setting, off by default: costly to read on a phone) and an xpath
query's document holds when the query names it (`FBXPath`), in WDA's order."""
_AFTER_INDEX = ("hittable",)
"""Where WDA writes them: `hittable` follows `index`, the rest follow `traits`."""


def _flag(value: bool) -> str:
    return "true" if value else "false"


def excluded_names(query: str | None) -> tuple[str, ...]:
    """The names of an `excluded_attributes` query value, as WDA reads it: split at every
    comma and kept as written (`"name, label"` names `name` and `" label"`, which no attribute
    is called, so only `name` is left out); no value, no names."""
    return () if query is None else tuple(query.split(","))


def to_xml(screen: Screen, excluded: Collection[str] = (),
           optional: Collection[str] = ()) -> str:
    """The XML page source (`GET /source`), optionally without some attributes.

    Args:
        screen: what is on the display.
        excluded: attribute names to leave out, as WDA's `excluded_attributes` query does: any
            case (`FBXPath` compares them case-insensitively), a name no attribute has is
            ignored.
        optional: names from `OPTIONAL_ATTRIBUTES` to write as well, as WDA does in the
            document it builds for an xpath query that names them.
    """
    out: list[str] = [XML_HEADER]
    wanted = tuple(a for a in OPTIONAL_ATTRIBUTES if a in optional)
    leave_out = frozenset(name.lower() for name in excluded)
    _xml_node(screen.root, 0, 0, out, screen, leave_out, wanted)
    return "".join(out)


def xml(screen: Screen, excluded: Collection[str] = (), scope: str = "") -> str:
    """`to_xml`, built once per screen (and set of excluded attributes, and scope) and kept
    with it, inside an element named `scope` when one is given (`in_scope`).

    The source route and xpath finds both read it, so a polled find costs no serialisation.
    """
    leave_out = tuple(sorted({name.lower() for name in excluded}))
    text = screen.derived("xml:" + ",".join(leave_out), lambda: to_xml(screen, leave_out))
    if not scope:
        return text
    return screen.derived(f"xml:{','.join(leave_out)}:{scope}", lambda: in_scope(text, scope))


def in_scope(text: str, scope: str) -> str:
    """An XML source with its application node inside an element named `scope`, as WDA writes
    it for `GET /source?scope=...`: the element has no attributes, and everything inside it is
    indented two more spaces (libxml2's formatted dump).

    WDA drops the characters XML does not allow from the name, as from every text it writes,
    and hands the rest to libxml2's writer, whose parser takes only an XML name: anything else
    (`1st`, `a b`, `my:scope`, whose prefix no namespace declares, a name of dropped characters
    only) fails the write, and WDA answers that it cannot get the source.

    Raises:
        WdaError: a scope that is no XML name.
    """
    name = scope.translate(_DROP_INVALID)
    if not _XML_NAME.fullmatch(name):
        raise WdaError("unknown error", "Cannot get 'xml' source of the current application")
    body = text[len(XML_HEADER):] if text.startswith(XML_HEADER) else text
    inner = "".join("  " + line for line in body.splitlines(keepends=True))
    return f"{XML_HEADER}<{name}>\n{inner}</{name}>\n"


def _xml_node(node: Node, index: int, depth: int, out: list[str], screen: Screen,
              excluded: frozenset[str], optional: tuple[str, ...]) -> None:
    if excluded or optional:
        attrs = _filtered_attributes(node, index, depth, screen, excluded, optional)
    else:
        attrs = _attributes(node, index, depth, screen)
    pad = "  " * depth
    kind = TYPE_PREFIX + node.type
    if not node.children:
        out.append(f"{pad}<{kind} {attrs}/>\n")
        return
    out.append(f"{pad}<{kind} {attrs}>\n")
    for i, child in enumerate(node.children):
        _xml_node(child, i, depth + 1, out, screen, excluded, optional)
    out.append(f"{pad}</{kind}>\n")


def _text(value: str) -> str:
    # Most texts need no escaping; `translate` walks every character, so skip it then.
    return value.translate(_ESCAPES) if _NEEDS_ESCAPING.intersection(value) else value


def _attributes(node: Node, index: int, depth: int, screen: Screen) -> str:
    """Every attribute, in WDA's order: the common case, written without a filter.

    Real trees are three to four times deeper than the controls they hold, so this runs for
    hundreds of nodes per source and is kept to one f-string a node.
    """
    f = node.reported
    texts = (("" if node.value is None else f' value="{_text(node.value)}"')
             + ("" if node.name is None else f' name="{_text(node.name)}"')
             + ("" if node.label is None else f' label="{_text(node.label)}"'))
    placeholder = (f' placeholderValue="{_text(node.placeholder)}"'
                   if node.type in TEXT_INPUTS and node.placeholder is not None else "")
    root = (f' processId="{screen.pid}" bundleId="{_text(screen.bundle_id)}"'
            if depth == 0 else "")
    return (f'type="{TYPE_PREFIX}{node.type}"{texts} enabled="{_flag(node.enabled)}" '
            f'visible="{_flag(node.visible)}" accessible="{_flag(node.is_accessible)}" '
            f'x="{f.x}" y="{f.y}" width="{f.width}" height="{f.height}" index="{index}"'
            f'{placeholder} traits="{_text(node.trait_text)}"{root}')


def _filtered_attributes(node: Node, index: int, depth: int, screen: Screen,
                         excluded: frozenset[str], optional: tuple[str, ...]) -> str:
    frame = node.reported
    pairs: list[tuple[str, str]] = [("type", node.wd_type)]
    if node.value is not None:
        pairs.append(("value", node.value))
    if node.name is not None:
        pairs.append(("name", node.name))
    if node.label is not None:
        pairs.append(("label", node.label))
    pairs += [("enabled", _flag(node.enabled)), ("visible", _flag(node.visible)),
              ("accessible", _flag(node.is_accessible)), ("x", str(frame.x)),
              ("y", str(frame.y)), ("width", str(frame.width)), ("height", str(frame.height)),
              ("index", str(index))]
    pairs += _optional_pairs(node, [a for a in optional if a in _AFTER_INDEX], screen)
    if node.type in TEXT_INPUTS and node.placeholder is not None:
        pairs.append(("placeholderValue", node.placeholder))
    pairs.append(("traits", node.trait_text))
    pairs += _optional_pairs(node, [a for a in optional if a not in _AFTER_INDEX], screen)
    if depth == 0:
        pairs += [("processId", str(screen.pid)), ("bundleId", screen.bundle_id)]
    return " ".join(f'{k}="{_text(v)}"' for k, v in pairs if k.lower() not in excluded)


def _optional_pairs(node: Node, names: list[str], screen: Screen) -> list[tuple[str, str]]:
    """Optional attributes as WDA writes them: the value the predicates read
    (`attributes.attribute_value`), as text; a nil one is left out, as WDA leaves it."""
    pairs: list[tuple[str, str]] = []
    for name in names:
        value = attribute_value(node, name, screen)
        if value is None:
            continue
        if name == "hittable":
            text = _flag(bool(value))
        elif isinstance(value, dict):  # WDA writes NSStringFromCGRect(wdNativeFrame)
            text = f"{{{{{value['x']}, {value['y']}}}, {{{value['width']}, {value['height']}}}}}"
        else:
            text = str(value)
        pairs.append((name, text))
    return pairs


def _raw_identifier(node: Node) -> str | None:
    # WDA's name is the accessibility identifier when the app set one, else the label; a name
    # that differs from the label is therefore an identifier.
    return node.name if node.name is not None and node.name != node.label else None


JSON_EXCLUDABLE = {"frame": "frame", "nativeFrame": "nativeFrame", "enabled": "isEnabled",
                   "visible": "isVisible", "accessible": "isAccessible",
                   "nativeAccessibilityElement": "isNativeAccessibilityElement",
                   "focused": "isFocused", "traits": "traits",
                   "placeholderValue": "placeholderValue"}
"""The attributes `excluded_attributes` can leave out of the JSON source, by the name it takes
(matched as written, case and all: WDA looks them up in a set), to the key each is written
under. `type`, `rawIdentifier`, `name`, `value`, `label`, `rect`, `customActions` and
`children` are always written. (`minValue` and `maxValue` are too, on the elements that have
them; no simulated element has them.)"""


def to_json(screen: Screen, excluded: Collection[str] = ()) -> dict[str, JSON]:
    """The JSON page source (`GET /source?format=json`), optionally without the attributes of
    `JSON_EXCLUDABLE` that `excluded` names; other names are ignored."""
    keys = frozenset(JSON_EXCLUDABLE[a] for a in excluded if a in JSON_EXCLUDABLE)
    return _json_node(screen.root, keys)


def json_source(screen: Screen, excluded: Collection[str] = ()) -> dict[str, JSON]:
    """`to_json`, built once per screen (and set of excluded attributes) and kept with it."""
    leave_out = tuple(sorted(set(excluded) & JSON_EXCLUDABLE.keys()))
    return screen.derived("json:" + ",".join(leave_out), lambda: to_json(screen, leave_out))


def _json_node(node: Node, excluded: frozenset[str]) -> dict[str, JSON]:
    f = node.reported
    frame = f"{{{{{f.x}, {f.y}}}, {{{f.width}, {f.height}}}}}"
    accessible = "1" if node.is_accessible else "0"
    out: dict[str, JSON] = {
        "type": node.type, "rawIdentifier": _raw_identifier(node), "name": node.name,
        "value": node.value, "label": node.label,
        "rect": {"x": f.x, "y": f.y, "width": f.width, "height": f.height},
        "customActions": None, "frame": frame, "nativeFrame": frame,
        "isEnabled": "1" if node.enabled else "0", "isVisible": "1" if node.visible else "0",
        "isAccessible": accessible, "isNativeAccessibilityElement": accessible,
        "isFocused": "1" if node.focused else "0", "traits": node.trait_text,
    }
    if node.type in TEXT_INPUTS:
        out["placeholderValue"] = node.placeholder
    for key in excluded:
        out.pop(key, None)
    if node.children:
        out["children"] = [_json_node(c, excluded) for c in node.children]
    return out


def to_accessible_json(screen: Screen) -> dict[str, JSON]:
    """The smaller tree of `GET /wda/accessibleSource`: what VoiceOver would read.

    WDA's `accessibilityInfoForElement:` (XCUIApplication+FBHelpers.m), from the application
    down: an accessible element gives its `value` and `label` when visible (and nothing when
    not: it is left out, its children unread), any other element its `children` that give
    something; whatever gives something also carries `type`, `rawIdentifier` and `name`. No
    node has a frame, a container no label. An application that gives nothing answers `{}`.
    """
    return _accessible_node(screen.root) or {}


def _accessible_node(node: Node) -> dict[str, JSON] | None:
    out: dict[str, JSON] = {}
    if node.is_accessible:
        if node.visible:
            out = {"value": node.value, "label": node.label}
    else:
        kids = [k for k in (_accessible_node(c) for c in node.children) if k is not None]
        if kids:
            out["children"] = list[JSON](kids)
    if not out:
        return None
    out.update({"type": node.type, "rawIdentifier": _raw_identifier(node), "name": node.name})
    return out
