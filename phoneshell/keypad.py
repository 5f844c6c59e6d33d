"""iOS Calculator's arithmetic: the portrait keypad as a pure state machine, and a computation
replayed on it. Pure: no I/O; the simulated Calculator presses its keys through it and the
`tapped_keys` check replays the agent's presses on it, so what the check computes is what the
phone showed.

Behaves like iOS's basic calculator: × and ÷ bind tighter than + and − (2 + 3 × 4 = 14, so
(2 + 3) × 4 takes an = first); % divides the entry by 100, or after + or − takes that percent
of the left operand (30 + 10 % = 33, 30 × 10 % = 3, 10 % × 30 = 3); = again repeats the
last operation; "All clear" clears everything; "Delete" (iOS 18 and later, shown while an entry
is being typed) and a sideways swipe on the display delete the entry's last digit; "Clear"
(iOS 17 and earlier, shown where Delete is now) clears only the entry; dividing by zero shows
"Error". Exact decimal arithmetic, shown with up to 9 significant digits and thousands
separators, as the real display does. Keys go by their accessibility names: "0"-"9",
"Decimal", "All clear", "Delete", "Clear", "change sign", "percent", "divide", "multiply",
"subtract" and "equals"; the swipe by `DISPLAY_SWIPE`. The Scientific keypad's parentheses
("left parenthesis", "right parenthesis") group: ( 12 + 8 ) × 5 = is 100; = closes what is
open, a ) with nothing open does nothing, and a ( right after a number or a ) multiplies
(5 ( 2 + 3 ) = is 25).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields
from decimal import Decimal, DivisionByZero, InvalidOperation, localcontext

OPERATORS = {"divide": "÷", "multiply": "×", "subtract": "−", "add": "+"}
OPEN, CLOSE = "left parenthesis", "right parenthesis"
"""The Scientific keypad's parentheses, by the names the simulated Calculator gives them
(inferred: no dump of the real app's Scientific keypad is known; docs/simulator.md)."""
SCIENTIFIC = {
    "memory clear": "mc", "memory plus": "m+", "memory minus": "m−", "memory recall": "mr",
    "second": "2nd", "square": "x²", "cube": "x³", "power": "xʸ", "e to the x": "eˣ",
    "10 to the x": "10ˣ", "reciprocal": "1/x", "square root": "²√x", "cube root": "³√x",
    "root": "ʸ√x", "natural log": "ln", "log 10": "log₁₀", "factorial": "x!", "sin": "sin",
    "cos": "cos", "tan": "tan", "e": "e", "EE": "EE", "Rad": "Rad", "sinh": "sinh",
    "cosh": "cosh", "tanh": "tanh", "pi": "π", "Rand": "Rand"}
"""The Scientific keypad's other keys (iOS 17's landscape set), by the names the simulated
Calculator gives them (inferred, as the parentheses'), with what each shows: this arithmetic
computes none of them; the check refuses a computation that presses one."""
SYMBOLS = {**OPERATORS, "equals": "=", "percent": "%", "change sign": "+/−", "Decimal": ".",
           "All clear": "AC", "Clear": "C", "Delete": "⌫", OPEN: "(", CLOSE: ")"}
"""What each key shows on screen (the screenshot); the source carries the accessibility names."""
_TIGHT = ("multiply", "divide")
DISPLAY_SWIPE = "display swipe"
"""A sideways swipe on the display, as `press` takes it: it deletes a digit as "Delete" does
(iOS has had it since long before the key). No key: no button is named so."""
DELETES = ("Delete", DISPLAY_SWIPE)
SWIPE_MIN_PT = 20
"""How far sideways a swipe on the display must go to delete (past a tap's 10-point slop; an
XCUITest swipe across a one-digit display's middle half goes 22)."""
EDGE_PT = 20
"""A rightward drag starting left of this x is the system's edge swipe (a page's back), not the
display's."""


def display_swipe(from_x: float, dx: float, dy: float) -> bool:
    """Whether a one-finger drag that went down on the display, starting at x `from_x` and
    moving (`dx`, `dy`) points, deletes a digit: sideways, either way, at least `SWIPE_MIN_PT`,
    and not the system's edge swipe."""
    return abs(dx) > abs(dy) and abs(dx) >= SWIPE_MIN_PT and not (from_x < EDGE_PT and dx > 0)


@dataclass(frozen=True)
class DisplayArea:
    """Where the display takes a swipe: the screen's full width above the keypad. The digits'
    StaticText ("Result") hugs them at the right inside it (90 points of 402 for "48"), but a
    phone deletes on a sideways swipe that starts anywhere on the display, beside or above the
    digits too (Apple: "swipe left or right on the display"; red team 115)."""

    width: float
    """The screen's width, in points, as the phone is held."""
    keypad_top: float
    """Where the highest key begins: the display ends there."""

    def holds(self, x: float, y: float) -> bool:
        """Whether the point (`x`, `y`) is on the display."""
        return 0 <= x < self.width and 0 <= y < self.keypad_top


def display_area(width: float, key_tops: Iterable[float]) -> DisplayArea | None:
    """The display's area on a screen `width` points wide whose keys begin at `key_tops`; None
    when no key is known (then nothing places the display). The one definition: the simulated
    Calculator lays its display out by it and takes swipes by it, and the `tapped_keys` check
    places a logged swipe's start point by it against the keys of the screen it was shown."""
    tops = list(key_tops)
    return DisplayArea(width, min(tops)) if tops and width > 0 else None


@dataclass
class CalculatorState:
    """The entry being typed and the pending operations (two precedence levels)."""

    entry: str = "0"
    """The displayed number as typed or computed, without separators ("-12.5")."""
    typing: bool = False
    """Whether digits append to the entry (False right after an operator or =)."""
    sum_left: Decimal | None = None
    sum_op: str | None = None
    product_left: Decimal | None = None
    product_op: str | None = None
    repeat: tuple[str, Decimal] | None = None
    """The last operation and operand, for repeated =."""
    after_operator: bool = False
    error: bool = False
    groups: list[tuple[Decimal | None, str | None, Decimal | None, str | None]] = \
        field(default_factory=list)
    """What was pending outside each open parenthesis, innermost last."""
    closed: bool = False
    """Whether the last key closed a parenthesis (a ( after it multiplies)."""

    def value(self) -> Decimal:
        """The entry as a number."""
        return Decimal(self.entry) if self.entry not in ("", "-", "-0") else Decimal(0)


def _apply(left: Decimal, op: str, right: Decimal) -> Decimal:
    with localcontext() as ctx:
        ctx.prec = 28
        ctx.traps[DivisionByZero] = True
        ctx.traps[InvalidOperation] = True
        if op == "add":
            return left + right
        if op == "subtract":
            return left - right
        if op == "multiply":
            return left * right
        return left / right


def display(state: CalculatorState) -> str:
    """The display text: the entry with thousands separators, or "Error"."""
    if state.error:
        return "Error"
    if state.typing:
        sign, digits = ("-", state.entry[1:]) if state.entry.startswith("-") else ("", state.entry)
        whole, dot, frac = digits.partition(".")
        return f"{sign}{int(whole or 0):,}{dot}{frac}"
    return format_number(state.value())


def format_number(value: Decimal) -> str:
    """A computed number as the display shows it: 9 significant digits, separators, or 1e12."""
    if value == 0:
        return "0"
    if abs(value) >= Decimal("1e9") or abs(value) < Decimal("1e-8"):
        mantissa, exponent = f"{value:.5e}".split("e")
        return f"{mantissa.rstrip('0').rstrip('.')}e{int(exponent)}"
    whole_part = int(abs(value))
    digits_before = len(str(whole_part)) if whole_part else 0
    rounded = round(value, max(0, 9 - digits_before))
    text = f"{rounded:f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    whole, dot, frac = text.lstrip("-").partition(".")
    sign = "-" if rounded < 0 else ""
    return f"{sign}{int(whole):,}{dot}{frac}"


def press(state: CalculatorState, key: str) -> None:
    """Apply one key press ("7", "Decimal", "add", "equals", "percent", "All clear"...)."""
    if state.error and key not in ("All clear", "Clear"):
        if not (key.isdigit() or key == "Decimal"):
            return
        _clear_all(state)
    if key.isdigit() or key == "Decimal":
        _digit(state, "." if key == "Decimal" else key)
    elif key in OPERATORS:
        _operator(state, key)
    elif key == "equals":
        _equals(state)
    elif key == "percent":
        _percent(state)
    elif key == "change sign":
        state.entry = state.entry[1:] if state.entry.startswith("-") else "-" + state.entry
        state.after_operator = False
    elif key == "Clear":
        state.entry, state.typing = "0", False
    elif key in DELETES:
        _delete(state)
    elif key == "All clear":
        _clear_all(state)
    elif key == OPEN:
        _open(state)
    elif key == CLOSE:
        _close(state)
    state.closed = key == CLOSE and not state.error


def _open(state: CalculatorState) -> None:
    """A ( sets aside what is pending; right after a number typed or a ) it multiplies first."""
    if (state.typing or state.closed) and not state.after_operator:
        _operator(state, "multiply")
        if state.error:
            return
    state.groups.append((state.sum_left, state.sum_op, state.product_left, state.product_op))
    state.sum_left = state.sum_op = state.product_left = state.product_op = None
    state.entry, state.typing, state.after_operator = "0", False, False


def _close(state: CalculatorState) -> None:
    """A ) works out what is open and takes back what was pending outside it (nothing when no
    parenthesis is open)."""
    if not state.groups:
        return
    try:
        x, _ = _folded(state)
    except ArithmeticError:
        state.error = True
        return
    state.sum_left, state.sum_op, state.product_left, state.product_op = state.groups.pop()
    state.entry, state.typing, state.after_operator = _plain(x), False, False


def _folded(state: CalculatorState) -> tuple[Decimal, tuple[str, Decimal] | None]:
    """The entry with what is pending worked onto it, the product first, then the sum, and
    the last operation worked (what = again repeats); the state is left as it was. Raises
    ArithmeticError on a division by zero."""
    x, last = state.value(), None
    if state.product_op is not None and state.product_left is not None:
        last = (state.product_op, x)
        x = _apply(state.product_left, state.product_op, x)
    if state.sum_op is not None and state.sum_left is not None:
        last = last or (state.sum_op, x)
        x = _apply(state.sum_left, state.sum_op, x)
    return x, last


def _clear_all(state: CalculatorState) -> None:
    fresh = CalculatorState()
    for f in fields(CalculatorState):
        setattr(state, f.name, getattr(fresh, f.name))


def _delete(state: CalculatorState) -> None:
    """Delete the entry's last character while it is typed (nothing otherwise: a result is not
    edited). Deleting its last digit leaves 0, not typed, as a fresh entry: what is pending
    stays."""
    if not state.typing or state.error:
        return
    rest = state.entry[:-1]
    if rest in ("", "-", "0", "-0"):
        state.entry, state.typing = "0", False
    else:
        state.entry = rest


def _digit(state: CalculatorState, char: str) -> None:
    if not state.typing:
        state.entry, state.typing = ("0." if char == "." else char), True
    elif char == ".":
        if "." not in state.entry:
            state.entry += "."
    elif sum(c.isdigit() for c in state.entry) < 9:
        sign = "-" if state.entry.startswith("-") else ""
        state.entry = sign + char if state.entry in ("0", "-0") else state.entry + char
    state.after_operator = False


def _operator(state: CalculatorState, op: str) -> None:
    if state.after_operator:
        # A second operator in a row replaces the first, as on the real keypad.
        if state.product_op is not None and op not in _TIGHT:
            state.product_op, state.product_left = None, None
        elif state.product_op is not None:
            state.product_op = op
            return
        elif op in _TIGHT and state.sum_op is not None:
            state.product_left, state.product_op = state.value(), op
            state.sum_op, state.sum_left = None, None
            return
    x = state.value()
    try:
        if state.product_op is not None and state.product_left is not None:
            x = _apply(state.product_left, state.product_op, x)
            state.product_op = state.product_left = None
        if op in _TIGHT:
            state.product_left, state.product_op = x, op
        else:
            if state.sum_op is not None and state.sum_left is not None:
                x = _apply(state.sum_left, state.sum_op, x)
            state.sum_left, state.sum_op = x, op
    except ArithmeticError:
        state.error = True
        return
    state.entry, state.typing, state.after_operator = _plain(x), False, True


def _equals(state: CalculatorState) -> None:
    while state.groups and not state.error:
        _close(state)
    if state.error:
        return
    x = state.value()
    try:
        if state.product_op is None and state.sum_op is None:
            if state.repeat is not None:
                x = _apply(x, *state.repeat)
        else:
            x, state.repeat = _folded(state)
    except ArithmeticError:
        state.error = True
        return
    state.sum_op = state.sum_left = state.product_op = state.product_left = None
    state.entry, state.typing, state.after_operator = _plain(x), False, False


def _percent(state: CalculatorState) -> None:
    x = state.value() / 100
    if state.product_op is None and state.sum_op is not None and state.sum_left is not None:
        x = state.sum_left * x
    state.entry, state.typing, state.after_operator = _plain(x), False, False


def _plain(value: Decimal) -> str:
    return f"{value.normalize():f}" if value != 0 else "0"


DIGITS = tuple("0123456789")
KEYS = frozenset({*DIGITS, *SYMBOLS})
"""Every key the arithmetic takes, by its accessibility name: the portrait keypad's and the
Scientific keypad's parentheses."""
ENDS_ENTRY = frozenset({*OPERATORS, "equals", "percent", OPEN, CLOSE})
"""The keys that take the entry being typed into the computation."""


@dataclass
class Worked:
    """A run of key presses replayed on a freshly opened Calculator."""

    state: CalculatorState = field(default_factory=CalculatorState)
    entries: list[Decimal] = field(default_factory=list)
    """The numbers keyed, in order, each as its whole entry (the display's number when the
    next key ended it, after any digit deleted); an entry Clear, All clear or deleting its
    every digit threw away is not among them."""
    operations: int = 0
    """Presses of an operator or %."""
    repeated_before: bool = False
    """An = pressed with nothing pending and nothing to repeat: on the phone it repeats the
    last operation of whatever was keyed before the run, which the run does not know."""

    @property
    def shown(self) -> str:
        """What the display shows after the run."""
        return display(self.state)


def work(keys: Sequence[str], values: Sequence[Decimal] | None = None) -> Worked:
    """Replay `keys` (accessibility names, each in `KEYS`, or `DISPLAY_SWIPE`) on a fresh
    Calculator, noting each number keyed as it is entered. With `values`, each number keyed
    is worked with as the value at its place among the numbers keyed instead (its entries still
    note what was keyed): the same computation with other numbers in it."""
    done = Worked()
    state = done.state
    for key in keys:
        if values is not None and key in ENDS_ENTRY and state.typing and not state.error:
            state.entry = _plain(values[len(done.entries) - 1])
        if state.error and (key in DIGITS or key == "Decimal"):
            done.entries.clear()  # a digit after Error starts over, as All clear does
            done.operations = 0
        typing = state.typing and not state.error
        if key == "equals" and state.product_op is None and state.sum_op is None \
                and state.repeat is None and not state.groups:
            done.repeated_before = True
        if key == "Clear" and typing and done.entries:
            done.entries.pop()
        elif key == "All clear":
            done.entries.clear()
            done.operations = 0
        elif key in OPERATORS or key == "percent":
            done.operations += 1
        press(state, key)
        if key in DELETES and typing and done.entries:
            if state.typing:
                done.entries[-1] = state.value()
            else:
                done.entries.pop()  # every digit deleted: that number was not keyed
        if (key in DIGITS or key == "Decimal") and state.typing:
            if typing:
                done.entries[-1] = state.value()
            else:
                done.entries.append(state.value())
    return done
