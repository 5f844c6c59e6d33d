"""Parse and run WDA's element queries: NSPredicate strings and XCUITest class chains.

The subset real clients send (facebook-wda's selectors, Appium users, models writing queries):

* predicates: `attr OP value` joined by AND / OR / NOT and parentheses; attributes `name`,
  `label`, `value`, `type`, `visible`, `enabled`, `accessible`, `selected`, `placeholderValue`,
  `rawIdentifier` (the `wd`-prefixed spellings too); operators `==`, `!=`, `CONTAINS`,
  `BEGINSWITH`, `ENDSWITH`, `LIKE`, `MATCHES` (a full-string regex, given `MATCHES_S` per
  query), each optionally `[c]` (case-insensitive) or `[cd]`; values in single or double quotes
  (backslash escapes), numbers, true/false/YES/NO, nil;
* class chains: steps separated by "/", each `**` (any depth below) or a type
  (`XCUIElementTypeButton`, `XCUIElementTypeAny`, `*`) with optional `` [`predicate`] ``,
  `[$predicate$]` (some descendant matches) and `[n]` (1-based; negative counts from the end).

Anything else raises `SelectorError`, which WDA reports as `invalid selector`.
"""

from __future__ import annotations

import fnmatch
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import regex

from phoneshell.sim.ui import Node, walk
from phoneshell.xcui import TYPE_PREFIX

Matcher = Callable[[Node], bool]


class SelectorError(ValueError):
    """A query the simulator (like WDA) cannot parse."""


_TOKEN = re.compile(r"""
    \s*(?:
      (?P<str>'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")
    | (?P<op>==|!=|<>|=|\(|\)|&&|\|\|)
    | (?P<num>-?\d+(?:\.\d+)?)
    | (?P<word>[A-Za-z_][A-Za-z0-9_.]*)
    | (?P<mod>\[[cdCD]+\])
    )""", re.VERBOSE)

_STRING_ATTRS: dict[str, Callable[[Node], str | None]] = {
    "name": lambda n: n.name, "label": lambda n: n.label, "value": lambda n: n.value,
    "type": lambda n: n.wd_type, "placeholdervalue": lambda n: n.placeholder,
    "rawidentifier": lambda n: n.name if n.name != n.label else None,
    "identifier": lambda n: n.name if n.name != n.label else None,
}
_BOOL_ATTRS: dict[str, Callable[[Node], bool]] = {
    "visible": lambda n: n.visible, "enabled": lambda n: n.enabled,
    "accessible": lambda n: n.is_accessible, "selected": lambda n: n.selected,
    "hasfocus": lambda n: n.focused, "focused": lambda n: n.focused,
}
MATCHES_S = 2.0
"""How long one query's MATCHES regexes may run, over every element they test."""
_OPERATORS = ("==", "=", "!=", "<>", "CONTAINS", "BEGINSWITH", "ENDSWITH", "LIKE", "MATCHES")


def _unquote(token: str) -> str:
    return re.sub(r"\\(.)", r"\1", token[1:-1])


def _tokens(text: str) -> list[tuple[str, str]]:
    out, pos = [], 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            raise SelectorError(f"cannot parse predicate at {text[pos:pos + 20]!r}")
        kind = m.lastgroup or ""
        out.append((kind, m.group(kind)))
        pos = m.end()
    return out


class _Parser:
    """Recursive descent over the token list (precedence: NOT > AND > OR)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.toks = _tokens(text)
        self.i = 0

    def peek(self) -> tuple[str, str]:
        return self.toks[self.i] if self.i < len(self.toks) else ("end", "")

    def take(self) -> tuple[str, str]:
        tok = self.peek()
        self.i += 1
        return tok

    def keyword(self, *words: str) -> bool:
        kind, text = self.peek()
        if (kind == "word" and text.upper() in words) or (kind == "op" and text in words):
            self.i += 1
            return True
        return False

    def parse(self) -> Matcher:
        matcher = self.disjunction()
        if self.peek()[0] != "end":
            raise SelectorError(f"unexpected {self.peek()[1]!r} in predicate {self.text!r}")
        return matcher

    def disjunction(self) -> Matcher:
        parts = [self.conjunction()]
        while self.keyword("OR", "||"):
            parts.append(self.conjunction())
        return parts[0] if len(parts) == 1 else lambda n: any(p(n) for p in parts)

    def conjunction(self) -> Matcher:
        parts = [self.negation()]
        while self.keyword("AND", "&&"):
            parts.append(self.negation())
        return parts[0] if len(parts) == 1 else lambda n: all(p(n) for p in parts)

    def negation(self) -> Matcher:
        if self.keyword("NOT", "!"):
            inner = self.negation()
            return lambda n: not inner(n)
        if self.peek() == ("op", "("):
            self.take()
            inner = self.disjunction()
            if self.take() != ("op", ")"):
                raise SelectorError(f"missing ')' in predicate {self.text!r}")
            return inner
        return self.comparison()

    def comparison(self) -> Matcher:
        kind, attr = self.take()
        if kind != "word":
            raise SelectorError(f"expected an attribute name in predicate {self.text!r}")
        kind, op = self.take()
        op = op.upper()
        if op not in _OPERATORS:
            raise SelectorError(f"unsupported operator {op!r} in predicate {self.text!r}")
        fold = False
        if self.peek()[0] == "mod":
            fold = "c" in self.take()[1].lower()
        kind, literal = self.take()
        if kind not in ("str", "num", "word"):
            raise SelectorError(f"expected a value after {op} in predicate {self.text!r}")
        return _compare(attr, op, kind, literal, fold)


def _compare(attr: str, op: str, kind: str, literal: str, fold: bool) -> Matcher:
    key = attr.lower().removeprefix("wd")
    if key in _BOOL_ATTRS:
        read_bool = _BOOL_ATTRS[key]
        want = literal.lower() in ("true", "yes", "1", "'1'", "'true'")
        negate = op in ("!=", "<>")
        return lambda n: (read_bool(n) == want) != negate
    read = _STRING_ATTRS.get(key)
    if read is None:
        raise SelectorError(f"unsupported attribute {attr!r} (use name, label, value, type, "
                            "visible, enabled, accessible, selected)")
    text = _unquote(literal) if kind == "str" else literal
    if kind == "word" and literal.lower() in ("nil", "null"):
        is_nil = op in ("==", "=")
        return lambda n: (read(n) is None) == is_nil
    if key == "type" and not text.startswith(TYPE_PREFIX) and op in ("==", "=", "!=", "<>"):
        text = TYPE_PREFIX + text
    test = _string_test(op, text.lower() if fold else text, fold)

    def match(node: Node) -> bool:
        got = read(node)
        if got is None:
            return op in ("!=", "<>")
        return test(got.lower() if fold else got)

    return match


def _string_test(op: str, want: str, fold: bool) -> Callable[[str], bool]:
    if op in ("==", "="):
        return lambda got: got == want
    if op in ("!=", "<>"):
        return lambda got: got != want
    if op == "CONTAINS":
        return lambda got: want in got
    if op == "BEGINSWITH":
        return lambda got: got.startswith(want)
    if op == "ENDSWITH":
        return lambda got: got.endswith(want)
    if op == "LIKE":
        return lambda got: fnmatch.fnmatchcase(got, want)
    try:
        pattern = regex.compile(want, regex.IGNORECASE if fold else 0)
    except regex.error as exc:
        raise SelectorError(f"bad MATCHES regex {want!r}: {exc}") from exc
    # A regex can backtrack for ages ("(x+x+)+y" on a long label): a query gets a few seconds
    # in all, then fails, rather than holding the phone.
    deadline = time.monotonic() + MATCHES_S

    def matches(got: str) -> bool:
        try:
            return pattern.fullmatch(got, timeout=max(0.0, deadline - time.monotonic())) \
                is not None
        except TimeoutError as exc:
            raise SelectorError(f"MATCHES regex {want!r} took over {MATCHES_S} s") from exc

    return matches


def predicate(text: str) -> Matcher:
    """Compile an NSPredicate-format string into a node test.

    Raises:
        SelectorError: the string is outside the supported subset.
    """
    return _Parser(text).parse()


@dataclass(frozen=True)
class _Step:
    deep: bool
    type: str | None
    tests: tuple[Matcher, ...]
    index: int | None


_STEP = re.compile(r"(\*\*|[A-Za-z*]+)((?:\[(?:`(?:[^`])*`|\$(?:[^$])*\$|-?\d+)\])*)$")
_FILTER = re.compile(r"\[(`[^`]*`|\$[^$]*\$|-?\d+)\]")


def _steps(chain: str) -> list[_Step]:
    steps: list[_Step] = []
    deep = False
    for part in _split_chain(chain):
        m = _STEP.match(part)
        if m is None:
            raise SelectorError(f"cannot parse class chain step {part!r}")
        name, filters = m.group(1), m.group(2)
        if name == "**":
            if filters or deep:
                raise SelectorError(f"'**' must be followed by a type in {chain!r}")
            deep = True
            continue
        kind = None if name in ("*", TYPE_PREFIX + "Any") else name
        if kind is not None and not kind.startswith(TYPE_PREFIX):
            raise SelectorError(f"unknown element type {name!r} in class chain {chain!r}")
        tests: list[Matcher] = []
        index = None
        for f in _FILTER.findall(filters):
            if f.startswith("`"):
                tests.append(predicate(f[1:-1]))
            elif f.startswith("$"):
                tests.append(_has_descendant(predicate(f[1:-1])))
            else:
                index = int(f)
                if index == 0:
                    raise SelectorError(f"class chain indices start at 1 in {chain!r}")
        steps.append(_Step(deep, kind, tuple(tests), index))
        deep = False
    if deep or not steps:
        raise SelectorError(f"class chain {chain!r} must end with an element type")
    return steps


def _has_descendant(test: Matcher) -> Matcher:
    return lambda node: any(test(d) for d in walk(node) if d is not node)


def _split_chain(chain: str) -> list[str]:
    # Split on "/" outside backticks and dollar signs, where predicates may contain slashes.
    parts, current, quote = [], "", ""
    for char in chain.strip().lstrip("/"):
        if char in "`$" and (not quote or quote == char):
            quote = "" if quote else char
        if char == "/" and not quote:
            parts.append(current)
            current = ""
        else:
            current += char
    parts.append(current)
    return [p for p in parts if p]


def class_chain(chain: str, context: Node) -> list[Node]:
    """Run a class chain from `context` (the application, or an element); document order.

    Raises:
        SelectorError: the chain is outside the supported subset.
    """
    found = [context]
    for step in _steps(chain):
        batch: list[Node] = []
        for parent in found:
            pool = [d for d in walk(parent) if d is not parent] if step.deep else parent.children
            hits = [n for n in pool if (step.type is None or n.wd_type == step.type)
                    and all(t(n) for t in step.tests)]
            batch.extend(_pick(hits, step.index) if not step.deep else hits)
        if step.deep:
            batch = _pick(batch, step.index)
        unique = {id(n): n for n in batch}
        found = list(unique.values())
    return found


def _pick(nodes: Sequence[Node], index: int | None) -> list[Node]:
    if index is None:
        return list(nodes)
    at = index - 1 if index > 0 else len(nodes) + index
    return [nodes[at]] if 0 <= at < len(nodes) else []
