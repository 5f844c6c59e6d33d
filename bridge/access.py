"""Who may use a bridge: its own token (the harness), per-attempt grants (the agent), nobody else.

A token or a grant travels in the URL as the first path segments, `/t/SECRET/...` (so any WDA
client works with the base URL as it is), or in the `X-Phoneshell-Token` header. The runner
grants the agent of each attempt its own secret and revokes it when the attempt ends: a program
the agent left behind, or another process on the machine, has nothing that still works. A
bridge with neither a token nor a grant is open (the standalone `phoneshell bridge` on loopback,
for a person driving it). Secrets are compared in constant time.
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
import threading
from dataclasses import dataclass
from typing import Literal

from bridge.gate import Refused
from phoneshell.errors import BridgeError

TOKEN_PATH = "/t/"
TOKEN_HEADER = "X-Phoneshell-Token"
Actor = Literal["open", "harness", "agent", "revoked"]
"""Who sent a request: anyone (an open bridge), the token's holder, the agent of the current
grant, or an agent whose grant was revoked (refused, and logged as such)."""
REVOKED_KEPT = 64
"""Revoked secrets remembered, so a request with one is logged as a late agent's."""
ACCESS_ENDED = "the agent's access ended with its attempt"
"""Why a request of an agent whose grant ended is refused (however late it came)."""


@dataclass(frozen=True)
class Admitted:
    """A request's sender, and its path with the secret taken off."""

    actor: Actor
    path: str
    grant: object = None
    """What the grant was made for (`grant(for_=...)`), for an agent or a revoked one."""
    serial: int = 0
    """Which grant admitted an agent's request (`Access.holds` asks whether it still stands), or
    made a revoked one's secret."""


def _same(given: str, secret: str) -> bool:
    return hmac.compare_digest(given.encode(), secret.encode())


class Access:
    """The secrets a bridge accepts.

    Args:
        token: the bridge's own token (None: open until a grant is made).
    """

    def __init__(self, token: str | None = None) -> None:
        self.token = token or None
        self._grant: tuple[str, object] | None = None
        self._revoked: list[tuple[str, object, int]] = []
        """(secret, what it was for, serial) of the grants revoked, the last `REVOKED_KEPT`."""
        self._serial = 0
        """Counts the grants made: the current one's number."""
        self._why: dict[int, str] = {}
        """Grants ended before their attempt did (`end`), by serial: why."""
        self._lock = threading.Lock()

    @property
    def granted(self) -> bool:
        """Whether an agent holds a grant now."""
        return self._grant is not None

    def grant(self, for_: object = None) -> str:
        """A new secret for the agent of one attempt (any earlier grant is revoked).

        Args:
            for_: what the grant is for (the attempt), given back with every request under it.

        Raises:
            BridgeError: the bridge has no token of its own, so it would be open to anyone.
        """
        if self.token is None:
            raise BridgeError("a bridge that grants agents access needs a token of its own",
                              hint="start it with token=...")
        with self._lock:
            self._revoke_locked()
            secret = secrets.token_urlsafe(24)
            self._grant = (secret, for_)
            self._serial += 1
            return secret

    def revoke(self) -> None:
        """End the agent's grant: its secret stops working now."""
        with self._lock:
            self._revoke_locked()

    def end(self, admitted: Admitted, why: str) -> None:
        """End the grant that admitted a request before its attempt ends, saying why: every
        later request under it is refused with `why` (nothing, when it has ended already)."""
        with self._lock:
            if admitted.actor == "agent" and self._grant is not None \
                    and self._serial == admitted.serial:
                self._why = {serial: text for serial, text in self._why.items()
                             if serial > self._serial - REVOKED_KEPT}
                self._why[self._serial] = why
                self._revoke_locked()

    def cut_off(self) -> str:
        """Why the latest grant was ended before its attempt was (`end`); "" while it stands,
        or when it was revoked as attempts end."""
        with self._lock:
            return "" if self._grant is not None else self._why.get(self._serial, "")

    def _revoke_locked(self) -> None:
        if self._grant is not None:
            secret, for_ = self._grant
            self._revoked = [*self._revoked[-(REVOKED_KEPT - 1):], (secret, for_, self._serial)]
            self._grant = None

    def holds(self, admitted: Admitted) -> bool:
        """Whether the grant that admitted a request still stands (never for a revoked one;
        always for a sender that needs no grant). A request is admitted when its headers
        arrive; its body, and its turn at the phone behind an action in flight, may come after
        its attempt ended."""
        if admitted.actor != "agent":
            return admitted.actor != "revoked"
        with self._lock:
            return self._grant is not None and self._serial == admitted.serial

    def require(self, admitted: Admitted) -> None:
        """Refuse a request whose grant no longer stands (`holds`).

        Raises:
            Refused: 401, the agent's access ended with its attempt.
        """
        if not self.holds(admitted):
            with self._lock:
                why = self._why.get(admitted.serial, ACCESS_ENDED)
            raise Refused(why, 401, "unauthorized")

    def admit(self, path: str, header: str | None) -> Admitted | None:
        """Who sent a request with this path and token header (None: nobody allowed)."""
        given, rest = None, path
        if path.startswith(TOKEN_PATH):
            given, _, tail = path[len(TOKEN_PATH):].partition("/")
            given, query_sep, query = given.partition("?")
            rest = "/" + tail + (query_sep + query if query_sep else "")
        elif header is not None:
            given = header
        with self._lock:
            grant, revoked, serial = self._grant, list(self._revoked), self._serial
        if self.token is None and grant is None and not revoked:
            return Admitted("open", path)
        if given is None:
            return None
        if self.token is not None and _same(given, self.token):
            return Admitted("harness", rest)
        if grant is not None and _same(given, grant[0]):
            return Admitted("agent", rest, grant[1], serial)
        late = next((old for old in revoked if _same(given, old[0])), None)
        if late is not None:
            return Admitted("revoked", rest, late[1], late[2])
        return None


def is_loopback(host: str) -> bool:
    """Whether an address to bind is loopback only ("localhost" counts)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False
