"""The phone's own state that WDA's routes change, not any app: how it is held, light or dark,
and a simulated location. Read once when a run starts, and set back after an attempt whose
agent changed it (`runner.aftermath.changed_device`), so a phone an agent turned to landscape
or dark mode is not handed so to every later attempt, or left so for its owner.

    orientation  `GET /wda/deviceOrientation` (how the phone is held: `GET /orientation` names
                 only the front app's interface, and SpringBoard never turns); set back by
                 `POST /orientation`, which turns the phone even where the front app stays put
                 and WDA answers "Unable To Rotate Device", so the turn is read back instead
    appearance   `GET /wda/device/info`'s `userInterfaceStyle`; `POST /wda/device/appearance`
    location     `GET /wda/simulatedLocation` ("" when none is simulated); set back by `POST`
                 of the one there was, or `DELETE` when there was none
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from typing import Any

from phoneshell.device.phone import Phone
from phoneshell.errors import DeviceError, StepError


def read_device_state(phone: Phone) -> dict[str, str]:
    """What the phone's own state is now, by name (`wda_routes.DEVICE_STATES`); a state WDA
    cannot tell (an older WDA, a route the phone does not have) is left out, and is then not
    set back."""
    found: dict[str, str] = {}
    for name in _READERS:
        try:
            found[name] = read_state(phone, name)
        except DeviceError:
            continue
    return found


def read_state(phone: Phone, name: str) -> str:
    """What the phone's state `name` is now (one read), as `read_device_state` reads it.

    Raises:
        DeviceError: WDA cannot tell.
        ValueError: `name` names none of the states (`wda_routes.DEVICE_STATES`).
    """
    if name not in _READERS:
        raise ValueError(f"no phone state named {name!r}")
    return _READERS[name](phone)


def _orientation(phone: Phone) -> str:
    return str(phone.read("/wda/deviceOrientation"))


def _appearance(phone: Phone) -> str:
    info: Any = phone.read("/wda/device/info")
    style = info.get("userInterfaceStyle") if isinstance(info, dict) else None
    if not isinstance(style, str) or not style:
        raise DeviceError(f"WDA at {phone.where} does not say whether the phone is light or dark")
    return style


def _location(phone: Phone) -> str:
    where: Any = phone.read("/wda/simulatedLocation")
    if not isinstance(where, dict):
        raise DeviceError(f"WDA at {phone.where} gave no simulated location")
    latitude, longitude = where.get("latitude"), where.get("longitude")
    if latitude is None or longitude is None:
        return ""
    return json.dumps({"latitude": latitude, "longitude": longitude})


_READERS: dict[str, Callable[[Phone], str]] = {
    "orientation": _orientation, "appearance": _appearance, "location": _location}


def set_device_state(phone: Phone, name: str, value: str) -> bool:
    """Set the phone's state `name` back to `value` (as `read_device_state` read it); True once
    it reads back so.

    Raises:
        StepError: it was set and does not read back so.
        DeviceError: WDA refused it.
        ValueError: `name` names none of the states (`wda_routes.DEVICE_STATES`).
    """
    if name == "orientation":
        # the phone turns even where the front app does not (WDA then says so): read it back
        with contextlib.suppress(DeviceError):
            phone.act("/orientation", {"orientation": value})
        now = _orientation(phone)
    elif name == "appearance":
        phone.act("/wda/device/appearance", {"name": value}, session=False)
        now = _appearance(phone)
    elif name == "location":
        if value:
            phone.act("/wda/simulatedLocation", json.loads(value))
        else:
            phone.act("/wda/simulatedLocation", None, method="DELETE")
        now = _location(phone)
    else:
        raise ValueError(f"no phone state named {name!r}")
    if now != value:
        raise StepError(f"the phone's {name} did not go back to {value or 'none'} (it reads "
                        f"{now or 'none'})")
    return True
