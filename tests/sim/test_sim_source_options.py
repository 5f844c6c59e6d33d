"""`GET /source`'s options answer as WDA's do (red team 116, RT116-1 and RT116-2): `scope`
wraps the XML's application node in an element of that name (Appium's `AppiumAUT`), a name XML
cannot take fails as WDA's libxml2 write does; `excluded_attributes` is split at each comma as
given, matched in any case in XML and as written in JSON, and leaves out only what WDA lets it.
And `accessibilityContainer` says whether an accessible element lies below, as WDA's
`isWDAccessibilityContainer` does. Raw HTTP to the simulator, and facebook-wda."""

from __future__ import annotations

import urllib.parse
from collections.abc import Iterator
from typing import Any

import pytest
import wda
from lxml import etree

from phoneshell.xcui import SETTINGS

HEADER = '<?xml version="1.0" encoding="UTF-8"?>\n'


def _source(raw: Any, **query: str) -> Any:
    reply = raw("GET", "/source?" + urllib.parse.urlencode(query))
    assert reply.status == 200, reply.value
    return reply.value


def _nodes(tree: dict[str, Any]) -> Iterator[dict[str, Any]]:
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(node.get("children", []))


@pytest.fixture
def settings(client: wda.Client) -> wda.Client:
    """A Settings session: a screen with cells holding buttons, switches and texts."""
    return client.session(SETTINGS)


@pytest.mark.parametrize("scope", ["AppiumAUT", "x-1.2", "\u00e9t\u00e9"])
def test_a_scope_wraps_the_application_node_in_an_element_of_its_name(settings, raw, scope):
    plain = _source(raw)
    scoped = _source(raw, scope=scope)
    assert scoped.startswith(f"{HEADER}<{scope}>\n  <XCUIElementTypeApplication ")
    assert scoped.endswith(f"</{scope}>\n")
    # the same tree, each line two spaces further in, as libxml2's formatted dump writes it
    inner = scoped[len(HEADER):].splitlines()[1:-1]
    assert [line[2:] for line in inner] == plain[len(HEADER):].splitlines()
    assert all(line.startswith("  ") for line in inner)
    root = etree.fromstring(scoped.encode())
    assert root.tag == scope
    assert dict(root.attrib) == {} and [c.tag for c in root] == ["XCUIElementTypeApplication"]


def test_an_empty_scope_is_no_scope_and_json_has_none(settings, raw):
    assert _source(raw, scope="") == _source(raw)
    assert _source(raw, format="json", scope="AppiumAUT")["type"] == "Application"


def test_characters_xml_forbids_are_dropped_from_the_scope(settings, raw):
    assert _source(raw, scope="Appium\x01AUT\ufffe").startswith(f"{HEADER}<AppiumAUT>\n")


@pytest.mark.parametrize("scope", ["1st", "a b", "<x>", "\x01", "a&b", "my:scope"])
def test_a_scope_xml_cannot_name_an_element_with_fails_as_wdas_write(settings, raw, scope):
    reply = raw("GET", "/source?" + urllib.parse.urlencode({"scope": scope}))
    assert reply.status == 500, reply.value
    assert reply.value["error"] == "unknown error"
    assert reply.value["message"] == "Cannot get 'xml' source of the current application"


def test_xml_exclusions_match_in_any_case_and_are_not_trimmed(settings, raw):
    full = _source(raw)
    trimmed = _source(raw, excluded_attributes="NAME,Label, visible,bogus,")
    assert ' name="' in full and ' label="' in full
    assert ' name="' not in trimmed and ' label="' not in trimmed
    assert ' visible="' in trimmed  # " visible" names no attribute, as WDA reads it
    assert _source(raw, excluded_attributes="bogus,") == full


def test_json_carries_wdas_keys_and_leaves_out_what_excluded_attributes_names(settings, raw):
    full = _source(raw, format="json")
    assert {"customActions", "nativeFrame", "isNativeAccessibilityElement"} <= set(full)
    assert full["customActions"] is None and full["nativeFrame"] == full["frame"]
    names = "visible,frame,nativeAccessibilityElement,focused,name,rect,type,children"
    trimmed = _source(raw, format="json", excluded_attributes=names)
    for node in _nodes(trimmed):
        assert not {"isVisible", "frame", "isNativeAccessibilityElement", "isFocused"} & set(node)
        # what WDA always writes stays, whatever is asked
        assert {"type", "name", "rect", "label", "value", "rawIdentifier", "customActions",
                "isEnabled", "isAccessible", "traits", "nativeFrame"} <= set(node), node
    assert "children" in trimmed
    # JSON's exclusions are matched as written, case and spaces and all
    assert _source(raw, format="json", excluded_attributes="Visible, frame") == full


def test_excluded_xml_and_json_sources_are_of_the_same_screen(settings, raw):
    xml_root = etree.fromstring(_source(raw, excluded_attributes="visible").encode())
    tree = _source(raw, format="json", excluded_attributes="visible")
    assert len(list(xml_root.iter())) == sum(1 for _ in _nodes(tree))


def test_accessibility_container_says_an_accessible_element_lies_below(settings):
    def container(element: wda.Element) -> Any:
        return element.accessibility_container

    cell = settings(className="Cell", visible=True).get(timeout=5)
    button = settings(id="com.apple.settings.general").get(timeout=5)
    text = settings(className="StaticText", label="General").get(timeout=5)
    window = settings(className="Window").get(timeout=5)
    assert (container(cell), container(window)) == (True, True)
    assert (container(button), container(text)) == (False, False)
    # the same reading behind the attribute route and the predicates
    assert button._prop("attribute/accessibilityContainer") is False
    assert cell._prop("attribute/accessibilityContainer") is True
    found = settings(predicate="accessibilityContainer == 1 AND type == 'XCUIElementTypeButton'")
    assert not found.exists
    assert settings(predicate="accessibilityContainer == 1 AND type == 'XCUIElementTypeCell'"
                    ).exists
