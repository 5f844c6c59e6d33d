"""The computation a Calculator task asks for, as an expression of its numbers, and whether a
computation keyed on the phone is that one in another form. Pure: its draws are seeded by the
keys.

`(12 + 8) × 5` is one computation however it is keyed: `12 + 8 = × 5 =`, `( 12 + 8 ) × 5 =` on
the Scientific keypad, `12 × 5 + 8 × 5 =` (× binds tighter), `5 × 8 + 5 × 12 =`. `12 × 8 + 12 −
8 =` shows 100 too, from the same numbers, and is another computation. The keyed computation is
worked again, on the same keypad arithmetic, with other numbers in place of the task's (random,
exact decimals, a spelling such as 0.15 for 15 % scaled with its number), and counts when it
agrees with the expression worked with the same numbers, every time.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import operator
import random
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal, localcontext

from phoneshell.keypad import format_number, work

DRAWS = 5
"""How many sets of other numbers a computation is worked with: two computations that differ
agree on one random set with a chance near nil, on five with none worth naming."""
AGREE = Decimal("1e-15")
"""How close two values must be to agree, relative to the larger (1 at least): 28-digit
arithmetic rounds a division in the last digits, in a different place for another order."""
ASSIGNMENTS = 256
"""At most this many ways of reading which number of the task each number keyed is (more than
one only when numbers or spellings repeat) are tried."""
TOKEN = re.compile(r"\s*(?:(\d+(?:\.\d+)?|\.\d+)|([-+*/×÷−()%]))")
SIGNS = {"-": "-", "−": "-", "+": "+", "*": "*", "×": "*", "/": "/", "÷": "/",
         "(": "(", ")": ")", "%": "%"}
WORK: dict[str, Callable[[Decimal, Decimal], Decimal]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv}


@dataclass(frozen=True)
class Expression:
    """A computation written as arithmetic: numbers, + − × ÷ (or - * /), parentheses, and %
    after a number or a parenthesis for a hundredth of it; × and ÷ bind tighter than + and −."""

    text: str
    tokens: tuple[str | Decimal, ...]

    @property
    def numbers(self) -> tuple[Decimal, ...]:
        """Its numbers, in the order written."""
        return tuple(t for t in self.tokens if isinstance(t, Decimal))

    def value(self, numbers: Sequence[Decimal] | None = None) -> Decimal:
        """Its value, with its numbers, in order, replaced by `numbers` when given; ValueError
        when it is no computation, ArithmeticError on a division by zero."""
        parser = _Parser(self.tokens, list(self.numbers if numbers is None else numbers))
        with localcontext() as ctx:
            ctx.prec = 28
            value = parser.sum()
        if parser.at < len(self.tokens):
            raise ValueError(f"has {self.tokens[parser.at]!s} where the computation ended")
        return value


@dataclass(frozen=True)
class Operands:
    """What a computation may key, and what it must show."""

    result: Decimal
    numbers: tuple[tuple[Decimal, ...], ...]
    """The instruction's operands, each with its accepted spellings (10 and 0.1 for 10 %)."""
    helpers: tuple[Decimal, ...]
    """Other numbers it may key, each at most once (100 to take a percentage)."""
    expression: Expression
    """The computation the instruction asks for, in its numbers: `(12 + 8) × 5`."""
    places: tuple[int, ...]
    """For each number of `expression`, in order, the index of the operand it is."""


class _Parser:
    def __init__(self, tokens: tuple[str | Decimal, ...], numbers: list[Decimal]) -> None:
        self.tokens, self.numbers, self.at = tokens, numbers, 0

    def _peek(self) -> str | Decimal | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def sum(self) -> Decimal:
        return self._chain(("+", "-"), self.product)

    def product(self) -> Decimal:
        return self._chain(("*", "/"), self.factor)

    def _chain(self, signs: tuple[str, str], operand: Callable[[], Decimal]) -> Decimal:
        """Operands joined by either of `signs`, worked left to right."""
        value = operand()
        while self._peek() in signs:
            sign = self.tokens[self.at]
            self.at += 1
            right = operand()
            value = WORK[str(sign)](value, right)
        return value

    def factor(self) -> Decimal:
        token = self._peek()
        self.at += 1
        if isinstance(token, Decimal):
            value = self.numbers.pop(0)
        elif token == "(":
            value = self.sum()
            if self._peek() != ")":
                raise ValueError("has a ( that is never closed")
            self.at += 1
        else:
            raise ValueError(f"has {'nothing' if token is None else token} where a number "
                             "or ( belongs")
        while self._peek() == "%":
            self.at += 1
            value = value / 100
        return value


def parse(text: str) -> Expression:
    """`text` read as an `Expression`; ValueError saying what is wrong (read after "a
    tapped_keys check"), e.g. a word or an unclosed parenthesis."""
    tokens: list[str | Decimal] = []
    at, end = 0, len(text.rstrip())
    while at < end:
        found = TOKEN.match(text, at)
        if found is None:
            raise ValueError(f"has {text[at:].strip()[:12]!r} in `expression`, which is no "
                             "number nor + − × ÷ ( ) %")
        number, sign = found.groups()
        tokens.append(Decimal(number) if number else SIGNS[sign])
        at = found.end()
    expression = Expression(text.strip(), tuple(tokens))
    try:
        expression.value()
    except ValueError as e:
        raise ValueError(f"has `expression` {text.strip()!r}, which {e}") from None
    except ArithmeticError:
        raise ValueError(f"has `expression` {text.strip()!r}, which divides by zero") from None
    return expression


Slot = tuple[int, Decimal]
"""What a number keyed stands for: (the task number's index, the spelling keyed), or (-1, a
helper)."""


def assignments(entries: Sequence[Decimal], numbers: Sequence[Sequence[Decimal]],
                helpers: Sequence[Decimal]) -> Iterator[tuple[Slot, ...]]:
    """Each way `entries` are the task's `numbers` (by any spelling; each at least once, and
    again as often as the computation needs: 12 × 5 + 8 × 5) and `helpers` (each at most
    once), up to `ASSIGNMENTS` of them."""
    choices = [[(i, s) for i, spellings in enumerate(numbers) for s in spellings if s == entry]
               + [(-1, h) for h in helpers if h == entry] for entry in entries]
    if not all(choices):
        return
    for way in itertools.islice(itertools.product(*choices), ASSIGNMENTS):
        taken = {i for i, _ in way}
        kept = [s for i, s in way if i < 0]
        if taken >= set(range(len(numbers))) and \
                all(kept.count(h) <= helpers.count(h) for h in set(kept)):
            yield way


def _stand_in(slot: Slot, draw: Sequence[Decimal], numbers: Sequence[Sequence[Decimal]]
              ) -> Decimal:
    """The value a number keyed takes in a draw: its task number's, scaled as its spelling is
    (0.15 for 15 is a hundredth of it); a helper stays itself."""
    i, spelling = slot
    first = numbers[i][0] if i >= 0 else Decimal(0)
    return spelling if i < 0 or first == 0 else draw[i] * spelling / first


def _agree(a: Decimal, b: Decimal) -> bool:
    return abs(a - b) <= AGREE * max(Decimal(1), abs(a), abs(b))


def same(want: Operands, last: Sequence[str], entries: Sequence[Decimal],
         prior: Sequence[str] = (), before: Sequence[Decimal] = (), carry: int | None = None
         ) -> bool:
    """Whether the computation `last`, which keyed `entries` (its number at index `carry` being
    what `prior`, which keyed `before`, showed, carried by hand), is `want.expression`: worked
    with other numbers in place of the task's, it agrees with the expression worked with them,
    in each of `DRAWS` draws, for some reading of which task number each number keyed is."""
    pooled = [*before, *(e for i, e in enumerate(entries) if i != carry)]
    draws = [[Decimal(rng.randint(1001, 999999)) / 100 for _ in want.numbers]
             for rng in [_drawn(last, prior, want.expression)] for _ in range(DRAWS)]
    wanted: list[Decimal] = []
    for draw in draws:  # the expression's value is the same whichever reading is tried
        try:
            wanted.append(want.expression.value([draw[i] for i in want.places]))
        except ArithmeticError:
            return False  # no reading agrees with a division by zero
    for way in assignments(pooled, want.numbers, want.helpers):
        if all(_agrees(last, want.numbers, way, draw, value, prior, len(before), carry)
               for draw, value in zip(draws, wanted, strict=True)):
            return True
    return False


def _drawn(last: Sequence[str], prior: Sequence[str], expression: Expression) -> random.Random:
    """The draws' source, seeded by the keys and the expression: a grade is the same each time
    it is made (`phoneshell grade` agrees with the run), and the numbers are still unknown to
    whoever keys, for they follow from every key pressed (a computation built to agree with
    another at its own numbers would change them by any key it adds)."""
    seed = hashlib.sha256(json.dumps([list(prior), list(last), expression.text]).encode())
    return random.Random(seed.digest())


def _agrees(last: Sequence[str], numbers: Sequence[Sequence[Decimal]], way: Sequence[Slot],
            draw: Sequence[Decimal], wanted: Decimal, prior: Sequence[str], split: int,
            carry: int | None) -> bool:
    """Whether `last` (after `prior`, carried), worked with the draw's numbers as `way` reads
    its numbers keyed, comes to `wanted`."""
    values = [_stand_in(slot, draw, numbers) for slot in way]
    if prior and carry is not None:
        shown = work(prior, values[:split])
        if shown.state.error:
            return False
        values = values[split:]
        values.insert(carry, shown.state.value())
    done = work(last, values)
    return not done.state.error and _agree(done.state.value(), wanted)


def places_of(expression: Expression, numbers: Sequence[Sequence[Decimal]]
              ) -> tuple[int, ...] | str:
    """Which operand each number of `expression` is (the k-th 5 written is the k-th operand 5,
    the last one for more), or what is wrong: a number no operand is, an operand never used."""
    places: list[int] = []
    for k, value in enumerate(expression.numbers):
        same_value = [i for i, n in enumerate(numbers) if n[0] == value]
        if not same_value:
            return (f"has {format_number(value)} in `expression`, which is none of `numbers` "
                    "(as first written)")
        before = expression.numbers[:k].count(value)
        places.append(same_value[min(before, len(same_value) - 1)])
    missing = [format_number(n[0]) for i, n in enumerate(numbers) if i not in places]
    return (f"has no {' nor '.join(missing)} in `expression`: every one of `numbers` is in the "
            "computation") if missing else tuple(places)
