"""One WDA URL's wire, where WDA's errors are translated: a request through facebook-wda's
transport, the session actions run in (found or made, a stale one re-resolved once), and
messages that name the phone by `where`, never by its URL.

Creating a WDA session kills the one before it, and WDA then terminates that session's app
under test when it was created with a bundle id, so a session is made only for an action, and
it adopts the app already in front without relaunching it; or on purpose (`renew`), for none,
where the runner replaces a session another client opened (`runner.wda_state`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import wda
from wda.usbmux.exceptions import HTTPError as WDAConnectionError

from phoneshell.errors import (
    NOTHING_LISTENS,
    DeviceError,
    DeviceUnreachable,
    DeviceUnusable,
    nothing_listens,
    without_url,
)
from phoneshell.xcui import SPRINGBOARD

HICCUP_ERRORS = frozenset({"unknown error", "unable to capture screen"})
"""WDA's error codes for a snapshot or a screenshot XCTest could not take (a snapshot that timed
out, a screen mid-animation, a phone short of memory): the same read a moment later may work."""


BRIDGE_REFUSAL = ("unsupported operation", "phoneshell bridge refused ")
"""The error code and the message's start of the bridge's own refusal of a request for what it
touches (`bridge.refusals`: off the screen, a control the rig keeps, several gestures in one):
answered by the bridge, never forwarded. WDA's own errors pass through it as WDA said them."""


def bridge_refused(exc: DeviceError) -> bool:
    """Whether `exc` (a refusal `WdaLink.request` translated) is the bridge's own refusal of
    the request (`BRIDGE_REFUSAL`), not an error of WDA's."""
    value = getattr(exc.__cause__, "value", None)
    return (isinstance(value, dict) and value.get("error") == BRIDGE_REFUSAL[0]
            and str(value.get("message", "")).startswith(BRIDGE_REFUSAL[1]))


class WdaHiccup(DeviceError):
    """WDA answered a request with one of `HICCUP_ERRORS`: asked again, it may work (reads
    are, for a while: `Phone._get`)."""


class _StaleSession(Exception):
    """WDA said `invalid session id`: the session was replaced (another client) or lost."""


class WdaLink:
    """Requests to one WDA URL (see the module docstring).

    Args:
        url: the WDA (or bridge) URL, without a trailing slash.
        where: how messages name the phone.
        timeout_s: per-request timeout.
        front: the bundle id of the app in front (a new session adopts it).
    """

    def __init__(self, url: str, where: str, timeout_s: float,
                 front: Callable[[], str]) -> None:
        self.url, self.where, self.timeout_s = url, where, timeout_s
        self._front = front
        self._sid: str | None = None
        self.made = False
        """The session acted in is one this link created (at WDA's default settings then),
        not one it found; what another client did in it since is not known here."""

    def request(self, method: str, path: str, data: dict[str, Any] | None = None,
                what: str = "", timeout_s: float | None = None) -> Any:
        """One request; returns the reply envelope. Every library error is translated here,
        and no URL goes into a message but as `where` (facebook-wda's own words quote it)."""
        what = what or f"{method} {path}"
        hint = "is WDA running? `phoneshell doctor` checks the chain"
        try:
            return wda.httpdo(self.url + path, method, data, timeout_s or self.timeout_s)
        except wda.WDAInvalidSessionIdError as exc:
            raise _StaleSession(what) from exc
        except wda.WDABadGateway as exc:  # a proxy (the bridge) could not reach the phone
            self._sid = None
            told, gone = _gateway_message(exc)
            raise DeviceUnreachable(self.said(told) or f"no answer from the phone behind "
                                    f"{self.where} to {what}", hint=hint, refused=gone) from exc
        except WDAConnectionError as exc:
            self._sid = None
            cause = exc.args[0] if exc.args and isinstance(exc.args[0], BaseException) else exc
            waited = timeout_s or self.timeout_s
            why = (f"none within {waited:.0f} s" if isinstance(cause, TimeoutError) else
                   self.said(str(exc)))
            raise DeviceUnreachable(f"no answer from WDA at {self.where} to {what} ({why})",
                                    hint=hint, refused=nothing_listens(cause)) from exc
        except wda.WDAError as exc:
            value = getattr(exc, "value", None)
            code = value.get("error") if isinstance(value, dict) else None
            kind = WdaHiccup if code in HICCUP_ERRORS else DeviceError
            raise kind(f"WDA at {self.where} refused {what}: {self.said(_wda_message(exc))}",
                       hint="`phoneshell doctor` checks the chain") from exc
        except OSError as exc:  # a socket error facebook-wda did not wrap
            self._sid = None
            raise DeviceUnreachable(f"no answer from WDA at {self.where} to {what} "
                                    f"({self.said(str(exc))})", hint=hint,
                                    refused=nothing_listens(exc)) from exc

    def said(self, text: str) -> str:
        """Another's words (facebook-wda's, the bridge's) with this phone's URL as `where`."""
        return without_url(text, self.url)

    def get(self, path: str, timeout_s: float | None = None) -> Any:
        """A session-free GET: its value."""
        try:
            return self.request("GET", path, timeout_s=timeout_s).value
        except _StaleSession as exc:  # session-free routes never carry an id
            raise DeviceError(f"WDA at {self.where} answered {exc} with invalid session "
                              "id") from exc

    def post(self, path: str, data: dict[str, Any] | None = None) -> Any:
        """A session-free POST: the reply envelope."""
        try:
            return self.request("POST", path, data)
        except _StaleSession as exc:
            raise DeviceError(f"WDA at {self.where} answered {exc} with invalid session "
                              "id") from exc

    def in_session(self, path: str, data: dict[str, Any] | None = None,
                   method: str = "POST") -> Any:
        """`method` (POST) under the current session, its value; a stale session is
        re-resolved once."""
        for _ in range(2):
            sid = self._session()
            try:
                return self.request(method, f"/session/{sid}{path}", data,
                                    what=f"{method} /session/*{path}").value
            except _StaleSession:
                self._sid = None
        raise DeviceUnusable(f"WDA at {self.where} rejected every session for {method} "
                             f"/session/*{path}",
                             hint="restart WDA; `phoneshell doctor` checks the chain")

    def _session(self) -> str:
        """The session to act in: WDA's current one, or a new one that keeps the app in front."""
        if self._sid:
            return self._sid
        sid = self._status_session()
        if sid:
            self._sid, self.made = sid, False
            return sid
        front = self._front()
        match: dict[str, Any] = {"shouldWaitForQuiescence": False}
        if front and front != SPRINGBOARD:
            # Adopt the app already in front without relaunching it (forceAppLaunch off),
            # and never terminate it when an agent's session replaces this one.
            match.update(bundleId=front, forceAppLaunch=False, shouldTerminateApp=False)
        return self._create(match)

    def renew(self) -> str:
        """Replace WDA's session with a new one for no app, and act in it: WDA starts every
        new session at its default settings, and no app is terminated when another client's
        session replaces this one. Ending the session before terminates that session's app
        when it was created with one and `shouldTerminateApp` (WDA's default), so call it
        where the apps are stopped anyway."""
        self._sid = None
        return self._create({"shouldWaitForQuiescence": False, "shouldTerminateApp": False})

    def found_settings(self) -> dict[str, Any]:
        """WDA's settings in the session acted in, when this link found that session rather
        than created it; {} when it created it (WDA's defaults: not asked), or when WDA has
        none (a read never creates one, and the next starts at the defaults)."""
        if not self._sid:
            sid = self._status_session()
            if not sid:
                return {}
            self._sid, self.made = sid, False
        if self.made:
            return {}
        value = self.in_session("/appium/settings", method="GET")
        return value if isinstance(value, dict) else {}

    def _create(self, match: dict[str, Any]) -> str:
        reply = self.post("/session", {"capabilities": {"alwaysMatch": match}})
        value = reply.value if isinstance(reply.value, dict) else {}
        sid = str(reply.sessionId or value.get("sessionId") or "")
        if not sid:
            raise DeviceError(f"WDA at {self.where} created no session")
        self._sid, self.made = sid, True
        return sid

    def _status_session(self) -> str:
        """The session id /status reports ("" when none)."""
        try:
            return str(self.request("GET", "/status").sessionId or "")
        except _StaleSession as exc:
            raise DeviceError(f"WDA at {self.where} answered /status with invalid session "
                              "id") from exc


def _gateway_message(exc: Exception) -> tuple[str, bool]:
    """The message inside a 502 reply's WDA-shaped body (without the bridge's name before it),
    or the body itself; and whether the bridge said nothing listens for WDA there."""
    body = exc.args[1] if len(exc.args) > 1 else ""
    try:
        value = json.loads(str(body)).get("value", {})
        told = str(value.get("message") or body)
        return told.removeprefix("phoneshell bridge: "), value.get(NOTHING_LISTENS) is True
    except (ValueError, AttributeError):
        return str(body)[:200], False


def _wda_message(exc: Exception) -> str:
    value = getattr(exc, "value", None)
    if isinstance(value, dict):
        return f"{value.get('error', 'error')}: {value.get('message', '')}".strip(": ")
    return str(exc)
