"""The audit log as the grader reads it: events paired into actions, a log with its torn tail.

The event itself (`AuditEvent`) is a record, in `phoneshell.records.audit`: the one contract the
bridge (writer) and the grader (reader) share. Each action is two lines with the same `seq`: the
intent, written before the request goes to the phone, and the outcome after it answered;
`actions` pairs them, so an intent with no outcome is an action the phone may have received.
A cut-off last line (a crash mid-write) is reported, never read (`phoneshell.records.base`).
The schema is documented in docs/audit-log.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from phoneshell.holds import held_s, held_slide
from phoneshell.keyboard_dismiss import pressed_then_failed
from phoneshell.presses import press_count
from phoneshell.records import (
    LOG_SHARE,
    ActionKind,
    AuditEvent,
    Lines,
    LineScan,
    Phase,
    Scalar,
    Target,
    file_size,
    parse_lines,
    scan_lines,
)
from phoneshell.rig_down import ends_the_rig, may_close_wda, restarts_wda, takes_rig_down
from phoneshell.xcui import SIDE_BUTTON_HID, short_type

AuditLog = Lines[AuditEvent]
"""The events of an audit file (`.records`), the torn tail and the lines that are not events."""


def parse_audit(text: str, where: str = "audit.jsonl") -> AuditLog:
    """Parse audit JSONL text; a torn final line is reported, never raised."""
    return parse_lines(text.encode("utf-8"), AuditEvent, where)


def read_audit(path: Path, offset: int = 0) -> AuditLog:
    """Read an audit.jsonl file (missing file: no events), from byte `offset` on, a line at a
    time: a run's log grows with its attempts, so no size of the file is refused, only a line
    longer than `MAX_LINE_BYTES` (a problem). Each event is kept `bounded`, as the bridge
    writes them now (a log written before that may hold a field's whole text on every line).

    Raises:
        RecordError: not a regular file, or unreadable.
    """
    scan = scan_audit(path, offset)
    events = tuple(event.bounded() for event in scan)
    return AuditLog(events, scan.torn, tuple(scan.problems))


def scan_audit(path: Path, offset: int = 0) -> LineScan[AuditEvent]:
    """An audit.jsonl file read one line at a time (`records.scan_lines`): for a reader that
    keeps only some of a run's events."""
    return scan_lines(path, AuditEvent, offset)


audit_size = file_size


@dataclass(frozen=True)
class Action:
    """One action: its intent joined with its outcome (if the outcome was ever written)."""

    seq: int
    phase: Phase
    kind: ActionKind
    t: float
    params: Mapping[str, Scalar]
    app_before: str
    app_after: str
    """Foreground after the action; "" when no outcome was recorded."""
    target: Target | None
    ok: bool | None
    """None when the log has the intent only (the bridge died before the phone answered)."""
    error: str
    screen_before: str = ""
    """A digest of the screen the action was aimed at ("" when none was read)."""
    screen_after: str = ""
    """A digest of the screen after it ("" when none was read, or no outcome)."""
    field: Target | None = None
    """For a tap on the keyboard: the text input with focus it typed into, when the bridge
    could tell (`AuditEvent.field`)."""
    outcome_t: float | None = None
    """Unix time of the outcome line; None when none was logged. The phone did the action
    between `t` and it, never later: the bridge writes the outcome once WDA answered, or, where
    it puts the read after off (every action of a confined agent, every agent action on a real
    phone: docs/audit-log.md), at the first whole read after that, which may come long after
    the phone answered."""
    answered_t: float | None = None
    """Unix time WDA answered, where the outcome line was written later, at a read after it
    (`AuditEvent.answered_t`): the phone had done the action by then. None in older logs, and
    where `outcome_t` is the answer's time."""

    @property
    def presses(self) -> int | None:
        """How many presses of its target the phone took from this action, None where it may
        have taken one or not (`presses.press_count`: the one definition of a press), by what
        the bridge sent; whether it reached the phone at all is `acted`."""
        return press_count(self.kind, self.params)

    @property
    def acted(self) -> bool | None:
        """Whether the phone did what the action asks: the one reading of a failed action.

        True: WDA answered it done (`ok`), or it is the key a keyboard dismiss pressed before
        WDA failed it because the keyboard stayed up (`keyboard_dismiss.pressed_then_failed`).
        False: WDA answered an error to a route that fails before it acts (`fails_first`): a
        tap (XCTest finds the element and its hit point before a finger goes down) or a swipe
        that is one gesture (WDA checks its arguments first). None, it may have or not: no
        outcome was logged (the bridge died before the phone answered), WDA never answered
        (`NO_ANSWER`: it may have run it after the bridge stopped waiting, unless the
        connection was refused, `NOT_SENT`, and nothing was sent), or any other route
        WDA failed, which can act first: typing focuses its element and may stop part way, a
        clear deletes in rounds, a launch may bring the app up and then time out, a scroll to
        an element or a picker wheel's select moves a step at a time before giving up. A
        request the bridge refused is no action (`refusals`).

        Readers choose by what they judge (docs/checks.md, "Failed actions"): a check that
        passes on an action (tapped, tapped_keys, a send, a visit, a back) counts it only when
        True, and a None that would have passed makes its failure unproven (`untold`); a ban
        (a negated check), anything that fails a check, the owner watch and the rig-broken
        reading count it unless False (fail closed)."""
        if self.ok is True:
            return True
        if self.ok is None:
            return None
        if self.error.startswith(NO_ANSWER):
            # the request's path holds no space: the first ": " ends it
            return False if self.error.partition(": ")[2].startswith(NOT_SENT) else None
        if pressed_then_failed(self.kind, self.params):
            return True
        return False if fails_first(self.kind, self.params) else None

    def unnamed_press(self) -> str:
        """Why the phone may have taken this action as a press of something the log does not
        name ("" when it cannot have), for a reader that fails closed on what was pressed: a
        tap with no element resolved, unless the log says no finger went down (`presses` 0: a
        keyboard dismiss that found no key to press, 0 taps); a slide held still long enough
        to open a context menu first (`holds.held_slide`), whose lift chose the menu's item
        under it. One WDA failed before it acted (`acted` False) pressed nothing."""
        if self.acted is False:
            return ""
        if self.kind == "tap" and self.target is None and self.presses != 0:
            return "has no element resolved"
        held = short_type(self.target.type) if self.target is not None else ""
        if held_slide(self.kind, self.params, held):
            return (f"held still {held_s(self.params):g} s before it slid (a context menu "
                    "opens under a held finger, and the item it lifts on is chosen, which "
                    "the log cannot name)")
        return ""

    def untold(self) -> str:
        """Why the action may or may not have reached the phone ("" when `acted` is known)."""
        if self.acted is not None:
            return ""
        if self.ok is None:
            return f"{self.describe()}: no outcome was logged (the bridge stopped first)"
        if self.error.startswith(NO_ANSWER):
            return f"{self.describe()}: WDA never answered, and may have run it after"
        return f"{self.describe()}: WDA failed it, but its route can act before it fails"

    def describe(self) -> str:
        """A short human line: kind, the main parameter and the outcome."""
        main = next((str(self.params[k]) for k in ("bundle_id", "text", "url", "button")
                     if k in self.params), "")
        unnamed = ""
        if self.kind == "tap" and self.target is not None:
            main = self.target.label or self.target.name
            if not main:  # "#30 agent tap ok" said nothing of what it touched
                where = f" on page {self.target.page!r}" if self.target.page else ""
                unnamed = f" an unnamed {short_type(self.target.type) or 'element'}{where}"
        elif self.kind == "tap" and "x" in self.params:
            main = f"({self.params['x']}, {self.params['y']})"
        state = {True: "ok", False: f"failed: {self.error}", None: "no outcome"}[self.ok]
        return (f"#{self.seq} {self.phase} {self.kind}{unnamed} {main!r} {state}"
                .replace(" ''", ""))


NO_ANSWER = ("no answer from WDA", "forwarding ")
"""How the bridge's log begins the error of an action WDA never answered: the phone went
silent (`bridge.upstream.UpstreamDown`: timed out, the connection closed) or the bridge failed
after sending. WDA's own errors read otherwise ("invalid element state: ...", "HTTP 500")."""
NOT_SENT = "the connection was refused"
"""How the bridge words a request nothing listened for (`bridge.upstream.why_no_answer`): it
never left, so the phone did nothing of it."""
ACTS_THEN_FAILS = frozenset({"scroll", "scroll_to", "picker_select"})
"""Swipe gestures whose route moves the screen before WDA may fail it: a scroll to an element
(or by name) scrolls step by step until it gives up, a picker wheel's select turns a row at a
time until the value shows or its attempts run out."""


def fails_first(kind: str, params: Mapping[str, Scalar]) -> bool:
    """Whether a route WDA answered with an error did nothing: a tap, or a swipe of one
    gesture (not `ACTS_THEN_FAILS`)."""
    return kind == "tap" or kind == "swipe" and params.get("gesture") not in ACTS_THEN_FAILS


def actions(events: Iterable[AuditEvent]) -> tuple[Action, ...]:
    """Pair each intent with its outcome by seq (per run), in seq order.

    Refused requests and custody lines are not actions: nothing reached the phone through the
    bridge (see `refusals` and `custody_breaks`).
    """
    intents: dict[tuple[str, int], AuditEvent] = {}
    outcomes: dict[tuple[str, int], AuditEvent] = {}
    for event in events:
        key = (event.run_id, event.seq)
        if event.stage == "intent":
            intents[key] = event
        elif event.stage == "outcome":
            outcomes[key] = event
    merged: list[Action] = []
    for key in sorted(set(intents) | set(outcomes), key=lambda k: (k[0], k[1])):
        intent, outcome = intents.get(key), outcomes.get(key)
        first = intent or outcome
        assert first is not None
        merged.append(Action(
            seq=first.seq, phase=first.phase, kind=first.kind, t=first.t,
            params=first.params,
            app_before=(intent.app_before if intent else "") or first.app_before,
            app_after=outcome.app_after if outcome else "",
            target=(intent.target if intent and intent.target else
                    outcome.target if outcome else None),
            ok=outcome.ok if outcome else None,
            error=outcome.error if outcome else "",
            screen_before=(intent or first).screen_before,
            screen_after=outcome.screen_after if outcome else "",
            field=intent.field if intent else None,
            outcome_t=outcome.t if outcome else None,
            answered_t=outcome.answered_t if outcome else None,
        ))
    return tuple(merged)


CUSTODY_PHASES: tuple[Phase, ...] = ("agent", "check")
"""Where a custody line is the agent's doing: while it ran, and at capture (a change made after
its last logged action shows there). Before it started, nothing of it was running."""


def custody_breaks(events: Iterable[AuditEvent]) -> tuple[AuditEvent, ...]:
    """The custody lines written while the agent ran or at capture: each a change of the phone
    that no logged action explains."""
    return tuple(e for e in events if e.stage == "custody" and e.phase in CUSTODY_PHASES)


def apps_in_front(events: Iterable[AuditEvent], phases: Iterable[Phase] = CUSTODY_PHASES,
                  ) -> tuple[str, ...]:
    """Every app the log shows in front, or launched, while the agent ran and at capture (by
    default), in the order first seen: each action's app before and after, a launch's bundle
    id, and what a custody line found in front (a change no action explains)."""
    wanted = set(phases)
    seen: dict[str, None] = {}
    for event in events:
        if event.phase not in wanted:
            continue
        launched = event.params.get("bundle_id") if event.kind in ("launch", "activate") else ""
        for bundle in (event.app_before, event.app_after, launched):
            if isinstance(bundle, str) and bundle:
                seen.setdefault(bundle, None)
    return tuple(seen)


def refusals(events: Iterable[AuditEvent]) -> tuple[AuditEvent, ...]:
    """The requests the bridge refused (never forwarded), with why in `error`."""
    return tuple(e for e in events if e.stage == "refused")


def share_spent(events: Iterable[AuditEvent]) -> str:
    """Why the agent's turn ended early because it used up its share of the log, with how many
    of its lines were refused after ("" when it did not): the bridge's `log_share` lines."""
    said = [e for e in events if e.stage == "refused" and e.phase == "agent"
            and e.params.get("via") == LOG_SHARE]
    if not said:
        return ""
    dropped = sum(n for e in said if isinstance(n := e.params.get("dropped"), int))
    first = next((e for e in said if "dropped" not in e.params), said[0])
    return first.error + (f" ({dropped:,} of its later lines refused, not logged)" if dropped
                          else "")


def describe_break(event: AuditEvent) -> str:
    """One line for a custody break: what the log last showed, what the phone showed, where."""
    was = event.app_before or "an unknown app"
    seen = event.app_after or "an unknown app"
    what = (f"{seen} was in front where the log last showed {was}" if seen != was else
            f"the screen of {seen} changed")
    via = event.params.get("via")
    return f"#{event.seq} {event.phase}: {what}" + (f" (seen by {via})" if via else "")


def _power_button(button: object) -> bool:
    """Whether a press's button is the side button named by its IOHID page and usage, read as
    numbers the way WDA reads them (unsignedIntValue drops a fraction): a log written before the
    bridge refused fractions may hold "hid:12.0:48.0" or "hid:12:48.4", WDA's 12 and 48."""
    kind, _, numbers = str(button).partition(":")
    try:
        found = tuple(int(float(n)) for n in numbers.split(":"))
    except (ValueError, OverflowError):
        return False
    return kind == "hid" and found == SIDE_BUTTON_HID


def agent_broke_rig(events: tuple[AuditEvent, ...]) -> str:
    """What the agent did, by its own logged actions, that can break the rig ("" when none):
    locking the phone, ending WDA's session, terminating WDA or starting it again, acting on a
    control that powers the phone off, erases or restarts it, turns off UI Automation, or swipes
    WDA's runner's App Switcher card, which closes WDA (`rig_down.takes_rig_down`: the bridge
    refuses those, so one here got past it), a swipe in SpringBoard after which WDA answered
    nothing (`rig_down.may_close_wda`: one by a direction names no card), or sending a command
    WDA was still running when the bridge stopped waiting (the phone answers nothing else
    meanwhile). An action WDA failed counts unless it surely did nothing (`Action.acted`: fail
    closed)."""
    done = actions(events)
    for index, action in enumerate(done):
        if action.phase != "agent":
            continue
        target = action.target
        if target is not None and action.acted is not False:
            why = takes_rig_down(action.kind, action.app_before, target.type, target.label,
                                 target.value, target.page, target.chosen, action.params,
                                 name=target.name)
            if why:
                return (f"the agent acted on {target.label!r} (#{action.seq} {action.kind}): "
                        f"{why}")
        button, bundle = action.params.get("button"), str(action.params.get("bundle_id", ""))
        if action.kind == "press" and (button == "lock" or _power_button(button)):
            return f"the agent locked the phone (#{action.seq} press {button})"
        if action.kind == "terminate" and action.params.get("via") == "delete_session":
            return f"the agent ended WDA's session (#{action.seq} DELETE /session)"
        if action.kind == "terminate" and (ends := ends_the_rig(bundle)):
            return f"the agent terminated {bundle} (#{action.seq} terminate): {ends}"
        if restarts := restarts_wda(action.kind, bundle):
            return f"the agent started {bundle} (#{action.seq} {action.kind}): {restarts}"
        closes = may_close_wda(action.kind, action.app_before, action.params)
        if closes and action.acted is not False and not any(a.app_after for a in done[index:]):
            # WDA silent from it on (nothing read after it, nor after any later action)
            return (f"the agent swiped in SpringBoard (#{action.seq} swipe), and WDA answered "
                    f"nothing after it: {closes}")
        if action.ok is False and UPSTREAM_TIMEOUT in action.error:
            # WDA runs one command at a time: while the agent's runs on, nothing else answers
            return (f"the agent's #{action.seq} {action.kind} kept WDA busy past the bridge's "
                    f"wait ({action.error})")
    return ""


UPSTREAM_TIMEOUT = "timed out"
"""How the bridge's log words an action WDA did not answer in time (`bridge.upstream`)."""


def housekeeping(action: Action) -> bool:
    """Whether a logged action only set up the agent's client: a session that names no app (it
    launches nothing and leaves the screen as it is), or WDA's settings (how it reads, not what
    the phone shows). Logged, as everything is; not one of the agent's steps."""
    return action.kind == "other" and (action.params.get("route") == "/session"
                                       or "settings" in action.params)


def agent_steps(events: Iterable[AuditEvent]) -> int:
    """How many actions the agent took by the log: each action logged under phase `agent` (an
    intent, or an outcome whose intent is missing), reads not included (the bridge logs no
    read), nor a request it refused (it never reached the phone), nor its client's setting up
    (`housekeeping`: facebook-wda opens a session before its first step, some clients one a
    step). The count an agent's own word cannot lower: what `runner.attempt` holds to the
    task's `max_steps`."""
    return sum(1 for action in actions(events)
               if action.phase == "agent" and not housekeeping(action))
