"""WDA routes about the device: status, sessions, apps, buttons, gestures, source, screenshot.

Request and response shapes are those facebook-wda 1.5.4 sends and expects (notes/wda-stack.md
§1.5, §4.2). Element and alert routes are in `element_routes.py`. Each handler takes the
`Endpoints` and the request and returns the envelope's `value`, or raises `WdaError`.
"""

from __future__ import annotations

import base64
from typing import TYPE_CHECKING

from phoneshell.sim import render
from phoneshell.sim.apps import Drag
from phoneshell.sim.faults import TRUNCATE_AT
from phoneshell.sim.gestures import swipe_drag
from phoneshell.sim.phone import AppNotInstalled
from phoneshell.sim.source import to_accessible_json, to_description, to_json, xml
from phoneshell.sim.store import JSON
from phoneshell.sim.ui import Node
from phoneshell.sim.wire import KEYBOARD_MESSAGE, Request, Route, WdaError

if TYPE_CHECKING:
    from phoneshell.sim.endpoints import Endpoints


def status(ep: Endpoints, req: Request) -> JSON:
    """`GET /status`: WDA's readiness report; the session id travels at the top level."""
    f = ep.phone.facts
    return {"ready": True, "message": "WebDriverAgent is ready to accept commands",
            "state": "success",
            "os": {"name": "iOS", "version": f.ios_version, "sdkVersion": f.ios_version,
                   "testmanagerdVersion": 65535},
            "ios": {"ip": "127.0.0.1"},
            "build": {"time": "Jan  9 2026 09:41:00", "version": "16.12.8",
                      "productBundleIdentifier": "com.facebook.WebDriverAgentRunner"},
            "device": "iphone", "simulated": "phoneshell"}


def _capabilities(body: dict[str, JSON]) -> dict[str, JSON]:
    """The merged capabilities of a `POST /session` body (W3C and the old desired form)."""
    caps: dict[str, JSON] = {}
    for source in (body.get("desiredCapabilities"), body.get("capabilities")):
        if isinstance(source, dict):
            caps.update(source)
            always, first = source.get("alwaysMatch"), source.get("firstMatch")
            if isinstance(first, list) and first and isinstance(first[0], dict):
                caps.update(first[0])
            if isinstance(always, dict):
                caps.update(always)
    return caps


def create_session(ep: Endpoints, req: Request) -> JSON:
    """`POST /session`: end the old session, then launch the bundle's app, or go home."""
    caps = _capabilities(req.body)
    bundle = caps.get("bundleId")
    bundle = bundle if isinstance(bundle, str) and bundle else None
    phone = ep.phone
    # WDA kills the active session first, terminating its app if that session asked for it.
    ep.end_session()
    if bundle is not None:
        if bundle not in {a.bundle_id for a in phone.apps()}:
            raise WdaError("session not created", f"Application '{bundle}' is not installed")
        # forceAppLaunch (on unless turned off) restarts a running app; off, a running app is
        # brought forward with its state, which is how a harness adopts the app in front.
        if caps.get("forceAppLaunch", True) is not False:
            phone.relaunch(bundle)
        else:
            phone.launch(bundle)
    elif not ep.faults.on("drop-writes"):
        # Real WDA finding: a session without a bundle id sends the phone to the home screen.
        # That is a write like the home button, so drop-writes drops it.
        phone.go_home()
    active = phone.active()[0]
    session = ep.new_session({"device": "iphone", "sdkVersion": phone.facts.ios_version,
                              "browserName": bundle or active,
                              "CFBundleIdentifier": bundle or active},
                             bundle, caps.get("shouldTerminateApp", True) is not False)
    return {"sessionId": session.id, "capabilities": session.capabilities}


def session_info(ep: Endpoints, req: Request) -> JSON:
    """`GET /session/:sid`: the capabilities the session was created with."""
    return {"sessionId": ep.session_id,
            "capabilities": ep.session.capabilities if ep.session else {}}


def delete_session(ep: Endpoints, req: Request) -> JSON:
    """`DELETE /session/:sid`: end the session (terminating its app if it asked for that)."""
    ep.end_session()
    return None


def _bundle(req: Request) -> str:
    return req.text("bundleId")


def launch(ep: Endpoints, req: Request) -> JSON:
    """`apps/launch` and `apps/activate`: start or bring forward (state is kept if running)."""
    try:
        ep.phone.launch(_bundle(req))
    except AppNotInstalled as exc:
        raise WdaError("unknown error", exc.message) from exc
    return None


def terminate(ep: Endpoints, req: Request) -> JSON:
    """`apps/terminate`: true if the app was running."""
    try:
        return ep.phone.terminate(_bundle(req))
    except AppNotInstalled:
        return False


def app_state(ep: Endpoints, req: Request) -> JSON:
    """`apps/state`: 1 not running, 3 background, 4 foreground."""
    return ep.phone.app_state(_bundle(req))


def app_list(ep: Endpoints, req: Request) -> JSON:
    """`apps/list`: the running apps."""
    return [{"pid": p.pid, "bundleId": b} for b, p in ep.phone.running.items()]


def active_app(ep: Endpoints, req: Request) -> JSON:
    """`/wda/activeAppInfo`: SpringBoard for the home screen, its overlays and the lock."""
    bundle, pid = ep.phone.active()
    return {"pid": pid, "bundleId": bundle, "name": "",
            "processArguments": {"args": [], "env": {}}}


def home(ep: Endpoints, req: Request) -> JSON:
    """`/wda/homescreen`."""
    ep.phone.go_home()
    return None


def press_button(ep: Endpoints, req: Request) -> JSON:
    """`/wda/pressButton` {"name": "home" | "volumeUp" | "volumeDown"}."""
    try:
        ep.phone.press_button(req.text("name"))
    except ValueError as exc:
        raise WdaError("unknown error", str(exc)) from exc
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


def _point(req: Request) -> tuple[int, int]:
    return round(req.number("x")), round(req.number("y"))


def tap(ep: Endpoints, req: Request) -> JSON:
    """`/wda/tap` {"x", "y"}, and the pre-6.0 `/wda/tap/0` facebook-wda falls back to."""
    ep.phone.tap(*_point(req))
    return None


def double_tap(ep: Endpoints, req: Request) -> JSON:
    """`/wda/doubleTap`: two taps."""
    x, y = _point(req)
    ep.phone.tap(x, y)
    ep.phone.tap(x, y)
    return None


def touch_and_hold(ep: Endpoints, req: Request) -> JSON:
    """`/wda/touchAndHold` {"x", "y", "duration"}."""
    x, y = _point(req)
    duration = req.body.get("duration", 1.0)
    ep.phone.hold(x, y, float(duration) if isinstance(duration, (int, float)) else 1.0)
    return None


def drag(ep: Endpoints, req: Request) -> JSON:
    """`/wda/dragfromtoforduration` (and `/wda/drag`): one finger from one point to another."""
    duration = req.body.get("duration", 0.0)
    ep.phone.drag(Drag(round(req.number("fromX")), round(req.number("fromY")),
                       round(req.number("toX")), round(req.number("toY")),
                       float(duration) if isinstance(duration, (int, float)) else 0.0))
    return None


def swipe(ep: Endpoints, req: Request) -> JSON:
    """`/wda/swipe` {"direction"}: a swipe across the middle of the screen."""
    return swipe_node(ep, req, ep.phone.screen().root)


def swipe_node(ep: Endpoints, req: Request, node: Node) -> JSON:
    """Swipe across an element's frame in the body's direction (up moves content up)."""
    try:
        ep.phone.drag(swipe_drag(node.frame, req.text("direction")))
    except ValueError as exc:
        raise WdaError("invalid argument", str(exc)) from exc
    return None


def keys(ep: Endpoints, req: Request) -> JSON:
    """`/wda/keys` {"value": [chars]}: type into the focused field, or fail like WDA."""
    value = req.body.get("value")
    text = "".join(v for v in value if isinstance(v, str)) if isinstance(value, list) else value
    if not isinstance(text, str):
        raise WdaError("invalid argument", "'value' must be a list of strings")
    if not ep.phone.type_text(text):
        raise WdaError("invalid element state", KEYBOARD_MESSAGE)
    return None


def window_size(ep: Endpoints, req: Request) -> JSON:
    """`/window/size` in points."""
    return {"width": ep.phone.facts.width, "height": ep.phone.facts.height}


def window_rect(ep: Endpoints, req: Request) -> JSON:
    """`/window/rect` in points."""
    return {"x": 0, "y": 0, "width": ep.phone.facts.width, "height": ep.phone.facts.height}


def screen_info(ep: Endpoints, req: Request) -> JSON:
    """`/wda/screen`: size in points, status bar, scale."""
    f = ep.phone.facts
    return {"screenSize": {"width": f.width, "height": f.height},
            "statusBarSize": {"width": f.width, "height": 54}, "scale": f.scale}


def orientation(ep: Endpoints, req: Request) -> JSON:
    """`GET /orientation`: the simulator stays in portrait."""
    return "PORTRAIT"


def set_orientation(ep: Endpoints, req: Request) -> JSON:
    """`POST /orientation`: portrait is accepted, anything else is unsupported."""
    if req.text("orientation").upper() not in ("PORTRAIT", "UIA_DEVICE_ORIENTATION_PORTRAIT"):
        raise WdaError("unsupported operation", "The simulated iPhone stays in portrait")
    return None


def source(ep: Endpoints, req: Request) -> JSON:
    """`/source?format=xml|json|description` (default xml); see faults for truncation."""
    fmt = req.query.get("format", "xml").lower()
    screen = ep.phone.screen()
    if fmt == "json":
        return screen.derived("json", lambda: to_json(screen))
    if fmt == "description":
        return screen.derived("description", lambda: to_description(screen))
    if fmt != "xml":
        raise WdaError("invalid argument",
                       f"Unknown source format '{fmt}'. Only xml, json and description "
                       "source types are supported.")
    excluded = req.query.get("excluded_attributes", "")
    text = xml(screen, [a.strip() for a in excluded.split(",") if a.strip()])
    if ep.faults.on("truncated-source"):
        data = text.encode()
        return data[:int(len(data) * TRUNCATE_AT)].decode(errors="ignore")
    return text


def accessible_source(ep: Endpoints, req: Request) -> JSON:
    """`/wda/accessibleSource`: the accessible elements only."""
    screen = ep.phone.screen()
    return screen.derived("accessible", lambda: to_accessible_json(screen))


def screenshot(ep: Endpoints, req: Request) -> JSON:
    """`/screenshot`: base64 PNG of the current screen, points x scale pixels, no prefix."""
    screen = ep.phone.screen()
    return screen.derived("screenshot", lambda: base64.b64encode(
        render.png(screen, ep.phone.facts)).decode("ascii"))


def device_info(ep: Endpoints, req: Request) -> JSON:
    """`/wda/device/info`."""
    f = ep.phone.facts
    return {"currentLocale": f.locale, "timeZone": f.time_zone, "name": f.name,
            "model": "iPhone", "uuid": f.udid, "userInterfaceIdiom": 0,
            "userInterfaceStyle": "light", "isSimulator": False, "thermalState": 0}


def battery_info(ep: Endpoints, req: Request) -> JSON:
    """`/wda/batteryInfo`: level 0-1 and UIDeviceBatteryState."""
    return {"level": ep.phone.facts.battery_level, "state": ep.phone.facts.battery_state}


def open_url(ep: Endpoints, req: Request) -> JSON:
    """`POST /session/:sid/url` {"url"}: open it in the app for its scheme (http: Safari)."""
    try:
        ep.phone.open_url(req.text("url"))
    except AppNotInstalled as exc:
        raise WdaError("unknown error", exc.message) from exc
    return None


def get_settings(ep: Endpoints, req: Request) -> JSON:
    """`GET /appium/settings`."""
    return dict(ep.settings)


def set_settings(ep: Endpoints, req: Request) -> JSON:
    """`POST /appium/settings` {"settings": {...}}: merge, return the result."""
    update = req.body.get("settings")
    if not isinstance(update, dict):
        raise WdaError("invalid argument", "'settings' must be an object")
    ep.settings.update(update)
    return dict(ep.settings)


def healthcheck(ep: Endpoints, req: Request) -> JSON:
    """`/wda/healthcheck`."""
    return None


ROUTES = (
    Route("GET", "/status", status, "free"),
    Route("POST", "/session", create_session, "free"),
    Route("GET", "", session_info),
    Route("DELETE", "", delete_session),
    Route("GET", "/wda/healthcheck", healthcheck, "both"),
    Route("GET", "/wda/locked", locked, "both"),
    Route("POST", "/wda/lock", lock, "both"),
    Route("POST", "/wda/unlock", unlock, "both"),
    Route("POST", "/wda/homescreen", home, "both", write=True),
    Route("GET", "/wda/activeAppInfo", active_app, "both"),
    Route("GET", "/source", source, "both"),
    Route("GET", "/wda/accessibleSource", accessible_source, "both"),
    Route("GET", "/screenshot", screenshot, "both"),
    Route("GET", "/wda/device/info", device_info, "both"),
    Route("GET", "/wda/batteryInfo", battery_info, "both"),
    Route("POST", "/wda/apps/launch", launch),
    Route("POST", "/wda/apps/activate", launch),
    Route("POST", "/wda/apps/terminate", terminate),
    Route("POST", "/wda/apps/state", app_state),
    Route("GET", "/wda/apps/list", app_list),
    Route("POST", "/wda/pressButton", press_button, write=True),
    Route("POST", "/wda/tap", tap, write=True),
    Route("POST", "/wda/tap/:uuid", tap, write=True),
    Route("POST", "/wda/doubleTap", double_tap, write=True),
    Route("POST", "/wda/touchAndHold", touch_and_hold, write=True),
    Route("POST", "/wda/dragfromtoforduration", drag, write=True),
    Route("POST", "/wda/drag", drag, write=True),
    Route("POST", "/wda/swipe", swipe, write=True),
    Route("POST", "/wda/keys", keys, write=True),
    Route("GET", "/window/size", window_size),
    Route("GET", "/window/rect", window_rect),
    Route("GET", "/wda/screen", screen_info),
    Route("GET", "/orientation", orientation),
    Route("POST", "/orientation", set_orientation),
    Route("POST", "/url", open_url),
    Route("GET", "/appium/settings", get_settings),
    Route("POST", "/appium/settings", set_settings),
)
"""Device routes, in the order they are matched."""
