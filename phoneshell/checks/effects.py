"""Side-effect checks: what the agent changed. Counts a harness probe took after setup (before
the agent) and after capture, compared: "search for the note" must not create one; "create a
note" must create exactly one. A count that could not be read makes the check fail, with the
reason. With `none_before` (or `some_before`), the count before the agent is also the task's
start state: any there (none there) means the phone is not where the task starts
(`not_at_start`), and the runner hands the agent nothing: the attempt fails when this run's
agents made it so, and is not scored otherwise (`runner.counts`). And the phone's settings, by
the audit log (`settings_unchanged`): "do not change it" fails on what the runner has to set
back after the agent; the owner watch fails any task on those its checks do not ask for
(`settings_left`, `asked_for`). Pure.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence

from phoneshell.audit import Action
from phoneshell.changes import Changed, changed_device, setting_of
from phoneshell.checks.brought import brought_back
from phoneshell.checks.implied import Same
from phoneshell.checks.items import items_changed, whole_reading
from phoneshell.checks.kind import Check, Finding, Need, check_kind
from phoneshell.checks.path import names_it, placed, unwatched
from phoneshell.checks.selections import HOLD_S
from phoneshell.evidence import Evidence, ProbeReading
from phoneshell.params import Param
from phoneshell.records import AuditEvent
from phoneshell.spelling import folded
from phoneshell.tree import PageSource
from phoneshell.xcui import SETTINGS, SPRINGBOARD

PROBE = Param("probe", "str", "The probe that counts, e.g. notes_titled, alarms, safari_tabs.",
              required=True)
ARG = Param("text", "str", "What the probe counts, e.g. the note title (probe-specific).")
BY = Param("by", "int", "How much the count must change (default 1).", minimum=1, default=1)
NONE_BEFORE = Param("none_before", "bool", "The task starts with none of what the probe counts: "
                    "with any before the agent, the agent is not handed the phone; the attempt "
                    "fails (and teardown deletes them) when this run counted none on this phone "
                    "earlier, so its agents left them, and is not scored otherwise.")
SOME_BEFORE = Param("some_before", "bool", "The task starts with some of what the probe counts "
                    "(the note a search must find): with none before the agent, the agent is not "
                    "handed the phone; the attempt fails when this run counted some on this phone "
                    "earlier, so its agents deleted them, and is not scored otherwise (make it "
                    "on the phone first).")


def _probe_need(check: Check) -> tuple[Need, ...]:
    return (Need("probe", check.text_of("probe"), check.text),)


def _what(check: Check) -> str:
    return counted(_probe_need(check)[0])


def _counts(check: Check, evidence: Evidence) -> tuple[ProbeReading | None, str]:
    """The reading, or why the comparison cannot be made."""
    reading = evidence.probe(check.text_of("probe"), check.text)
    what = _what(check)
    if reading is None:
        return None, f"{what} was not counted for this attempt"
    if reading.before is None or reading.after is None:
        missing = "before the agent" if reading.before is None else "after capture"
        return None, f"{what} could not be counted {missing}: {reading.error or 'no reason'}"
    return reading, ""


def _flagged(checks: Iterable[Check], flag: Param) -> tuple[Need, ...]:
    return tuple(dict.fromkeys(_probe_need(check)[0] for check in checks
                               if check.flag_of(flag.name)))


def starts_at_none(checks: Iterable[Check]) -> tuple[Need, ...]:
    """The counts the task starts with none of: those its `none_before` checks take."""
    return _flagged(checks, NONE_BEFORE)


def starts_with_some(checks: Iterable[Check]) -> tuple[Need, ...]:
    """The counts the task starts with some of: those its `some_before` checks take."""
    return _flagged(checks, SOME_BEFORE)


def not_at_start(checks: Iterable[Check], before: Callable[[Need], int | None],
                 ) -> tuple[tuple[Need, int], ...]:
    """Why the phone is not in the state the task starts from, by the counts taken before the
    agent (`before`: a need's count, None when not taken): each count a `none_before` check says
    starts at none that is above it, and each a `some_before` check says starts with some that
    is at none, with what it counted (none: the phone is where it starts)."""
    checks = tuple(checks)
    above = ((need, before(need)) for need in starts_at_none(checks))
    empty = ((need, before(need)) for need in starts_with_some(checks))
    return (tuple((need, count) for need, count in above if count)
            + tuple((need, 0) for need, count in empty if count == 0))


def counted(need: Need) -> str:
    """A count as reasons name it: `notes_titled('Groceries')`, `clock_timers`."""
    return f"{need.name}({need.arg!r})" if need.arg else need.name


def _compare(check: Check, evidence: Evidence, change: int) -> Finding:
    reading, problem = _counts(check, evidence)
    if reading is None or reading.before is None or reading.after is None:
        return Finding(False, problem, unproven=problem)
    what = _what(check)
    got = reading.after - reading.before
    detail = (f"{what}: {reading.before} before the agent, {reading.after} after (change "
              f"{got:+d}, wanted {change:+d})")
    if got != change:
        return Finding(False, detail)
    # grown by items that came back (a note recovered from Recently Deleted, one moved in)
    # is not grown by items made, and the count cannot tell them apart (`brought`)
    back = brought_back(reading, evidence, unwatched(evidence)) if change > 0 else ""
    if back:
        return Finding(False, f"{detail}; but {back}")
    # the number is right; the items behind it must be made (removed, kept) ones, not
    # existing ones edited into (out of) what is counted
    changed = items_changed(reading, whole_reading(evidence, reading))
    return Finding(not changed, f"{detail}; but {changed}" if changed else detail)


@check_kind("count_unchanged", family="effect", params=(PROBE, ARG, NONE_BEFORE, SOME_BEFORE),
            negatable=False, implied_by=Same(), needs=_probe_need, probe_kind="count",
            absence=True)
def count_unchanged(check: Check, evidence: Evidence) -> Finding:
    """Passes when the probe's count after capture equals its count before the agent acted (a
    search must not create what it searches for), and, where the probe lists what it counted,
    it counts the same items, each shown as it was (one replaced by another fails), and the
    whole collection it counts some of (every note, for notes titled X) is as it was too."""
    return _compare(check, evidence, 0)


@check_kind("count_increased", family="effect", params=(PROBE, ARG, BY, NONE_BEFORE, SOME_BEFORE),
            negatable=False, implied_by=Same(), needs=_probe_need, probe_kind="count")
def count_increased(check: Check, evidence: Evidence) -> Finding:
    """Passes when the count grew by exactly `by` (default 1) between before and after, by new
    items: where the probe lists what it counted, every item counted before is still shown as
    it was, and the whole collection it counts some of (every note, for notes titled X) grew
    by as much with every item of it still there, so an existing note renamed or overwritten
    into one fails; and, where the collection has a way back for what left it (Notes' Recently
    Deleted, a note moved in from another folder: `brought.ROUTES`), the agent took none, by a
    complete audit log, for the count cannot tell an item brought back from one made."""
    return _compare(check, evidence, check.int_of("by"))


@check_kind("count_decreased", family="effect", params=(PROBE, ARG, BY, SOME_BEFORE),
            negatable=False,
            implied_by=Same(), needs=_probe_need, probe_kind="count")
def count_decreased(check: Check, evidence: Evidence) -> Finding:
    """Passes when the count fell by exactly `by` (default 1) between before and after, by
    items removed: where the probe lists what it counted, nothing is shown after that was not
    before, and the whole collection it counts some of fell by as much, so an item renamed out
    of the count fails."""
    return _compare(check, evidence, -check.int_of("by"))


def _key(setting: Changed) -> tuple[str, str, str]:
    return setting.kind, setting.label, setting.page


def _changed_by_agent(aimed: Iterable[tuple[Action, Changed]],
                      ) -> dict[tuple[str, str, str], tuple[Changed, Action]]:
    """Each Settings value the agent's actions changed (`aimed`: each action on a setting, with
    what `setting_of` read of it): what it was before its first action on it, and its last
    action on it, in the order first touched. An action the bridge saw leave the screen as it
    was (its digests before and after, which hold every value shown, alike) changed nothing: a
    touch on a switch row's label, away from its knob, turns nothing on a phone either, though
    the log names the row's switch under it. Nor does a long press on a Control Center toggle
    (`_expands`)."""
    found: dict[tuple[str, str, str], tuple[Changed, Action]] = {}
    for action, setting in aimed:
        if not (action.screen_before and action.screen_before == action.screen_after
                or _expands(action, setting)):
            key = _key(setting)
            found[key] = (found[key][0] if key in found else setting, action)
    return found


def _expands(action: Action, setting: Changed) -> bool:
    """Whether `action` was a long press on a Control Center connectivity toggle: a finger held
    `HOLD_S` or more (by WDA's touchAndHold or a touch held in place; a shorter one is a tap),
    which on iOS 17-26 expands the connectivity module, or opens the expanded Wi-Fi's or
    Bluetooth's list, and switches nothing (docs/simulator.md, Control Center). The runner
    still reads it back after the attempt (`changes.changed_settings`), which costs a read."""
    duration = action.params.get("duration")
    return (setting.kind == "control" and action.kind == "tap"
            and isinstance(duration, (int, float)) and not isinstance(duration, bool)
            and duration >= HOLD_S)


def _title(source: PageSource) -> str:
    """The on-screen navigation bar's name ("" when there is none)."""
    return next((e.name for e in source.on_screen() if e.short_type == "NavigationBar"), "")


def _back(setting: Changed, last: Action, final: PageSource | None) -> bool:
    """Whether the value is shown back at what it was: the option the agent chose last is the
    one chosen before, or the final screen shows the switch, slider or toggle at its value
    before, on its page (a value out of sight is taken as changed). The witness of
    `settings_unchanged`, graded before the teardown; the owner watch takes the phone's word,
    read by the teardown's set-back (`settings_left`'s `as_was`)."""
    if setting.kind in ("choice", "button"):  # the last one chosen is the one before
        return last.target is not None and last.target.label == setting.was
    if final is None or (setting.page and _title(final) != setting.page):
        return False
    kind = "Slider" if setting.kind == "slider" else "Switch"
    shown = [e for e in final.on_screen() if e.short_type == kind and setting.label in
             ((e.name,) if setting.kind == "control" else (e.label,))]
    return bool(shown) and all(e.value == setting.was for e in shown)


HELD = frozenset({"orientation"})
"""The phone's own states that say only how it is held: the runner sets them back, and an agent
that changed them changed no setting (`settings_unchanged`)."""


def asked_for(checks: Iterable[Check], action: Action) -> bool:
    """Whether the task asks for the change `action` made: one of its `checks` is a `tapped`
    (not negated) of the element's own WDA type that names it, by its label or name (whole or
    in part, as that check reads it), in its app and on its page when the check gives them
    (`tapped text: Wi-Fi, type: Switch` asks for the Wi-Fi switch turned; a `tapped` of no
    type, as a search's result is asked for, asks for no setting)."""
    return setting_of(action) is not None and _asks(checks, action)


def _asks(checks: Iterable[Check], action: Action) -> bool:
    """`asked_for` of an action on a setting (`setting_of` read it already)."""
    target = action.target
    if target is None:
        return False
    for check in checks:
        # `placed` holds the element to the check's type, and `setting_of` fixes the type of
        # each kind of setting's element: a check of no type asks for none
        if check.kind != "tapped" or check.negate or not check.text_of("type"):
            continue
        want, app = folded(check.text), check.text_of("app")
        if names_it(want, target, check.flag_of("whole")) and placed(action, check) and (
                not app or app == action.app_before):
            return True
    return False


def settings_left(actions: Sequence[Action], events: Iterable[AuditEvent],
                  final: PageSource | None, checks: Iterable[Check] = (),
                  as_was: Collection[tuple[str, str, str]] | None = None) -> tuple[str, ...]:
    """What the agent's `actions` (its `events`) left changed of the phone's settings, as
    reasons name it ("Bluetooth (was on)", "the phone's appearance"): each Settings value and
    Control Center toggle it changed, and each of the phone's own states but how it is held it
    sent a change of; leaving out a value the task's `checks` ask for (`asked_for`: any action
    on it that they name). A value changed and changed back is left out on a witness's word:
    the phone's, read after the attempt (`as_was`: the values, by kind, label and page, the
    teardown's set-back found at what they were, the owner watch's witness; a state of the
    phone as ("device", name, "")), or else the screen's at capture (`final` shows it back at
    what it was, on its page; for an option or the appearance: its last tap chose what was
    chosen before), which sees only what the agent left in sight (`settings_unchanged`'s
    witness), and never a state of the phone: without `as_was`, one sent is left changed."""
    checks = tuple(checks)
    # the owner watch reads this after every attempt: each action's setting is read once
    # a tap WDA refused before acting touched nothing (`acted` False); one that may have counts
    aimed = [(a, s) for a in actions if a.acted is not False
             for s in (setting_of(a),) if s is not None]
    asked = {_key(s) for a, s in aimed if _asks(checks, a)}
    changed = [f"{setting.title} (was {setting.shown})"
               for key, (setting, last) in _changed_by_agent(aimed).items()
               if key not in asked and (key not in as_was if as_was is not None
                                        else not _back(setting, last, final))]
    # a state sent through WDA passes the owner watch only on the phone's word, read after the
    # attempt (`as_was`): the log says a change was sent, not that WDA made it or it stayed
    return (*changed, *(f"the phone's {state}" for state in changed_device(events)
                        if state not in HELD and (as_was is None
                                                  or ("device", state, "") not in as_was)))


def _unnamed(action: Action) -> str:
    """Why what `action` changed in Settings or on SpringBoard (Control Center) is unknown (""
    when it is known): no outcome was recorded; or it may have pressed what the log cannot
    name (`Action.unnamed_press`: a tap the bridge could not name, a slide held until a context
    menu opened, not a keyboard dismiss that found no key); or a slide or typing aimed at no
    element the bridge could name."""
    if action.ok is None:
        return "has no recorded outcome"
    if action.app_before not in (SETTINGS, SPRINGBOARD):
        return ""
    if action.target is None and action.kind in ("swipe", "type"):
        return "has no element resolved"
    return action.unnamed_press()


@check_kind("settings_unchanged", family="effect", params=(), negatable=False,
            implied_by=Same(), absence=True)
def settings_unchanged(check: Check, evidence: Evidence) -> Finding:
    """Passes when the agent left the phone's settings as it found them, by the audit log: it
    changed no Settings value (a switch, an option, a slider, the appearance's Light or Dark)
    and no Control Center toggle, unless the final screen shows it back at what it was (for an
    option or the appearance: its last tap chose what was chosen before), and sent no change of
    the phone's own state but how it is held (light or dark, a simulated location). These are
    what the runner sets back after the attempt (`teardown.switched`); how the phone is held it
    sets back too, but that is no setting the owner set (Control Center's Orientation Lock
    would be, and is refused), so an agent that only turned the phone passes. An absence, so it
    fails closed: without a complete log, or when an action in Settings or on SpringBoard has no
    resolved element or no recorded outcome."""
    actions = evidence.agent_actions()
    final = evidence.final.source if evidence.final is not None else None
    changed = settings_left(actions, evidence.events, final)
    if changed:
        return Finding(False, f"the agent changed {', '.join(changed)}")
    doubt = unwatched(evidence)
    blind = [(a, why) for a in actions if (why := _unnamed(a))]
    if not doubt and blind:
        action, why = blind[0]
        doubt = f"#{action.seq} {action.kind} in {action.app_before} {why}, so what it changed " \
                "is unknown"
    if doubt:
        return Finding(False, f"cannot show the settings were left as found: {doubt}")
    return Finding(True, f"no setting changed in the agent's {len(actions)} action(s)")
