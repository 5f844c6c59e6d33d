"""WDA's alert routes: read, answer and type into the Alert (or action Sheet) on screen.

Follows FBAlertViewCommands and FBAlert: the alert is the front app's first visible Alert, else its
first visible action Sheet; its text is the static texts inside it, one a line; its buttons are
every Button inside it. Which one `accept` and `dismiss` press is `xcui.alert_press`, WDA's rule
the bridge logs by too: unnamed, an Alert's last (accept) or first (dismiss), a Sheet's first or
last; a `name` presses the first button so labelled. With no alert: 404 `no such alert`, with WDA's
default message. `GET alert/text`, `accept` and `dismiss` also exist without a session; the button
list and typing (`POST alert/text`) need one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from phoneshell.sim.store import JSON
from phoneshell.sim.ui import TEXT_INPUTS, Node, walk
from phoneshell.sim.wire import Request, Route, WdaError
from phoneshell.wda_routes import typed_value
from phoneshell.xcui import ALERT_TYPES, alert_press

if TYPE_CHECKING:
    from phoneshell.sim.endpoints import Endpoints


def _alert(ep: Endpoints) -> Node:
    nodes = ep.phone.screen().nodes
    for kind in ALERT_TYPES:
        for node in nodes:
            if node.type == kind and node.visible:
                return node
    raise WdaError("no such alert", "An attempt was made to operate on a modal dialog when "
                                    "one was not open")


def _buttons(alert: Node) -> list[Node]:
    return [n for n in walk(alert) if n.type == "Button"]


def alert_text(ep: Endpoints, req: Request) -> JSON:
    """`GET /alert/text`: the alert's visible texts, one a line (FBAlert reads every StaticText
    inside it: an iOS 26 alert nests them in a scroll view's content view)."""
    alert = _alert(ep)
    return "\n".join(n.label or "" for n in walk(alert) if n.type == "StaticText" and n.visible)


def alert_buttons(ep: Endpoints, req: Request) -> JSON:
    """`GET /wda/alert/buttons`: the labels of the alert's buttons."""
    return [b.label or "" for b in _buttons(_alert(ep))]


def _press(ep: Endpoints, req: Request, accept: bool) -> JSON:
    alert = _alert(ep)
    buttons = _buttons(alert)
    name = req.body.get("name")
    gesture = "alert_accept" if accept else "alert_dismiss"
    index = alert_press(alert.type, [b.label or "" for b in buttons], gesture,
                        name if isinstance(name, str) else None)
    if index is None:
        what = f"button with label '{name}'" if isinstance(name, str) else \
            f"{'accept' if accept else 'dismiss'} button"
        raise WdaError("invalid element state", f"Failed to find {what} for alert")
    chosen = buttons[index]
    if chosen.on_tap is not None and not ep.phone.locked:
        chosen.on_tap()
        ep.phone.changed()
    return None


def alert_accept(ep: Endpoints, req: Request) -> JSON:
    """`POST /alert/accept` (optionally {"name": button})."""
    return _press(ep, req, accept=True)


def alert_dismiss(ep: Endpoints, req: Request) -> JSON:
    """`POST /alert/dismiss` (optionally {"name": button})."""
    return _press(ep, req, accept=False)


def alert_type(ep: Endpoints, req: Request) -> JSON:
    """`POST /alert/text` {"value"}: type into the alert's text field (a login prompt's).

    An alert without a field answers `unsupported operation`, as FBAlert's typeText does.
    """
    value = req.body.get("value")
    if value is None:
        raise WdaError("invalid argument", "Missing 'value' parameter")
    text = typed_value("/alert/text", value)
    if text is None:
        text = str(value)
    alert = _alert(ep)
    fields = [n for n in walk(alert) if n.type in TEXT_INPUTS and n.field is not None]
    if not fields:
        raise WdaError("unsupported operation", "Only alerts of 'Text Input' type support "
                                                "typing, and this one has no text field")
    if not ep.phone.locked and fields[0].field is not None:
        ep.phone.focus(fields[0].field)
        ep.phone.type_text(text)
    return None


ROUTES = (
    Route("GET", "/alert/text", alert_text, "both"),
    Route("POST", "/alert/text", alert_type, write=True),
    Route("GET", "/wda/alert/buttons", alert_buttons),
    Route("POST", "/alert/accept", alert_accept, "both", write=True),
    Route("POST", "/alert/dismiss", alert_dismiss, "both", write=True),
)
"""Alert routes, in the order they are matched."""
