"""Parse and run XCUITest class chains as WDA does (`FBClassChainQueryParser`), and type names.

The tokenizer reads the chain a character at a time as WDA's does, so it takes what WDA takes
(`**/XCUIElementTypeCell[`label == 'a'`][2]/*`, `` `` `` inside a predicate for one backtick,
even `**XCUIElementTypeButton`) and refuses what WDA refuses (a leading `/`, a trailing `/`,
`[ 1 ]`, a position before a predicate, two positions, position 0) with `invalid selector`.
A type must be a full name: a short one (`Button`) is refused, an unknown full one
(`XCUIElementTypeBogus`) stands for `XCUIElementTypeOther`, as `FBElementTypeTransformer` has it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from phoneshell.sim.attributes import On
from phoneshell.sim.predicates import Matcher, SelectorError, predicate
from phoneshell.sim.ui import Node, walk
from phoneshell.sim.wire import WdaError
from phoneshell.xcui import ELEMENT_TYPES, TYPE_PREFIX

ANY = TYPE_PREFIX + "Any"


def element_type(name: str) -> str | None:
    """The type a name stands for, as WDA reads a class name (None: WDA refuses it)."""
    if name in ELEMENT_TYPES:
        return name
    if name.startswith(TYPE_PREFIX) and len(name) > len(TYPE_PREFIX):
        return TYPE_PREFIX + "Other"  # WDA logs "Mapping an unknown element type" and goes on
    return None


def type_matches(node: Node, kind: str) -> bool:
    """Whether `node` is of type `kind` (XCUIElementTypeAny matches every node)."""
    return kind == ANY or node.wd_type == kind


@dataclass
class _Token:
    kind: str
    """name, star, desc (the `**/` marker), split, open, num, self, below (`$`), close."""
    text: str = ""
    done: bool = False
    """A predicate token has read its closing marker."""


_MARKERS = {"self": "`", "below": "$"}
_AFTER = {"name": "split open", "star": "split open", "desc": "name star", "split": "star name",
          "open": "num self below", "num": "close", "close": "split open", "self": "close",
          "below": "close"}


def _starts(kind: str, char: str) -> _Token | None:
    """A new token of `kind` opened by `char`, or None when `char` cannot open one."""
    if kind == "name" and char.isalpha():
        return _Token("name", char)
    if kind == "star" and char == "*":
        return _Token("star", char)
    if kind == "split" and char == "/":
        return _Token("split", char)
    if kind == "open" and char == "[":
        return _Token("open", char)
    if kind == "num" and (char.isdecimal() or char == "-"):
        return _Token("num", char)
    if kind == "close" and char == "]":
        return _Token("close", char)
    if kind in _MARKERS and char == _MARKERS[kind]:
        return _Token(kind)  # the opening marker is not part of the predicate
    return None


def _next(token: _Token, char: str) -> _Token | None:
    """The token `char` continues or opens after `token` (WDA's `nextTokenWithCharacter`)."""
    kind = token.kind
    if kind in _MARKERS:
        marker = _MARKERS[kind]
        if not token.done:
            if char == marker and token.text:
                token.done = True
            if char != marker or token.text or token.done:
                token.text += char
            return token
        if char == marker:  # a doubled marker is one literal marker
            token.done = False
            return token
        token.text = token.text[:-1]
    elif kind == "name" and char.isalpha() or kind == "num" and (char.isdecimal() or char == "-"):
        token.text += char
        return token
    elif kind == "star" and char == "*":
        return _Token("desc", "**")
    elif kind == "desc" and char in "*/" and len(token.text) < 3:
        token.text += char
        return token
    elif kind == "desc" and char in "*/" and token.text != "**/":
        return None
    for after in _AFTER[kind].split():
        started = _starts(after, char)
        if started is not None:
            return started
    return None


def _tokens(chain: str) -> list[_Token]:
    def refuse(at: int) -> SelectorError:
        return SelectorError(f"Cannot parse class chain query '{chain}'. Unexpected character "
                             f"detected at position {at + 1}:\n{chain[:at + 1]} <----")

    if chain.startswith("**/"):
        token, start = _Token("desc", "**/"), 3
    else:
        first = _starts("name", chain[0]) or _starts("star", chain[0])
        if first is None:
            raise refuse(0)
        token, start = first, 1
    found: list[_Token] = []
    for at in range(start, len(chain)):
        following = _next(token, chain[at])
        if following is None:
            raise refuse(at)
        if following is not token:
            if not (following.kind == "desc" and token.kind == "star"):
                found.append(token)  # a star that grows into `**` is replaced by it
            token = following
    found.append(token)
    if found[-1].kind not in ("close", "name", "star"):
        raise refuse(len(chain) - 1)
    return found


@dataclass
class _Step:
    kind: str = ANY
    deep: bool = False
    position: int | None = None
    tests: list[tuple[bool, Matcher]] = field(default_factory=list)
    """(whether a descendant must match rather than the element, the predicate)."""


def _steps(chain: str) -> list[_Step]:
    def refuse(why: str) -> SelectorError:
        return SelectorError(f"Cannot parse class chain query '{chain}'. {why}")

    steps: list[_Step] = []
    step, typed, deep = _Step(), False, False
    for token in _tokens(chain):
        if token.kind in ("name", "star"):
            if typed:
                raise refuse(f"Unexpected token '{token.text}'. The type name can be set only "
                             "once.")
            kind = element_type(token.text) if token.kind == "name" else ANY
            if kind is None:
                raise refuse(f"'{token.text}' class name is unknown to WDA")
            step.kind, typed = kind, True
        elif token.kind == "desc":
            if deep:
                raise refuse(f"Unexpected token '{token.text}'. Descendant markers cannot be "
                             "duplicated.")
            step, typed, deep = _Step(deep=True), False, True
        elif token.kind in _MARKERS:
            if step.position is not None:
                raise refuse(f"Predicate value '{token.text}' must be set before position "
                             "value.")
            if not token.done:
                raise refuse(f"Cannot find the end of '{token.text}' predicate value.")
            step.tests.append((token.kind == "below", predicate(token.text)))
        elif token.kind == "num":
            if step.position is not None:
                raise refuse(f"Position value '{token.text}' is expected to be set only once.")
            step.position = _position(token.text)
            if not step.position:
                raise refuse(f"Position value '{token.text}' is expected to be a valid integer "
                             "number not equal to zero.")
        elif token.kind == "split":
            steps.append(step)
            step, typed, deep = _Step(), False, False
    if deep and not typed:
        raise refuse("Descendants lookup modifier '**/' should be followed with the actual "
                     "element type")
    steps.append(step)
    return steps


def _position(text: str) -> int | None:
    """A position as WDA's number formatter reads it: an optional minus, then decimal digits of
    any script (`٣` is 3); None for anything else. Digits past the 18th are dropped: a position
    that long is past every element either way, and `int` refuses thousands of digits."""
    digits = text.removeprefix("-")
    if not digits.isdecimal():
        return None
    significant = "".join(str(int(d)) for d in digits).lstrip("0")[:18]
    return int(significant or "0") * (-1 if text.startswith("-") else 1)


def _candidates(step: _Step, roots: list[Node], on: On) -> list[Node]:
    found: list[Node] = []
    for root in roots:
        pool = [n for n in walk(root) if n is not root] if step.deep else list(root.children)
        found.extend(n for n in pool if type_matches(n, step.kind))
    for below, test in step.tests:
        if below:
            found = [n for n in found if any(test(d, on) for d in walk(n) if d is not n)]
        else:
            found = [n for n in found if test(n, on)]
    return found


def _pick(nodes: list[Node], position: int | None) -> list[Node]:
    if position is None:
        return nodes
    at = position - 1 if position > 0 else len(nodes) + position
    return [nodes[at]] if 0 <= at < len(nodes) else []


def class_chain(chain: str, context: Node, on: On) -> list[Node]:
    """Run a class chain from `context` (the application, or an element), as WDA does.

    A position counts over every candidate the step found, from all the elements the step
    before it reached; a step with a position hands on only its one pick.

    Raises:
        SelectorError: WDA cannot parse the chain (`invalid selector`).
        WdaError: a predicate in it is one NSPredicate or WDA refuses (`unknown error`).
    """
    if not chain:
        raise WdaError("unknown error", "Query length should be greater than zero")
    steps = _steps(chain)
    roots = [context]
    for step in steps[:-1]:
        roots = _pick(_candidates(step, roots, on), step.position)[:1] \
            if step.position is not None else _candidates(step, roots, on)
    found = _pick(_candidates(steps[-1], roots, on), steps[-1].position)
    return list({id(n): n for n in found}.values())
