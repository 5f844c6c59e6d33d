"""Reading YAML nodes against field specs, keeping the line and column of everything read.

The task loader walks node trees (`compose`, not plain dicts) through these helpers, so a
problem always points at the text to fix. Nesting deeper than `MAX_DEPTH` is refused where it
starts: PyYAML composes nodes recursively, so 100,000 `[` would end in a RecursionError. A value
with an explicit YAML tag (`!!binary aGVsbG8=`, `!custom foo`) is refused at its line: the
walker reads the text as written, so the tag would be dropped without a word and a check would
look for 'aGVsbG8=' where its author meant "hello". Names of apps and element types are read by
`names.py`.

The text is read by libyaml where PyYAML has it (every wheel does), and composed here in Python
under the depth bound: PyYAML's own Python reader and parser took 85% of loading the suite (0.35
of 0.42 CPU-s for its 80 files, paid by every `phoneshell` command that loads tasks), libyaml's
events composed here take a tenth of that and give the same nodes, each starting at the same
line and column. A file libyaml refuses is read again in Python, so a refusal reads as it always
did; libyaml takes a few that Python's reader refused (docs/tasks.md).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import yaml
from yaml.constructor import ConstructorError, SafeConstructor
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from phoneshell.errors import Problem
from phoneshell.params import Param, ParamType
from phoneshell.patterns import PatternError, compile_pattern, search
from phoneshell.registry import close_matches
from phoneshell.spelling import read_pattern
from phoneshell.tasks.names import Refused, bundle_id, wda_type

_NUMBER_TAGS = ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float")
NULL_TAG = "tag:yaml.org,2002:null"
_NUMBERS = SafeConstructor()
"""YAML's own reading of numbers: `.inf`, `.nan`, `0x1F`, `1_000` and `1:30` are YAML numbers
that Python's float() and int() refuse or read otherwise."""
MAX_DEPTH = 50
"""The deepest nesting of lists and mappings a task file may have (the format needs 5)."""
PLAIN_TAGS = frozenset({"tag:yaml.org,2002:str", "tag:yaml.org,2002:seq",
                        "tag:yaml.org,2002:map"} | {
    tag for resolvers in yaml.resolver.Resolver.yaml_implicit_resolvers.values()
    for tag, _ in resolvers})
"""The tags YAML gives untagged values (a plain `423` is an int, `yes` a bool): a node with any
other tag was tagged explicitly by its author."""


class _TooDeep(yaml.MarkedYAMLError):
    """Nesting past `MAX_DEPTH`, raised where it starts, before the composer recurses further."""


class _Bounded(yaml.composer.Composer):
    """PyYAML's composer, refusing nesting deeper than `MAX_DEPTH`."""

    depth = 0

    def compose_node(self, parent: Node | None, index: int) -> Node | None:
        self.depth += 1
        try:
            if self.depth > MAX_DEPTH:
                where = self.peek_event().start_mark  # type: ignore[attr-defined]
                raise _TooDeep(problem=f"nested more than {MAX_DEPTH} levels deep (the limit; a "
                                       "task file needs 5)", problem_mark=where)
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


class _PythonLoader(_Bounded, yaml.SafeLoader):
    """PyYAML's safe loader read in Python, under the depth bound: where libyaml is missing."""


try:
    from yaml._yaml import CParser
except ImportError:  # PyYAML built without libyaml
    _BoundedLoader: type = _PythonLoader
else:
    class _CLoader(_Bounded, CParser, SafeConstructor, yaml.resolver.Resolver):
        """libyaml's events (`CParser`) composed by `_Bounded`, resolved as the safe loader does:
        the composer's methods come first, so libyaml's own composer, which knows no
        `MAX_DEPTH`, never runs."""

        def __init__(self, stream: str) -> None:
            CParser.__init__(self, stream)
            _Bounded.__init__(self)
            SafeConstructor.__init__(self)
            yaml.resolver.Resolver.__init__(self)

    _BoundedLoader = _CLoader


def compose(text: str, path: str) -> tuple[Node | None, list[Problem]]:
    """Parse YAML into a node tree, turning syntax errors into a pinned problem."""
    try:
        try:
            root = yaml.compose(text, Loader=_BoundedLoader)
        except yaml.YAMLError:
            if _BoundedLoader is _PythonLoader:
                raise
            # read again in Python, whose refusals the docs quote: libyaml's positions count
            # bytes, and it stops nesting at its own 1,000th level, not at `MAX_DEPTH`
            root = yaml.compose(text, Loader=_PythonLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = " ".join(filter(None, [exc.context, exc.problem]))
        return None, [Problem(path, line, col, f"not valid YAML: {problem}")]
    except yaml.reader.ReaderError as exc:  # a character YAML refuses: no mark, a position
        line = text.count("\n", 0, exc.position) + 1
        col = exc.position - text.rfind("\n", 0, exc.position)
        return None, [Problem(path, line, col, f"not valid YAML: {exc}")]
    except yaml.YAMLError as exc:
        return None, [Problem(path, 1, 1, f"not valid YAML: {exc}")]
    if root is None:
        return None, [Problem(path, 1, 1, "the file is empty; a task file is a mapping with "
                                          "id, name, instruction and checks")]
    return root, []


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


def untagged(f: NodeFile, node: Node, what: str) -> None:
    """Refuse a node its author tagged (`!!binary`, `!custom`): its tag would be dropped."""
    if node.tag not in PLAIN_TAGS:
        tag = str(node.tag).replace("tag:yaml.org,2002:", "!!")
        raise f.error(node, f"{what} has the YAML tag {tag}, which phoneshell does not read (it "
                            "would take the text as written and drop the tag); write the value "
                            "itself, untagged")


def pairs_of(f: NodeFile, node: Node, what: str) -> list[tuple[str, ScalarNode, Node]]:
    """The (key, key node, value node) pairs of a mapping; duplicate keys are errors."""
    untagged(f, node, what)
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
    untagged(f, node, name)
    if spec.type in ("str_list", "bundle_ids"):
        if not isinstance(node, SequenceNode) or (spec.type == "bundle_ids" and not node.value):
            raise f.error(node, f"{name} should be {spec.describe()}")
        item_type: ParamType = "str" if spec.type == "str_list" else "bundle_id"
        return tuple(str(read_value(f, item, Param(spec.name, item_type, ""), what))
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
    if spec.type in ("str", "regex", "choice", "bundle_id", "wda_type"):
        if tag == "tag:yaml.org,2002:null" or not raw.strip():
            raise f.error(node, f"{name} is empty; it should be {spec.describe()}")
        if spec.type in ("bundle_id", "wda_type"):
            return _name(f, node, spec, name, raw)
        if spec.type == "choice" and raw not in spec.choices:
            close = close_matches(raw, list(spec.choices))
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise f.error(node, f"{name} is {raw!r}; it should be {spec.describe()}{hint}")
        if spec.type == "regex":
            _pattern(f, node, name, raw)
        return raw
    if spec.type == "bool":
        if tag != "tag:yaml.org,2002:bool":
            raise f.error(node, f"{name} should be true or false, got {raw!r}")
        return raw.lower() in ("true", "yes", "on")
    if tag not in _NUMBER_TAGS or (spec.type == "int" and tag != _NUMBER_TAGS[0]):
        raise f.error(node, f"{name} should be {spec.describe()}, got {raw!r}")
    try:
        number = (_NUMBERS.construct_yaml_int(node) if tag == _NUMBER_TAGS[0]
                  else _NUMBERS.construct_yaml_float(node))
    except (ConstructorError, ValueError) as exc:  # an explicit !!int tag on a non-number
        raise f.error(node, f"{name} should be {spec.describe()}, got {raw!r}") from exc
    if not math.isfinite(number):
        raise f.error(node, f"{name} is {raw}; it should be a finite number")
    if ((spec.minimum is not None and number < spec.minimum)
            or (spec.maximum is not None and number > spec.maximum)):
        raise f.error(node, f"{name} is {raw}; it should be {spec.describe()}")
    return number if spec.type == "int" else float(number)


def _name(f: NodeFile, node: Node, spec: Param, name: str, raw: str) -> str:
    """A bundle id or a WDA type, as `names` reads it (refused or warned about at `node`)."""
    try:
        if spec.type == "wda_type":
            return wda_type(raw)
        value, warning = bundle_id(raw)
    except Refused as exc:
        raise f.error(node, f"{name}: {exc}") from exc
    if warning:
        f.warn(node, f"{name}: {warning}")
    return value


def _pattern(f: NodeFile, node: Node, name: str, raw: str) -> None:
    """A pattern must compile, and must need at least one character to match: one that matches
    the empty string (`(?i)`, `.*`, `x?`) is found in any text, so a check with it passes every
    screen. So must its read form (`spelling.read_pattern`), which the checks also search with:
    an invisible character dropped there can leave nothing to match (a group holding only a
    zero-width space, U+200B, is `()` once read)."""
    try:
        pattern = compile_pattern(raw)
    except PatternError as exc:
        raise f.error(node, f"{name} is not a valid regular expression: {exc}") from exc
    read = read_pattern(pattern)
    raw_empty = search(pattern, "") is not None
    if raw_empty or search(read, "") is not None:
        once = "" if raw_empty else (f", once read as the screen's text is read "
                                     f"({read.pattern!r}: invisible characters, which no "
                                     "reader sees, are dropped)")
        raise f.error(node, f"{name} ({raw!r}) matches the empty string{once}: a search finds "
                            "it in any text (every screen passes) and a whole match passes an "
                            "empty value; make it need at least one character")
