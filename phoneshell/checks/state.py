"""End-state checks: what was on the phone when evidence was captured."""

from __future__ import annotations

from phoneshell.checks.kind import Check, Contains, Finding, Need, Same, check_kind
from phoneshell.evidence import Capture, Evidence
from phoneshell.params import Param
from phoneshell.tree import PatternTimeout

APP_TEXT = Param("text", "str", "Bundle id that must be in front (default: the task's `app`).")
LABEL_TEXT = Param("text", "str", "Text to find in an element's label, name or value "
                   "(case-insensitive substring).", required=True)
REGEX_TEXT = Param("text", "regex", "Pattern searched in each on-screen element's label, name "
                   "and value (Python re syntax, case-sensitive; add (?i) to ignore case; a "
                   "search that backtracks for over a second fails).", required=True)
TYPE = Param("type", "str", "Only elements of this WDA type count (the type without its "
                            "XCUIElementType prefix, e.g. NavigationBar, Button, Cell).")


def _unproven(evidence: Evidence, captures: tuple[Capture, ...]) -> str:
    """Why absence in `captures` cannot be trusted, or "" when they are complete and settled."""
    if not captures:
        return "no page source was captured"
    for capture in captures:
        if not capture.source.readable:
            return f"the {capture.role} page source is unreadable ({capture.source.problem})"
        if not capture.source.complete:
            return f"the {capture.role} page source was cut off ({capture.source.problem})"
    if "unsettled" in evidence.flags:
        return "the screen was still changing when it was read"
    return ""


@check_kind("foreground_app", family="state", params=(APP_TEXT,), implied_by=Same())
def foreground_app(check: Check, evidence: Evidence) -> Finding:
    """Passes when the app with bundle id `text` was in front at capture (exact match, from
    `/wda/activeAppInfo`). Fails when another app, or SpringBoard, was in front."""
    got = evidence.foreground
    if got is None:
        return Finding(False, f"the foreground app could not be read; wanted {check.text!r}",
                       unproven="the foreground app could not be read")
    holds = got.bundle_id == check.text
    return Finding(holds, f"in front: {got.bundle_id!r}; wanted {check.text!r}")


def _find_in(check: Check, captures: tuple[Capture, ...], evidence: Evidence) -> Finding:
    only = check.text_of("type")
    for capture in captures:
        hits = [e for e in capture.source.find(check.text)
                if not only or e.short_type == only]
        if hits:
            where = "on the final screen" if capture.role == "final" else "while scrolling"
            return Finding(True, f"{check.text!r} found {where} in {hits[0].describe()}")
    final = evidence.final
    seen = final.source.summary() if final is not None else "nothing"
    scope = "on the final screen" if len(captures) <= 1 else f"in {len(captures)} sources"
    kind = f" in a {only}" if only else ""
    return Finding(False, f"{check.text!r} not found{kind} {scope}; the screen shows {seen}",
                   unproven=_unproven(evidence, captures))


@check_kind("element_exists", family="state", params=(LABEL_TEXT, TYPE),
            implied_by=Contains(("element_exists",)))
def element_exists(check: Check, evidence: Evidence) -> Finding:
    """Passes when an on-screen element of the final page source has `text` in its label, name
    or value (case-insensitive). Off-screen and hidden elements do not count; nothing scrolls."""
    final = evidence.final
    return _find_in(check, (final,) if final is not None else (), evidence)


def _scroll_needs(check: Check) -> tuple[Need, ...]:
    return (Need("scroll"),)


@check_kind("element_exists_anywhere", family="state", params=(LABEL_TEXT, TYPE),
            implied_by=Contains(("element_exists", "element_exists_anywhere")),
            needs=_scroll_needs)
def element_exists_anywhere(check: Check, evidence: Evidence) -> Finding:
    """Like `element_exists`, but over every source captured at the end, including those taken
    while the device scrolled the final screen both ways (for lists longer than the screen).
    Negated, it also needs those scroll captures: absence is proven only after looking."""
    captures = tuple(c for c in evidence.captures if c.role in ("final", "scroll"))
    finding = _find_in(check, captures, evidence)
    if not finding.holds and not finding.unproven and not any(
            c.role == "scroll" for c in captures):
        return Finding(False, finding.detail, unproven="the screen was not scrolled at capture")
    return finding


@check_kind("regex_on_screen", family="state", params=(REGEX_TEXT, TYPE), implied_by=Same())
def regex_on_screen(check: Check, evidence: Evidence) -> Finding:
    """Passes when the pattern matches the label, name or value of an on-screen element of the
    final page source (each string searched on its own, case-sensitively)."""
    final = evidence.final
    if final is None:
        return Finding(False, f"no page source was captured; wanted /{check.text}/",
                       unproven="no page source was captured")
    only = check.text_of("type")
    try:
        hit = final.source.search(check.pattern, only)
    except PatternTimeout as exc:
        # A stopped search proves neither presence nor absence: negated, it fails too.
        return Finding(False, f"/{check.text}/: {exc}", unproven=str(exc))
    if hit is not None:
        return Finding(True, f"/{check.text}/ matched {hit.matched!r} in the {hit.attribute} of "
                             f"{hit.element.describe()}")
    kind = f" in a {only}" if only else ""
    return Finding(False, f"/{check.text}/ matched nothing{kind} on the final screen; it shows "
                          f"{final.source.summary()}",
                   unproven=_unproven(evidence, (final,)))


__all__ = ["foreground_app", "element_exists", "element_exists_anywhere", "regex_on_screen"]
