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
  reach the phone but through this bridge, so nothing but a logged action changes it) that read
  is put off (`custody.py`): the next client read of a whole XML source is it, and the outcome
  line is written then; otherwise the bridge's own read before the next action is, and the
  outcome is written before that action's intent. `settle` writes a pending outcome (one read)
  where the log must be whole: an attempt's end, an unconfined grant, the bridge's stop;
* before an action, nothing while the agent is `confined` and the last after is known;
  otherwise one XML source, compared with what the last action left (the chain of custody);
* for keys, the focused field from the last JSON source a client read since the last action, or
  from the last XML source when it holds one text input in all under the keyboard
  (`targets.input_with_focus`), or one JSON source; for a tap, the last tree known;
* for an action aimed at an element id, that element's attributes;
* with trajectory capture on (`after_action`), one screenshot after each agent action, taken
  after its outcome line and before the lock is let go (`trajectory.py`).

Any client read that passes through the bridge refreshes what is known, and is compared too.
So a confined agent that reads the screen before each action (most do) costs the phone no read
of the bridge's at all.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from bridge.actions import Classified
from bridge.audit_log import AuditWriter
from bridge.context import RunContext
from bridge.custody import Break, Custody
from bridge.http_server import wda_error
from bridge.observe import JSON_ROUTE, XML_ROUTE, Observation, from_json_tree, from_xml
from bridge.targets import (
    MASK,
    any_secure,
    input_with_focus,
    is_key,
    is_secure,
    keys_are_secret,
    mask_echoes,
    node_at,
    offers_choice,
    page_title,
    rect_of,
    target_in,
    to_target,
)
from bridge.upstream import ForwardError, Reply, Upstream
from phoneshell.errors import BridgeError
from phoneshell.records import AuditEvent, Scalar, Target
from phoneshell.xcui import SPRINGBOARD, removes_app, short_type, takes_rig_down

log = logging.getLogger("bridge")

ELEMENT_ATTRIBUTES = ("type", "label", "name", "value")
"""What an element-aimed action reads of its element (`GET .../element/:id/attribute/NAME`)."""
ERROR_TEXT_MAX = 500


@dataclass(frozen=True)
class Aimed:
    """What the action was aimed at, once resolved."""

    target: Target | None
    secure: bool
    """The text goes into a secure field, or the field could not be read (so it might)."""


def outcome_of(reply: Reply) -> tuple[bool, str]:
    """Whether WDA accepted the request, and its error text when it did not.

    WDA reports errors in `value.error` (with a 4xx/5xx status); a legacy non-zero `status`
    is a failure too, although facebook-wda would let it pass.
    """
    value = reply.json_value()
    if isinstance(value, dict) and value.get("error"):
        text = f"{value.get('error')}: {value.get('message', '')}".strip(": ")
        return False, text[:ERROR_TEXT_MAX]
    if reply.status >= 400:
        return False, f"HTTP {reply.status} {reply.reason}: {reply.body[:200]!r}"
    return True, ""


def session_id_of(reply: Reply) -> str:
    """The id of the session a `POST /session` reply created ("" when it names none)."""
    value = reply.json_value()
    found = value.get("sessionId") if isinstance(value, dict) else None
    if not isinstance(found, str) or not found:
        try:
            envelope = json.loads(reply.body)
        except ValueError:
            return ""
        found = envelope.get("sessionId") if isinstance(envelope, dict) else None
    return found if isinstance(found, str) else ""


def _focus_of(known: Observation) -> tuple[bool, Mapping[str, object] | None]:
    """Whether the page known says where typing goes, and the input it goes to: a JSON source
    flags the focus (told, even when no field has it); an XML one tells it only when it holds
    one text input in all and the keyboard shows (`targets.input_with_focus`)."""
    if known.page is None:
        return False, None
    node = input_with_focus(known.tree, known.focus_known)
    return known.focus_known or node is not None, node


class Recorder:
    """The action pipeline of one bridge (one phone).

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
        self._pending: tuple[AuditEvent, bool, str] | None = None
        """(intent, ok, error) of the answered action whose after is not read yet."""
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

    def own_read(self, route: str) -> object:
        """The bridge's own read of a WDA route, counted in `own_reads`.

        Raises:
            BridgeError: no answer, or WDA's error.
        """
        self.own_reads += 1
        return self.upstream.read(route)

    def read_screen(self) -> Observation:
        """One XML page source: the front app, the screen's digest and its tree."""
        try:
            value = self.own_read(XML_ROUTE)
        except BridgeError as exc:
            log.debug("no source: %s", exc)
            return Observation()
        return from_xml(value) if isinstance(value, str) else Observation()

    def _read_focus(self) -> Observation:
        """One JSON page source (the only one that says which field has focus)."""
        try:
            return from_json_tree(self.own_read(JSON_ROUTE))
        except BridgeError as exc:
            log.debug("no JSON source: %s", exc)
            return Observation()

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
            except BridgeError as exc:
                log.error("a custody break was seen but not logged: %s", exc)
        return found

    @staticmethod
    def _point(action: Classified) -> tuple[float, float] | None:
        """The screen point a point-aimed action names (where a drag starts, for "from")."""
        names = ("from_x", "from_y") if action.aim == "from" else ("x", "y")
        x, y = (action.params.get(name) for name in names)
        if isinstance(x, (int, float)) and isinstance(y, (int, float)):
            return float(x), float(y)
        return None

    def aim(self, context: RunContext, action: Classified) -> Aimed:
        """Resolve the target of an action (always for typing, on request for taps), from the
        tree known since the last action, or one read now."""
        typing = action.kind == "type"
        if action.aim == "none" or not (typing or self.resolve_targets):
            return Aimed(None, False)
        if action.aim == "element":
            return self._aim_element(action, typing)
        pointed = action.aim in ("point", "from")
        point = self._point(action) if pointed else None
        if pointed and point is None:
            return Aimed(None, False)
        known = self.custody.known
        told, node = _focus_of(known) if point is None else (known.page is not None, None)
        if not told:
            seen = self._read_focus() if point is None else self.read_screen()
            self.observe(context, seen, "GET " + (JSON_ROUTE if point is None else XML_ROUTE))
            known = self.custody.known
            told, node = _focus_of(known) if point is None else (known.page is not None, None)
        tree = known.tree
        if tree is None or not told:
            # Unreadable screen: nothing proves the field is not a password field.
            return Aimed(None, typing)
        if point is None:  # aimed at the focus
            if node is None:  # focus unknown: a password field on screen may be taking it
                return Aimed(None, any_secure(tree))
        else:
            node = node_at(tree, *point)
            if node is not None and is_key(node) and not known.focus_known:
                # A key types its label: whether that is secret depends on the focus, which
                # only the JSON source tells.
                seen = self._read_focus()
                self.observe(context, seen, f"GET {JSON_ROUTE}")
                tree = seen.tree
                node = node_at(tree, *point) if tree is not None else None
                if tree is None or node is None:
                    return Aimed(None, False)
        if node is None:
            return Aimed(None, False)
        return Aimed(target_in(tree, node), is_secure(node))

    def _aim_element(self, action: Classified, typing: bool) -> Aimed:
        """The element an action names by id, from its own attributes.

        Never hit-test its rect: a field under the keyboard would be taken for the key drawn
        over it, and text typed into a password field logged as typed at that key.
        """
        scope = f"/session/{action.session_id}" if action.session_id else ""
        base = f"{scope}/element/{action.params.get('element')}/attribute/"
        try:
            attributes = {name: self.own_read(base + name) for name in ELEMENT_ATTRIBUTES}
            if not isinstance(attributes["type"], str) or not attributes["type"]:
                raise BridgeError(f"WDA gave no type for {base}type")
        except BridgeError as exc:
            # Unreadable element: nothing proves it is not a password field.
            log.debug("no target for %s: %s", action.kind, exc)
            return Aimed(None, typing)
        secret = False
        known = self.custody.known
        tree = known.tree
        if is_key(attributes):  # its label is the character it types: mask it if that is secret
            tree = known.tree if known.focus_known else self._read_focus().tree
            secret = tree is None or keys_are_secret(tree)
        elif short_type(str(attributes["type"])) == "Switch" and not attributes["label"]:
            row = self._row_at(base, "Switch", tree)
            if row is not None:
                return row
        elif short_type(str(attributes["type"])) == "Cell":
            # Whether it is an option (the screen shows a checkmark) is read off the screen,
            # as for a tap at its point: a cell tapped by id is set back alike.
            tree = tree if tree is not None else self.read_screen().tree
            row = self._row_at(base, "Cell", tree) if tree is not None and offers_choice(tree) \
                else None
            if row is not None:
                return row
        page = page_title(tree) if tree is not None else ""
        return Aimed(to_target(attributes, secret, page), is_secure(attributes))

    def _row_at(self, base: str, kind: str, tree: object | None) -> Aimed | None:
        """An element named by id, logged as the row of type `kind` at its centre, as a tap at
        that point is (`node_at`): a switch's knob as the labelled switch around it (its label
        says which setting it flipped), a cell of a list of options with the option chosen
        before. One more read (its rect), only for such elements, and the screen when `tree`
        (the screen last read) is None; None when the row cannot be found."""
        try:
            rect = rect_of(self.own_read(base.removesuffix("/attribute/") + "/rect"))
        except BridgeError as exc:
            log.debug("no rect for a %s: %s", kind, exc)
            return None
        tree = tree if tree is not None else self.read_screen().tree
        node = node_at(tree, *rect.centre) if rect is not None and tree is not None else None
        if node is None or short_type(str(node.get("type", ""))) != kind \
                or not node.get("label"):
            return None
        return Aimed(target_in(tree, node), False)

    def _session_params(self, action: Classified) -> dict[str, Scalar]:
        """The action's params, naming the app when it closes the session this bridge opened."""
        params: dict[str, Scalar] = dict(action.params)
        sid, bundle = self._session_app
        if action.session == "close" and bundle and action.session_id == sid:
            params = {"bundle_id": bundle, **params}
        return params

    def _note_session(self, action: Classified, reply: Reply, ok: bool) -> None:
        """Remember which app the session WDA now has was created with."""
        if action.session == "open" and ok:
            bundle = action.params.get("bundle_id")
            self._session_app = (session_id_of(reply), bundle if isinstance(bundle, str) else "")
        elif action.session == "close" and ok and action.session_id == self._session_app[0]:
            self._session_app = ("", "")

    def perform(self, context: RunContext, action: Classified, forward: Callable[[], Reply],
                request: str = "", body: object = None, confined: bool = False) -> Reply:
        """Check custody, log the intent, forward, read the phone, log the outcome.

        Args:
            request: the request as "METHOD PATH", to name it in errors.
            body: the request's decoded body, so what WDA echoes of it can be masked.
            confined: nothing but this bridge can reach the phone now, so what the last
                action left is still what the phone shows (no read before the action).

        Raises:
            AuditWriteError: the intent could not be written; nothing was forwarded.
            ForwardError: no answer from the phone (`UpstreamDown`), or forwarding failed; the
                outcome is logged, ok false.
        """
        with self._lock:
            if not confined or not self.custody.known.app or self._pending is not None:
                # the last action's after, when pending, and this one's before
                self.observe(context, self.read_screen(), f"GET {XML_ROUTE}")
            aimed = self.aim(context, action)
            known = self.custody.known
            refused = self._keep_rig(context, action, aimed.target, known.app, request)
            if refused is not None:
                return refused
            params = self._session_params(action)
            secret = ""
            if aimed.secure and params.get("text"):
                secret, params["text"] = str(params["text"]), MASK
            intent = self.writer.write_intent(context, action.kind, params, known.app,
                                              aimed.target, known.screen)
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
                error = f"forwarding {request or action.kind} to WDA at {self.upstream.url} " \
                        f"failed: {type(exc).__name__}: {exc}"
                self._finish(intent, Observation(), False, error[:ERROR_TEXT_MAX])
                raise ForwardError(error, hint="the outcome is logged with ok false; if it "
                                               "repeats, report it with the request") from exc
            ok, error = outcome_of(reply)
            self._note_session(action, reply, ok)
            error = mask_echoes(error, body, params, secret)
            if confined and self.after_action is None and not self._cannot_change(action,
                                                                                   known):
                # Nothing but this bridge reaches the phone: the next whole read is the after
                # (a trajectory frame, though, is taken now, after the outcome line).
                self.custody.finish_action(None)
                self._pending = (intent, ok, error)
                return reply
            after = known if self._cannot_change(action, known) else self.read_screen()
            self.custody.finish_action(after)
            self._finish(intent, after, ok, error)
            if self.after_action is not None:  # still this action's turn: the screen it left
                self.after_action(context, intent, after.app)
            return reply

    def _keep_rig(self, context: RunContext, action: Classified, target: Target | None,
                  app: str, request: str) -> Reply | None:
        """Refuse an action that would take the rig away (`xcui.takes_rig_down`: powering the
        phone off, erasing or restarting it, turning off UI Automation, stopping WDA) or remove
        an app (`xcui.removes_app`: deleting or offloading it, taking it off the Home Screen),
        logged as `refused` with its target; None for any other action.

        Raises:
            AuditWriteError: the refusal could not be logged (nothing was forwarded).
        """
        seen = target or Target(type="")
        why = takes_rig_down(action.kind, app, seen.type, seen.label, seen.value, seen.page,
                             seen.chosen, action.params)
        removal = "" if why else removes_app(action.kind, app, seen.label, seen.name,
                                             action.params)
        if not why and not removal:
            return None
        reason = (f"{why}: no task needs it, and a real phone would end the run" if why else
                  f"{removal}: no task needs it, nothing brings an app back, and the later "
                  "tasks on it could not be played")
        self.writer.write_refusal(context, action.kind, self._session_params(action), reason,
                                  target=target, app_before=app)
        on = f" on {target.label!r}" if target is not None and target.label else ""
        return wda_error(403, "unsupported operation",
                         f"phoneshell bridge refused {request or action.kind}{on}: {reason}")

    def _settle(self, seen: Observation, token: int | None) -> None:
        """Write the pending outcome with `seen` as its after, if custody takes it (the caller
        holds the action lock)."""
        pending = self._pending
        if pending is not None and self.custody.settle(seen, token):
            self._pending = None
            intent, ok, error = pending
            self._finish(intent, seen, ok, error)

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

    def _finish(self, intent: AuditEvent, after: Observation, ok: bool, error: str) -> None:
        """Write the outcome; a failure here cannot undo the action, so it is reported only."""
        try:
            self.writer.write_outcome(intent, after.app, ok, error, after.screen)
        except BridgeError as exc:
            self.outcomes_lost += 1
            log.error("action #%d reached the phone but its outcome was not logged: %s",
                      intent.seq, exc)
