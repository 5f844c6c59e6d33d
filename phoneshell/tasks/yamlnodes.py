"""Reading YAML nodes against field specs, keeping the line and column of everything read.

The task loader walks `yaml.compose` node trees (not plain dicts) through these helpers, so a
problem always points at the text to fix.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from phoneshell.errors import Problem
from phoneshell.params import Param
from phoneshell.registry import close_matches

_NUMBER_TAGS = ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float")
NULL_TAG = "tag:yaml.org,2002:null"


class Invalid(Exception):
    """Raised inside the walker after a problem was recorded, to skip the broken node."""


@dataclass
class NodeFile:
    """Problems found in one file, each pinned to a node."""

    path: str
    problems: list[Problem] = field(default_factory=list)

    def error(self, node: Node | None, message: str) -> Invalid:
        self.problems.append(self._at(node, message, "error"))
        return Invalid(message)

    def warn(self, node: Node | None, message: str) -> None:
        self.problems.append(self._at(node, message, "warning"))

    def _at(self, node: Node | None, message: str, severity: str) -> Problem:
        if node is None:
            return Problem(self.path, 1, 1, message, severity)
        mark = node.start_mark
        return Problem(self.path, mark.line + 1, mark.column + 1, message, severity)

    def line(self, node: Node) -> int:
        return int(node.start_mark.line) + 1


def unknown_key(key: str, accepted: Sequence[str], what: str) -> str:
    close = close_matches(key, list(accepted))
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return f"unknown key {key!r} in {what}{hint} (accepted: {', '.join(accepted)})"


def pairs_of(f: NodeFile, node: Node, what: str) -> list[tuple[str, ScalarNode, Node]]:
    """The (key, key node, value node) pairs of a mapping; duplicate keys are errors."""
    if not isinstance(node, MappingNode):
        raise f.error(node, f"{what} should be a mapping of keys to values")
    seen: dict[str, ScalarNode] = {}
    pairs = []
    for key_node, value_node in node.value:
        if not isinstance(key_node, ScalarNode):
            raise f.error(key_node, f"keys in {what} must be plain names")
        key = str(key_node.value)
        if key in seen:
            f.error(key_node, f"duplicate key {key!r} in {what} (first at line "
                              f"{f.line(seen[key])})")
            continue
        seen[key] = key_node
        pairs.append((key, key_node, value_node))
    return pairs


def read_value(f: NodeFile, node: Node, spec: Param, what: str) -> object:
    """Read one field value against its spec, recording a problem (and raising) when wrong."""
    name = f"`{spec.name}` of {what}"
    if spec.type == "str_list":
        if not isinstance(node, SequenceNode):
            raise f.error(node, f"{name} should be {spec.describe()}")
        return tuple(str(read_value(f, item, Param(spec.name, "str", ""), what))
                     for item in node.value)
    if spec.type == "str_map":
        return tuple((key, str(read_value(f, value, Param(key, "str", ""), f"`{spec.name}`")))
                     for key, _, value in pairs_of(f, node, name))
    if spec.type == "point":
        if not (isinstance(node, SequenceNode) and len(node.value) == 2):
            raise f.error(node, f"{name} should be {spec.describe()}")
        x, y = (read_value(f, item, Param(spec.name, "number", ""), what) for item in node.value)
        return (x, y)
    if not isinstance(node, ScalarNode):
        raise f.error(node, f"{name} should be {spec.describe()}")
    raw, tag = str(node.value), node.tag
    if spec.type in ("str", "regex", "choice"):
        if tag == "tag:yaml.org,2002:null" or not raw.strip():
            raise f.error(node, f"{name} is empty; it should be {spec.describe()}")
        if spec.type == "choice" and raw not in spec.choices:
            close = close_matches(raw, list(spec.choices))
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise f.error(node, f"{name} is {raw!r}; it should be {spec.describe()}{hint}")
        if spec.type == "regex":
            try:
                re.compile(raw)
            except re.error as exc:
                raise f.error(node, f"{name} is not a valid regular expression: {exc}") from exc
        return raw
    if spec.type == "bool":
        if tag != "tag:yaml.org,2002:bool":
            raise f.error(node, f"{name} should be true or false, got {raw!r}")
        return raw.lower() in ("true", "yes", "on")
    if tag not in _NUMBER_TAGS:
        raise f.error(node, f"{name} should be {spec.describe()}, got {raw!r}")
    number = float(raw.replace("_", ""))
    if spec.type == "int" and (tag != _NUMBER_TAGS[0]):
        raise f.error(node, f"{name} should be {spec.describe()}, got {raw!r}")
    if spec.minimum is not None and number < spec.minimum:
        raise f.error(node, f"{name} is {raw}; it should be {spec.describe()}")
    return int(number) if spec.type == "int" else number
