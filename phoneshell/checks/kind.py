"""What a check is, what grading one yields, and the one registry of check kinds.

A check kind is a pure function of (check, evidence) plus what the task loader, the schema, the
implication test and the device need to know about it: its fields, whether it can be negated,
which extra evidence it needs captured, and when another check implies it (its rule, one of
`implied`'s).
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from phoneshell.evidence import Evidence
from phoneshell.params import Param, ParamValue
from phoneshell.patterns import Pattern, compile_pattern
from phoneshell.records import CheckResult
from phoneshell.registry import Registry
from phoneshell.tree import shorten

if TYPE_CHECKING:  # the rules read `Check`, so they import this module
    from phoneshell.checks.implied import Rule

Family = Literal["state", "path", "effect", "answer"]
LABEL_ORDER = ("text", "url", "app", "apps", "probe")
"""Which parameter names a check in reports, first present first."""


@dataclass(frozen=True)
class Check:
    """One check of a task, as written in its file (validated against its kind).

    Its parameters are its kind's (`CheckKind.params`): every one present in `values`, in the
    kind's order, an absent key holding the parameter's empty value. Read them with `text_of`,
    `list_of`, `int_of` and `flag_of`; build a check in code with `Check.make`.
    """

    kind: str
    """The registered check kind, e.g. "foreground_app"."""
    values: tuple[tuple[str, ParamValue], ...] = ()
    """(name, value) of each of the kind's parameters, in the kind's order."""
    negate: bool = False
    """Pass when the thing is absent; passes only on complete, readable evidence."""
    note: str = ""
    """Why the check is there, for people."""
    file: str = ""
    """The task file the check came from."""
    line: int = 0
    """The 1-based line of the check in its file."""

    @classmethod
    def make(cls, kind: str, text: str | None = None, *, negate: bool = False, note: str = "",
             file: str = "", line: int = 0, **given: ParamValue) -> Check:
        """A check of `kind` with `text` and the other parameters given (the rest empty).

        Raises:
            UnknownName: no such kind. ValueError: a parameter the kind does not have.
        """
        if text is not None:
            given["text"] = text
        params = CHECKS.lookup(kind).params
        unknown = sorted(set(given) - {p.name for p in params})
        if unknown:
            raise ValueError(f"check kind {kind!r} has no parameter(s) {', '.join(unknown)} "
                             f"(it has {', '.join(p.name for p in params) or 'none'})")
        values = tuple((p.name, given[p.name] if p.name in given else p.empty())
                       for p in params)
        return cls(kind, values, negate, note, file, line)

    def _value(self, name: str) -> ParamValue:
        for key, value in self.values:
            if key == name:
                return value
        raise KeyError(f"check kind {self.kind!r} has no parameter {name!r}")

    def has(self, name: str) -> bool:
        """Whether the kind has a parameter called `name`."""
        return any(key == name for key, _ in self.values)

    def text_of(self, name: str) -> str:
        """A string parameter ("" when absent)."""
        value = self._value(name)
        return value if isinstance(value, str) else ""

    def list_of(self, name: str) -> tuple[str, ...]:
        """A list-of-strings parameter (() when absent)."""
        value = self._value(name)
        return tuple(str(v) for v in value) if isinstance(value, tuple) else ()

    def int_of(self, name: str) -> int:
        """A whole-number parameter (its default when absent)."""
        value = self._value(name)
        return value if isinstance(value, int) and not isinstance(value, bool) else 0

    def flag_of(self, name: str) -> bool:
        """A true/false parameter (False when absent or when the kind has none)."""
        return self.has(name) and self._value(name) is True

    @property
    def text(self) -> str:
        """The main argument, `text` ("" for a kind without one)."""
        return self.text_of("text") if self.has("text") else ""

    @property
    def pattern(self) -> Pattern:
        """`text` compiled as a regex (valid: the loader compiled it already)."""
        return _compiled(self.text)

    def label(self) -> str:
        """A short name for reports: kind, negation and main argument."""
        arg: str = ""
        for name in LABEL_ORDER:
            if self.has(name):
                value = self._value(name)
                arg = (" > ".join(map(str, value)) if isinstance(value, tuple)
                       else str(value))
                if arg:
                    break
        kind = self.text_of("type") if self.has("type") else ""
        where = f" in a {kind}" if kind else ""
        shown = f" {as_written(arg)}" if arg else ""  # a kind with no argument: its name
        return f"{'not ' if self.negate else ''}{self.kind}{shown}{where}"


def as_written(text: str) -> str:
    """`text` quoted as the task file has it: backslashes stay single (`'\\b423\\b'`, not the
    doubled ones `repr` prints), only line breaks and control characters are escaped, so a
    label stays on one line."""
    shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    quote = '"' if "'" in shown and '"' not in shown else "'"
    return f"{quote}{shown}{quote}"


_PATTERNS: dict[str, Pattern] = {}


def _compiled(text: str) -> Pattern:
    pattern = _PATTERNS.get(text)
    if pattern is None:
        pattern = _PATTERNS[text] = compile_pattern(text)
    return pattern


@dataclass(frozen=True)
class Finding:
    """What a kind function saw, before negation is applied.

    Args:
        holds: whether the checked thing is there (the app in front, the text found...).
        detail: what was expected and what was seen, for a person.
        unproven: why "does not hold" cannot be trusted (cut-off source, unreadable screen,
            missing probe count); empty when the evidence is complete. A negated check
            passes only when this is empty.
    """

    holds: bool
    detail: str
    unproven: str = ""


@dataclass(frozen=True)
class Need:
    """Extra evidence a check needs captured: scroll captures, a probe count, a device read."""

    what: Literal["scroll", "probe", "read"]
    name: str = ""
    """The probe's name (probe needs)."""
    arg: str = ""
    """The probe's argument, or the label to read (read needs)."""


@dataclass(frozen=True)
class CheckKind:
    """A registered check kind: its grading function and what tooling needs to know."""

    name: str
    family: Family
    """state (end state), path (audit log), effect (before/after), answer (the claim)."""
    doc: str
    """One paragraph: what passes, what fails."""
    params: tuple[Param, ...]
    """Parameters besides `kind`, `negate` and `note`."""
    negatable: bool
    find: Callable[[Check, Evidence], Finding]
    """The pure function that looks at the evidence."""
    implied_by: Rule
    """When a check of another task implies a check of this kind (see `Same`, `Contains`)."""
    needs: Callable[[Check], tuple[Need, ...]] = lambda check: ()
    """Extra captures this check needs from the device."""
    probe_kind: Literal["count", "value", ""] = ""
    """The kind of probe its `probe` field must name ("" when it has none)."""
    invalid: Callable[[dict[str, ParamValue]], tuple[str, str] | None] = lambda values: None
    """What is wrong with a check's fields together, as (field, problem), or None: the loader
    reports it at the field's line (tapped_keys takes `keys` or `result`, never both)."""
    absence: bool = False
    """The kind asserts that something did not happen (`never_opened`, `count_unchanged`), so
    an agent that does nothing passes it, as it passes any negated check; check-tasks warns
    about a task whose checks are all such (`tasks.hygiene.warn_idle`)."""

    def grade(self, check: Check, evidence: Evidence) -> CheckResult:
        """Grade `check` against `evidence`, applying `negate` so that absence fails closed. A
        kind function that raises fails its check, negated or not (`ungraded`): the evidence,
        which an agent shaped, could not be graded, and that is never a pass, skip or crash."""
        try:
            finding = self.find(check, evidence)
        except Exception as exc:  # noqa: BLE001 - fails closed, the error named in the detail
            return CheckResult(kind=check.kind, passed=False, detail=ungraded(exc),
                               negate=check.negate, label=check.label())
        if not check.negate:
            return CheckResult(kind=check.kind, passed=finding.holds, detail=finding.detail,
                               label=check.label())
        if finding.holds:
            passed, detail = False, f"unexpectedly present: {finding.detail}"
        elif finding.unproven:
            passed, detail = False, f"absence unproven: {finding.unproven}"
        else:
            passed, detail = True, f"correctly absent: {finding.detail}"
        return CheckResult(kind=check.kind, passed=passed, detail=detail, negate=True,
                           label=check.label())


CHECKS: Registry[CheckKind] = Registry("check kind", "phoneshell schema --kinds")
UNGRADED = "could not be graded"
"""How the detail of a check whose kind function raised begins (`ungraded`)."""


def ungraded(exc: Exception) -> str:
    """The detail of a check whose kind function raised `exc`: the error and where it was
    raised (the whole traceback: `grade.raised`)."""
    said = f"{UNGRADED}: {type(exc).__name__}: {shorten(str(exc), 200)}"
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return said
    last = frames[-1]
    return f"{said} (at {Path(last.filename).name}:{last.lineno} in {last.name})"


def check_kind(name: str, *, family: Family, params: tuple[Param, ...], negatable: bool = True,
               implied_by: Rule,
               needs: Callable[[Check], tuple[Need, ...]] | None = None,
               probe_kind: Literal["count", "value", ""] = "",
               invalid: Callable[[dict[str, ParamValue]], tuple[str, str] | None] | None = None,
               absence: bool = False,
               ) -> Callable[[Callable[[Check, Evidence], Finding]],
                             Callable[[Check, Evidence], Finding]]:
    """Register the decorated function as check kind `name`; its docstring is the kind's doc."""

    def add(find: Callable[[Check, Evidence], Finding]) -> Callable[[Check, Evidence], Finding]:
        doc = " ".join((find.__doc__ or "").split())
        CHECKS.register(name)(CheckKind(name, family, doc, params, negatable, find, implied_by,
                                        needs or (lambda check: ()), probe_kind,
                                        invalid or (lambda values: None), absence))
        return find

    return add


def lookup(name: str) -> CheckKind:
    """The check kind called `name` (raises `UnknownName` with close matches)."""
    return CHECKS.lookup(name)


def needs_of(checks: Iterable[Check]) -> tuple[Need, ...]:
    """Every extra capture the checks declared, without repeats, in check order."""
    found: list[Need] = []
    for check in checks:
        for need in CHECKS.lookup(check.kind).needs(check):
            if need not in found:
                found.append(need)
    return tuple(found)


def grade_check(check: Check, evidence: Evidence) -> CheckResult:
    """Grade one check against evidence."""
    return CHECKS.lookup(check.kind).grade(check, evidence)


def decided_unscrolled(checks: Iterable[Check], evidence: Evidence) -> bool:
    """Whether the scroll captures the checks ask for could change nothing: every check that
    asks for them is not negated and already passes on `evidence` (the final screen alone). A
    pass found on the final screen stays a pass whatever scrolling adds; absence, or a negated
    check, is proven only by looking (so those scroll)."""
    return all(not check.negate and grade_check(check, evidence).passed
               for check in checks
               if any(n.what == "scroll" for n in CHECKS.lookup(check.kind).needs(check)))
