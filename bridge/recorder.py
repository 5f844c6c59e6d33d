"""Log one action around its forwarding: foreground and target, intent, forward, outcome.

The order is the guarantee: the intent line is on disk before the request leaves for the phone,
so a crash can leave an intent without an outcome, never an action without an intent. If the
intent cannot be written, the request is refused and never forwarded. Actions of one bridge are
serialised: WDA performs gestures one at a time anyway, and only then do `app_before` and
`app_after` describe this action and not a neighbour's.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from bridge.actions import Classified
from bridge.audit_log import AuditWriter
from bridge.context import RunContext
from bridge.targets import MASK, any_secure, focused_node, is_secure, node_at, rect_of, to_target
from bridge.upstream import Reply, Upstream, UpstreamDown
from phoneshell.audit import AuditEvent, Target
from phoneshell.errors import BridgeError
from phoneshell.records import Scalar

log = logging.getLogger("bridge")

SOURCE_ROUTE = "/source?format=json"
FOREGROUND_ROUTE = "/wda/activeAppInfo"
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

    def _point(self, action: Classified) -> tuple[float, float] | None:
        """The screen point an action aims at: its (x, y), or its element's rect centre."""
        params = action.params
        x, y = params.get("x"), params.get("y")
        element = params.get("element")
        if isinstance(element, str):
            rect = rect_of(self.upstream.read(
                f"/session/{action.session_id}/element/{element}/rect"))
            if rect is None:
                return None
            if isinstance(x, (int, float)) and isinstance(y, (int, float)):
                return rect.x + x, rect.y + y  # element routes take x, y relative to it
            return rect.centre
        if isinstance(x, (int, float)) and isinstance(y, (int, float)):
            return float(x), float(y)
        return None

    def aim(self, action: Classified) -> Aimed:
        """Resolve the target of an action (always for typing, on request for taps)."""
        typing = action.kind == "type"
        if action.aim == "none" or not (typing or self.resolve_targets):
            return Aimed(None, False)
        try:
            if action.aim == "focus":
                tree = self.upstream.read(SOURCE_ROUTE)
                node: Mapping[str, object] | None = focused_node(tree)
                if node is None:  # focus unknown: a password field on screen may be taking it
                    return Aimed(None, any_secure(tree))
            else:
                point = self._point(action)
                node = None if point is None else node_at(self.upstream.read(SOURCE_ROUTE),
                                                          *point)
        except BridgeError as exc:
            # Unreadable screen: nothing proves the field is not a password field.
            log.debug("no target for %s: %s", action.kind, exc)
            return Aimed(None, typing)
        return Aimed(None if node is None else to_target(node), is_secure(node))

    def perform(self, context: RunContext, action: Classified,
                forward: Callable[[], Reply]) -> Reply:
        """Log the intent, forward, log the outcome; return the phone's reply.

        Raises:
            AuditWriteError: the intent could not be written; nothing was forwarded.
            UpstreamDown: the phone did not answer (the outcome is logged, ok false).
        """
        with self._lock:
            app_before = self.foreground()
            aimed = self.aim(action)
            params: dict[str, Scalar] = dict(action.params)
            if aimed.secure and params.get("text"):
                params["text"] = MASK
            intent = self.writer.write_intent(context, action.kind, params, app_before,
                                              aimed.target)
            self.actions_logged += 1
            self.last_seq = intent.seq
            try:
                reply = forward()
            except UpstreamDown as exc:
                self._finish(intent, "", False, exc.message)
                raise
            ok, error = outcome_of(reply)
            self._finish(intent, self.foreground(), ok, error)
            return reply

    def _finish(self, intent: AuditEvent, app_after: str, ok: bool, error: str) -> None:
        """Write the outcome; a failure here cannot undo the action, so it is reported only."""
        try:
            self.writer.write_outcome(intent, app_after, ok, error)
        except BridgeError as exc:
            self.outcomes_lost += 1
            log.error("action #%d reached the phone but its outcome was not logged: %s",
                      intent.seq, exc)
