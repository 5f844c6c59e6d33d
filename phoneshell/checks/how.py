"""How-it-was-done checks: the keys pressed, the page loaded (the timer started: `countdown.py`).
Pure.

A screen shows a result, not how it was reached: 423 on Calculator's display is the same whether
47 x 9 was worked out or 4, 2, 3 keyed in. These kinds read the attempt's audit log (phase
`agent` only, as every path check does).
"""

from __future__ import annotations

from collections.abc import Sequence

from phoneshell.address_bar import sent
from phoneshell.audit import Action, housekeeping
from phoneshell.checks.addresses import Address, parse
from phoneshell.checks.implied import Same, Suffix
from phoneshell.checks.keystrokes import Typed
from phoneshell.checks.kind import Check, Finding, check_kind
from phoneshell.checks.path import IN_APP, unwatched
from phoneshell.checks.tapped_names import point_named, target_named
from phoneshell.checks.typed_texts import typed_sends
from phoneshell.checks.worked import FRESH, computed, invalid, operands
from phoneshell.checks.worked_display import display_of
from phoneshell.evidence import Evidence
from phoneshell.params import Param, ParamValue
from phoneshell.spelling import folded
from phoneshell.tree import shorten
from phoneshell.wda_routes import DEVICE_STATES
from phoneshell.xcui import SAFARI

KEYS = Param("keys", "str_list", "The computation: labels (or names) of the keys, in the order "
                                 "they must be the agent's last taps, each matched whole, "
                                 "ignoring case: e.g. `['4', '7', multiply, '9', equals]`. Give "
                                 "this or `result`.")
ALSO = Param("also", "str_list", "Other orders that count as the same computation, each its keys "
                                 "separated by spaces: e.g. `['9 multiply 4 7 equals']`.")
RESULT = Param("result", "str", "Instead of `keys`: the number Calculator must show, worked out "
                                "in any order from `numbers`, e.g. `3`.")
NUMBERS = Param("numbers", "str_list", "With `result`: the operands the instruction gives, each "
                                       "keyed as a whole entry (again if the computation needs "
                                       "it); other spellings of one follow it after spaces: "
                                       "`['30', '10 0.1']`.")
EXPRESSION = Param("expression", "str", "With `result`: the computation the instruction asks "
                                        "for, in `numbers` (first spellings), + − × ÷ ( ) and "
                                        "% for a hundredth: `(12 + 8) × 5`. Any equivalent "
                                        "form keyed counts.")
HELPERS = Param("helpers", "str_list", "With `result`: other numbers the computation may key, "
                                       "each at most once, e.g. `['100']` for a percentage.")
URL = Param("url", "str", "The page: a host (its whole site), or a host and path (that page); "
                          "scheme, `www.` and a trailing slash do not matter, e.g. example.com.",
            required=True)
HOW_SENT = {"search": "a search for", "cannot": "what Safari cannot open:",
            "nothing": "an empty address", "load": "the address"}
"""How a detail names what Safari did with a text sent from its address field."""
ADDRESS_NAMES = frozenset({"TabBarItemTitle", "URL"})
"""Names of Safari's address field (iOS 15 and later; earlier), labelled "Address"."""


def labelled(action: Action, want: str) -> bool:
    """Whether an action was aimed at an element labelled or named `want` (whole, folded)."""
    target = action.target
    return target is not None and folded(want) in (folded(target.label), folded(target.name))


def _presses(actions: Sequence[Action], app: str, swipes: bool = False) -> list[Action | None]:
    """The agent's presses in `app`, in order, up to its last tap there: each tap as many times
    as it pressed (`Action.presses`: a double tap twice), and None for an action between them
    that is no press or may be one or not (two fingers, a multi-tap logged without its count),
    a swipe too unless `swipes` keeps it (a sideways one on Calculator's display deletes a
    digit: the computation replays it; turning the phone, which keeps what Calculator shows and
    brings its Scientific keypad, is then passed over). An action WDA failed before it acted is
    none; one that may or may not have acted (`Action.acted` None) is None too. A launch of the
    app in front starts it anew (WDA's launch relaunches it; its display reads 0): the presses
    before it are gone."""
    pressed: list[Action | None] = []
    for action in actions:
        if action.acted is False or (app and action.app_before != app):
            continue
        if action.kind == "launch" and action.acted and \
                action.params.get("bundle_id") == action.app_before:
            pressed.clear()  # the app in front started anew: nothing keyed before is pending
            continue
        if swipes and _keeps_display(action, app):
            continue
        if action.acted is None:
            pressed.append(None)
        elif swipes and action.kind == "swipe":
            pressed.append(action)
        elif not action.presses:
            pressed.append(None)
        else:
            pressed.extend([action] * action.presses)
    while pressed and (pressed[-1] is None or pressed[-1].kind != "tap"):
        pressed.pop()
    return pressed


def _keeps_display(action: Action, app: str) -> bool:
    """Whether an action between presses leaves what `app` shows as it was, so a replay of its
    keys passes over it: turning the phone (Calculator keeps its display and brings its
    Scientific keypad), a session opened or settings set with the app still in front after,
    a pause or a wait that touches nothing, the app already in front brought to the front
    (red team 47: a second bare session failed an honest computation as keyed "after swipe").
    A launch is not one: WDA's launch starts the app anew, whose display reads 0."""
    params = action.params
    route = str(params.get("route", ""))
    if action.kind == "activate":
        return str(params.get("bundle_id", "")) == app and action.app_after == app
    if action.kind != "other":
        return False
    if DEVICE_STATES.get(route) == "orientation":
        return True
    touched_nothing = housekeeping(action) or route.endswith("/actions") or "timeout" in params
    return touched_nothing and action.app_after == app


def computations(check: Check) -> list[tuple[str, ...]]:
    """The runs of keys that count as the computation: `keys`, then each of `also`."""
    return [check.list_of("keys"), *(tuple(a.split()) for a in check.list_of("also"))]


@check_kind("tapped_keys", family="path",
            params=(KEYS, ALSO, RESULT, NUMBERS, HELPERS, EXPRESSION, IN_APP),
            negatable=False, implied_by=Suffix(), invalid=invalid)
def tapped_keys(check: Check, evidence: Evidence) -> Finding:
    """With `result`: passes when the agent's last computation in `app` (when given), replayed
    as iOS's Calculator computes, shows `result`, keys each of `numbers` and no other number but
    `helpers`, and is `expression` in some form (worked with other numbers in place of the
    task's, it agrees with it). The computation runs from the last number keyed with nothing before
    it, or after = or All clear, to the agent's last press there, = (or % where it shows the
    result). The result keyed in, other arithmetic of the task's numbers, numbers the
    instruction does not give, or a computation keyed onto what showed before (3 + 0 x, then
    the computation) fail; so do presses the check cannot replay (a sign change, a Scientific
    key but ( and ), a swipe but a sideways one on the display, which deletes a digit as the
    Delete key does).
    With `keys`: passes when the agent's last taps are `keys` (or one of `also`), in order, one
    after another with nothing else done there between them, each tap on an element labelled
    (or named) exactly the key, and before them nothing pending: no tap in the app before, or
    last an = or All clear. Taps the bridge could not resolve make a failure unproven."""
    pressed = _presses(evidence.agent_actions(), check.text_of("app"),
                       swipes=bool(check.text_of("result")))
    if check.text_of("result"):
        want = operands(check.text_of("result"), check.list_of("numbers"),
                        check.list_of("helpers"), check.text_of("expression"))
        passed, why, blind = computed(pressed, want, display_of(evidence))
        doubt = unwatched(evidence) or (f"{blind} tap(s) had no resolved target" if blind
                                        else "")
        return Finding(passed, why, unproven="" if passed else doubt)
    for keys in computations(check):
        last = pressed[-len(keys):]
        if len(last) == len(keys) and all(a is not None and labelled(a, k)
                                          for a, k in zip(last, keys, strict=True)):
            before = [a for a in pressed[:-len(keys)] if a is not None]
            if not before or any(labelled(before[-1], k) for k in FRESH):
                return Finding(True, f"the computation {' '.join(keys)} was the last keyed")
            return Finding(False, f"the computation {' '.join(keys)} was keyed after "
                                  f"{_shown(before[-4:])} with no = or All clear between: "
                                  "what was pending before it counts in what it shows")
    tail = pressed[-max(map(len, computations(check))):]
    blind = sum(1 for a in tail if a is not None and a.target is None)
    doubt = unwatched(evidence) or (f"{blind} tap(s) had no resolved target" if blind else "")
    return Finding(False, f"the agent's last taps were {_shown(tail)}; wanted the computation "
                          f"{' '.join(check.list_of('keys'))}", unproven=doubt)


def _shown(presses: Sequence[Action | None]) -> str:
    """Presses for a detail: each key's label, bare; an element with none as `target_named`
    says it; `?` for a tap with no element resolved, with its point where the log holds one
    ("?(120, 480)")."""
    return " ".join("?" if a is None else _key_shown(a) for a in presses) or "nothing"


def _key_shown(press: Action) -> str:
    """One press of `_shown`."""
    if press.target is None:
        return "?" + point_named(press.params)
    return shorten(press.target.label or press.target.name, 12) or target_named(press.target, 12)


def _sent_address(typed: Typed) -> bool:
    """Whether a send was of Safari's address field and reached the phone with Safari still in
    front after it (a Return sent with nothing loaded, or into another app, is no visit)."""
    target, by = typed.action.target, typed.by
    return (typed.action.app_before == SAFARI and target is not None
            and (target.name in ADDRESS_NAMES or target.label == "Address")
            and by is not None and by.acted is True and by.app_after == SAFARI)


def _loads(evidence: Evidence, want: Address) -> tuple[str, list[str]]:
    """How the agent loaded `want` in Safari ("" when it did not), and what it loaded instead,
    each as a detail says it."""
    seen: list[str] = []
    for action in evidence.agent_actions():
        if action.kind == "open_url" and action.acted is True and action.app_after == SAFARI:
            url = str(action.params.get("url") or "")
            got = parse(url)
            if got is not None and got.reaches(want):
                return f"opened {url}", seen
            seen.append(repr(shorten(str(got) if got is not None else url, 40)))
    for typed in typed_sends(evidence.agent_actions()):
        if not _sent_address(typed):
            continue
        text = typed.last_line.strip()
        does = sent(text)
        got = parse(does.url) if does.does == "load" else None
        if got is not None and got.reaches(want):
            return f"typed {text!r} into Safari's address field and sent it", seen
        seen.append(repr(shorten(str(got), 40)) if got is not None else
                    f"{HOW_SENT[does.does]} {shorten(text, 40)!r}")
    return "", seen


def _not_a_page(values: dict[str, ParamValue]) -> tuple[str, str] | None:
    """A `url` that names no web page, as (field, problem), read at load: such a check could
    never pass."""
    url = str(values.get("url", ""))
    return None if parse(url) is not None else (
        "url", f"needs `url` to be a web address Safari loads (example.com, "
               f"https://example.com/page), not {url!r}")


@check_kind("visited", family="path", params=(URL,), implied_by=Same(), invalid=_not_a_page)
def visited(check: Check, evidence: Evidence) -> Finding:
    """Passes when the agent itself loaded the page `url` names in Safari: it opened the URL,
    or typed the address into Safari's address field and sent it (the keyboard's Return, or
    the suggestion row that is the address: a send as `typed_into` counts one), and Safari was
    in front after. A typed text counts only when Safari loads it as an address
    (`address_bar.sent`: one Safari would search for, `example.com.` or `example%2Ecom`, is no
    visit). URLs compare as a browser reads them (dot segments, escapes, a host's case, default
    ports, `user@`); a host alone names its whole site, a host and path that page only. A page
    left open by setup, a search that shows the address, an address typed but never sent, or a
    link followed, does not count."""
    want = parse(check.text_of("url"))
    if want is None:
        return Finding(False, f"{check.text_of('url')!r} is not a web address")
    how, seen = _loads(evidence, want)
    if how:
        return Finding(True, f"the agent {how}")
    shown = ", ".join(seen[-4:]) or "nothing"
    return Finding(False, f"the agent never loaded {want}; it loaded {shown}",
                   unproven=unwatched(evidence))
