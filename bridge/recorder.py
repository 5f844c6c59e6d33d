"""Log one action around its forwarding: custody, target, intent, forward, after-read, outcome.

The order is the guarantee: the intent line is on disk before the request leaves for the phone,
so a crash can leave an intent without an outcome, never an action without an intent. If the
intent cannot be written, the request is refused and never forwarded; once it is written, every
way forwarding can end writes an outcome. Actions of one bridge are serialised: WDA performs
gestures one at a time anyway, and only then do `app_before` and `app_after` describe this
action and not a neighbour's.

What it reads costs a real phone 40-500 ms a request, so it reads only what could have changed
(`custody.py` keeps what is known):

* after every action, one XML page source: the front app (its `bundleId`), a digest of the
  screen, and the tree the next tap is hit-tested against (none after terminating an app that
  is not in front: that changes nothing on screen). While the agent is `confined` (it cannot
  reach the phone but through this bridge, so nothing but a logged action changes it), and
  for every agent action on a real phone (which finishes a transition after answering), that
  read is put off (`custody.py`): the next client read of a whole XML source begun once the
  phone settled is it, and the outcome line is written then; otherwise the bridge's own read
  before the next action is, and the outcome is written before that action's intent. `settle`
  writes a pending outcome (one read) where the log must be whole: an attempt's end, an
  unconfined grant, the bridge's stop;
* before an action of the agent's, on a real phone, a wait for the rest of `settle_s` after the
  last answer (none on the simulated iPhone): a read begun sooner may show the screen the
  phone is leaving, and touches aimed and refused by it would be judged on the wrong screen
  (red team 63). Then nothing while the agent is `confined` and what the phone settled into
  after the last action is known; otherwise one XML source, compared with what the last action
  left (the chain of custody);
* for keys, the focused field from the last JSON source a client read since the last action, or
  from the last XML source when it holds one text input in all under the keyboard
  (`targets.input_with_focus`), or one JSON source; for a tap, the last tree known, and for a
  tap on the keyboard the field with focus too, read the same way (`field`: the phone may have
  focused it by itself, as Spotlight's, so no tap on it names it);
* for an action aimed at an element id, that element's attributes;
* for a touch at a point off the known screen's frame, WDA's window size (turned as the
  interface is), before it is refused for lying off the screen (`Aiming.off_screen`);
* with trajectory capture on (`after_action`), one screenshot after each agent action, taken
  after its outcome line and before the lock is let go (`trajectory.py`).

Any client read that passes through the bridge refreshes what is known, and is compared too.
So a confined agent that reads the screen before each action (most do) costs the phone no read
of the bridge's at all.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from bridge.answers import ERROR_TEXT_MAX, outcome_of, session_id_of
from bridge.audit_log import AuditWriter
from bridge.classified import Classified
from bridge.context import RunContext
from bridge.custody import Break, Custody
from bridge.observe import JSON_ROUTE, XML_ROUTE, Observation
from bridge.refusals import WARY_PHASES, Refusals
from bridge.shares import ShareSpent
from bridge.targets import KEY_TYPES, MASK, input_with_focus, mask_echoes, target_in
from bridge.upstream import ForwardError, Reply, Upstream
from phoneshell.errors import BridgeError, without_url
from phoneshell.records import AuditEvent, Target
from phoneshell.xcui import SPRINGBOARD

log = logging.getLogger("bridge")


class Recorder(Refusals):
    """The action pipeline of one bridge (one phone); what it refuses is `refusals.py`'s.

    Args:
        upstream: the phone's WDA.
        writer: the audit writer (shared by the bridges of a process).
        resolve_targets: find the element under taps (keys are always resolved, for masking).
        custody: what is known of the phone, and how strictly changes are judged.
    """

    def __init__(self, upstream: Upstream, writer: AuditWriter, resolve_targets: bool,
                 custody: Custody | None = None) -> None:
        self.upstream = upstream
        self.writer = writer
        self.resolve_targets = resolve_targets
        self.custody = custody or Custody()
        self.actions_logged = 0
        self.last_seq = 0
        self.outcomes_lost = 0
        """Actions that reached the phone but whose outcome line could not be written."""
        self.own_reads = 0
        """Requests the bridge itself sent to read the phone (its cost on a real phone)."""
        self._session_app: tuple[str, str] = ("", "")
        """(session id, bundle id) of the session created through this bridge: WDA keeps one
        session, and closing it terminates the app it was created with."""
        self._pending: tuple[AuditEvent, bool, str, float] | None = None
        """(intent, ok, error, when WDA answered) of the answered action whose after is not
        read yet."""
        self.after_action: Callable[[RunContext, AuditEvent, str], None] | None = None
        """Called after each answered action's outcome line, still holding the action lock, with
        the context, the intent and the app after (trajectory capture); it must not raise."""
        self._lock = threading.Lock()

    def exclusive(self) -> threading.Lock:
        """The action lock: hold it to read the phone between actions with no action racing
        the read (a trajectory's start frame)."""
        return self._lock

    @property
    def last_foreground(self) -> str:
        """The front app as the log last showed it ("" before any)."""
        return self.custody.known.app

    def observe(self, context: RunContext, seen: Observation, via: str,
                token: int | None = None) -> Break | None:
        """Note what a read showed; log a custody line when it shows a change no action explains.

        Args:
            via: the read, as "METHOD /route", for the log.
            token: from `custody.read_token()` when the read passed through (None: our own).
        """
        if self._pending is not None:
            # The first whole read since the last action is its after. A client's read takes
            # the lock (without waiting: an action holding it reads the after itself), so the
            # outcome line is written before any next intent; our own reads hold it already.
            if token is None:
                self._settle(seen, None)
            elif self._lock.acquire(blocking=False):
                try:
                    self._settle(seen, token)
                finally:
                    self._lock.release()
            return None
        found = self.custody.observe(seen, token)
        if found is not None:
            try:
                self.writer.write_custody(context, found, via)
            except ShareSpent:
                pass  # counted: the agent filled its share, and its attempt fails for that
            except BridgeError as exc:
                log.error("a custody break was seen but not logged: %s", exc)
        return found

    def _note_session(self, action: Classified, reply: Reply, ok: bool) -> None:
        """Remember which app the session WDA now has was created with."""
        if action.session == "open" and ok:
            bundle = action.params.get("bundle_id")
            self._session_app = (session_id_of(reply), bundle if isinstance(bundle, str) else "")
        elif action.session == "close" and ok and action.session_id == self._session_app[0]:
            self._session_app = ("", "")

    def perform(self, context: RunContext, action: Classified, forward: Callable[[], Reply],
                request: str = "", body: object = None, confined: bool = False,
                still_allowed: Callable[[], None] | None = None) -> Reply:
        """Check custody, log the intent, forward, read the phone, log the outcome.

        Args:
            request: the request as "METHOD PATH", to name it in errors.
            body: the request's decoded body, so what WDA echoes of it can be masked.
            confined: nothing but this bridge can reach the phone now, so what the last
                action left is still what the phone shows (no read before the action).
            still_allowed: raises `Refused` when its sender may no longer act, called once
                the action's turn comes (an agent's grant may end while it waits behind
                another action).

        Raises:
            Refused: its sender's access ended while it waited; nothing was forwarded.
            AuditWriteError: the intent could not be written; nothing was forwarded
                (`ShareSpent`: the agent has used up its share of the log).
            ForwardError: no answer from the phone (`UpstreamDown`), or forwarding failed; the
                outcome is logged, ok false.
        """
        with self._lock:
            wary = context.phase in WARY_PHASES
            self._own_turn(wait=wary)
            if still_allowed is not None:  # after the wait: a grant may have ended meanwhile
                still_allowed()
            if (not confined or not self.custody.known.app or self._pending is not None
                    or (wary and self.custody.pending)):
                # the last action's after, when pending, and this one's before
                self.observe(context, self.read_screen(), f"GET {XML_ROUTE}")
            action = self.placed(action, context)  # placed from an element: its point
            off = self.off_screen(action)
            if off:
                return self._refusal(context, action, None, self.custody.known.app, request, off)
            action = self._pressed(context, action)
            aimed = self.aim(context, action)
            known = self.custody.known
            refused = self._refuse_touches(context, action, aimed.target, known.app, request)
            if refused is not None:
                return refused
            params = self._session_params(action)
            secret = ""
            if aimed.secure and params.get("text"):
                secret, params["text"] = str(params["text"]), MASK
            field = self._keyed_field(context, action, aimed.target)
            known = self.custody.known
            intent = self.writer.write_intent(context, action.kind, params, known.app,
                                              aimed.target, known.screen, field=field)
            self.actions_logged += 1
            self.last_seq = intent.seq
            self.custody.start_action()
            try:
                reply = forward()
            except ForwardError as exc:
                self.custody.finish_action(Observation())
                self._finish(intent, Observation(), False, exc.message[:ERROR_TEXT_MAX])
                raise
            except Exception as exc:  # noqa: BLE001 - translated below, never swallowed
                # Whatever else went wrong, the request may have left: the intent must not
                # stay open, and the client must get an answer (the proxy's 502).
                self.custody.finish_action(Observation())
                error = f"forwarding {request or action.kind} to WDA at {self.upstream.shown} " \
                        f"failed: {type(exc).__name__}: {without_url(str(exc), self.upstream.url)}"
                self._finish(intent, Observation(), False, error[:ERROR_TEXT_MAX])
                raise ForwardError(error, hint="the outcome is logged with ok false; if it "
                                               "repeats, report it with the request",
                                   shown=f"forwarding {request or action.kind} failed "
                                         f"({type(exc).__name__})") from exc
            answered_t = time.time()
            ok, error = outcome_of(reply)
            self._note_session(action, reply, ok)
            error = mask_echoes(error, body, params, secret)
            if self._cannot_change(action, known):
                self.custody.finish_action(known, moved=False)
                self._finish(intent, known, ok, error)
            else:
                self.custody.finish_action(None)
                self._pending = (intent, ok, error, answered_t)
                agents = context.phase == "agent"  # its outcome: what the phone settled into
                if self.after_action is None and (confined or (agents and self.custody.settle_s)):
                    # The next whole read once the phone settled is the after: nothing but
                    # this bridge reaches the phone, or a read now would catch a real phone
                    # mid-transition (a trajectory frame, though, is taken now).
                    return reply
                # A harness step's after is read at once, its turn not begun again: never
                # what the phone settled into, so an agent's next action reads again.
                if agents:
                    self._own_turn()
                self._settle(self.read_screen(), None)
            if self.after_action is not None:  # still this action's turn: the screen it left
                self.after_action(context, intent, self.custody.known.app)
            return reply

    def _own_turn(self, wait: bool = True) -> None:
        """Begin the bridge's own turn (the caller holds the action lock): with `wait`, first
        wait out the rest of `settle_s` after the last action's answer (nothing on the simulated
        iPhone), cheaper on a real phone than reading it again and again, so that the read after
        shows what the action settled into; its reads count from now (`own_reads_begin`)."""
        while wait and (left := self.custody.settles_in()) > 0:
            time.sleep(left)
        self.custody.own_reads_begin()

    def _keyed_field(self, context: RunContext, action: Classified,
                     target: Target | None) -> Target | None:
        """For a tap on the keyboard (a key, or its Return), the text input with focus that it
        types into, from the tree known or one JSON source read now; None for any other action,
        or when no page says which field has focus."""
        if action.kind != "tap" or target is None or not (target.keyboard
                                                           or target.type in KEY_TYPES):
            return None
        if self.custody.known.page is None or not self.custody.known.focus_known:
            self.observe(context, self._read_focus(), "GET " + JSON_ROUTE)
        known = self.custody.known
        node = input_with_focus(known.tree, known.focus_known) if known.page is not None \
            else None
        return target_in(known.tree, node) if node is not None else None

    def _settle(self, seen: Observation, token: int | None) -> None:
        """Write the pending outcome with `seen` as its after, if custody takes it (the caller
        holds the action lock)."""
        pending = self._pending
        if pending is not None and self.custody.settle(seen, token):
            self._pending = None
            intent, ok, error, answered_t = pending
            self._finish(intent, seen, ok, error, answered_t)

    def settle(self, agents_only: bool = False) -> None:
        """Write the last action's outcome now, if its after is still pending (one read): where
        the log must be whole before anyone else acts or reads it. Never raises.

        Args:
            agents_only: only an agent's action is settled; a harness step's after may wait
                for the next whole read (an attempt's teardown: the next setup reads anyway).
        """
        with self._lock:
            pending = self._pending
            if pending is not None and not (agents_only and pending[0].phase != "agent"):
                # an agent's outcome is what the phone settled into
                self._own_turn(wait=pending[0].phase == "agent")
                self._settle(self.read_screen(), None)

    @staticmethod
    def _cannot_change(action: Classified, known: Observation) -> bool:
        """Whether the phone shows what it showed before, whatever the action did: terminating an
        app that is not in front changes neither the front app nor the screen (setup and
        teardown do it often, to start from a cold app), unless the home screen is in front:
        its tree holds a card for every running app (the app switcher's)."""
        bundle = action.params.get("bundle_id")
        return (action.kind == "terminate" and action.session == "none"
                and known.app not in ("", SPRINGBOARD)
                and known.page is not None and isinstance(bundle, str) and bundle != known.app)

    def _finish(self, intent: AuditEvent, after: Observation, ok: bool, error: str,
                answered_t: float | None = None) -> None:
        """Write the outcome (with when WDA answered, for an after read later); a failure here
        cannot undo the action, so it is reported only."""
        try:
            self.writer.write_outcome(intent, after.app, ok, error, after.screen, answered_t)
        except BridgeError as exc:
            self.outcomes_lost += 1
            log.error("action #%d reached the phone but its outcome was not logged: %s",
                      intent.seq, exc)
