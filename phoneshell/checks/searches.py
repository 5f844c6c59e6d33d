"""Search path checks: an app opened from Spotlight's results, a page from an app's search.

"Open Calculator through Spotlight" and "search Settings for Battery, then open it from what it
finds" end where a direct launch or a tap through the list ends; the log tells them apart: the
tap that ended a search's editing (checks/keystrokes.py) while its results showed. Registered
with the package (`checks/__init__.py`) like every family; they share `path.py`'s helpers.
Pure: never touches a device.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from phoneshell.audit import Action
from phoneshell.audit import actions as logged_actions
from phoneshell.checks.held import value_held
from phoneshell.checks.implied import Same
from phoneshell.checks.keystrokes import SMALLEST_SCREEN_PT, Editing, editings
from phoneshell.checks.kind import Check, Finding, check_kind
from phoneshell.checks.path import (
    APP,
    IN_APP,
    field_matches,
    foreground_timeline,
    short_app,
    unwatched,
)
from phoneshell.checks.tapped_names import press_named, target_named
from phoneshell.checks.typed_texts import sends
from phoneshell.evidence import Evidence
from phoneshell.params import Param
from phoneshell.presses import TOP_EDGE_PT, logged_heading
from phoneshell.records import Target
from phoneshell.spelling import folded
from phoneshell.tree import shorten
from phoneshell.xcui import APP_LIBRARY, SPRINGBOARD, TEXT_INPUTS, short_type, swipe_ends


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
    label = folded(target.label)
    return {label, folded(label.split(", ")[0]), folded(target.name)} - {""}


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
    """Whether an action was aimed at Spotlight's search field: a text input in SpringBoard
    that is not the App Library's."""
    return action.app_before == SPRINGBOARD and action.target is not None and \
        action.target.type in TEXT_INPUTS and action.target.name != APP_LIBRARY


@check_kind("opened_via_spotlight", family="path", params=(APP,), implied_by=Same())
def opened_via_spotlight(check: Check, evidence: Evidence) -> Finding:
    """Passes when `app` first came to the front in the agent's turn from a Spotlight result:
    the tap that launched it, on a row of the results (a Cell), ended a search typed into
    SpringBoard's search field (Spotlight's: the App Library's is another) while that search
    still showed (no Cancel, home, other tap or swipe to another screen between: scrolling the
    results keeps it); or the search's Return
    (typed, or the keyboard's key) opened it, as Return opens the top hit. A later tap in
    SpringBoard that only brings it back (closing Control Center over it) does not count, nor
    does a direct launch."""
    app, actions = check.text_of("app"), evidence.agent_actions()
    direct = [a for a in actions if a.kind in ("launch", "activate", "open_url")
              and a.params.get("bundle_id") == app]
    if direct:
        return Finding(False, f"the agent launched {app} directly ({direct[0].describe()})")
    came = arrival(actions, app)
    shown = " > ".join(short_app(a) for a in foreground_timeline(actions)) or "no app changes"
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
        what = f" {target_named(came.target)}" if came.target else ""
        return Finding(True, f"{app} opened from a Spotlight result{what} for "
                             f"{shorten(search.text.strip())!r}")
    how = _icon_place(_before(evidence, came), came, typed) if icon else \
        _no_search(typed, came)
    # what the log cannot name may have been a result: a blind tap, or a slide held until a
    # row's context menu opened, lifted on its item
    unnamed = came.unnamed_press() if came.app_before == SPRINGBOARD and not icon else ""
    return Finding(False, f"{app} was first opened by {came.describe()}: {how}; apps in "
                          f"front: {shown}",
                   unproven=unwatched(evidence) or (f"{came.describe()} {unnamed}, so whether "
                                                    "it chose a Spotlight result cannot be told"
                                                    if unnamed else ""))


def _before(evidence: Evidence, came: Action) -> list[Action]:
    """Every action the log holds before `came`, whatever its phase: the setup's home places
    the screen an agent's first tap lands on."""
    return [a for a in logged_actions(evidence.events) if a.seq < came.seq]


HOME, SPOTLIGHT, PAGED = "home", "spotlight", "paged"
PILL = "spotlight-pill"
"""The name of the home screen's Search pill, which opens Spotlight when tapped (the iOS 26.5
home-screen dump: an `Other` named so, labelled Search)."""


@dataclass(frozen=True)
class Shown:
    """What the log shows a SpringBoard screen was: `place`, as `by` showed it."""

    place: str
    by: Action
    text: str = ""
    """In Spotlight: what its search held then."""


def _icon_place(before: Sequence[Action], came: Action, typed: Sequence[Editing]) -> str:
    """Where the icon `came` tapped showed, as far as the log places it, never further (red
    team 108: a Spotlight suggestion's icon was called a home-screen one). The screen a tap was
    aimed at is known by its digest (as the bridge read it); an earlier action that left the
    same digest shows what it was: Home, the home screen; the Search pill or a keystroke into
    SpringBoard's search field, Spotlight; a pull down from mid-screen on the home screen,
    Spotlight; a sideways swipe from it, another home page or the App Library past the last;
    an action that changed nothing, what was there. Anything else leaves it unplaced."""
    if came.app_before != SPRINGBOARD:
        return f"an icon in {short_app(came.app_before) or 'an app the log does not name'}"
    keyed = {state.by.seq: state.text for e in typed if _spotlight(e.field_action or e.opened_by)
             for state in e.states if state.by is not None}
    screens: dict[str, Shown] = {}
    for action in before:
        after = action.screen_after
        if not after or action.app_after != SPRINGBOARD or action.acted is not True:
            continue
        was = screens.get(action.screen_before) if action.app_before == SPRINGBOARD else None
        shown = _shows(action, was, keyed)
        if shown is not None and (after not in screens or screens[after].place != HOME):
            screens[after] = shown
    shown = screens.get(came.screen_before) if came.screen_before else None
    if shown is None:
        return ("an icon in SpringBoard, on a screen the log does not place (the home screen, "
                "Spotlight's suggestions and the App Library all show icons)")
    on = f"on the screen {_ref(shown.by)} showed"
    if shown.place == HOME:
        return f"a home-screen icon ({on})"
    if shown.place == PAGED:
        return (f"an icon {on}, sideways from the home screen: another home-screen page, or "
                "the App Library past the last")
    if shown.text.strip():
        return (f"an icon in Spotlight while its search held {shorten(shown.text.strip())!r} "
                f"({on}): an icon is no row of its results (a Cell)")
    return (f"an icon among Spotlight's suggestions, with nothing typed in its search ({on}): "
            "a suggestion is no result of a search")


def _shows(action: Action, was: Shown | None, keyed: dict[int, str]) -> Shown | None:
    """What the screen `action` left in SpringBoard was, as the log shows it (`_icon_place`):
    `was` is what the screen it was aimed at was."""
    target = action.target
    if action.kind == "home" or (action.kind == "press" and action.params.get("button") == "home"):
        return Shown(HOME, action)
    if action.seq in keyed:  # a keystroke: what the search held after it
        return Shown(SPOTLIGHT, action, keyed[action.seq])
    if _spotlight(action):  # aimed at the field: what it held then
        return Shown(SPOTLIGHT, action, value_held(target) or "")
    if action.kind == "tap" and target is not None and target.name == PILL \
            and short_type(target.type) == "Other" and action.presses:
        return Shown(SPOTLIGHT, action)
    if action.screen_before == action.screen_after:
        return was  # changed nothing
    if action.kind != "swipe" or was is None or was.place == SPOTLIGHT:
        return None
    heading, ends = logged_heading(action.params), swipe_ends(action.params)
    if was.place == HOME and heading == "down" and ends is not None and ends[1] >= TOP_EDGE_PT:
        return Shown(SPOTLIGHT, action)
    return Shown(PAGED, action) if heading in ("left", "right") else None


def _ref(action: Action) -> str:
    """An action named short, for a detail: "#30 tap 'Search'"."""
    what = f" {press_named(action)}" if action.kind == "tap" else ""
    return f"#{action.seq} {action.kind}{what}"


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
    field = (f"{short_type(into.type)} {target_named(into)}" if into.label or into.name
             else target_named(into)) if into else "a field the bridge could not name"
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

SEARCHED_WHOLE = Param("whole", "bool", "The search was `text` whole (ignoring case, white "
                                        "space at its ends, and a hyphen or space where "
                                        "`text` has one: Wi-Fi, wifi, wi fi), not a longer "
                                        "one holding it.")


def _spelling(text: str) -> re.Pattern[str]:
    """The spellings of a search's `text` that `opened_from_search` takes for it: `folded`,
    with a hyphen or spaces, or none, only where `text` breaks between words ("Wi-Fi": "wifi",
    "wi fi", "Wi Fi", as Settings lists the same page for each), so a spelling of the word is
    no other search, a longer one still is, and a word broken up elsewhere is another ("bat
    tery", "w i f i" match no word of Battery's or Wi-Fi's on a phone: red team 119)."""
    return re.compile(r"[\s-]*".join(re.escape(word) for word in re.split(r"[\s-]+",
                                                                        folded(text)) if word))


@check_kind("opened_from_search", family="path",
            params=(SEARCHED, RESULT, IN_APP, SEARCH_INTO, SEARCHED_WHOLE), negatable=False,
            implied_by=Same(folded=("text", "result", "into")))
def opened_from_search(check: Check, evidence: Evidence) -> Finding:
    """Passes when the agent typed `text` into a search field (in `app`, matching `into`) and,
    while that search still showed its results (only more typing, the keyboard or scrolling
    between), tapped the result named `result`: the page was opened from what the search found.
    Typing the words, cancelling and tapping the row on the app's own list fails, as does a
    result reached by way of another page; with `whole`, a search for more than `text`. A
    hyphen or space of `text` may be typed as either or left out ("wifi" for "Wi-Fi"), and
    none typed elsewhere: "bat tery" is no search for Battery. The failure names what was
    typed into the field. Not negatable."""
    want, result = _spelling(check.text), folded(check.text_of("result"))
    typed = [e for e in editings(evidence.agent_actions(), screen_height(evidence))
             if field_matches(check, e.field_action or e.opened_by) and e.text.strip()]
    searched = [e for e in typed if _in_search(e, lambda a: field_matches(check, a))
                and (want.fullmatch if check.flag_of("whole") else want.search)(folded(e.text))]
    for search in searched:
        target = search.end.target if search.end is not None else None
        if target is not None and result in _names(target):
            return Finding(True, f"opened {target_named(target, 60)} from the "
                                 f"results of {shorten(search.text.strip())!r}")
    app, into = check.text_of("app"), check.text_of("into")
    where = (f" into {into!r}" if into else "") + (f" in {app}" if app else "")
    doubt = unwatched(evidence) or ("a tap that ended the search had no resolved target"
                                    if any(s.end and s.end.target is None for s in searched)
                                    else "")
    if searched:
        taps = ", ".join(press_named(s.end) for s in searched if s.end)
        return Finding(False, f"after searching for {check.text!r}{where} the agent tapped "
                              f"{taps}, not the result {check.text_of('result')!r}",
                       unproven=doubt)
    other = list(dict.fromkeys(repr(shorten(e.text.strip(), 30)) for e in typed))
    return Finding(False, f"no search for {check.text!r}{where} ended in a tap on its results"
                          + (f": it searched {', '.join(other[-4:])}" if other else ""),
                   unproven=doubt)
