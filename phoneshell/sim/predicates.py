"""Parse and run NSPredicate format strings as WDA evaluates them against elements.

What WDA (appium WebDriverAgent 16) does with `predicate string` and a class chain's predicates,
and so what this module accepts and refuses (`docs/simulator.md` has the table):

* `[NSPredicate predicateWithFormat:]` parses the text. Comparisons `==` `=` `!=` `<>` `<` `<=`
  `=<` `>` `>=` `=>`, `CONTAINS` `BEGINSWITH` `ENDSWITH` `LIKE` `MATCHES` `IN` `BETWEEN` (string
  operators with `[c]`, `[d]`, `[n]` options), joined by `AND`/`&&`, `OR`/`||`, `NOT`/`!` and
  parentheses; `TRUEPREDICATE`, `FALSEPREDICATE`; literals in single or double quotes (with
  backslash escapes), numbers (`1`, `-2.5`, `9e-3`, `0x1F`, `0o17`, `0b101`), `TRUE`/`YES`,
  `FALSE`/`NO`, `NIL`/`NULL`, `{array}`. A bare word is a key path, never a text: in
  `label == General`, `General` is a key. Text it cannot parse raises NSInvalidArgumentException,
  which WDA answers `unknown error` (500) "Unable to parse the format string".
* Every key path's first part must be one of WDA's element attributes (`FBElement`, by its
  `wd` name or its short alias, case as written): `label == 'x'`, `wdLabel == 'x'`,
  `rect.x > 10` and `hittable == 1` pass; `identifier`, `Label`, `General` raise
  FBUnknownAttributeException, which WDA also answers `unknown error`.

Beyond WDA: a text nesting NOT, parentheses or arrays deeper than `MAX_NESTING` is refused
(`invalid selector`) before the recursive parser could overflow, as the JSON reader bounds a
body's depth; so is what the simulator does not evaluate (arithmetic, FUNCTION, SUBQUERY, `@`
aggregates), and a `MATCHES`/`LIKE` that runs past `MATCHES_S` on one query.
"""

from __future__ import annotations

import re
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Union

import regex

from phoneshell.sim.attributes import On, attribute_alias, attribute_value
from phoneshell.sim.ui import Node, Rect
from phoneshell.sim.wire import WdaError

Matcher = Callable[[Node, On], bool]
Value = Union[str, int, float, None, list["Value"], dict[str, int], "_Self"]
MATCHES_S = 2.0
"""How long one query's MATCHES and LIKE patterns may run, over every element they test."""
_ORIGIN = Rect(0, 0, 0, 0)
MAX_NESTING = 64
"""How deep NOT, parentheses and arrays may nest: far past any real query, far inside what a
recursive parser can take."""


class SelectorError(ValueError):
    """A query WDA (or the simulator's bounds) refuses as `invalid selector`."""


class _Self:
    """NSPredicate's SELF: the element object, equal to no literal."""


_KEYWORDS = frozenset({
    "AND", "OR", "IN", "NOT", "ALL", "ANY", "SOME", "NONE", "LIKE", "CASEINSENSITIVE", "CI",
    "MATCHES", "CONTAINS", "BEGINSWITH", "ENDSWITH", "BETWEEN", "NULL", "NIL", "SELF", "TRUE",
    "YES", "FALSE", "NO", "FIRST", "LAST", "SIZE", "ANYKEY", "SUBQUERY", "FUNCTION", "CAST",
    "TRUEPREDICATE", "FALSEPREDICATE", "UTI-CONFORMS-TO", "UTI-EQUALS"})
_TOKEN = re.compile(r"""\s*(?:
      (?P<str>'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")
    | (?P<num>0[xX][0-9A-Fa-f]+|0[oO][0-7]+|0[bB][01]+|(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)
    | (?P<word>\#?[A-Za-z_][A-Za-z0-9_]*)
    | (?P<mod>\[[A-Za-z]*\])
    | (?P<op>==|=<|=>|<=|>=|!=|<>|&&|\|\||=|<|>|!|\(|\)|\{|\}|,|\.|-|\+|\*\*|\*|/|\$|@)
    )""", re.VERBOSE | re.DOTALL)
_ESCAPE = re.compile(r"\\(x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|[0-7]{3}|.)", re.DOTALL)
_COMPARISONS = {"==": "==", "=": "==", "!=": "!=", "<>": "!=", "<": "<", "<=": "<=",
                "=<": "<=", ">": ">", ">=": ">=", "=>": ">="}
_STRING_OPS = frozenset({"CONTAINS", "BEGINSWITH", "ENDSWITH", "LIKE", "MATCHES"})


def _syntax(text: str) -> WdaError:
    # NSPredicate raises NSInvalidArgumentException, which WDA answers as `unknown error`.
    return WdaError("unknown error", f'Unable to parse the format string "{text}"')


def _tokens(text: str) -> list[tuple[str, str]]:
    out, pos = [], 0
    while pos < len(text):
        if not text[pos:].strip():
            break
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            raise _syntax(text)
        kind = m.lastgroup or ""
        out.append((kind, m.group(kind)))
        pos = m.end()
    return out


def _unquote(token: str) -> str:
    def one(m: re.Match[str]) -> str:
        code = m.group(1)
        if len(code) > 1:
            return chr(int(code[1:], 16) if code[0] in "xu" else int(code, 8))
        return {"n": "\n", "t": "\t", "r": "\r"}.get(code, code)

    return _ESCAPE.sub(one, token[1:-1])


def _number(token: str) -> int | float:
    if token[:2].lower() in ("0x", "0o", "0b"):
        return int(token, 0)
    return float(token) if any(c in token for c in ".eE") else int(token)


@dataclass(frozen=True)
class _Expr:
    """One side of a comparison: a constant, a key path, or an array of expressions."""

    read: Callable[[Node, On], Value]
    constant: bool


class _Parser:
    """Recursive descent over NSPredicate's grammar (precedence: NOT > AND > OR)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.toks = _tokens(text)
        self.i = 0
        self.depth = 0

    def peek(self) -> tuple[str, str]:
        return self.toks[self.i] if self.i < len(self.toks) else ("end", "")

    def take(self) -> tuple[str, str]:
        tok = self.peek()
        self.i += 1
        return tok

    def word(self, *words: str) -> bool:
        kind, text = self.peek()
        if (kind == "word" and text.upper() in words) or (kind == "op" and text in words):
            self.i += 1
            return True
        return False

    def nest(self) -> None:
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise SelectorError(f"the predicate nests NOT, parentheses or arrays deeper than "
                                f"{MAX_NESTING}: '{self.text[:60]}'...")

    def parse(self) -> Matcher:
        if not self.toks:
            raise _syntax(self.text)
        matcher = self.disjunction()
        if self.peek()[0] != "end":
            raise _syntax(self.text)
        return matcher

    def disjunction(self) -> Matcher:
        parts = [self.conjunction()]
        while self.word("OR", "||"):
            parts.append(self.conjunction())
        return parts[0] if len(parts) == 1 else lambda n, on: any(p(n, on) for p in parts)

    def conjunction(self) -> Matcher:
        parts = [self.negation()]
        while self.word("AND", "&&"):
            parts.append(self.negation())
        return parts[0] if len(parts) == 1 else lambda n, on: all(p(n, on) for p in parts)

    def negation(self) -> Matcher:
        if self.word("NOT", "!"):
            self.nest()
            inner = self.negation()
            self.depth -= 1
            return lambda n, on: not inner(n, on)
        if self.peek() == ("op", "("):
            self.take()
            self.nest()
            inner = self.disjunction()
            self.depth -= 1
            if self.take() != ("op", ")"):
                raise _syntax(self.text)
            return inner
        if self.word("TRUEPREDICATE"):
            return lambda n, on: True
        if self.word("FALSEPREDICATE"):
            return lambda n, on: False
        return self.comparison()

    def comparison(self) -> Matcher:
        if self.word("ANY", "ALL", "SOME", "NONE"):
            # Valid NSPredicate, but no WDA attribute is a collection: evaluating it raises.
            raise WdaError("unknown error", "The left hand side for an ALL or ANY operator "
                                            "must be either an NSArray or an NSSet.")
        left = self.expression()
        kind, op = self.take()
        op_name = _COMPARISONS.get(op) if kind == "op" else \
            op.upper() if kind == "word" and op.upper() in _STRING_OPS | {"IN", "BETWEEN"} \
            else None
        if op_name is None:
            raise _syntax(self.text)
        options = ""
        if self.peek()[0] == "mod":
            options = self.take()[1][1:-1]
            if not options or any(c not in "cdnlCDNL" for c in options):
                raise _syntax(self.text)
        right = self.expression()
        return _compare(op_name, options.lower(), left, right)

    def expression(self) -> _Expr:
        kind, text = self.take()
        if kind == "str":
            literal: Value = _unquote(text)
            return _Expr(lambda n, on: literal, True)
        if kind == "num" or (kind, text) == ("op", "-") and self.peek()[0] == "num":
            number = -_number(self.take()[1]) if kind == "op" else _number(text)
            return _Expr(lambda n, on: number, True)
        if (kind, text) == ("op", "{"):
            return self.array()
        if kind == "op" and text in ("$", "@"):
            if text == "$":
                raise WdaError("unknown error", "Can't get value for variable in bindings")
            raise SelectorError(f"the simulator does not evaluate @ aggregates: '{self.text}'")
        if kind != "word":
            raise _syntax(self.text)
        upper = text.upper()
        constants: dict[str, Value] = {"TRUE": 1, "YES": 1, "FALSE": 0, "NO": 0,
                                       "NIL": None, "NULL": None, "SELF": _Self()}
        if upper in constants:
            constant = constants[upper]
            return _Expr(lambda n, on: constant, True)
        if upper in ("FUNCTION", "SUBQUERY", "CAST") or self.peek() == ("op", "("):
            raise SelectorError(f"the simulator does not evaluate {text}(...): '{self.text}'")
        if upper in _KEYWORDS:
            raise _syntax(self.text)
        path = [text.removeprefix("#")]
        while self.peek() == ("op", "."):
            self.take()
            kind, part = self.take()
            if kind != "word":
                raise _syntax(self.text)
            path.append(part.removeprefix("#"))
        if self.peek()[0] == "op" and self.peek()[1] in ("+", "-", "*", "**", "/"):
            raise SelectorError(f"the simulator does not evaluate arithmetic: '{self.text}'")
        return _key_path(path)

    def array(self) -> _Expr:
        self.nest()
        items: list[_Expr] = []
        if self.peek() != ("op", "}"):
            items.append(self.expression())
            while self.word(","):
                items.append(self.expression())
        if self.take() != ("op", "}"):
            raise _syntax(self.text)
        self.depth -= 1
        return _Expr(lambda n, on: [item.read(n, on) for item in items],
                     all(item.constant for item in items))


def _key_path(path: list[str]) -> _Expr:
    alias, rest = attribute_alias(path[0]), path[1:]

    def read(node: Node, on: On) -> Value:
        return attribute_value(node, alias, on)

    if not rest:
        return _Expr(read, False)

    def nested(node: Node, on: On) -> Value:
        got = read(node, on)
        for part in rest:  # a dictionary answers nil for a key it lacks
            got = got.get(part) if isinstance(got, dict) else None
        return got

    return _Expr(nested, False)


def _fold(text: str, options: str) -> str:
    if "d" in options:
        text = "".join(c for c in unicodedata.normalize("NFD", text)
                       if not unicodedata.combining(c))
    return text.casefold() if "c" in options else text


def _is_number(value: Value) -> bool:
    return isinstance(value, (int, float))


def _equal(a: Value, b: Value, options: str) -> bool:
    if isinstance(a, str) and isinstance(b, str):
        return _fold(a, options) == _fold(b, options)
    if _is_number(a) and _is_number(b):
        return a == b
    return a is None and b is None


def _order(op: str, a: Value, b: Value, options: str) -> bool:
    if isinstance(a, str) and isinstance(b, str):
        a, b = _fold(a, options), _fold(b, options)
    elif not (_is_number(a) and _is_number(b)):
        return False
    return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]  # type: ignore[operator]


def _compare(op: str, options: str, left: _Expr, right: _Expr) -> Matcher:
    if op in _STRING_OPS:
        return _string_op(op, options, left, right)
    if op == "BETWEEN":
        def between(n: Node, on: On) -> bool:
            got, bounds = left.read(n, on), right.read(n, on)
            if not (isinstance(bounds, list) and len(bounds) == 2):
                raise WdaError("unknown error", "BETWEEN needs an array of two bounds")
            return _order(">=", got, bounds[0], options) and _order("<=", got, bounds[1], options)
        return between
    if op == "IN":
        def inside(n: Node, on: On) -> bool:
            got, pool = left.read(n, on), right.read(n, on)
            if isinstance(pool, list):
                return any(_equal(got, item, options) for item in pool)
            if isinstance(pool, str) and isinstance(got, str):
                return _fold(got, options) in _fold(pool, options)
            return False
        return inside
    if op in ("==", "!="):
        negate = op == "!="
        return lambda n, on: _equal(left.read(n, on), right.read(n, on), options) != negate
    return lambda n, on: _order(op, left.read(n, on), right.read(n, on), options)


def _string_op(op: str, options: str, left: _Expr, right: _Expr) -> Matcher:
    deadline = [0.0]
    patterns: dict[str, regex.Pattern[str]] = {}

    def pattern(want: str) -> regex.Pattern[str]:
        if want not in patterns:
            source = want if op == "MATCHES" else "".join(
                ".*" if c == "*" else "." if c == "?" else regex.escape(c) for c in want)
            try:
                patterns[want] = regex.compile(source, regex.DOTALL | (
                    regex.IGNORECASE if "c" in options else 0))
            except regex.error as exc:
                raise WdaError("unknown error", f"Can't do regex matching, reason: Can't open "
                                                f"pattern {want}: {exc}") from exc
        return patterns[want]

    if right.constant and op == "MATCHES":
        want = right.read(Node("Other", _ORIGIN), None)
        if isinstance(want, str):
            pattern(want)  # a broken regex fails on the first element WDA tests: fail now

    def test(n: Node, on: On) -> bool:
        got, want = left.read(n, on), right.read(n, on)
        if got is None or want is None:
            return False
        if not (isinstance(got, str) and isinstance(want, str)):
            raise WdaError("unknown error", f"Can't do a substring operation ({op}) with "
                                            "something that isn't a string")
        if op in ("LIKE", "MATCHES"):
            # A regex can backtrack for ages ("(x+x+)+y" on a long label): a query gets a
            # few seconds in all, then fails, rather than holding the phone.
            if not deadline[0]:
                deadline[0] = time.monotonic() + MATCHES_S
            text = _fold(got, options.replace("c", ""))
            try:
                return pattern(_fold(want, options.replace("c", ""))).fullmatch(
                    text, timeout=max(0.0, deadline[0] - time.monotonic())) is not None
            except TimeoutError as exc:
                raise SelectorError(f"{op} pattern '{want}' took over {MATCHES_S} s") from exc
        got, want = _fold(got, options), _fold(want, options)
        return want in got if op == "CONTAINS" else got.startswith(want) \
            if op == "BEGINSWITH" else got.endswith(want)

    return test


def predicate(text: str) -> Matcher:
    """Compile an NSPredicate format string into an element test, as WDA would.

    Raises:
        WdaError: NSPredicate or WDA refuses it (`unknown error`, WDA's answer to both).
        SelectorError: it nests past `MAX_NESTING`, or uses what the simulator cannot evaluate.
    """
    return _Parser(text).parse()
