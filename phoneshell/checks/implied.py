"""When one check implies another: the rules the static implication test reads. Pure.

A check kind names its rule (`CheckKind.implied_by`): `Same` (only the same check), `Contains`
(substring and whole-text kinds), `Ordered` (apps in order) or `Suffix` (a computation's keys).
`phoneshell implications` and `phoneshell.implication` ask them whether any evidence passing one
check passes another.
"""

from __future__ import annotations

from dataclasses import dataclass

from phoneshell.checks.kind import Check
from phoneshell.params import ParamValue
from phoneshell.spelling import folded

__all__ = ["NARROWING", "READ_ALIKE", "Contains", "Ordered", "Rule", "Same", "Suffix", "covered",
           "fixed", "normal", "others", "signature"]


def signature(check: Check) -> tuple[object, ...]:
    """Everything that decides what a check passes on (not where it was written)."""
    return (check.kind, check.negate, check.values)


def others(check: Check, *but: str) -> tuple[tuple[str, ParamValue], ...]:
    """The check's parameters except `but`, each as its kind reads it (`READ_ALIKE`): what two
    checks must share to relate."""
    return tuple((name, _read(name, value)) for name, value in check.values if name not in but)


NARROWING = ("type", "within", "page")
"""Parameters that narrow where a check looks: an element type, a containing element type, the
page a tapped element was on."""
READ_ALIKE = ("into", "page")
"""Parameters every kind that has one reads as `spelling.folded` reads text (the field typed
into, the page a tap was on), so two values equal once read so are one."""


def _read(name: str, value: ParamValue, alike: tuple[str, ...] = READ_ALIKE) -> ParamValue:
    """A parameter's value as its kind compares it: folded where its name is in `alike`."""
    return folded(value) if name in alike and isinstance(value, str) else value


def fixed(check: Check) -> tuple[tuple[str, ParamValue], ...]:
    """The parameters two checks of substring kinds must share to relate: all but `text`, the
    narrowing ones and the flags (those are compared by `covered`), each as its kind reads it
    (`READ_ALIKE`)."""
    return tuple((name, _read(name, value)) for name, value in check.values
                 if name != "text" and name not in NARROWING and not isinstance(value, bool))


def covered(a: Check, b: Check) -> bool:
    """Whether b's narrowing parameters and flags are at least as strict as a's need.

    Found: an element of b's type (inside b's container) is an element, so a without one is
    covered; a with one needs the same. A flag a sets (`submitted`, `hold`), b must set too.
    Proven absent: b must have looked at least as widely as a, and not only at flagged actions
    when a's flag is off.
    """
    for name, given in a.values:
        mine = _read(name, given)
        theirs = _read(name, b._value(name)) if b.has(name) else None
        if name in NARROWING:
            wide = theirs or ""
            ok = wide in ("", mine) if a.negate else mine in ("", wide)
        elif isinstance(mine, bool):
            flagged = theirs is True
            ok = (not flagged or mine) if a.negate else (flagged or not mine)
        else:
            continue
        if not ok:
            return False
    return True


@dataclass(frozen=True)
class Same:
    """Implication rule: b implies a only when it is the same check (kind, negation, fields),
    its fields read as the kind reads them (`key`)."""

    folded: tuple[str, ...] = READ_ALIKE
    """The fields the kind compares with the phone's text as `spelling.folded` reads both
    (opened_from_search's `text` and `result`): equal once read so, they are the same."""

    def key(self, check: Check) -> tuple[object, ...]:
        """The check as the kind reads it: its `signature`, the `folded` fields folded."""
        return (check.kind, check.negate,
                tuple((name, _read(name, value, self.folded)) for name, value in check.values))

    def implied(self, a: Check, b: Check) -> bool:
        """Whether any evidence passing b passes a."""
        return self.key(a) == self.key(b)

    def describe(self, kind: str) -> str:
        """The rule in words, for docs and `phoneshell implications` output."""
        return f"only by the same {kind} check (same text and negation)"


@dataclass(frozen=True)
class Contains:
    """Implication rule for case-insensitive substring kinds.

    Not negated: b, of one of `kinds`, finds a longer text (so it finds a's too). Negated, same
    kind only: b proves a shorter text absent, so a's longer text is absent too. Every other
    field must be equal.
    """

    kinds: tuple[str, ...]
    """Kinds of b that can imply a non-negated a (a's own kind among them)."""
    whole: bool = False
    """The texts are whole values, not substrings (answers: "LANTERNS" does not name LANTERN,
    and "LANTERN QUILL" hedges), so only the same text, ignoring case, implies."""
    exact: str = ""
    """A flag of the kind that makes a check's text whole and the last (`typed_into`'s
    `whole`): a check that sets it is implied only by one of its kind with the same text,
    ignoring case, and the same fields."""

    def implied(self, a: Check, b: Check) -> bool:
        """Whether any evidence passing b passes a."""
        if a.negate != b.negate or fixed(a) != fixed(b) or not covered(a, b):
            return False
        want, have = normal(a.text), normal(b.text)
        if self.exact and a.flag_of(self.exact):
            return b.kind == a.kind and want == have and others(a, "text") == others(b, "text")
        if self.whole:
            return b.kind in self.kinds and want == have
        if a.negate:
            return b.kind == a.kind and have in want
        return b.kind in self.kinds and want in have

    def describe(self, kind: str) -> str:
        """The rule in words, for docs and `phoneshell implications` output."""
        others = " or ".join(self.kinds)
        if self.whole:
            return f"by a {others} check with the same text (ignoring case)"
        return (f"by a {others} check whose text contains this one's (ignoring case); negated, "
                f"by a negated {kind} check whose text is contained in this one's")


@dataclass(frozen=True)
class Ordered:
    """Implication rule for `apps` in order: not negated, b's apps contain a's as a subsequence
    (b passing shows a's order too); negated, a's apps contain b's (b proves a shorter order
    absent, so a's longer one is absent too). Every other field must be equal."""

    def implied(self, a: Check, b: Check) -> bool:
        """Whether any evidence passing b passes a."""
        if a.kind != b.kind or a.negate != b.negate or others(a, "apps") != others(b, "apps"):
            return False
        short, long = ((b.list_of("apps"), a.list_of("apps")) if a.negate
                       else (a.list_of("apps"), b.list_of("apps")))
        remaining = iter(long)
        return all(any(app == got for got in remaining) for app in short)

    def describe(self, kind: str) -> str:
        """The rule in words, for docs."""
        return (f"by a {kind} check whose apps contain this one's in the same order; negated, "
                f"by a negated {kind} check whose apps this one's contain in order")


@dataclass(frozen=True)
class Suffix:
    """Implication rule for a computation's keys (`keys`, and the other orders in `also`): b
    implies a when each run b accepts ends with a run a accepts, for the agent's last taps that
    are b's run end with a's too. Every other field must be equal. Never negated."""

    def implied(self, a: Check, b: Check) -> bool:
        """Whether any evidence passing b passes a."""
        if a.kind != b.kind or others(a, "keys", "also") != others(b, "keys", "also"):
            return False
        mine, theirs = _runs(a), _runs(b)
        return all(any(len(r) <= len(t) and t[len(t) - len(r):] == r for r in mine)
                   for t in theirs)

    def describe(self, kind: str) -> str:
        """The rule in words, for docs."""
        return (f"by a {kind} check each of whose runs of keys ends with one of this one's "
                f"runs")


def _runs(check: Check) -> list[tuple[str, ...]]:
    """A check's runs of keys, each as `normal` reads it: `keys`, then each of `also` split at
    spaces."""
    return [tuple(normal(k) for k in run) for run in
            (check.list_of("keys"), *(a.split() for a in check.list_of("also")))]


Rule = Same | Contains | Ordered | Suffix


def normal(text: str) -> str:
    """Text as the kinds compare it with what the phone shows (`spelling.folded`: case, quote
    and dash shapes, accents composed or not, full width, no-break spaces and white space
    runs read alike), so two checks equal once read so relate as one."""
    return folded(text)
