"""Calculator (com.apple.calculator): the portrait keypad with real arithmetic.

Behaves like iOS's basic calculator: × and ÷ bind tighter than + and − (12 + 8 × 5 = 52, so
(12 + 8) × 5 takes an = first); % divides the entry by 100, or after + or − takes that percent
of the left operand (240 + 15 % = 276, 240 × 15 % = 36, 15 % × 240 = 36); = again repeats the
last operation; "AC" clears everything, "C" (shown while an entry is being typed) only the entry;
dividing by zero shows "Error". Exact decimal arithmetic, shown with up to 9 significant digits
and thousands separators, as the real display does.

Accessibility names follow the real app as best known (iOS 17-26): the display is a StaticText
named "Result" whose label and value are the displayed number; keys are Buttons named and
labelled "0"-"9", "Decimal", "All clear", "Clear", "change sign", "percent", "divide",
"multiply", "subtract", "add" and "equals". The keypad is the classic one with a wide 0 (iOS 18
swapped in a backspace and a mode button).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from decimal import Decimal, DivisionByZero, InvalidOperation, localcontext

from phoneshell.sim import layout
from phoneshell.sim.apps import AppModel, Host, register
from phoneshell.sim.ui import Node, Rect

BUNDLE_ID = "com.apple.calculator"
OPERATORS = {"divide": "÷", "multiply": "×", "subtract": "−", "add": "+"}
SYMBOLS = {**OPERATORS, "equals": "=", "percent": "%", "change sign": "+/−", "Decimal": ".",
           "All clear": "AC", "Clear": "C"}
"""What each key shows on screen (the screenshot); the source carries the accessibility names."""
_TIGHT = ("multiply", "divide")


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
    elif key == "All clear":
        _clear_all(state)


def _clear_all(state: CalculatorState) -> None:
    fresh = CalculatorState()
    for f in fields(CalculatorState):
        setattr(state, f.name, getattr(fresh, f.name))


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
    x = state.value()
    try:
        if state.product_op is None and state.sum_op is None:
            if state.repeat is not None:
                x = _apply(x, *state.repeat)
        else:
            last: tuple[str, Decimal] | None = None
            if state.product_op is not None and state.product_left is not None:
                last = (state.product_op, x)
                x = _apply(state.product_left, state.product_op, x)
            if state.sum_op is not None and state.sum_left is not None:
                last = (state.sum_op, x) if last is None else last
                x = _apply(state.sum_left, state.sum_op, x)
            state.repeat = last
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


def _key(key: str, frame: Rect, state: CalculatorState) -> Node:
    def tap() -> None:
        press(state, key)

    return Node("Button", frame, label=key, name=key, on_tap=tap, pixels_text=SYMBOLS.get(key))


def render(state: CalculatorState, host: Host) -> Node:
    """The display over the 5x4 keypad."""
    f = host.facts
    size, gap = 84, 13
    left = (f.width - 4 * size - 3 * gap) // 2
    bottom = f.height - 50

    def at(col: int, row: int, span: int = 1) -> Rect:
        return Rect(left + col * (size + gap), bottom - (5 - row) * (size + gap) + gap,
                    size * span + gap * (span - 1), size)

    clear = "Clear" if state.typing and not state.error else "All clear"
    grid: list[tuple[str, int, int, int]] = [
        (clear, 0, 0, 1), ("change sign", 1, 0, 1), ("percent", 2, 0, 1), ("divide", 3, 0, 1),
        ("7", 0, 1, 1), ("8", 1, 1, 1), ("9", 2, 1, 1), ("multiply", 3, 1, 1),
        ("4", 0, 2, 1), ("5", 1, 2, 1), ("6", 2, 2, 1), ("subtract", 3, 2, 1),
        ("1", 0, 3, 1), ("2", 1, 3, 1), ("3", 2, 3, 1), ("add", 3, 3, 1),
        ("0", 0, 4, 2), ("Decimal", 2, 4, 1), ("equals", 3, 4, 1),
    ]
    keys = [_key(key, at(col, row, span), state) for key, col, row, span in grid]
    shown = display(state)
    # The frame hugs the digits at the right edge, as the real display's does.
    width = min(f.width - 32, layout.text_width(shown, 76))
    result = Node("StaticText", Rect(f.width - 16 - width, at(0, 0).y - 110, width, 96),
                  label=shown, name="Result", value=shown)
    # The pending operator's key stays highlighted until the next entry, as on the real app.
    pending = (state.product_op or state.sum_op) if state.after_operator else None
    keys = [replace(k, selected=True) if k.name == pending else k for k in keys]
    return layout.screen(f, [result, *keys], key="calculator")


APP = register(AppModel(BUNDLE_ID, "Calculator", CalculatorState, render, rotates=True))
