"""WDA routes about the device: buttons, lock, geometry, orientation, source, pixels, pasteboard.

Request and response shapes follow facebook-wda 1.5.4's traffic (notes/wda-stack.md §1.5, §4.2)
and appium/WebDriverAgent's FBCustomCommands, FBOrientationCommands, FBDebugCommands and
FBScreenshotCommands, including which routes also exist without a session. Session and app
routes are in `session_routes.py`, gestures in `gesture_routes.py`. Each handler takes the
`Endpoints` and the request and returns the envelope's `value`, or raises `WdaError`.
"""

from __future__ import annotations

import base64
import hashlib
import uuid
from typing import TYPE_CHECKING

from phoneshell.sim import render
from phoneshell.sim.faults import TRUNCATE_AT
from phoneshell.sim.pasteboard_routes import get_pasteboard, set_pasteboard
from phoneshell.sim.posture import ORIENTATIONS
from phoneshell.sim.source import excluded_names, json_source, to_accessible_json, xml
from phoneshell.sim.source_text import to_description
from phoneshell.sim.store import JSON
from phoneshell.sim.wire import Request, Route, WdaError, described, finite
from phoneshell.wda_routes import NOTIFICATION_WAIT_S, pressed_button
from phoneshell.xcui import SIDE_BUTTON_HID

if TYPE_CHECKING:
    from phoneshell.sim.endpoints import Endpoints

ROTATIONS: dict[str, tuple[int, int, int]] = {
    "PORTRAIT": (0, 0, 0), "UIA_DEVICE_ORIENTATION_PORTRAIT_UPSIDEDOWN": (0, 0, 180),
    "LANDSCAPE": (0, 0, 270), "UIA_DEVICE_ORIENTATION_LANDSCAPERIGHT": (0, 0, 90),
}
"""`/rotation`'s x, y, z degrees for each orientation (XCUIDevice+FBRotation's mapping)."""
FACE_ROTATIONS = ((90, 0, 0), (270, 0, 0))
"""Face up and face down: rotations WDA accepts but no interface turns to."""


def active_app(ep: Endpoints, req: Request) -> JSON:
    """`/wda/activeAppInfo`: SpringBoard for the home screen, its overlays and the lock."""
    bundle, pid = ep.phone.active()
    return {"pid": pid, "bundleId": bundle, "name": "",
            "processArguments": {"args": [], "env": {}}}


def home(ep: Endpoints, req: Request) -> JSON:
    """`/wda/homescreen`."""
    ep.phone.go_home()
    return None


BUTTON_NAMES = ("home", "volumeUp", "volumeDown")
"""The names `fb_pressButton:` lists as supported on a phone, in its order."""


def press_button(ep: Endpoints, req: Request) -> JSON:
    """`/wda/pressButton` {"name": "home" | "volumeUp" | "volumeDown"}, in any case, as WDA
    reads it (`wda_routes.pressed_button`). Any other name, a missing one (nil: "(null)")
    included, gets `fb_pressButton:`'s error, the supported names printed as its NSArray."""
    name = req.text("name", "lowercaseString")
    button = None if name is None else pressed_button(name)
    if button is None:
        listed = described(list(BUTTON_NAMES))
        raise WdaError("unknown error", f"The button '{described(name, missing=name is None)}' "
                                        f"is unknown. Only the following button names are "
                                        f"supported: {listed}")
    ep.phone.press_button(button)
    return None


HID_BUTTONS = {(0x0C, 0x40): "home", (0x0C, 0xE9): "volumeUp", (0x0C, 0xEA): "volumeDown"}
"""Consumer-page (0x0C) usages of the buttons an IOHID event presses like `pressButton` does:
Menu (home), Volume Increment, Volume Decrement."""


def hid_event(ep: Endpoints, req: Request) -> JSON:
    """`/wda/performIoHidEvent` {"page", "usage", "duration"}: XCTest plays any event WDA is
    given, read with unsignedIntValue (a missing number is 0, a fraction dropped); the phone
    acts on the buttons it has (`HID_BUTTONS`; the side button locks it) and ignores the rest."""
    def whole(key: str) -> int:
        value = finite(req.body.get(key))
        return int(value) % 2**32 if value is not None else 0

    event = (whole("page"), whole("usage"))
    if event == SIDE_BUTTON_HID:
        ep.phone.lock()
    elif event in HID_BUTTONS:
        ep.phone.press_button(HID_BUTTONS[event])
    return None


AUDIT_TYPES = tuple(f"XCUIAccessibilityAuditType{name}" for name in (
    "Contrast", "ElementDetection", "HitRegion", "SufficientElementDescription", "DynamicType",
    "TextClipped", "Trait", "All"))
"""The audit types WDA takes by name (iOS 17 and later)."""


def accessibility_audit(ep: Endpoints, req: Request) -> JSON:
    """`/wda/performAccessibilityAudit` {"auditTypes": [...]}: XCTest audits the app in front
    (every type when none is named) and WDA lists the issues found; a name it does not know is
    WDA's invalid argument. The simulated screens are drawn to pass, so the list is empty."""
    wanted = req.body.get("auditTypes")
    for name in wanted if isinstance(wanted, list) else ():
        if name not in AUDIT_TYPES:
            raise WdaError("invalid argument", f"Audit type value '{described(name)}' is not "
                                               "known. Only the following audit types are "
                                               f"supported: {described(list(AUDIT_TYPES))}")
    return []


def deactivate(ep: Endpoints, req: Request) -> JSON:
    """`/wda/deactivateApp` {"duration"}: home, then back to the app, as XCTest does."""
    ep.phone.deactivate()
    return None


def locked(ep: Endpoints, req: Request) -> JSON:
    """`/wda/locked`."""
    return ep.phone.locked


def lock(ep: Endpoints, req: Request) -> JSON:
    """`/wda/lock`."""
    ep.phone.lock()
    return None


def unlock(ep: Endpoints, req: Request) -> JSON:
    """`/wda/unlock`; does nothing while the locked fault holds the phone locked."""
    if not ep.faults.on("locked"):
        ep.phone.unlock()
    return None


def window_size(ep: Endpoints, req: Request) -> JSON:
    """`/window/size` in points, as the interface is turned (wider than tall in landscape)."""
    return {"width": ep.phone.facts.width, "height": ep.phone.facts.height}


def window_rect(ep: Endpoints, req: Request) -> JSON:
    """`/window/rect` in points (W3C's form of the window size)."""
    return {"x": 0, "y": 0, "width": ep.phone.facts.width, "height": ep.phone.facts.height}


def screen_info(ep: Endpoints, req: Request) -> JSON:
    """`/wda/screen`: size in points, status bar (none shows in landscape), scale."""
    f = ep.phone.facts
    bar: dict[str, JSON] = {"width": f.width, "height": 54} \
        if ep.phone.orientation == "PORTRAIT" else {"width": 0, "height": 0}
    return {"screenSize": {"width": f.width, "height": f.height}, "statusBarSize": bar,
            "scale": f.scale}


def orientation(ep: Endpoints, req: Request) -> JSON:
    """`GET /orientation`: the front app's interface, as WebDriver names it (either
    landscape is "LANDSCAPE", upside down is "PORTRAIT")."""
    return "LANDSCAPE" if "LANDSCAPE" in ep.phone.orientation else "PORTRAIT"


def set_orientation(ep: Endpoints, req: Request) -> JSON:
    """`POST /orientation` {"orientation"}: turn the phone; fail when the front app stays put.

    The phone turns either way (a later app that rotates comes up turned), as XCTest sets
    the device orientation before WDA checks the interface's.
    """
    wanted = str(req.body.get("orientation", "")).upper()
    if wanted not in ORIENTATIONS or not ep.phone.rotate(wanted):
        raise WdaError("unknown error", "Unable To Rotate Device")
    return None


def rotation(ep: Endpoints, req: Request) -> JSON:
    """`GET /rotation`: the interface's orientation as x, y, z degrees."""
    x, y, z = ROTATIONS[ep.phone.orientation]
    return {"x": x, "y": y, "z": z}


def set_rotation(ep: Endpoints, req: Request) -> JSON:
    """`POST /rotation` {"x", "y", "z"}: the orientation with those degrees."""
    if any(req.body.get(k) is None for k in "xyz"):
        raise WdaError("invalid argument", "x, y and z arguments must exist in the request "
                                           f"body: {described(req.body)}")
    wanted = (req.number("x"), req.number("y"), req.number("z"))
    named = [name for name, degrees in ROTATIONS.items() if degrees == wanted]
    asked: list[JSON] = [*wanted]  # printed as WDA's %@ prints an NSArray
    if not named and wanted not in FACE_ROTATIONS:
        supported: list[JSON] = [[*d] for d in (*ROTATIONS.values(), *FACE_ROTATIONS)]
        raise WdaError("invalid argument", f"{described(asked)} rotation is not "
                                           "supported. Only the following values are "
                                           f"supported: {described(supported)}")
    if not named or not ep.phone.rotate(named[0]):
        bundle = ep.phone.active()[0]
        raise WdaError("invalid element state", f"The current rotation cannot be set to "
                       f"{described(asked)}. Make sure the {bundle} application supports it")
    return None


def device_orientation(ep: Endpoints, req: Request) -> JSON:
    """`GET /wda/deviceOrientation`: how the phone itself is held."""
    return ep.phone.device_orientation


def source(ep: Endpoints, req: Request) -> JSON:
    """`/source?format=xml|json|description` (default xml), with WDA's `scope` (XML) and
    `excluded_attributes` (XML and JSON) as `sim.source` reads them; see faults for
    truncation."""
    fmt = req.query.get("format", "xml").lower()
    screen = ep.phone.screen()
    _take_snapshot(ep, screen.bundle_id)
    excluded = excluded_names(req.query.get("excluded_attributes"))
    if fmt == "json":
        return json_source(screen, excluded)
    if fmt == "description":
        return screen.derived("description", lambda: to_description(screen))
    if fmt != "xml":
        raise WdaError("invalid argument",
                       f"Unknown source format '{fmt}'. Only xml, json and description "
                       "source types are supported.")
    text = xml(screen, excluded, req.query.get("scope", ""))
    if ep.faults.cuts_off(screen.bundle_id):
        data = text.encode()
        return data[:int(len(data) * TRUNCATE_AT)].decode(errors="ignore")
    return text


def _take_snapshot(ep: Endpoints, front: str) -> None:
    """Answer WDA's error for a snapshot it could not take, where the `unreadable` or
    `hiccups` fault says."""
    if ep.faults.chokes_on(front) or ep.faults.hiccup():
        raise WdaError("unknown error", f"Cannot take a snapshot of the accessibility tree of "
                                        f"'{front}' within the timeout")


def _take_screenshot(ep: Endpoints, front: str) -> None:
    """Answer WDA's error for a screenshot XCTest could not take (`FBScreenshotCommands`:
    "unable to capture screen" with XCTest's words, here an older WDA's own), where the
    `unreadable`, `screenshot-fails` or `hiccups` fault says."""
    if ep.faults.chokes_on(front):
        _take_snapshot(ep, front)
    if ep.faults.refuses_shot(front) or ep.faults.hiccup():
        raise WdaError("unable to capture screen", "Cannot take a screenshot of the main screen")


def accessible_source(ep: Endpoints, req: Request) -> JSON:
    """`/wda/accessibleSource`: the accessible elements only."""
    screen = ep.phone.screen()
    return screen.derived("accessible", lambda: to_accessible_json(screen))


def screen_png(ep: Endpoints) -> bytes:
    """The current screen as PNG bytes at points x scale pixels (built once per screen)."""
    screen = ep.phone.screen()
    facts = ep.phone.facts
    return screen.derived("png", lambda: render.png(screen, facts))


def screenshot(ep: Endpoints, req: Request) -> JSON:
    """`/screenshot`: base64 PNG of the current screen, points x scale pixels, no prefix."""
    screen = ep.phone.screen()
    _take_screenshot(ep, screen.bundle_id)
    return screen.derived("screenshot",
                          lambda: base64.b64encode(screen_png(ep)).decode("ascii"))


def vendor_id(udid: str) -> str:
    """The `identifierForVendor` WDA's runner reads on this phone: an upper-case UUID that
    stays put for the phone (WDA's `device/info` `uuid`), never its UDID, and unrelated to it
    (drawn from a hash of it: knowing one tells nothing of the other)."""
    digest = hashlib.sha256(b"identifierForVendor:" + udid.encode()).digest()
    return str(uuid.UUID(bytes=digest[:16], version=4)).upper()


def device_info(ep: Endpoints, req: Request) -> JSON:
    """`/wda/device/info`: `uuid` is `identifierForVendor` (`vendor_id`), as WDA's
    `handleGetDeviceInfo` answers it."""
    f = ep.phone.facts
    return {"currentLocale": f.locale, "timeZone": f.time_zone, "name": f.name,
            "model": "iPhone", "uuid": vendor_id(f.udid), "userInterfaceIdiom": 0,
            "userInterfaceStyle": ep.phone.appearance, "isSimulator": False, "thermalState": 0}


def set_appearance(ep: Endpoints, req: Request) -> JSON:
    """`POST /wda/device/appearance` {"name": "light" | "dark"}."""
    name = str(req.body.get("name", "")).lower()
    if name not in ("light", "dark"):
        raise WdaError("invalid argument", "The appearance name must be either 'light' or 'dark'")
    ep.phone.appearance = name
    return None


def simulated_location(ep: Endpoints, req: Request) -> JSON:
    """`GET /wda/simulatedLocation`: the location XCTest makes the phone report, nulls when
    none is set."""
    where = ep.phone.simulated_location
    latitude, longitude = where if where is not None else (None, None)
    return {"latitude": latitude, "longitude": longitude, "uniquenessThreshold": None}


def set_simulated_location(ep: Endpoints, req: Request) -> JSON:
    """`POST /wda/simulatedLocation` {"latitude", "longitude"}: simulate where the phone is
    (nothing modelled reads it: Weather shows its own cities)."""
    latitude, longitude = req.body.get("latitude"), req.body.get("longitude")
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool)
               for v in (latitude, longitude)):
        raise WdaError("invalid argument", "Both latitude and longitude must be provided")
    ep.phone.simulated_location = (float(latitude), float(longitude))  # type: ignore[arg-type]
    return None


def clear_simulated_location(ep: Endpoints, req: Request) -> JSON:
    """`DELETE /wda/simulatedLocation`: the phone reports where it is again."""
    ep.phone.simulated_location = None
    return None


def battery_info(ep: Endpoints, req: Request) -> JSON:
    """`/wda/batteryInfo`: level 0-1 and UIDeviceBatteryState."""
    return {"level": ep.phone.facts.battery_level, "state": ep.phone.facts.battery_state}


def expect_notification(ep: Endpoints, req: Request) -> JSON:
    """`/wda/expectNotification` {"name", "type": "plain"|"darwin", "timeout"}: WDA waits
    `timeout` s for the notification on its main thread. No notification is ever posted here,
    so it times out as WDA does (the latency model charges the wait: `latency.cost_s`)."""
    name = req.body.get("name")
    if name is None:
        raise WdaError("invalid argument", "Notification name argument must be provided")
    kind = req.body.get("type", "plain")
    if kind not in ("plain", "darwin"):
        raise WdaError("invalid argument", "Notification type could only be 'plain' or "
                                           f"'darwin'. Got '{described(kind)}' instead")
    timeout = req.body.get("timeout", NOTIFICATION_WAIT_S)
    shown = f"{timeout:g}" if isinstance(timeout, (int, float)) else str(timeout)
    raise WdaError("timeout", f"Did not receive any expected {name} notifications within "
                              f"{shown}s")


ROUTES = (
    Route("POST", "/wda/homescreen", home, "free", write=True),
    Route("POST", "/wda/pressButton", press_button, write=True),
    Route("POST", "/wda/performIoHidEvent", hid_event, write=True),
    Route("POST", "/wda/performAccessibilityAudit", accessibility_audit),
    Route("POST", "/wda/deactivateApp", deactivate, write=True),
    Route("GET", "/wda/locked", locked, "both"),
    Route("POST", "/wda/lock", lock, "both"),
    Route("POST", "/wda/unlock", unlock, "both"),
    Route("GET", "/wda/activeAppInfo", active_app, "both"),
    Route("GET", "/source", source, "both"),
    Route("GET", "/wda/accessibleSource", accessible_source, "both"),
    Route("GET", "/screenshot", screenshot, "both"),
    Route("GET", "/wda/device/info", device_info, "both"),
    Route("POST", "/wda/device/appearance", set_appearance, "free"),
    Route("GET", "/wda/simulatedLocation", simulated_location, "both"),
    Route("POST", "/wda/simulatedLocation", set_simulated_location, "both"),
    Route("DELETE", "/wda/simulatedLocation", clear_simulated_location, "both"),
    Route("GET", "/wda/batteryInfo", battery_info),
    Route("POST", "/wda/expectNotification", expect_notification),
    Route("GET", "/window/size", window_size, "both"),
    Route("GET", "/window/rect", window_rect),
    Route("GET", "/wda/screen", screen_info, "both"),
    Route("GET", "/orientation", orientation, "both"),
    Route("POST", "/orientation", set_orientation, "both", write=True),
    Route("GET", "/rotation", rotation, "both"),
    Route("POST", "/rotation", set_rotation, "both", write=True),
    Route("GET", "/wda/deviceOrientation", device_orientation, "both"),
    Route("POST", "/wda/setPasteboard", set_pasteboard, "both"),
    Route("POST", "/wda/getPasteboard", get_pasteboard, "both"),
)
"""Device routes, in the order they are matched."""
