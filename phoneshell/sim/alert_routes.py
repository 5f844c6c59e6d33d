"""WDA's alert routes: read, answer and type into the Alert (or action Sheet) on screen.

Follows FBAlertViewCommands and FBAlert: the alert is the first visible Alert or Sheet element
of the front app; its text is its static texts, one a line; `accept` presses the default
button (the last that is not Cancel), `dismiss` the Cancel button (else the first); a `name`
presses that button. With no alert: 404 `no such alert`, with WDA's default message. `GET
alert/text`, `accept` and `dismiss` also exist without a session; the button list and typing
(`POST alert/text`) need one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from phoneshell.sim.store import JSON
from phoneshell.sim.ui import TEXT_INPUTS, Node, walk
from phoneshell.sim.wire import Request, Route, WdaError

if TYPE_CHECKING:
    from phoneshell.sim.endpoints import Endpoints


def _alert(ep: Endpoints) -> Node:
    for node in ep.phone.screen().nodes:
        if node.type in ("Alert", "Sheet") and node.visible:
            return node
    raise WdaError("no such alert", "An attempt was made to operate on a modal dialog when "
                                    "one was not open")


def _buttons(alert: Node) -> list[Node]:
    return [n for n in alert.children if n.type == "Button"]


def alert_text(ep: Endpoints, req: Request) -> JSON:
    """`GET /alert/text`: the alert's texts, one a line."""
    alert = _alert(ep)
    return "\n".join(n.label or "" for n in alert.children if n.type == "StaticText")


def alert_buttons(ep: Endpoints, req: Request) -> JSON:
    """`GET /wda/alert/buttons`: the labels of the alert's buttons."""
    return [b.label or "" for b in _buttons(_alert(ep))]


def _press(ep: Endpoints, req: Request, accept: bool) -> JSON:
    buttons = _buttons(_alert(ep))
    name = req.body.get("name")
    if isinstance(name, str):
        chosen = [b for b in buttons if b.label == name]
        if not chosen:
            raise WdaError("invalid element state", f"Failed to find button with label "
                                                    f"'{name}' for alert")
    else:
        cancel = [b for b in buttons if b.label == "Cancel"]
        others = [b for b in buttons if b.label != "Cancel"]
        chosen = (others[-1:] or cancel) if accept else (cancel or buttons[:1])
    if chosen and chosen[0].on_tap is not None and not ep.phone.locked:
        chosen[0].on_tap()
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
    text = "".join(v for v in value if isinstance(v, str)) if isinstance(value, list) \
        else str(value)
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
