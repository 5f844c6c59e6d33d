"""XCTest's `debugDescription` of a screen: the text `GET /source?format=description` answers.

WDA's `fb_descriptionRepresentation` (XCUIApplication+FBHelpers.m) joins, with a blank line
between, the `debugDescription` of each child of the application (its windows); with no child, it
gives the application's own. Each is XCTest's text, as XCTest prints it (real ones in public
XCUITest write-ups: `Attributes:`, `Element subtree:`, `Path to element:`, `Query chain:`):

    Attributes: Window (Main), 0x600000c8c0e0, {{0.0, 0.0}, {402.0, 874.0}}
    Element subtree:
     →Window (Main), 0x600000c8c0e0, {{0.0, 0.0}, {402.0, 874.0}}
        Button, 0x600000c8c1c0, {{16.0, 587.0}, {370.0, 52.0}}, identifier: 'x', label: 'General'

An element's line: its short type (the first window is `Window (Main)`), a memory address, its
frame in points with one decimal, then `identifier` (the raw accessibility identifier, never WDA's
name made from a label), `label`, `placeholderValue` (quoted) and `value` (not quoted; a text's
only where it is not its label), each only when not empty, and `Selected`, `Disabled`. The
application's line carries its pid and label instead of a frame. Addresses are made up, fixed per
place in the tree, so a source repeats exactly. Seen in real text: the header lines, the arrow and
indentation of the subtree, the application's line, frames, the order identifier, label, value and
the Selected/Disabled flags. Not seen in any real text we have (a reading of XCTest's format, kept
plain): where `placeholderValue` falls, and the `Path to element:` and `Query chain:` lines below a
child of the application (`↳`, "Children matching type Any", "Element at index"). Pure.
"""

from __future__ import annotations

from phoneshell.sim.ui import Node, Rect, Screen

_ADDRESS_BASE = 0x600000C8C000
_QUERY_BASE = 0x600000D9C000
"""XCTest prints each snapshot's own addresses; a query's output is another snapshot."""
_ADDRESS_STEP = 0xE0
_NEXT = "\u21aa\ufe0e"  # ↪︎, as XCTest writes it (with its text-style selector)


def _frame(f: Rect) -> str:
    return f"{{{{{f.x:.1f}, {f.y:.1f}}}, {{{f.width:.1f}, {f.height:.1f}}}}}"


def _attributes(node: Node) -> str:
    """What follows an element's frame on its line."""
    parts: list[str] = []
    identifier = node.name if node.name is not None and node.name != node.label else None
    if identifier:
        parts.append(f"identifier: '{identifier}'")
    if node.label:
        parts.append(f"label: '{node.label}'")
    if node.placeholder:
        parts.append(f"placeholderValue: '{node.placeholder}'")
    # WDA reports a text's label as its value when XCTest has none (`wdValue`): XCTest's own
    # text names a value only where the element has one of its own ('Or ' beside label 'Or').
    if node.value and not (node.type == "StaticText" and node.value == node.label):
        parts.append(f"value: {node.value}")
    if node.selected:
        parts.append("Selected")
    if not node.enabled:
        parts.append("Disabled")
    return "".join(f", {p}" for p in parts)


class _Lines:
    """The lines of one screen's elements, each with its made-up address."""

    def __init__(self, screen: Screen) -> None:
        self.screen = screen
        self.address: dict[int, int] = {}
        for i, node in enumerate(screen.nodes):
            self.address.setdefault(id(node), _ADDRESS_BASE + _ADDRESS_STEP * i)
        windows = [c for c in screen.root.children if c.type == "Window"]
        self.main = windows[0] if windows else None

    def line(self, node: Node, base: int = _ADDRESS_BASE) -> str:
        address = self.address.get(id(node), _ADDRESS_BASE) - _ADDRESS_BASE + base
        if node is self.screen.root:
            label = node.label or ""
            return f"Application, 0x{address:x}, pid: {self.screen.pid}, label: '{label}'"
        kind = "Window (Main)" if node is self.main else node.type
        return f"{kind}, 0x{address:x}, {_frame(node.reported)}{_attributes(node)}"

    def subtree(self, node: Node) -> list[str]:
        out = [f" \u2192{self.line(node)}"]
        stack = [(child, 1) for child in reversed(node.children)]
        while stack:
            child, depth = stack.pop()
            out.append(" " * (2 + 2 * depth) + self.line(child))
            stack.extend((c, depth + 1) for c in reversed(child.children))
        return out

    def described(self, node: Node, index: int) -> str:
        """XCTest's debugDescription of `node`, the application or its child at `index`."""
        app, bundle = self.line(self.screen.root), self.screen.bundle_id
        out = [f"Attributes: {self.line(node)}", "Element subtree:", *self.subtree(node),
               "Path to element:", f" \u2192{app}"]
        if node is not self.screen.root:
            out.append(f"  \u21b3{self.line(node)}")
        out += ["Query chain:", f" \u2192Find: Target Application '{bundle}'", "  Output: {",
                f"    {self.line(self.screen.root, _QUERY_BASE)}", "  }"]
        if node is not self.screen.root:
            kids = [f"      {self.line(c, _QUERY_BASE)}" for c in self.screen.root.children]
            out += [f"  {_NEXT}Find: Children matching type Any", "    Output: {", *kids,
                    "    }", f"    {_NEXT}Find: Element at index {index}", "      Output: {",
                    f"        {self.line(node, _QUERY_BASE)}", "      }"]
        return "\n".join(out) + "\n"


def to_description(screen: Screen) -> str:
    """The text of `GET /source?format=description` (WDA's `fb_descriptionRepresentation`)."""
    lines = _Lines(screen)
    children = screen.root.children
    if not children:
        return lines.described(screen.root, 0)
    return "\n\n".join(lines.described(child, i) for i, child in enumerate(children))
