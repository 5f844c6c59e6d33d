"""Log one action around its forwarding: foreground and target, intent, forward, outcome.

The order is the guarantee: the intent line is on disk before the request leaves for the phone,
so a crash can leave an intent without an outcome, never an action without an intent. If the
intent cannot be written, the request is refused and never forwarded; once it is written, every
way forwarding can end writes an outcome. Actions of one bridge are serialised: WDA performs
gestures one at a time anyway, and only then do `app_before` and `app_after` describe this
action and not a neighbour's.
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
from bridge.targets import (
    MASK,
    any_secure,
    focused_node,
    is_key,
    is_secure,
    keys_are_secret,
    node_at,
    target_in,
    to_target,
)
from bridge.upstream import ForwardError, Reply, Upstream
from phoneshell.errors import BridgeError
from phoneshell.records import AuditEvent, Scalar, Target

log = logging.getLogger("bridge")

SOURCE_ROUTE = "/source?format=json"
FOREGROUND_ROUTE = "/wda/activeAppInfo"
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


class Recorder:
    """The action pipeline of one bridge (one phone).

    Args:
        upstream: the phone's WDA.
        writer: the audit writer (shared by the bridges of a process).
        resolve_targets: find the element under taps (keys are always resolved, for masking).
    """

    def __init__(self, upstream: Upstream, writer: AuditWriter, resolve_targets: bool) -> None:
        self.upstream = upstream
        self.writer = writer
        self.resolve_targets = resolve_targets
        self.last_foreground = ""
        """The foreground last read around an action (never from reads passed through: a
        capture made through the bridge must not hide an app change made outside it)."""
        self.actions_logged = 0
        self.last_seq = 0
        self.outcomes_lost = 0
        """Actions that reached the phone but whose outcome line could not be written."""
        self._session_app: tuple[str, str] = ("", "")
        """(session id, bundle id) of the session created through this bridge: WDA keeps one
        session, and closing it terminates the app it was created with."""
        self.after_action: Callable[[RunContext, AuditEvent, str], None] | None = None
        """Called after each answered action's outcome, with its intent and app after
        (trajectory capture); it must not raise."""
        self._lock = threading.Lock()

    def foreground(self) -> str:
        """The front app's bundle id ("" when WDA cannot say); remembered as the last known."""
        try:
            value = self.upstream.read(FOREGROUND_ROUTE)
        except BridgeError as exc:
            log.debug("no foreground: %s", exc)
            return ""
        bundle = value.get("bundleId") if isinstance(value, dict) else None
        if not isinstance(bundle, str):
            return ""
        self.last_foreground = bundle
        return bundle

    @staticmethod
    def _point(action: Classified) -> tuple[float, float] | None:
        """The screen point a point-aimed action names."""
        x, y = action.params.get("x"), action.params.get("y")
        if isinstance(x, (int, float)) and isinstance(y, (int, float)):
            return float(x), float(y)
        return None

    def aim(self, action: Classified) -> Aimed:
        """Resolve the target of an action (always for typing, on request for taps)."""
        typing = action.kind == "type"
        if action.aim == "none" or not (typing or self.resolve_targets):
            return Aimed(None, False)
        if action.aim == "element":
            return self._aim_element(action, typing)
        point = self._point(action) if action.aim == "point" else None
        if action.aim == "point" and point is None:
            return Aimed(None, False)
        try:
            tree = self.upstream.read(SOURCE_ROUTE)
        except BridgeError as exc:
            # Unreadable screen: nothing proves the field is not a password field.
            log.debug("no target for %s: %s", action.kind, exc)
            return Aimed(None, typing)
        if point is None:  # aimed at the focus
            node: Mapping[str, object] | None = focused_node(tree)
            if node is None:  # focus unknown: a password field on screen may be taking it
                return Aimed(None, any_secure(tree))
        else:
            node = node_at(tree, *point)
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
            attributes = {name: self.upstream.read(base + name) for name in ELEMENT_ATTRIBUTES}
            if not isinstance(attributes["type"], str) or not attributes["type"]:
                raise BridgeError(f"WDA gave no type for {base}type")
        except BridgeError as exc:
            # Unreadable element: nothing proves it is not a password field.
            log.debug("no target for %s: %s", action.kind, exc)
            return Aimed(None, typing)
        secret = False
        if is_key(attributes):  # its label is the character it types: mask it if that is secret
            try:
                secret = keys_are_secret(self.upstream.read(SOURCE_ROUTE))
            except BridgeError as exc:
                log.debug("no focus for a key tap: %s", exc)
                secret = True
        return Aimed(to_target(attributes, secret), is_secure(attributes))

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
                request: str = "") -> Reply:
        """Log the intent, forward, log the outcome; return the phone's reply.

        Args:
            request: the request as "METHOD PATH", to name it in errors.

        Raises:
            AuditWriteError: the intent could not be written; nothing was forwarded.
            ForwardError: no answer from the phone (`UpstreamDown`), or forwarding failed; the
                outcome is logged, ok false.
        """
        with self._lock:
            app_before = self.foreground()
            aimed = self.aim(action)
            params = self._session_params(action)
            if aimed.secure and params.get("text"):
                params["text"] = MASK
            intent = self.writer.write_intent(context, action.kind, params, app_before,
                                              aimed.target)
            self.actions_logged += 1
            self.last_seq = intent.seq
            try:
                reply = forward()
            except ForwardError as exc:
                self._finish(intent, "", False, exc.message[:ERROR_TEXT_MAX])
                raise
            except Exception as exc:  # noqa: BLE001 - translated below, never swallowed
                # Whatever else went wrong, the request may have left: the intent must not
                # stay open, and the client must get an answer (the proxy's 502).
                error = f"forwarding {request or action.kind} to WDA at {self.upstream.url} " \
                        f"failed: {type(exc).__name__}: {exc}"
                self._finish(intent, "", False, error[:ERROR_TEXT_MAX])
                raise ForwardError(error, hint="the outcome is logged with ok false; if it "
                                               "repeats, report it with the request") from exc
            ok, error = outcome_of(reply)
            self._note_session(action, reply, ok)
            app_after = self.foreground()
            self._finish(intent, app_after, ok, error)
            if self.after_action is not None:  # still in this action's turn: its screen
                self.after_action(context, intent, app_after)
            return reply

    def _finish(self, intent: AuditEvent, app_after: str, ok: bool, error: str) -> None:
        """Write the outcome; a failure here cannot undo the action, so it is reported only."""
        try:
            self.writer.write_outcome(intent, app_after, ok, error)
        except BridgeError as exc:
            self.outcomes_lost += 1
            log.error("action #%d reached the phone but its outcome was not logged: %s",
                      intent.seq, exc)
