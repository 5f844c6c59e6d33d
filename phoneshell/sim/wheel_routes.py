"""WDA's picker wheel route: `POST /wda/pickerwheel/:uuid/select`, turning a wheel row by row.

Read as FBElementCommands' handleWheelSelect reads it, every argument: `order`, `offset`,
`value` and `maxAttempts`. Setting a wheel to a value in one go (`/element/:uuid/value`) is in
`element_routes.py`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from phoneshell.sim.store import JSON
from phoneshell.sim.wire import Request, Route, WdaError, described

if TYPE_CHECKING:
    from phoneshell.sim.endpoints import Endpoints


PICKER_OFFSET = 0.2
"""How far from a wheel's centre WDA taps to turn it a row, as a share of its height, when no
`offset` is given (FBElementCommands' DEFAULT_PICKER_OFFSET)."""
PICKER_ATTEMPTS = 25
"""How many rows WDA turns a wheel at most looking for `value`, when no `maxAttempts` is given
(DEFAULT_MAX_PICKER_ATTEMPTS)."""


def _integer_value(req: Request, key: str, default: int) -> int:
    """A count as Foundation's integerValue reads it (a fraction dropped, a string's leading
    number, `Request.number`); `default` when missing (nil)."""
    return int(req.number(key)) if key in req.body else default


def pickerwheel_select(ep: Endpoints, req: Request) -> JSON:
    """`POST /wda/pickerwheel/:uuid/select` {"order": "next"|"previous", "offset": 0.2,
    "value": "30 min", "maxAttempts": 25}, as WDA's handleWheelSelect.

    Each attempt taps `offset` of the wheel's height below (next) or above (previous) its
    centre and fails when the value did not change (the end of a wheel that does not wrap).
    Without `value` one attempt is made; with it, attempts go on until the wheel shows exactly
    that text, and after `maxAttempts` without it WDA's invalid element state error says so.
    A wheel that wraps repeats itself, so once it is back where it started only the remainder
    of the attempts is played (the wheel ends where the phone's would).
    """
    node = ep.element(req)
    if node.wheel is None:
        raise WdaError("invalid argument", "The element is expected to be a valid Picker Wheel "
                                           f"control. '{node.wd_type}' was given instead")
    # WDA sends the order lowercaseString first: a value of another type fails there
    order = req.text("order", "lowercaseString")
    offset = PICKER_OFFSET
    if "offset" in req.body:  # only nil takes the default: a null has no doubleValue
        offset = req.number("offset")
        if not 0.0 < offset <= 0.5:
            raise WdaError("invalid argument", "'offset' value is expected to be in range "
                           f"(0.0, 0.5]. '{described(req.body['offset'])}' was given "
                           "instead")
    attempts = _integer_value(req, "maxAttempts", PICKER_ATTEMPTS)
    expected = req.body.get("value")
    sign = {"next": 1, "previous": -1}.get(order.lower() if order is not None else "")
    seen: dict[int, int] = {}
    attempt = 0
    while attempt < attempts:
        if sign is None:  # WDA reads the order inside its loop: no attempts, no check
            given = described(order, missing=order is None)
            raise WdaError("invalid argument", "Only 'previous' and 'next' order values are "
                           f"supported. '{given}' was given instead")
        _turn(ep, req, sign * offset)
        wheel = ep.element(req).wheel
        if expected is None or (isinstance(expected, str) and wheel is not None
                                and wheel.value == expected):
            return None
        attempt += 1
        if wheel is not None and wheel.index in seen:  # round once: the rest repeat it
            for _ in range((attempts - attempt) % (attempt - seen[wheel.index])):
                _turn(ep, req, sign * offset)
            attempt = attempts
        elif wheel is not None:
            seen[wheel.index] = attempt
    wanted = described(expected, missing="value" not in req.body)
    raise WdaError("invalid element state", "Cannot select the expected picker wheel value "
                   f"'{wanted}' after {attempt} attempts")


WHEEL_UNCHANGED = "Picker wheel value has not been changed after 2 seconds timeout"
"""XCUIElement+FBPickerWheel's words when a tap left the wheel's value as it was."""


def _turn(ep: Endpoints, req: Request, share: float) -> None:
    """One of WDA's wheel turns: a tap `share` of the wheel's height from its centre.

    Raises:
        WdaError: invalid element state, WDA's error description, when the value is unchanged.
    """
    node = ep.element(req)
    before = node.value
    x, y = node.frame.center
    ep.phone.tap(x, y + round(share * node.frame.height))
    if ep.element(req).value == before:
        raise WdaError("invalid element state", "Error Domain=com.facebook.WebDriverAgent "
                       f'Code=1 "{WHEEL_UNCHANGED}" UserInfo={{NSLocalizedDescription='
                       f"{WHEEL_UNCHANGED}}}")


ROUTES = (Route("POST", "/wda/pickerwheel/:uuid/select", pickerwheel_select, write=True),)
"""The picker wheel route (under a session)."""
