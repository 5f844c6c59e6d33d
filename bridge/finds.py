"""Element queries whose cost the bridge cannot bound: refused before they reach the phone.

Pure. WDA answers one request at a time on its main thread, and nothing stops a query once it
runs: an XPath that walks the whole page again for every element it tests, nested, takes hours
on a real page (two thousand elements: 2,000^3 steps for two levels), and a regex that
backtracks catastrophically on a long note does too. Every later request, the harness's
included, would wait behind it, and the phone would be taken for down (the attempt not scored,
the run stopped), the same as a gesture held for minutes (`limits`). So a find
(`POST /element(s)`, also under an element) is refused (403, logged `refused`, naming why) when:

* its XPath has, inside a predicate, a path from the root (`/`, `//`), a `following::` or
  `preceding::` axis, or a path that climbs (`..`, `ancestor::`, `parent::`) and then walks down
  (`//`, `descendant::`): each walks the whole page for every element tested;
* its XPath nests more than `MAX_WIDE_NESTING` predicates that each walk below or beside the
  element they test (`.//`, `descendant::`, the sibling axes), or predicates deeper than
  `MAX_PREDICATE_DEPTH`, or walks the page more than `MAX_WIDE_STEPS` times, or takes more
  than `MAX_ACROSS_STEPS` `following::`/`preceding::` steps, or is longer than
  `MAX_QUERY_CHARS`;
* a `MATCHES` regex in a predicate string or a class chain repeats a group that itself repeats
  or alternates (`(a+)+`, `(a|a)*`), or holds more than `MAX_UNBOUNDED` unbounded repeats
  (`.*a.*b.*`: polynomial backtracking of that degree on a long text); a `LIKE` pattern holds
  more than `MAX_UNBOUNDED` `*` wildcards, for the same reason. So is a scroll to the child a
  `predicateString` names, whose predicate WDA evaluates the same way (`check_predicate`).

The queries agents send (`//XCUIElementTypeButton[@name="Done"]`, a cell by the text inside it,
`label MATCHES '.*Wi-Fi.*'`) are far inside these bounds. An XPath the bridge cannot read is
refused too (what it cannot read, it cannot bound); an unbalanced `]` is forwarded, as WDA
compiles the whole XPath before it runs any of it and answers `invalid selector`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from bridge.gate import Refused

FIND_ROUTES = frozenset({"/element", "/elements", "/element/:uuid/element",
                         "/element/:uuid/elements"})
"""The routes that find elements by a locator (`using`, `value`)."""
MAX_QUERY_CHARS = 4096
"""The longest locator forwarded (an agent's XPath or predicate is a line or two)."""
MAX_PREDICATE_DEPTH = 4
"""How deep XPath predicates may nest (`a[b[c[d]]]` is three)."""
MAX_WIDE_NESTING = 2
"""How many nested XPath predicates may each walk below or beside the element they test: each
multiplies the cost by up to the page's depth (or a list's length, for siblings)."""
MAX_WIDE_STEPS = 32
"""How many `//` and descendant steps one XPath may take in all (each walks a page or part)."""
MAX_ACROSS_STEPS = 2
"""How many `following::` and `preceding::` steps one XPath may take outside predicates: each
crosses the page from every element the path has reached so far (the page's size squared)."""
MAX_UNBOUNDED = 2
"""How many unbounded repeats (`*`, `+`, `{n,}`, or `{n,m}` past `WIDE_BOUND`) one regex may hold:
`.*Battery.*` has two."""
WIDE_BOUND = 16
"""A bounded repeat `{n,m}` with m above this backtracks like an unbounded one."""

_BUSY = ("WDA cannot stop a query once it runs, and every later request, the harness's "
         "included, would wait behind it: the phone would be taken for down")

_XPATH_TOKEN = re.compile(r"""\s*(?:
      (?P<str>'[^']*'|"[^"]*")
    | (?P<axis>[^\W\d][\w.-]*)\s*::
    | (?P<num>[0-9]+(?:\.[0-9]*)?|\.[0-9]+)
    | (?P<name>[^\W\d][\w.-]*(?::(?:[^\W\d]|\*)[\w.-]*)?)
    | (?P<sym>//|/|\.\.|\.|\[|\]|\(|\)|\||,|@|!=|<=|>=|=|<|>|\*|\+|-|\$)
    )""", re.VERBOSE)
_BREAKS = frozenset({"(", ",", "|", "=", "!=", "<", "<=", ">", ">=", "+", "-"})
"""Tokens after which a new path starts (so a `/` there is the root)."""
_WORD_BREAKS = frozenset({"and", "or", "div", "mod"})
_DOWN_AXES = frozenset({"descendant", "descendant-or-self"})
_ACROSS_AXES = frozenset({"following", "preceding"})
_SIBLING_AXES = frozenset({"following-sibling", "preceding-sibling"})
_UP_AXES = frozenset({"ancestor", "ancestor-or-self", "parent"})


def check_find(pattern: str, body: Mapping[str, object] | None) -> None:
    """Refuse a find on `pattern` whose locator the phone could evaluate for unbounded time.

    Raises:
        Refused: the locator is too costly (the reason says which rule, and what to send).
    """
    if pattern not in FIND_ROUTES or body is None:
        return
    using, value = body.get("using"), body.get("value")
    if not isinstance(using, str) or not isinstance(value, str):
        return  # WDA answers it invalid argument itself
    if len(value) > MAX_QUERY_CHARS:
        raise _refused(using, value, f"it is {len(value):,} characters long, over the "
                                     f"{MAX_QUERY_CHARS:,} the bridge forwards")
    why = xpath_cost(value) if using == "xpath" else \
        predicate_cost(value) if using in ("predicate string", "class chain") else ""
    if why:
        raise _refused(using, value, why)


def check_predicate(value: object, what: str) -> None:
    """Refuse a predicate string another route evaluates (`scroll`'s `predicateString`, which
    WDA matches against the element's children) whose regex or LIKE could run without end.

    Raises:
        Refused: its MATCHES or LIKE backtracks (`predicate_cost`).
    """
    if isinstance(value, str):
        why = predicate_cost(value)
        if why:
            raise _refused(what, value, why)


def predicate_cost(value: str) -> str:
    """Why a predicate string or class chain could run without end ("" when it cannot)."""
    return next(filter(None, (regex_cost(p) if op == "MATCHES" else like_cost(p)
                              for op, p in compared_patterns(value))), "")


def _refused(using: str, value: str, why: str) -> Refused:
    shown = value if len(value) <= 120 else value[:117] + "..."
    return Refused(f"the {using} {shown!r} could keep the phone busy without end: {why}, and "
                   f"{_BUSY}; find by a path from the element (.//), an attribute or a plain "
                   "comparison (CONTAINS, BEGINSWITH) instead", 403, "unsupported operation")


@dataclass
class _Frame:
    """One predicate being read (depth 0: the path outside any predicate)."""

    depth: int
    at_start: bool = True
    """The next step begins a path (a `/` here starts at the root)."""
    climbed: bool = False
    """The path being read has gone up (`..`, `ancestor::`): a `//` now walks from higher up."""
    wide: bool = False
    """The predicate walks below or beside the element it tests."""
    below: int = 0
    """The most wide predicates nested inside this one, along any chain."""


def _xpath_tokens(query: str) -> Iterator[str] | int:
    """The XPath's tokens (strings, axes with `::`, names in any script, symbols), or where a
    part begins that is none of them."""
    tokens: list[str] = []
    at = 0
    while at < len(query):
        found = _XPATH_TOKEN.match(query, at)
        if found is None or found.end() == at:
            rest = query[at:]
            return at + len(rest) - len(rest.lstrip()) if rest.strip() else iter(tokens)
        kind = found.lastgroup
        text = found.group(kind or 0)
        tokens.append(text + "::" if kind == "axis" else "'" if kind == "str" else text)
        at = found.end()
    return iter(tokens)


def xpath_cost(query: str) -> str:
    """Why the XPath could run without end on a real page ("" when it is bounded)."""
    tokens = _xpath_tokens(query)
    if isinstance(tokens, int):  # what it cannot read, it cannot bound
        return (f"the bridge cannot read it as XPath 1.0 from character {tokens + 1} "
                f"({query[tokens:tokens + 12]!r})")
    stack, steps, across, previous = [_Frame(0)], 0, 0, ""  # frames: outermost first
    for token in tokens:
        frame = stack[-1]
        if token == "[":
            if frame.depth + 1 > MAX_PREDICATE_DEPTH:
                return f"its predicates nest deeper than {MAX_PREDICATE_DEPTH}"
            stack.append(_Frame(frame.depth + 1))
        elif token == "]":
            if len(stack) == 1:
                return ""  # unbalanced: WDA refuses it
            inner = stack.pop()
            outer = stack[-1]
            outer.below = max(outer.below, inner.below + inner.wide)
            outer.at_start = False
        elif token in _BREAKS or (token in _WORD_BREAKS and not frame.at_start
                                  and previous not in ("/", "//", "@")
                                  and not previous.endswith("::")):
            frame.at_start, frame.climbed = True, False
        else:
            axis = token[:-2] if token.endswith("::") else ""
            down = token == "//" or axis in _DOWN_AXES
            inside = frame.depth > 0
            if inside and token in ("/", "//") and frame.at_start:
                return ("a predicate holds a path from the root, which walks the whole page "
                        "again for every element it tests")
            if inside and axis in _ACROSS_AXES:
                return (f"a predicate walks the {axis} axis, which crosses the whole page for "
                        "every element it tests")
            if inside and down and frame.climbed:
                return ("a predicate climbs (.., ancestor::, parent::) and then walks down, "
                        "which walks the whole page for every element it tests")
            steps += down or axis in _ACROSS_AXES
            across += axis in _ACROSS_AXES
            frame.wide = frame.wide or (inside and (down or axis in _SIBLING_AXES))
            frame.climbed = frame.climbed or token == ".." or axis in _UP_AXES
            frame.at_start = False
        previous = token
    if across > MAX_ACROSS_STEPS:
        return (f"it takes {across} following:: or preceding:: steps, over {MAX_ACROSS_STEPS}: "
                "each crosses the page from every element reached so far")
    if steps > MAX_WIDE_STEPS:
        return f"it walks the page {steps} times (// and descendant steps), over {MAX_WIDE_STEPS}"
    nesting = max(f.below + (f.wide if f.depth else 0) for f in stack)
    if nesting > MAX_WIDE_NESTING:
        return (f"{nesting} nested predicates each walk below or beside the element they test "
                f"(.//, descendant::, the sibling axes), over {MAX_WIDE_NESTING}")
    return ""


_COMPARED = re.compile(r"""\b(MATCHES|LIKE)\s*(?:\[[cdCD]+\])?\s*"""
                       r"""('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")""", re.IGNORECASE)


_CODED = re.compile(r"\\(?:x([0-9A-Fa-f]{2})|u([0-9A-Fa-f]{4}))")


def compared_patterns(query: str) -> list[tuple[str, str]]:
    """The operator (MATCHES or LIKE) and pattern of every such comparison in a predicate
    string or class chain, with the predicate string's own escapes undone (`\\\\`, `\\'`,
    and `\\x28`, `\\u0028` taken as the character they name, which the regex would then read:
    a group, here)."""
    def undone(quoted: str) -> str:
        kept = quoted.replace("\\\\", "\0")  # an escaped backslash reaches the regex as one
        kept = _CODED.sub(lambda m: chr(int(m.group(1) or m.group(2), 16)), kept)
        return re.sub(r"\\(.)", r"\1", kept).replace("\0", "\\")

    return [(found.group(1).upper(), undone(found.group(2)[1:-1]))
            for found in _COMPARED.finditer(query)]


def like_cost(pattern: str) -> str:
    """Why a LIKE pattern could match without end on a long text ("" when it cannot): each `*`
    past `MAX_UNBOUNDED` multiplies a wildcard matcher's backtracking by the text's length."""
    stars = pattern.count("*")
    if stars > MAX_UNBOUNDED:
        return (f"the LIKE pattern {pattern!r} holds {stars} * wildcards, over {MAX_UNBOUNDED}: "
                "matching backtracks to that power of a long text's length")
    return ""


@dataclass
class _Group:
    repeats: bool = False
    """Something inside repeats (a quantifier other than `?`)."""
    alternates: bool = False


def _quantifier(pattern: str, at: int) -> tuple[int, bool, bool]:
    """The quantifier at `at`: (its length, whether it repeats, whether it is unbounded)."""
    char = pattern[at] if at < len(pattern) else ""
    if char in ("*", "+"):
        length, repeats, unbounded = 1, True, True
    elif char == "?":
        length, repeats, unbounded = 1, False, False
    else:
        counted = re.match(r"\{(\d+)(,(\d*))?\}", pattern[at:])
        if counted is None:
            return 0, False, False
        most = counted.group(3)
        length = counted.end()
        if counted.group(2) is None:  # exactly n: no choice to backtrack over
            repeats, unbounded = int(counted.group(1)) > 1, False
        else:
            repeats = not most or int(most) > 1
            unbounded = not most or int(most) > WIDE_BOUND
    if pattern[at + length: at + length + 1] in ("?", "+"):  # lazy or possessive
        length += 1
    return length, repeats, unbounded


def regex_cost(pattern: str) -> str:
    """Why the regex could backtrack without end on a long text ("" when it cannot)."""
    groups, unbounded, at = [_Group()], 0, 0
    while at < len(pattern):
        char, inner = pattern[at], None
        if char == "\\":
            at += 2
        elif char == "[":
            at = _class_end(pattern, at)
        elif char == "(":
            groups.append(_Group())
            at += 1
            continue
        elif char == "|":
            groups[-1].alternates = True
            at += 1
            continue
        elif char == ")" and len(groups) > 1:
            inner = groups.pop()
            at += 1
        else:
            at += 1
        length, repeats, wide = _quantifier(pattern, at)
        at += length
        if repeats and inner is not None and (inner.repeats or inner.alternates):
            return (f"the MATCHES regex {pattern!r} repeats a group that itself repeats or "
                    "alternates, which backtracks without end on a long text")
        groups[-1].repeats = groups[-1].repeats or repeats or bool(inner and inner.repeats)
        groups[-1].alternates = groups[-1].alternates or bool(inner and inner.alternates)
        unbounded += wide
    if unbounded > MAX_UNBOUNDED:
        return (f"the MATCHES regex {pattern!r} holds {unbounded} unbounded repeats, over "
                f"{MAX_UNBOUNDED}: it backtracks to that power of a long text's length")
    return ""


def _class_end(pattern: str, at: int) -> int:
    """Where the character class opening at `at` ends (past its `]`)."""
    at += 1
    if pattern[at: at + 1] == "^":
        at += 1
    if pattern[at: at + 1] == "]":
        at += 1
    while at < len(pattern) and pattern[at] != "]":
        at += 2 if pattern[at] == "\\" else 1
    return at + 1
