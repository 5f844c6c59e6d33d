"""Path checks: what the agent did, read from the attempt's audit events of phase `agent` only.

An end state cannot show how it was reached ("Calculator, then Safari, then back" ends where a
plain Calculator run ends); the bridge's log can. Setup, probe and check actions never count.
Without a log (the attempt did not run through a bridge) or with a torn one, a path check
cannot pass, and one that asserts an absence fails closed. Pure: never touches a device.
"""

from __future__ import annotations

from collections.abc import Sequence

from phoneshell.audit import Action
from phoneshell.checks.backs import way_back
from phoneshell.checks.implied import Contains, Ordered, Same
from phoneshell.checks.keystrokes import Typed
from phoneshell.checks.kind import Check, Finding, check_kind
from phoneshell.checks.refused import refused_press, refused_taps
from phoneshell.checks.selections import held
from phoneshell.checks.sent import asked, whole_typed
from phoneshell.checks.tapped_names import target_named
from phoneshell.checks.typed_texts import typed_ends, typed_runs
from phoneshell.evidence import Evidence
from phoneshell.params import Param
from phoneshell.presses import touch_words
from phoneshell.records import Target
from phoneshell.spelling import folded, folded_lines
from phoneshell.tree import shorten
from phoneshell.xcui import short_type

APPS = Param("apps", "bundle_ids", "Bundle ids the agent must bring to the front, in this "
                                   "order (other apps may come between).", required=True)
APP = Param("app", "bundle_id", "Bundle id of the app.", required=True)
IN_APP = Param("app", "bundle_id", "Only count it in this app (bundle id in front at the time).")
TYPED = Param("text", "str", "Text the agent's keystrokes into one field must contain "
                             "(case-insensitive).", required=True)
INTO = Param("into", "str", "The field: matched against its type (SearchField...), label or "
                            "name, case-insensitive substring.")
TAPPED = Param("text", "str", "Text of the tapped element (label or name, never its value; "
                              "case-insensitive substring).", required=True)
SUBMITTED = Param("submitted", "bool", "The text must have been sent: Return typed after it, or "
                                       "the keyboard's own Return key (go, search...) tapped, "
                                       "while the field still had the editing.")
EXACT = Param("whole", "bool", "The text is all the field held (ignoring case and white space "
                              "at its ends), and the last text judged in such a field (with "
                              "`submitted`, the last one sent), with no URL opened into the app "
                              "after it: a longer text, or another search after it, fails.")
FRESH = Param("fresh", "bool", "The typing must begin in an empty field: the field held nothing "
                              "(the value the bridge logged at the first keystroke, or its "
                              "placeholder) before the agent first changed it, as a new note's "
                              "body does; a note that already held text (one recovered, the "
                              "owner's) fails, even emptied first (by a clear, deletes or the "
                              "edit menu's Cut, in the same editing or an earlier one).")
ALSO = Param("also", "str_list", "Other texts that count as `text` does (each contained, or with "
                                 "`whole` each whole): for a search the instruction leaves "
                                 "open, e.g. either word of the words it quotes a note by.")
HOLD = Param("hold", "bool", "Only a touch and hold counts (a long press), not a plain tap.")
WHOLE = Param("whole", "bool", "The text must be the tapped element's whole label (or its first "
                               "part, before a comma, where a row's label adds more) or name, "
                               "ignoring case, not a part of one: a ban on Get is not broken by "
                               "a tap on 'Budget Buddy'.")
TAP_TYPE = Param("type", "wda_type", "Only a tap on an element of this WDA type counts (without "
                                     "its XCUIElementType prefix: Link, MenuItem, Button): the "
                                     "control the goal is, not content the agent can title with "
                                     "its words.")
PAGE = Param("page", "str", "Only a tap on an element of the page titled so counts: the name of "
                            "the navigation bar on screen when it was tapped (e.g. Timers, "
                            "General), whole, ignoring case. Binds a label to its place: Clock's "
                            "Stopwatch has a Start too.")
BACK = Param("back", "int", "After the tap, the agent came back this many pages by the app's "
                           "own back navigation (its back button or a swipe right), each "
                           "counted, nothing resetting or bypassing it on the way: no "
                           "relaunch, deep link or other app (Control Center, Notification "
                           "Center or home may cover the app if it comes back on its page).",
             minimum=1)


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


def short_app(app: str) -> str:
    return app.removeprefix("com.apple.")


@check_kind("opened_in_order", family="path", params=(APPS,), implied_by=Ordered())
def opened_in_order(check: Check, evidence: Evidence) -> Finding:
    """Passes when the agent brought the `apps` to the front in this order (a subsequence of the
    apps it brought to the front: others may come between). The app already in front when the
    agent began does not count as brought."""
    apps = check.list_of("apps")
    timeline = foreground_timeline(evidence.agent_actions())
    brought = timeline[1:]
    wanted = " > ".join(short_app(a) for a in apps)
    shown = " > ".join(short_app(a) for a in timeline) or "no app changes"
    holds = _is_subsequence(apps, brought)
    return Finding(holds, f"apps in front during the agent's turn: {shown}; wanted {wanted}",
                   unproven=unwatched(evidence))


@check_kind("never_opened", family="path", params=(APP,), negatable=False, implied_by=Same(),
            absence=True)
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
        return Finding(False, f"the agent {how}: {' > '.join(short_app(a) for a in brought)}")
    if doubt:
        return Finding(False, f"cannot show {app} was never opened: {doubt}")
    return Finding(True, f"{app} never came to the front in the agent's "
                         f"{len(actions)} action(s)")


def field_matches(check: Check, action: Action) -> bool:
    app, into = check.text_of("app"), check.text_of("into")
    if app and action.app_before != app:
        return False
    if not into:
        return True
    target = action.target
    if target is None:
        return False
    want = folded(into)
    return any(want in folded(text) for text in (target.type, target.label, target.name))


@check_kind("typed_into", family="path",
            params=(TYPED, IN_APP, INTO, SUBMITTED, EXACT, FRESH, ALSO),
            implied_by=Contains(("typed_into",), exact="whole"))
def typed_into(check: Check, evidence: Evidence) -> Finding:
    """Passes when what the agent typed into one field (in `app`, matching `into`) contains
    `text`, ignoring case, when it sent it or when its editing of the field ended (text typed
    and deleted again before either was never acted on); with `submitted`, only once that text
    was sent (Return typed, or the keyboard's Return key tapped, before any other typing).
    Negated, every moment counts: typed at all is typed. Keystrokes in a row into the same
    field add up; what was in the field before the agent typed does not count. With `whole`,
    the text judged is `text` whole, and the last judged in such a field (`sent.whole_typed`).
    With `fresh`, only typing into a field that held nothing before the agent first changed
    it counts (`Typed.held`: a new note's body, not a note brought back and added to, nor one
    the agent emptied first). With `also`, each of those texts counts as `text` does."""
    texts = (check.text, *check.list_of("also"))
    wants = [folded(t) for t in texts]
    actions = evidence.agent_actions()
    runs = typed_runs(actions) if check.negate else typed_ends(actions)
    app, into = check.text_of("app"), check.text_of("into")
    submitted, fresh = check.flag_of("submitted"), check.flag_of("fresh")
    where = (f" into {into!r}" if into else "") + (f" in {app}" if app else "")
    # over a selection the log does not name, the field's text is no text to judge
    unknown = next((r.unknown for r in runs if r.unknown and field_matches(check, r.action)), "")
    untold = f"; the log cannot tell what the field held: {unknown}" if unknown else ""
    if check.flag_of("whole"):
        holds, seen = whole_typed(runs, actions, texts,
                                  judged=lambda r: field_matches(check, r.action)
                                  and (not fresh or r.held == ""),
                                  app=app, where=where, submitted=submitted,
                                  negate=check.negate)
        return Finding(holds, seen + ("" if holds else untold),
                       unproven=unwatched(evidence) or unknown)
    unsent, stale = "", ""
    for run in runs:
        typed = folded(run.text) if check.negate else folded_lines(run.text)
        if not field_matches(check, run.action) or run.unknown or \
                not any(want in typed for want in wants):
            continue
        if fresh and run.held != "":
            stale = stale or _held_before(run, where)
        elif run.sent or not submitted:
            how = " and sent it" if run.sent else ""
            return Finding(True, f"typed {shorten(run.text)!r}{where}{how}")
        else:
            unsent = f"; it typed {shorten(run.text)!r}{where} but never sent it"
    seen = "; ".join(f"{shorten(r.text, 30)!r} into "
                     f"{r.action.target.type if r.action.target else '?'}"
                     for r in runs[-4:]) or "no typing"
    blind = sum(1 for r in runs if r.action.target is None and into)
    doubt = unwatched(evidence) or unknown or (
        f"{blind} keystroke action(s) had no resolved field" if blind else "")
    if unsent:
        return Finding(False, f"{asked(texts)} was not sent{unsent}{untold}", unproven=doubt)
    if stale:
        return Finding(False, f"{asked(texts)} was not typed into an empty field{stale}{untold}",
                       unproven=doubt)
    return Finding(False, f"no keystrokes with {asked(texts)}{where}; the agent typed: "
                          f"{seen}{untold}", unproven=doubt)


def _held_before(run: Typed, where: str) -> str:
    """For a `fresh` failure: what the field held before the agent's first change to the field
    it typed `run` into (`Typed.held`)."""
    held = "what the log does not say" if run.held is None else repr(shorten(run.held))
    return (f"; it typed {shorten(run.text)!r}{where} into a field that held {held} before "
            "it first changed it: not a new, empty one (an existing note added to, or emptied "
            "first)")


def placed(action: Action, check: Check) -> bool:
    """Whether a tap's target is where `check` says it must be: of its `type`, on its `page`
    (each when given). A tap with no resolved target is nowhere."""
    kind, page, target = _given(check, "type"), _given(check, "page"), action.target
    if not kind and not page:
        return True
    return target is not None and (not kind or short_type(target.type) == kind) and (
        not page or folded(target.page) == folded(page))


@check_kind("tapped", family="path",
            params=(TAPPED, IN_APP, HOLD, WHOLE, TAP_TYPE, PAGE, BACK),
            implied_by=Contains(("tapped",), whole=True))
def tapped(check: Check, evidence: Evidence) -> Finding:
    """Passes when the agent tapped an element whose label or name contains `text` (in `app`,
    when given; never its value, which for a text input is what the agent typed there), or
    with `whole` whose label (its first part) or name is `text`, of the WDA `type` and on the
    `page` (navigation bar title) when given; with `hold`, only a touch and
    hold counts (the `touch_and_hold` gesture, or a touch of half a
    second or more); with `back`, only a tap after which the agent came back that many pages
    by the app's own back navigation (back button presses, swipes right), nothing resetting
    or bypassing it (`backs.way_back`). Not negated, a tap after the agent itself typed `text`
    does not count: its words came back as a search's results or suggestions. Needs the bridge's tap
    targets; taps it could not resolve make an absence unproven, and so does a slide held still
    until a context menu opened (`slid_unnamed`: the menu's item it lifted on may be it). A
    tap the bridge refused on it (`refused.refused_taps`: a store's Get, a Call, a Send)
    never reached the phone: it never passes, and negated (without `back`) it breaks the ban,
    as the agent did what it was told not to."""
    want, app = folded(check.text), check.text_of("app")
    hold, actions, whole = check.flag_of("hold"), evidence.agent_actions(), check.flag_of("whole")
    # only a press the phone took counts (`Action.presses`, `Action.acted`); one it may or
    # may not have taken (two fingers, a tap WDA never answered) never passes, and makes an
    # absence unproven; a key a failed keyboard dismiss pressed was pressed
    touched = [a for a in actions if a.kind == "tap" and a.acted is not False and a.presses != 0
               and (not app or a.app_before == app) and (held(a) or not hold)]
    taps = [a for a in touched if a.presses and a.acted]
    # A negated check counts every tap on it; a plain one not one the agent's typing named.
    typed = [] if check.negate else [s for s in typed_runs(actions) if want in folded(s.text)]
    echoed, back = "", check.int_of("back") if check.has("back") else 0
    for action in taps:
        target = action.target
        # named by its label or name: never by a value, which for a text input is what the
        # agent typed there ("About" typed into Settings' search, then the field tapped)
        if target and names_it(want, target, whole) and placed(action, check):
            shown = f"{target.type} {shorten(target.label or target.name)!r}"
            echo = next((s for s in typed if s.by is not None and s.by.seq < action.seq), None)
            if echo is None and not back:
                return Finding(True, f"tapped {shown}")
            if echo is None:
                came, echoed = _came_back(action, actions, back, app, shown)
                if came:
                    return Finding(True, echoed)
                continue
            echoed = (f"; it tapped {shown} only after typing {shorten(echo.text.strip())!r}: "
                      "its own words shown back (a search's result, a suggestion)")
    # a press the bridge refused never reached the phone: a ban counts it (the agent did what
    # it was told not to, and only the bridge kept it from the phone), nothing passes on it
    refused = [a for a in refused_taps(evidence) if a.presses != 0 and a.target is not None
               and (not app or a.app_before == app) and (held(a) or not hold)
               and names_it(want, a.target, whole) and placed(a, check)]
    if refused and check.negate and not back:
        return Finding(True, refused_press(refused[0]))
    blind = sum(1 for a in taps if a.target is None)
    maybe = _maybe(touched, want, whole, check) or ("" if hold else _slid(actions, check))
    doubt = unwatched(evidence) or (f"{blind} tap(s) had no resolved target" if blind else "") \
        or maybe
    labels = ", ".join(target_named(a.target) for a in taps[-5:] if a.target) or "nothing"
    what = "touch and hold" if hold else "tap"
    then = f" followed by {back} page(s) back by the app's own navigation" if back else ""
    reached = f" reached the phone ({refused_press(refused[0])})" if refused else ""
    return Finding(False, f"no {what} on {check.text!r}{place(check)}{reached}{then}"
                          f"{echoed or f'; the agent tapped {labels}'}"
                          f"{f'; {maybe}' if maybe else ''}", unproven=doubt)


def _came_back(action: Action, actions: Sequence[Action], times: int, app: str,
               shown: str) -> tuple[bool, str]:
    """Whether, after `action` (a tap that went in), the agent came back `times` pages by the
    app's own back navigation (`backs.way_back`), and the words that say so or why not."""
    way = way_back([a for a in actions if a.seq > action.seq], app or action.app_before)
    went = f"went back {len(way.backs)} time(s) ({', '.join(way.backs) or 'none'})"
    if way.broke or way.unknown:
        return False, (f"; it tapped {shown}, {went}, then {way.broke or way.unknown}: the way "
                       "back must be the app's own back navigation (its back button or a swipe "
                       "right), with no relaunch, URL or other app; Control Center, "
                       "Notification Center or home between may only cover the app, which "
                       "comes back on the page it left")
    if len(way.backs) < times:
        return False, (f"; it tapped {shown}, then {went} by the app's back navigation; wanted "
                       f"{times}")
    return True, f"tapped {shown}, then {went} by the app's back navigation"


def _maybe(touched: Sequence[Action], want: str, whole: bool, check: Check) -> str:
    """Why a touch may have pressed the element after all ("" when none may have): one the
    phone may or may not take as a press (`Action.presses` None: two fingers), or one that may
    or may not have reached it (`Action.acted` None), on it or on what the bridge could not
    name."""
    for action in touched:
        target = action.target
        if (action.presses is None or action.acted is None) and (target is None or (
                names_it(want, target, whole) and placed(action, check))):
            if action.acted is None:
                return action.untold()
            what = f" on {target_named(target, 60)}" if target else ""
            return (f"#{action.seq} {touch_words(action.params)}{what} is a touch the phone "
                    "may or may not take as a press")
    return ""


def _slid(actions: Sequence[Action], check: Check) -> str:
    """Why a slide may have chosen the element after all ("" when none may have): one held
    still until a context menu opened and slid onto its item (`slid_unnamed`), in `app` and on
    the check's `page` (the menu shows over the page the slide began on) when given."""
    app, page = check.text_of("app"), _given(check, "page")
    for action in actions:
        target, why = action.target, slid_unnamed(action)
        if not why or app and action.app_before != app or page and target is not None \
                and folded(target.page) != folded(page):
            continue
        what = f" on {target_named(target, 60)}" if target else ""
        return f"#{action.seq} {action.kind}{what} {why}"
    return ""


def lifted_on(action: Action) -> bool:
    """Whether the log names what a slide's finger lifted on: a slide logged as the tap of
    what is under its lift (`gesture: slide` aimed at `to_x`, `to_y`: a menu's item, the menu
    open before it began)."""
    params = action.params
    return (action.kind == "tap" and params.get("gesture") == "slide" and "to_x" in params
            and (params.get("x"), params.get("y")) == (params.get("to_x"), params.get("to_y")))


def slid_unnamed(action: Action) -> str:
    """Why a slide may have chosen an item the log cannot name ("" when it cannot): held still
    until a context menu opened, whose item under the lift is chosen (`Action.unnamed_press`,
    `holds.held_slide`), unless the log names what it lifted on (`lifted_on`). A tap with no
    element resolved is no slide: its reader counts it apart."""
    if action.kind == "tap" and (action.target is None or lifted_on(action)):
        return ""
    return action.unnamed_press()


def _given(check: Check, name: str) -> str:
    return check.text_of(name) if check.has(name) else ""


def place(check: Check) -> str:
    """ " (a MenuItem, on the page 'Timers')": where `placed` looks, for details."""
    kind, page = _given(check, "type"), _given(check, "page")
    parts = ([f"a {kind}"] if kind else []) + ([f"on the page {page!r}"] if page else [])
    return f" ({', '.join(parts)})" if parts else ""


def names_it(want: str, target: Target, whole: bool) -> bool:
    """Whether a tapped element's label or name holds `want` (as `spelling.folded` reads it),
    or with `whole` is it (the label whole or its part before a comma)."""
    texts = (target.label, target.name)
    if not whole:
        return any(want in folded(t) for t in texts)
    return want in {folded(t) for t in (*texts, target.label.split(",")[0])}

