"""End-state checks: what was on the phone when evidence was captured."""

from __future__ import annotations

from phoneshell.checks.implied import Contains, Same
from phoneshell.checks.kind import Check, Finding, Need, check_kind
from phoneshell.evidence import Capture, Evidence
from phoneshell.overlays import overlay
from phoneshell.params import Param
from phoneshell.patterns import PatternTimeout, search
from phoneshell.spelling import plain, read_pattern
from phoneshell.tree import shorten
from phoneshell.xcui import TEXT_INPUT_TYPES

APP_TEXT = Param("text", "bundle_id", "Bundle id that must be in front (default: the task's "
                                      "`app`).")
LABEL_TEXT = Param("text", "str", "Text to find in an element's label, name or value "
                   "(case-insensitive substring).", required=True)
REGEX_TEXT = Param("text", "regex", "Pattern searched in each on-screen element's label, name "
                   "and value, each with the white space at its ends trimmed (Python re "
                   "syntax, case-sensitive; add (?i) to ignore case; a search that backtracks "
                   "for over a second fails).", required=True)
TYPE = Param("type", "wda_type", "Only elements of this WDA type count (the type without its "
                                 "XCUIElementType prefix, e.g. NavigationBar, Button, Cell). "
                                 "Naming a text input (SearchField, TextField, TextView) makes "
                                 "what was typed into it count.")
WITHIN = Param("within", "wda_type", "Only elements inside an element of this WDA type count "
                                     "(e.g. WebView: a web page's content, never Safari's own "
                                     "bars or suggestions).")
SELECTED = Param("selected", "bool", "Only selected elements count (WDA's traits say Selected: "
                                    "the tab shown, the day a calendar shows).")


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


def _scope(check: Check) -> str:
    """ " in a selected Cell inside a WebView" (for details)."""
    only, within = check.text_of("type"), check.text_of("within")
    chosen = "selected " if check.flag_of("selected") else ""
    return (f" in a {chosen}{only or 'element'}" if only or chosen else "") + (
        f" inside a {within}" if within else "")


def _typed_only(check: Check, captures: tuple[Capture, ...]) -> str:
    """ "; ... only in what was typed" when the text is there, but only as typing (for details)."""
    only = check.text_of("type")
    for capture in captures:
        raw = [e for e in capture.source.find(check.text) if not only or e.short_type == only]
        if raw:
            return (f"; it is only in what was typed ({raw[0].describe()}) or on the keyboard, "
                    "which is not what the app shows")
    return ""


def _find_in(check: Check, captures: tuple[Capture, ...], evidence: Evidence) -> Finding:
    only, within = check.text_of("type"), check.text_of("within")
    for capture in captures:
        hits = capture.source.shown(check.text, only, within)
        if hits:
            where = "on the final screen" if capture.role == "final" else "while scrolling"
            return Finding(True, f"{check.text!r} found {where} in {hits[0].describe()}")
    final = evidence.final
    seen = final.source.summary() if final is not None else "nothing"
    scope = "on the final screen" if len(captures) <= 1 else f"in {len(captures)} sources"
    return Finding(False, f"{check.text!r} not found{_scope(check)} {scope}; the screen shows "
                          f"{seen}{_typed_only(check, captures)}",
                   unproven=_unproven(evidence, captures))


@check_kind("element_exists", family="state", params=(LABEL_TEXT, TYPE, WITHIN),
            implied_by=Contains(("element_exists",)))
def element_exists(check: Check, evidence: Evidence) -> Finding:
    """Passes when an on-screen element of the final page source has `text` in its label, name
    or value (case-insensitive). Off-screen and hidden elements do not count; nothing scrolls.
    What the agent typed (a text input's value) and the keyboard do not count, unless `type`
    names that kind of field."""
    final = evidence.final
    return _find_in(check, (final,) if final is not None else (), evidence)


def _scroll_needs(check: Check) -> tuple[Need, ...]:
    return (Need("scroll"),)


@check_kind("element_exists_anywhere", family="state", params=(LABEL_TEXT, TYPE, WITHIN),
            implied_by=Contains(("element_exists", "element_exists_anywhere")),
            needs=_scroll_needs)
def element_exists_anywhere(check: Check, evidence: Evidence) -> Finding:
    """Like `element_exists`, but over every source captured at the end, including those taken
    while the device scrolled the final screen both ways (for lists longer than the screen).
    Negated, it also needs those scroll captures: absence is proven only after looking."""
    captures = tuple(c for c in evidence.captures if c.role in ("final", "scroll"))
    finding = _find_in(check, captures, evidence)
    if finding.holds or any(c.role == "scroll" for c in captures):
        return finding
    final = evidence.final
    over = overlay(final.source) if final is not None else ""
    if over:  # the capture scrolls only the app's own screen (`device.capture`)
        why = f"the screen was not scrolled at capture: {over} showed over the app's own screen"
        return Finding(False, f"{finding.detail}; {why}", unproven=finding.unproven or why)
    return Finding(False, finding.detail,
                   unproven=finding.unproven or "the screen was not scrolled at capture")


@check_kind("regex_on_screen", family="state", params=(REGEX_TEXT, TYPE, WITHIN, SELECTED),
            implied_by=Same())
def regex_on_screen(check: Check, evidence: Evidence) -> Finding:
    """Passes when the pattern matches the label, name or value of an on-screen element of the
    final page source (each string searched on its own, case-sensitively, the white space at
    its ends trimmed: a typed "anchor " is `^anchor$`); with `selected`, of a selected one
    only. What the agent typed and the keyboard do not count, as for `element_exists`. A
    failure naming a text input's `type` quotes the values it tried."""
    final = evidence.final
    if final is None:
        return Finding(False, f"no page source was captured; wanted /{check.text}/",
                       unproven="no page source was captured")
    try:
        hit = final.source.search(check.pattern, check.text_of("type"), check.text_of("within"),
                                  selected=check.flag_of("selected"))
    except PatternTimeout as exc:
        # A stopped search proves neither presence nor absence: negated, it fails too.
        return Finding(False, f"/{check.text}/: {exc}", unproven=str(exc))
    if hit is not None:
        return Finding(True, f"/{check.text}/ matched {hit.matched!r} in the {hit.attribute} of "
                             f"{hit.element.describe()}")
    return Finding(False, f"/{check.text}/ matched nothing{_scope(check)} on the final screen"
                          f"{_held(check, final)}; it shows {final.source.summary()}",
                   unproven=_unproven(evidence, (final,)))


def _held(check: Check, final: Capture) -> str:
    """ "; the TextView holds 'anchor↵harbour'": what a check naming a text input's type tried
    its pattern on, the value (a screen's summary lists labels, and a note's text is its value:
    red team 110's failure said 'Note', not what the note held)."""
    only = check.text_of("type")
    if only not in TEXT_INPUT_TYPES:
        return ""
    values = [text for _, texts in final.source.shown_texts(
        only, check.text_of("within"), check.flag_of("selected")) for attribute, text in texts
        if attribute == "value"]
    if not values:
        return f"; no {only} there holds text"
    quoted = ", ".join(repr(shorten(v)) for v in values[:3]) + (", ..." if len(values) > 3 else "")
    return f"; the {only} holds {quoted}" if len(values) == 1 else f"; the {only}s hold {quoted}"


VALUE_PROBE = Param("probe", "str", "The value probe that reads it at capture, e.g. "
                                    "newest_note.", required=True)
VALUE_OF = Param("of", "str", "What the probe reads, when it needs to be told (its argument).")
WHOLE = Param("text", "regex", "A pattern the whole value must match (Python re, fullmatch, "
                               "after trimming the ends' white space): write what may vary, and "
                               "nothing else may.", required=True)


def _value_need(check: Check) -> tuple[Need, ...]:
    return (Need("read", check.text_of("probe"), check.text_of("of")),)


@check_kind("device_value", family="state", params=(WHOLE, VALUE_PROBE, VALUE_OF),
            implied_by=Same(), needs=_value_need, probe_kind="value")
def device_value(check: Check, evidence: Evidence) -> Finding:
    """Passes when the value a probe reads off the device at capture (e.g. `newest_note`: the
    text of the note edited last) matches the pattern `text` whole, after trimming white space
    at its ends: for text typed to a spec, where a part of it, or the text with more around it,
    must fail. The value is read as the screen's text is (`regex_on_screen`): as written and,
    where it differs, as `spelling.plain` reads it with the pattern's quotes and dashes read
    alike, so `Don't .*` matches a note iOS's smart punctuation wrote "Don’t". Fails when the
    value could not be read."""
    probe, of = check.text_of("probe"), check.text_of("of")
    what = f"{probe}({of!r})" if of else probe
    read = evidence.read(probe, of)
    if read is None or read.value is None:
        why = read.error if read is not None and read.error else "it was not read at capture"
        return Finding(False, f"{what} is unknown: {why}", unproven=f"{what} is unknown: {why}")
    value = read.value.strip()
    readings = dict.fromkeys(((check.pattern, value),
                              (read_pattern(check.pattern), plain(value).strip())))
    try:
        holds = any(search(rule, seen, whole=True, where=f"value {what} read") is not None
                    for rule, seen in readings)
    except PatternTimeout as exc:
        # The value is the agent's typing: a pattern it can make backtrack must not hang the
        # grade, and a stopped match proves nothing either way, so negated it fails too.
        return Finding(False, f"/{check.text}/ on {shorten(value)!r}: {exc}", unproven=str(exc))
    return Finding(holds, f"{what} is {shorten(value)!r}; wanted all of it to match "
                          f"/{check.text}/")


__all__ = ["device_value", "element_exists", "element_exists_anywhere", "foreground_app",
           "regex_on_screen"]
