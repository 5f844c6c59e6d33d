"""Path checks: what the agent did, read from the attempt's audit events of phase `agent` only.

An end state cannot show how it was reached ("Calculator, then Safari, then back" ends where a
plain Calculator run ends); the bridge's log can. Setup, probe and check actions never count.
Without a log (the attempt did not run through a bridge) or with a torn one, a path check
cannot pass, and one that asserts an absence fails closed. Pure: never touches a device.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from phoneshell.audit import Action
from phoneshell.checks.keystrokes import (
    SMALLEST_SCREEN_PT,
    Editing,
    editings,
    sends,
    typed_ends,
    typed_runs,
)
from phoneshell.checks.kind import Check, Contains, Finding, Ordered, Same, check_kind
from phoneshell.evidence import Evidence
from phoneshell.params import Param
from phoneshell.presses import touch_words
from phoneshell.records import Target
from phoneshell.tree import shorten
from phoneshell.xcui import SPRINGBOARD, TEXT_INPUTS, short_type

APPS = Param("apps", "str_list", "Bundle ids the agent must bring to the front, in this order "
                                 "(other apps may come between).", required=True)
APP = Param("app", "str", "Bundle id of the app.", required=True)
IN_APP = Param("app", "str", "Only count it in this app (bundle id in front at the time).")
TYPED = Param("text", "str", "Text the agent's keystrokes into one field must contain "
                             "(case-insensitive).", required=True)
INTO = Param("into", "str", "The field: matched against its type (SearchField...), label or "
                            "name, case-insensitive substring.")
TAPPED = Param("text", "str", "Text of the tapped element (label or name, never its value; "
                              "case-insensitive substring).", required=True)
SUBMITTED = Param("submitted", "bool", "The text must have been sent: Return typed after it, or "
                                       "the keyboard's own Return key (go, search...) tapped, "
                                       "while the field still had the editing.")
HOLD = Param("hold", "bool", "Only a touch and hold counts (a long press), not a plain tap.")
WHOLE = Param("whole", "bool", "The text must be the tapped element's whole label (or its first "
                               "part, before a comma, where a row's label adds more) or name, "
                               "ignoring case, not a part of one: a ban on Get is not broken by "
                               "a tap on 'Budget Buddy'.")
TAP_TYPE = Param("type", "str", "Only a tap on an element of this WDA type counts (without its "
                                "XCUIElementType prefix: Link, MenuItem, Button): the control "
                                "the goal is, not content the agent can title with its words.")
PAGE = Param("page", "str", "Only a tap on an element of the page titled so counts: the name of "
                            "the navigation bar on screen when it was tapped (e.g. Timers, "
                            "General), whole, ignoring case. Binds a label to its place: Clock's "
                            "Stopwatch has a Start too.")
HOLD_S = 0.5
"""How long a touch must last to be a long press (UIKit's default minimum press duration)."""


def unwatched(evidence: Evidence) -> str:
    """Why the log cannot be trusted to show every action, or "" when it can."""
    if not evidence.audited:
        return "no audit log was recorded for this attempt (it did not run through a bridge)"
    flags = evidence.all_flags()
    if "audit_torn" in flags:
        return "the audit log ends in a torn line (the bridge crashed)"
    if "acted_outside_bridge" in flags:
        return "something drove the phone outside the bridge, so the log is not the whole story"
    return ""


def foreground_timeline(actions: Sequence[Action]) -> list[str]:
    """The apps in front over the agent's turn, in order, without repeats in a row.

    The first entry is the app in front when the agent began; each action adds the app before
    it (catching changes between actions) and the app after it.
    """
    apps: list[str] = []
    for action in actions:
        for app in (action.app_before, action.app_after):
            if app and (not apps or apps[-1] != app):
                apps.append(app)
    return apps


def _is_subsequence(wanted: Sequence[str], seen: Sequence[str]) -> bool:
    remaining = iter(seen)
    return all(any(app == got for got in remaining) for app in wanted)


def _short(app: str) -> str:
    return app.removeprefix("com.apple.")


@check_kind("opened_in_order", family="path", params=(APPS,), implied_by=Ordered())
def opened_in_order(check: Check, evidence: Evidence) -> Finding:
    """Passes when the agent brought the `apps` to the front in this order (a subsequence of the
    apps it brought to the front: others may come between). The app already in front when the
    agent began does not count as brought."""
    apps = check.list_of("apps")
    timeline = foreground_timeline(evidence.agent_actions())
    brought = timeline[1:]
    wanted = " > ".join(_short(a) for a in apps)
    shown = " > ".join(_short(a) for a in timeline) or "no app changes"
    holds = _is_subsequence(apps, brought)
    return Finding(holds, f"apps in front during the agent's turn: {shown}; wanted {wanted}",
                   unproven=unwatched(evidence))


@check_kind("never_opened", family="path", params=(APP,), negatable=False, implied_by=Same())
def never_opened(check: Check, evidence: Evidence) -> Finding:
    """Passes when the agent never brought `app` to the front and never asked to launch or
    activate it. It is itself an absence, so it fails closed: without a complete audit log, or
    when an action has no recorded outcome, it cannot pass."""
    app, doubt = check.text_of("app"), unwatched(evidence)
    actions = evidence.agent_actions()
    if not doubt and any(a.ok is None for a in actions):
        doubt = "an action has no recorded outcome, so what followed it is unknown"
    brought = foreground_timeline(actions)[1:]
    asked = [a for a in actions if a.kind in ("launch", "activate")
             and a.params.get("bundle_id") == app]
    if app in brought or asked:
        how = "launched it" if asked else "brought it to the front"
        return Finding(False, f"the agent {how}: {' > '.join(_short(a) for a in brought)}")
    if doubt:
        return Finding(False, f"cannot show {app} was never opened: {doubt}")
    return Finding(True, f"{app} never came to the front in the agent's "
                         f"{len(actions)} action(s)")


def _field_matches(check: Check, action: Action) -> bool:
    app, into = check.text_of("app"), check.text_of("into")
    if app and action.app_before != app:
        return False
    if not into:
        return True
    target = action.target
    if target is None:
        return False
    want = into.strip().lower()
    return any(want in text.lower() for text in (target.type, target.label, target.name))


@check_kind("typed_into", family="path", params=(TYPED, IN_APP, INTO, SUBMITTED),
            implied_by=Contains(("typed_into",)))
def typed_into(check: Check, evidence: Evidence) -> Finding:
    """Passes when what the agent typed into one field (in `app`, matching `into`) contains
    `text`, ignoring case, when it sent it or when its editing of the field ended (text typed
    and deleted again before either was never acted on); with `submitted`, only once that text
    was sent (Return typed, or the keyboard's Return key tapped, before any other typing).
    Negated, every moment counts: typed at all is typed. Keystrokes in a row into the same
    field add up; what was in the field before the agent typed does not count."""
    want = check.text.strip().lower()
    actions = evidence.agent_actions()
    runs = typed_runs(actions) if check.negate else typed_ends(actions)
    app, into = check.text_of("app"), check.text_of("into")
    submitted = check.flag_of("submitted")
    where = (f" into {into!r}" if into else "") + (f" in {app}" if app else "")
    unsent = ""
    for run in runs:
        if _field_matches(check, run.action) and want in run.text.lower():
            if run.sent or not submitted:
                how = " and sent it" if run.sent else ""
                return Finding(True, f"typed {shorten(run.text)!r}{where}{how}")
            unsent = f"; it typed {shorten(run.text)!r}{where} but never sent it"
    seen = "; ".join(f"{shorten(r.text, 30)!r} into "
                     f"{r.action.target.type if r.action.target else '?'}"
                     for r in runs[-4:]) or "no typing"
    blind = sum(1 for r in runs if r.action.target is None and into)
    doubt = unwatched(evidence) or (
        f"{blind} keystroke action(s) had no resolved field" if blind else "")
    if unsent:
        return Finding(False, f"{check.text!r} was not sent{unsent}", unproven=doubt)
    return Finding(False, f"no keystrokes with {check.text!r}{where}; the agent typed: {seen}",
                   unproven=doubt)


def held(action: Action) -> bool:
    """Whether a tap was a touch and hold (a long press), by its gesture or its duration."""
    duration = action.params.get("duration")
    long = isinstance(duration, (int, float)) and duration >= HOLD_S
    return action.params.get("gesture") == "touch_and_hold" or long


def placed(action: Action, check: Check) -> bool:
    """Whether a tap's target is where `check` says it must be: of its `type`, on its `page`
    (each when given). A tap with no resolved target is nowhere."""
    kind, page, target = _given(check, "type"), _given(check, "page"), action.target
    if not kind and not page:
        return True
    return target is not None and (not kind or short_type(target.type) == kind) and (
        not page or target.page.strip().lower() == page.strip().lower())


@check_kind("tapped", family="path", params=(TAPPED, IN_APP, HOLD, WHOLE, TAP_TYPE, PAGE),
            implied_by=Contains(("tapped",), whole=True))
def tapped(check: Check, evidence: Evidence) -> Finding:
    """Passes when the agent tapped an element whose label or name contains `text` (in `app`,
    when given; never its value, which for a text input is what the agent typed there), or
    with `whole` whose label (its first part) or name is `text`, of the WDA `type` and on the
    `page` (navigation bar title) when given; with `hold`, only a touch and
    hold counts (the `touch_and_hold` gesture, or a touch of half a
    second or more). Not negated, a tap after the agent itself typed `text` does not count: its
    words came back as a search's results or suggestions. Needs the bridge's tap targets; taps
    it could not resolve make an absence unproven."""
    want, app = check.text.strip().lower(), check.text_of("app")
    hold, actions, whole = check.flag_of("hold"), evidence.agent_actions(), check.flag_of("whole")
    # only a press counts (`Action.presses`); one the phone may or may not have taken (two
    # fingers) never passes, and makes an absence unproven
    touched = [a for a in actions if a.kind == "tap" and a.ok is not False and a.presses != 0
               and (not app or a.app_before == app) and (held(a) or not hold)]
    taps = [a for a in touched if a.presses]
    # A negated check counts every tap on it; a plain one not one the agent's typing named.
    typed = [] if check.negate else [s for s in typed_runs(actions) if want in s.text.lower()]
    echoed = ""
    for action in taps:
        target = action.target
        # named by its label or name: never by a value, which for a text input is what the
        # agent typed there ("About" typed into Settings' search, then the field tapped)
        if target and _names_it(want, target, whole) and placed(action, check):
            shown = f"{target.type} {shorten(target.label or target.name)!r}"
            echo = next((s for s in typed if s.by is not None and s.by.seq < action.seq), None)
            if echo is None:
                return Finding(True, f"tapped {shown}")
            echoed = (f"; it tapped {shown} only after typing {shorten(echo.text.strip())!r}: "
                      "its own words shown back (a search's result, a suggestion)")
    blind = sum(1 for a in taps if a.target is None)
    maybe = _maybe(touched, want, whole, check)
    doubt = unwatched(evidence) or (f"{blind} tap(s) had no resolved target" if blind else "") \
        or maybe
    labels = ", ".join(repr(shorten(a.target.label or a.target.name, 25)) for a in taps[-5:]
                       if a.target) or "nothing"
    what = "touch and hold" if hold else "tap"
    return Finding(False, f"no {what} on {check.text!r}{place(check)}"
                          f"{echoed or f'; the agent tapped {labels}'}"
                          f"{f'; {maybe}' if maybe else ''}", unproven=doubt)


def _maybe(touched: Sequence[Action], want: str, whole: bool, check: Check) -> str:
    """Why a touch may have pressed the element after all ("" when none may have): one the
    phone may or may not take as a press (`Action.presses` None: two fingers), on it or on what
    the bridge could not name."""
    for action in touched:
        target = action.target
        if action.presses is None and (target is None or (
                _names_it(want, target, whole) and placed(action, check))):
            what = f" on {shorten(target.label or target.name)!r}" if target else ""
            return (f"#{action.seq} {touch_words(action.params)}{what} is a touch the phone "
                    "may or may not take as a press")
    return ""


def _given(check: Check, name: str) -> str:
    return check.text_of(name) if check.has(name) else ""


def place(check: Check) -> str:
    """ " (a MenuItem, on the page 'Timers')": where `placed` looks, for details."""
    kind, page = _given(check, "type"), _given(check, "page")
    parts = ([f"a {kind}"] if kind else []) + ([f"on the page {page!r}"] if page else [])
    return f" ({', '.join(parts)})" if parts else ""


def _names_it(want: str, target: Target, whole: bool) -> bool:
    """Whether a tapped element's label or name holds `want` (lower-cased), or with `whole` is
    it (the label whole or its part before a comma)."""
    texts = (target.label, target.name)
    if not whole:
        return any(want in t.lower() for t in texts)
    return want in {t.strip().lower() for t in (*texts, target.label.split(",")[0])}


def arrival(actions: Sequence[Action], app: str) -> Action | None:
    """The action that first brought `app` to the front in the agent's turn (None: it never
    came, or it was in front before the agent acted: then nothing of the agent's opened it)."""
    for index, action in enumerate(actions):
        if action.app_before == app:
            return actions[index - 1] if index else None
        if action.app_after == app:
            return action
    return None


def _names(target: Target | None) -> set[str]:
    """What names a tapped element: its label and name and, as a search result's label may add
    where the page lives ("iPhone Storage, General"), the label's first part."""
    if target is None:
        return set()
    label = target.label.strip().lower()
    return {label, label.split(", ")[0], target.name.strip().lower()} - {""}


def _in_search(editing: Editing, field: Callable[[Action], bool]) -> bool:
    """Whether an editing was a search in a field `field` accepts, ended by a tap in its app
    on something else than a text input (what its list showed, or Cancel); in SpringBoard, on
    a row of Spotlight's results (`_result_row`). What ends an editing (checks/keystrokes.py)
    keeps its results on screen until that tap: a swipe to Control Center ends it."""
    end, typed = editing.end, editing.field_action or editing.opened_by
    return (field(typed) and bool(editing.text.strip()) and end is not None
            and bool(end.presses) and end.app_before == typed.app_before
            and not (end.target is not None and end.target.type in TEXT_INPUTS)
            and (typed.app_before != SPRINGBOARD or _result_row(end)))


def _result_row(action: Action) -> bool:
    """Whether a tap in SpringBoard was on a row of Spotlight's results: a Cell, as Spotlight
    lists what it found (the simulator's Spotlight does too). Control Center's and Notification
    Center's buttons, a widget's, Cancel and the home screen's icons are no rows: Control
    Center's Calculator button opens Calculator as a result would."""
    return action.target is not None and short_type(action.target.type) == "Cell"


def _spotlight(action: Action) -> bool:
    return action.app_before == SPRINGBOARD and action.target is not None and \
        action.target.type in TEXT_INPUTS


@check_kind("opened_via_spotlight", family="path", params=(APP,), implied_by=Same())
def opened_via_spotlight(check: Check, evidence: Evidence) -> Finding:
    """Passes when `app` first came to the front in the agent's turn from a Spotlight result:
    the tap that launched it, on a row of the results (a Cell), ended a search typed into
    SpringBoard's search field while that search still showed (no Cancel, home, other tap or
    swipe to another screen between: scrolling the results keeps it); or the search's Return
    (typed, or the keyboard's key) opened it, as Return opens the top hit. A later tap in
    SpringBoard that only brings it back (closing Control Center over it) does not count, nor
    does a direct launch."""
    app, actions = check.text_of("app"), evidence.agent_actions()
    direct = [a for a in actions if a.kind in ("launch", "activate", "open_url")
              and a.params.get("bundle_id") == app]
    if direct:
        return Finding(False, f"the agent launched {app} directly ({direct[0].describe()})")
    came = arrival(actions, app)
    shown = " > ".join(_short(a) for a in foreground_timeline(actions)) or "no app changes"
    if came is None:
        return Finding(False, f"the agent never opened {app}; apps in front: {shown}",
                       unproven=unwatched(evidence))
    icon = came.target is not None and short_type(came.target.type) == "Icon"
    # a result tapped ends the search; Return (typed, or the keyboard's key) opens the top hit
    typed = editings(actions, screen_height(evidence))
    search = next((e for e in typed if (e.end is came and _in_search(e, _spotlight))
                   or (_spotlight(e.field_action or e.opened_by) and bool(e.text.strip())
                       and any(state.by is came for state in sends(e)))), None)
    if search is not None and not icon:
        what = f" {came.target.label!r}" if came.target else ""
        return Finding(True, f"{app} opened from a Spotlight result{what} for "
                             f"{shorten(search.text.strip())!r}")
    how = "a home-screen icon" if icon else _no_search(typed, came)
    return Finding(False, f"{app} was first opened by {came.describe()}: {how}; apps in "
                          f"front: {shown}", unproven=unwatched(evidence))


def _no_search(found: Sequence[Editing], came: Action) -> str:
    """Why the tap that opened an app was no Spotlight result, as the log shows it: what the
    agent had typed in SpringBoard before it, into what, and what ended that typing."""
    before = [e for e in found if e.key[0] == SPRINGBOARD and e.opened_by.seq < came.seq
              and e.text.strip()]
    if not before:
        return "the agent typed nothing into SpringBoard before it"
    last = before[-1]
    typed_at = last.field_action or last.opened_by
    into = typed_at.target
    field = f"{short_type(into.type)} {into.label or into.name!r}" if into else \
        "a field the bridge could not name"
    ended = f", and {last.end.describe()} ended that typing first" if \
        last.end is not None and last.end is not came else ""
    other = "" if _spotlight(typed_at) else ", not Spotlight's search field"
    row = "" if last.end is not came or _result_row(came) or came.target is None else (
        f", and a {short_type(came.target.type)} is no row of Spotlight's results (a Cell)")
    return f"the agent typed {shorten(last.text.strip())!r} into {field}{other}{ended}{row}"


RESULT = Param("result", "str", "The name of the result the agent opened: the tapped element's "
                                "label or name, whole, ignoring case (a label's first part "
                                "before a comma counts too: \"iPhone Storage, General\").",
               required=True)
SEARCHED = Param("text", "str", "What the agent must have searched for: the search field's text "
                                "from its keystrokes contains it (case-insensitive).",
                 required=True)
SEARCH_INTO = Param("into", "str", "The search field: matched against its type, label or name, "
                                   "case-insensitive substring (e.g. Search).")



def screen_height(evidence: Evidence) -> float:
    """The phone's height in points, as the end state's source gives it (the smallest iPhone's
    where none was captured)."""
    final = evidence.final
    height = final.source.height if final is not None else 0
    return float(height) if height > 0 else float(SMALLEST_SCREEN_PT)

@check_kind("opened_from_search", family="path", params=(SEARCHED, RESULT, IN_APP, SEARCH_INTO),
            negatable=False, implied_by=Same())
def opened_from_search(check: Check, evidence: Evidence) -> Finding:
    """Passes when the agent typed `text` into a search field (in `app`, matching `into`) and,
    while that search still showed its results (only more typing, the keyboard or scrolling
    between), tapped the result named `result`: the page was opened from what the search found.
    Typing the words, cancelling and tapping the row on the app's own list fails, as does a
    result reached by way of another page. Not negatable."""
    want, result = check.text.strip().lower(), check.text_of("result").strip().lower()
    searched = [e for e in editings(evidence.agent_actions(), screen_height(evidence))
                if _in_search(e, lambda a: _field_matches(check, a))
                and want in e.text.lower()]
    for search in searched:
        target = search.end.target if search.end is not None else None
        if target is not None and result in _names(target):
            return Finding(True, f"opened {shorten(target.label or target.name)!r} from the "
                                 f"results of {shorten(search.text.strip())!r}")
    app, into = check.text_of("app"), check.text_of("into")
    where = (f" into {into!r}" if into else "") + (f" in {app}" if app else "")
    doubt = unwatched(evidence) or ("a tap that ended the search had no resolved target"
                                    if any(s.end and s.end.target is None for s in searched)
                                    else "")
    if searched:
        taps = ", ".join(repr(shorten(s.end.target.label or s.end.target.name, 25))
                         if s.end.target else "a point with no resolved target"
                         for s in searched if s.end)
        return Finding(False, f"after searching for {check.text!r}{where} the agent tapped "
                              f"{taps}, not the result {check.text_of('result')!r}",
                       unproven=doubt)
    return Finding(False, f"no search for {check.text!r}{where} ended in a tap on its "
                          f"results", unproven=doubt)
