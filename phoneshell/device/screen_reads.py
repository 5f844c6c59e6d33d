"""What the harness reads off a page source it already holds, without asking the phone again:
the app an XML source's application node names, and the text inputs of a JSON or parsed source
(for reading typing back). `device.phone.Phone` keeps its reads and hands them here.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from phoneshell.evidence import Foreground
from phoneshell.tree import PageSource
from phoneshell.xcui import TEXT_INPUTS, flag, short_type, text_inputs

APP_NODE = re.compile(r"<XCUIElementTypeApplication\b([^>]*)>")
ATTRIBUTE = re.compile(r'(\w+)="([^"]*)"')


@dataclass(frozen=True)
class TextInput:
    """A text field as the JSON page source describes it (for reading typing back)."""

    type: str
    label: str
    name: str
    value: str
    focused: bool
    alone: bool = False
    """The only text input in the source it was read from."""


def sole_input(page: PageSource) -> TextInput | None:
    """The page's one text input, as focused, when it holds exactly one (None otherwise)."""
    inputs = [e for e in page.elements if e.type in TEXT_INPUTS]
    if len(inputs) != 1:
        return None
    e = inputs[0]
    return TextInput(short_type(e.type), e.label, e.name, e.value, True, alone=True)


def inputs_of(tree: object) -> list[TextInput]:
    """The text inputs of a JSON page source, with which one has focus."""
    nodes = list(text_inputs(tree))
    return [TextInput(short_type(str(node.get("type", ""))), str(node.get("label") or ""),
                      str(node.get("name") or ""), str(node.get("value") or ""),
                      flag(node, "isFocused"), alone=len(nodes) == 1) for node in nodes]


def app_of_source(xml: str) -> Foreground | None:
    """The app an XML source's application node names (None when it names none)."""
    node = APP_NODE.search(xml, 0, 4000)
    attributes = dict(ATTRIBUTE.findall(node.group(1))) if node else {}
    bundle = html.unescape(attributes.get("bundleId", ""))
    if not bundle:
        return None
    pid = attributes.get("processId", "")
    return Foreground(bundle_id=bundle, name=html.unescape(attributes.get("name", "")),
                      pid=int(pid) if pid.isascii() and pid.isdigit() else 0)
