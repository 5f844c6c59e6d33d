"""The accessible source and the description text have WDA's and XCTest's shapes (red team 103):
a client written against the simulator reads on a phone what it read here."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import wda
from lxml import etree

SETTINGS = "com.apple.Preferences"
LEAF_KEYS = {"value", "label", "type", "rawIdentifier", "name"}
CONTAINER_KEYS = {"children", "type", "rawIdentifier", "name"}
"""WDA's `accessibilityInfoForElement:`: nothing else, in particular no rect and no
container label."""
FRAME = re.compile(r"\{\{(-?[0-9.]+), (-?[0-9.]+)\}, \{([0-9.]+), ([0-9.]+)\}\}")
"""The float frame pattern clients parse XCTest's text with."""


def _nodes(node: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield node
    for child in node.get("children", []):
        yield from _nodes(child)


def _read_by_voiceover(element: etree._Element) -> Iterator[etree._Element]:
    """The XML source's elements WDA's accessible tree holds: accessible and visible ones
    under no accessible element (WDA reads no further below an accessible one)."""
    if element.get("accessible") == "true":
        if element.get("visible") == "true":
            yield element
        return
    for child in element:
        yield from _read_by_voiceover(child)


def test_the_accessible_source_has_wdas_keys_and_no_others(client: wda.Client) -> None:
    client.app_launch(SETTINGS)
    tree = client.source(accessible=True)
    root = etree.fromstring(client.source().encode())
    assert set(tree) == CONTAINER_KEYS and tree["type"] == "Application"
    for node in _nodes(tree):
        assert set(node) == (CONTAINER_KEYS if "children" in node else LEAF_KEYS), node
    leaves = [n for n in _nodes(tree) if "children" not in n]
    read = list(_read_by_voiceover(root))
    assert [(n["type"], n["name"], n["label"], n["value"]) for n in leaves] == [
        (e.get("type").removeprefix("XCUIElementType"), e.get("name"), e.get("label"),
         e.get("value")) for e in read]
    general = next(n for n in leaves if n["label"] == "General")
    assert general["rawIdentifier"] == general["name"] == "com.apple.settings.general"
    # a text named by its label has no identifier: WDA says null
    assert any(n["rawIdentifier"] is None and n["name"] == n["label"] for n in leaves)
    # below the fold: accessible but not visible, so WDA leaves it out
    hidden = [e.get("label") for e in root.iter() if e.get("accessible") == "true"
              and e.get("visible") == "false"]
    assert hidden and not {n["label"] for n in leaves} & set(hidden)


def test_the_description_is_xctests_debug_description(client: wda.Client) -> None:
    session = client.session(SETTINGS)
    text = session.http.get("/source?format=description").value
    root = etree.fromstring(client.source().encode())
    first, *_ = text.split("\n\n")
    lines = first.split("\n")
    assert re.fullmatch(r"Attributes: Window \(Main\), 0x[0-9a-f]+, \{\{0\.0, 0\.0\}, "
                        r"\{402\.0, 874\.0\}\}", lines[0]), lines[0]
    assert lines[1] == "Element subtree:"
    assert lines[2] == " \u2192" + lines[0].removeprefix("Attributes: ")
    subtree = lines[2:lines.index("Path to element:")]
    window = root[0]
    assert len(subtree) == len(list(window.iter()))
    # each element at its depth, with its frame as floats and XCTest's names for its texts
    for line, element in zip(subtree[1:], list(window.iter())[1:], strict=True):
        depth = len(list(element.iterancestors())) - 1
        assert line.startswith(" " * (2 + 2 * depth) + element.get("type")[15:] + ", 0x"), line
        frame = FRAME.search(line)
        assert frame is not None, line
        assert [float(v) for v in frame.groups()] == [
            float(element.get(k)) for k in ("x", "y", "width", "height")], line
    general = next(line for line in subtree if "label: 'General'" in line)
    assert re.fullmatch(r" +Button, 0x[0-9a-f]+, \{\{[0-9.]+, [0-9.]+\}, \{[0-9.]+, "
                        r"[0-9.]+\}\}, identifier: 'com\.apple\.settings\.general', "
                        r"label: 'General'", general), general
    pid = root.get("processId")
    assert "Path to element:\n \u2192Application, 0x" in first
    assert f", pid: {pid}, label: 'Settings'\n  \u21b3Window (Main), 0x" in first
    assert f"Query chain:\n \u2192Find: Target Application '{SETTINGS}'\n" in first
    addresses = re.findall(r"0x[0-9a-f]+", "\n".join(subtree))
    assert len(set(addresses)) == len(subtree)  # one address an element
    assert session.http.get("/source?format=description").value == text  # and it repeats
