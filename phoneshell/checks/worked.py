"""Whether a number was worked out on Calculator: the agent's last computation, replayed. Pure.

The `tapped_keys` check with `result` reads the computation from the agent's presses and replays
it on `phoneshell.keypad`, the arithmetic the simulated Calculator runs, instead of matching
key orders a task lists: any form of the task's computation (its `expression`) keyed with the
task's own numbers counts, reordered, distributed or in parentheses; one that keys the result,
numbers the instruction does not give, or reaches the result by other arithmetic, does not.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal, InvalidOperation

from phoneshell.audit import Action
from phoneshell.checks.tapped_names import target_named
from phoneshell.checks.worked_display import Display, key_named
from phoneshell.checks.worked_expression import (
    Operands,
    assignments,
    parse,
    places_of,
    same,
)
from phoneshell.keypad import (
    CLOSE,
    DIGITS,
    DISPLAY_SWIPE,
    KEYS,
    OPEN,
    OPERATORS,
    SCIENTIFIC,
    SYMBOLS,
    display_swipe,
    format_number,
    work,
)
from phoneshell.params import ParamValue
from phoneshell.xcui import swipe_ends

FRESH = ("equals", "All clear")
"""Keys after which a number keyed starts a new computation: nothing is pending, and the new
entry drops what was shown (not Clear, which clears only the entry: 3 + 0 x 5, Clear, then
30 x 10 % = still counts the 3)."""
ENDS = ("equals", "percent")
"""The keys a computation ends on: = shows its result, and so does % after + or − (30 + 10 %
shows 3)."""
SHOWN = 24
"""How many numbers and keys of a computation a detail shows: its last ones."""
SUFFIXES = 16
"""How many of the latest numbers keyed in a failed computation are tried as where an honest
computation began (to name what it was keyed onto)."""
BLIND, SWIPE = "?", "swipe"
"""Stand-ins for a tap the bridge could not resolve and for an action in the app that is no key
press the check can replay (a swipe elsewhere than sideways on the display; a tap whose count
WDA does not say)."""
OPENS_AFTER = frozenset({*OPERATORS, OPEN, *FRESH})
"""The keys a ( may follow (or begin a computation): after a number or a ) the phone may take
it as ×, or not, which the check cannot know."""
REPLAYED = KEYS | {DISPLAY_SWIPE}
"""What the check replays: the keys, and a sideways swipe on the display (a digit deleted)."""


def number(text: str) -> Decimal | None:
    """A number as a task file writes it (`3`, `0.1`), or None."""
    try:
        value = Decimal(text.strip())
    except InvalidOperation:
        return None
    return value if value.is_finite() else None


def operands(result: str, numbers: Sequence[str], helpers: Sequence[str],
             expression: str) -> Operands:
    """The check's fields read as numbers and a computation (valid: `invalid` passed them at
    load)."""
    read = _read(result, numbers, helpers, expression)
    if isinstance(read, tuple):
        raise ValueError(f"a tapped_keys check {read[1]}")
    return read


def invalid(values: dict[str, ParamValue]) -> tuple[str, str] | None:
    """What is wrong with a tapped_keys check's fields, as (field, problem), or None; the
    problem reads after "a tapped_keys check"."""
    keys, result = values.get("keys"), values.get("result")
    if bool(keys) == bool(result):
        return ("result" if result else "keys",
                "needs either `keys` (the key orders) or `result` with `numbers` (the "
                "computation), not both")
    if not result:
        extra = [name for name in ("numbers", "helpers", "expression") if values.get(name)]
        return (extra[0], f"takes `{extra[0]}` only with `result`") if extra else None
    if values.get("also"):
        return "also", "takes `also` only with `keys`"
    if not values.get("numbers"):
        return "result", "with `result` needs `numbers`: the operands the instruction gives"

    def texts(name: str) -> tuple[str, ...]:
        given = values.get(name)
        return (given,) if isinstance(given, str) else \
            tuple(str(t) for t in given) if isinstance(given, tuple) else ()

    expression = values.get("expression")
    read = _read(str(result), texts("numbers"), texts("helpers"),
                 expression if isinstance(expression, str) else "")
    if isinstance(read, tuple):
        return read
    shown = format_number(read.expression.value())
    if shown != format_number(read.result):
        return "expression", (f"has `expression` {read.expression.text!r}, which is {shown}, "
                              f"not `result` {result}")
    return None


def _read(result: str, numbers: Sequence[str], helpers: Sequence[str], expression: str
          ) -> Operands | tuple[str, str]:
    """The check's fields read as numbers and a computation, or the first thing wrong with them
    as (field, problem): the one reading, for the loader and the grade alike. `result` and each
    helper are one number; each of `numbers` is its spellings, separated by spaces."""
    read: dict[str, list[tuple[Decimal, ...]]] = {}
    for name, texts, spelled in (("result", (result,), False), ("numbers", numbers, True),
                                 ("helpers", helpers, False)):
        read[name] = []
        for text in texts:
            spellings: list[Decimal] = []
            for part in text.split() if spelled else [text]:
                value = number(part)
                if value is None:
                    return name, f"has {part!r} in `{name}`, which is not a number"
                spellings.append(value)
            if not spellings:
                return name, f"has {text!r} in `{name}`, which is not a number"
            read[name].append(tuple(spellings))
    if not expression:
        return "result", ("with `result` needs `expression`: the computation the instruction "
                          "asks for, in its numbers, e.g. '(12 + 8) × 5'")
    try:
        written = parse(expression)
    except ValueError as e:
        return "expression", str(e)
    given = tuple(read["numbers"])
    places = places_of(written, given)
    if isinstance(places, str):
        return "expression", places
    return Operands(read["result"][0][0], given, tuple(h for (h,) in read["helpers"]), written,
                    places)


def key_of(press: Action | None, display: Display | None = None) -> str:
    """The keypad key a press was on (its accessibility name), `display swipe` for a sideways
    swipe on the display (placed by `display` where given), `?` for a tap with no resolved
    target, `swipe` for any other action that is no press, else the element's label quoted:
    something the check cannot replay (a menu's Paste, the display)."""
    if press is None or press.kind == "swipe":
        return DISPLAY_SWIPE if press is not None and swiped_display(press, display) else SWIPE
    if press.target is None:
        return BLIND
    found = key_named(press.target)
    if found:
        return found
    return target_named(press.target, 24)


def swiped_display(action: Action, display: Display | None = None) -> bool:
    """Whether a swipe deleted a digit as the phone takes one: one finger going down on the
    display and moving sideways by `keypad.display_swipe`'s rule, or XCUITest's swipe left or
    right on the display's element (across its middle half). On the display: on the StaticText
    named Result, or anywhere in `display`'s area (beside or above the digits) but on a
    control, where `display` places the swipe. A swipe without a resolved target, with more
    fingers, or WDA's scroll or drag on an element (no points in the log) is no swipe the check
    can replay."""
    target, p = action.target, action.params
    if target is None or p.get("fingers") is not None:
        return False
    on_text = target.type.endswith("StaticText") and target.name == "Result"
    if on_text and p.get("gesture") == "swipe" and p.get("direction") in ("left", "right") \
            and "from_x" not in p:
        return True
    ends = swipe_ends(p)
    if ends is None:
        return False
    from_x, from_y, to_x, to_y = ends
    on_area = display is not None and display.places(action) \
        and display.area.holds(from_x, from_y) and not _control(target.type)
    return (on_text or on_area) and display_swipe(from_x, to_x - from_x, to_y - from_y)


CONTROLS = ("Button", "MenuItem", "Key", "Cell", "Switch", "Link", "Icon")
"""Element types a tap may work (a key, a menu's Paste): what a tap on anything else does not."""


def _control(element_type: str) -> bool:
    """Whether an element of this type is one a tap may work (`CONTROLS`)."""
    return any(element_type.endswith(kind) for kind in CONTROLS)


def _idle(press: Action | None) -> bool:
    """Whether a press is a tap that keys nothing: on a resolved element that is no control (the
    display's text, blank space), so it neither keys nor changes what the display shows."""
    return press is not None and press.kind == "tap" and press.target is not None and \
        not _control(press.target.type)


def start(keys: Sequence[str]) -> int:
    """Where the last computation starts: the last number begun with nothing before it, or after
    = or All clear (each drops what showed); else the first key."""
    return _cuts(keys)[-1]


def _cuts(keys: Sequence[str]) -> list[int]:
    """Where each computation in `keys` starts: the first key, and each number begun after = or
    All clear."""
    return [0, *(i for i in range(1, len(keys)) if _begins(keys, i) and keys[i - 1] in FRESH)]


def _begins(keys: Sequence[str], i: int) -> bool:
    """Whether keys[i] begins a number or a group: a digit, point or ( after something other
    than those."""
    entry = ("Decimal", *DIGITS, OPEN)
    return keys[i] in entry and (i == 0 or keys[i - 1] not in entry)


def shown(keys: Sequence[str]) -> str:
    """Keys as a person writes them: `30 × 10 % =`."""
    out: list[str] = []
    for i, key in enumerate(keys):
        text = {"Decimal": ".", DISPLAY_SWIPE: "⌫(swipe)"}.get(key, SYMBOLS.get(key, key))
        text = SCIENTIFIC.get(text.strip("'"), text)
        glued = key in ("Decimal", *DIGITS) and i and keys[i - 1] in ("Decimal", *DIGITS)
        out.append(text if not out or not glued else out.pop() + text)
    return " ".join(out if len(out) <= SHOWN else ["…", *out[-SHOWN:]]) or "nothing"


def judge(keys: Sequence[str], want: Operands) -> tuple[bool, str]:
    """Whether `keys`, replayed from a fresh Calculator, compute `want.result` from the task's
    numbers; and why, for a person."""
    what = shown(keys)
    unreplayable = _unreplayable(keys)
    if unreplayable:
        return False, f"the computation {what} {unreplayable}"
    done = work(keys)
    unaccounted = _unaccounted(done.entries, want)
    if unaccounted:
        return False, f"the computation {what} {unaccounted}"
    if done.repeated_before:
        return False, (f"the computation {what} presses = with nothing pending, which repeats "
                       "an operation keyed before it")
    if not done.operations:
        return False, f"the computation {what} has no operation: it only keys a number"
    if done.state.error or done.shown != format_number(want.result):
        return False, f"the computation {what} shows {done.shown}, not {_n(want.result)}"
    if not same(want, keys, done.entries):
        return False, _other(what, done.shown, want)
    used = ", ".join(map(_n, done.entries))
    return True, (f"the computation {what} was the last keyed: it shows {done.shown}, from "
                  f"{used}, as {want.expression.text} does")


def _other(what: str, shown: str, want: Operands) -> str:
    """Why a computation that shows the result from the task's numbers is not the task's."""
    given = " and ".join(_n(s[0]) for s in want.numbers)
    return (f"the computation {what} shows {shown} but is not {want.expression.text}: worked "
            f"with other numbers in place of {given}, it computes something else")


def _ungrouped(keys: Sequence[str]) -> str:
    """A parenthesis the check cannot replay, in words ("" when none): a ( right after a number
    or a ) (the phone may take it as ×), a ) with no ( open."""
    depth = 0
    for i, key in enumerate(keys):
        if key == OPEN and i and keys[i - 1] not in OPENS_AFTER:
            return (f"a ( right after {shown(keys[i - 1:i])} (which the phone may take as ×, or "
                    "not)")
        depth += (key == OPEN) - (key == CLOSE)
        if depth < 0:
            return "a ) with no ( open before it"
    return ""


def _unaccounted(entries: Sequence[Decimal], want: Operands) -> str:
    """Why the numbers keyed are not the task's numbers (each at least once) and helpers (each
    at most once); "" when they are."""
    if next(assignments(entries, want.numbers, want.helpers), None) is None:
        given = " and ".join(_n(s[0]) for s in want.numbers)
        helpers = f" (and {' or '.join(map(_n, want.helpers))} once)" if want.helpers else ""
        numbers = [*(["…"] if len(entries) > SHOWN else []), *map(_n, entries[-SHOWN:])]
        keyed = ", ".join(numbers) or "no number"
        return f"keys {keyed}; wanted each of {given}{helpers}, and no other number"
    return ""


def _n(value: Decimal) -> str:
    return format_number(value)


def computed(pressed: Sequence[Action | None], want: Operands, display: Display | None = None
             ) -> tuple[bool, str, int]:
    """Judge the agent's last computation among its presses: (passed, why, how many of its
    taps had no resolved target); `display` places its swipes. A computation keyed onto a
    number keyed before it (3 + 0 x, then 30 x 10 % =) says so."""
    # a tap on the display or blank space keys nothing, wherever it falls (a menu it opens
    # is another matter: its Paste is a control, and no key the check can replay)
    keys = [key_of(p, display) for p in pressed if not _idle(p)]
    if not keys:
        return False, "the agent pressed no key", 0
    begin = start(keys)
    last = keys[begin:]
    passed, why = judge(last, want)
    carried = "" if passed else _carried(keys[:begin], last, want)
    if carried:
        return True, carried, last.count(BLIND)
    if not passed:
        # the latest numbers only: a detail, not worth a replay per number of a long run
        for i in [i for i in range(1, len(last)) if _begins(last, i)][:-SUFFIXES - 1:-1]:
            if judge(last[i:], want)[0]:
                why = (f"the computation {shown(last[i:])} was keyed after {shown(last[:i])} "
                       "with no = or All clear between: what was pending before it counts in "
                       "what it shows")
                break
    return passed, why, last.count(BLIND)


def _segments(keys: Sequence[str]) -> list[list[str]]:
    """`keys` cut into computations, where a number begins after = or All clear, each without
    the All clear that ended it (what it showed is what was carried)."""
    cuts = _cuts(keys)
    segments = [list(keys[a:b]) for a, b in zip(cuts, [*cuts[1:], len(keys)], strict=True)]
    for segment in segments:
        while segment and segment[-1] == "All clear":
            segment.pop()
    return segments


def _carried(before: Sequence[str], last: Sequence[str], want: Operands) -> str:
    """Why the last computation counts though it keys a number the task does not give ("" when
    it does not): that number is what an earlier computation showed, carried by hand (12 + 8 =,
    All clear, 20 x 5 =), and the two together key the task's numbers, each once. One carry,
    from the latest computation that shows it; each must replay whole and end on = or %."""
    if _unreplayable(last):
        return ""
    done = work(last)
    if done.state.error or done.shown != format_number(want.result) or not done.operations \
            or done.repeated_before:
        return ""
    for segment in reversed(_segments(before)):
        if _unreplayable(segment):
            continue
        prior = work(segment)
        if prior.state.error or not prior.operations or prior.repeated_before:
            continue
        value = prior.state.value()
        if value not in done.entries:
            continue
        carry = done.entries.index(value)
        if same(want, last, done.entries, segment, prior.entries, carry):
            return (f"the computation {shown(last)} shows {done.shown}, carrying {_n(value)} from "
                    f"{shown(segment)} keyed before it: together they key the task's numbers")
        return ""  # the latest that shows it did not add up: none earlier is taken instead
    return ""


def _unreplayable(keys: Sequence[str]) -> str:
    """Why the check cannot replay a computation whole, to its result (read after "the
    computation ..."; "" when it can): a press that is no key it replays or a sign change, a
    parenthesis `_ungrouped` names, or no = or % at its end. The one rule for the last
    computation and for one a result was carried from."""
    odd = [k for k in keys if k not in REPLAYED or k == "change sign"]
    if odd:
        how = {SWIPE: "an action that is no key press (only a sideways swipe on the display, "
                      "which deletes a digit, is replayed)",
               BLIND: "a tap on no element the bridge resolved",
               "change sign": "a sign change (+/−)"}.get(odd[0], f"a tap on {odd[0]}")
        if odd[0].strip("'") in SCIENTIFIC:
            how += " (a Scientific key: of those only ( and ) are replayed)"
        return f"has {how}, which the check cannot replay"
    grouping = _ungrouped(keys)
    if grouping:
        return f"has {grouping}, which the check cannot replay"
    if not keys or keys[-1] not in ENDS:
        return f"ends on {shown(keys[-1:])}, not = or %"
    return ""
