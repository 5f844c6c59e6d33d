"""The bridge's own routes, under `/phoneshell/bridge/`: the run context actions are logged
under (GET, POST, DELETE) and health (GET), both only for the holder of the control token,
which the runner keeps from the agent. Never forwards anything to the phone."""

from __future__ import annotations

import hmac
import json
from typing import TYPE_CHECKING

from bridge.context import context_from_json
from bridge.http_server import CONTROL_TOKEN_HEADER, wda_error, wda_value
from bridge.upstream import Reply
from phoneshell.errors import BridgeError

if TYPE_CHECKING:
    from bridge.proxy import BridgeServer

CONTROL_PREFIX = "/phoneshell/bridge/"


def serve_control(bridge: BridgeServer, method: str, route: str, body: bytes,
                  control_token: str | None = None) -> Reply:
    """Serve one request to the bridge's own routes.

    Args:
        control_token: the X-Phoneshell-Control-Token header.
    """
    route = route.split("?", 1)[0].rstrip("/")
    if route not in (CONTROL_PREFIX + "health", CONTROL_PREFIX + "context"):
        return wda_error(404, "unknown command", f"unknown bridge route {method} {route}; "
                         f"routes: GET|POST|DELETE {CONTROL_PREFIX}context, "
                         f"GET {CONTROL_PREFIX}health")
    refused = _refuse_control(bridge.control_token, control_token)
    if refused is not None:
        return refused
    if route == CONTROL_PREFIX + "health":
        return (wda_value(bridge.health()) if method == "GET" else
                wda_error(405, "unknown method", f"{method} {route} is not served"))
    if method == "POST":
        try:
            bridge.enter(context_from_json(json.loads(body or b"null")))
        except ValueError as exc:
            return wda_error(400, "invalid argument", f"the context is not JSON: {exc}")
        except BridgeError as exc:
            return wda_error(400, "invalid argument", exc.message)
    elif method == "DELETE":
        bridge.clear_context()
    elif method != "GET":
        return wda_error(405, "unknown method", f"{method} {route} is not served")
    return wda_value(bridge.context.to_json())


def _refuse_control(wanted: str | None, given: str | None) -> Reply | None:
    """The refusal for a context request without the right control token (None: allowed)."""
    if wanted is None:
        return wda_error(403, "unsupported operation", "phoneshell bridge: the control "
                         "routes are off: this bridge has no control token. Start it with "
                         "one (control_token=..., or `phoneshell bridge --control-token` or "
                         "PHONESHELL_BRIDGE_CONTROL_TOKEN) and send it in the "
                         f"{CONTROL_TOKEN_HEADER} header, or set the context in-process "
                         "with BridgeServer.set_context")
    if given is None or not hmac.compare_digest(given.encode(), wanted.encode()):
        return wda_error(401, "unauthorized", "phoneshell bridge: the control routes need "
                         f"the control token in the {CONTROL_TOKEN_HEADER} header")
    return None
