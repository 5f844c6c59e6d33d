"""WDA routes about the session and apps: status, sessions, app lifecycle, URLs, settings, timeouts.

Behaviour follows appium/WebDriverAgent's FBSessionCommands and FBSession: a new session first
ends the old one (terminating its app under test when that session asked for it), then parses
the W3C `capabilities` (`capabilities.py`), then launches the `bundleId` app if it names one:
`forceAppLaunch` (on by default) restarts it, off it brings a background app forward and leaves
a front one alone. A session without a bundle id changes nothing on screen. An app that is not
installed fails the session with `session not created`, and `apps/launch` / `apps/activate`
with `invalid argument`, WDA's answer to XCTest's missing-application exception.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from phoneshell.sim import capabilities, settings, urls
from phoneshell.sim.apps.safari_pages import parses
from phoneshell.sim.phone import SPRINGBOARD, AppNotInstalled
from phoneshell.sim.store import JSON
from phoneshell.sim.wire import Request, Route, WdaError, described

if TYPE_CHECKING:
    from phoneshell.sim.endpoints import Endpoints

WDA_VERSION = "16.12.8"
"""The appium/WebDriverAgent release the simulator answers as (its settings, routes, errors)."""
PHONE_IP = "192.168.1.23"
"""The phone's Wi-Fi address, as a real phone's WDA reports it (never loopback: that would
say the phone is this machine)."""
TESTMANAGERD_VERSION = 36
"""The test manager daemon's protocol version (an estimate for iOS 26: real phones report a
few dozen; 65535 marked the simulator out)."""
WDA_BUILT = "Nov 18 2025 14:02:37"
"""When the WDA the simulator answers as was built (any plausible date; 9:41 was a tell)."""


def status(ep: Endpoints, req: Request) -> JSON:
    """`GET /status`: WDA's readiness report; the session id travels at the top level."""
    f = ep.phone.facts
    return {"ready": True, "message": "WebDriverAgent is ready to accept commands",
            "state": "success",
            "os": {"name": "iOS", "version": f.ios_version, "sdkVersion": f.ios_version,
                   "testmanagerdVersion": TESTMANAGERD_VERSION},
            "ios": {"ip": PHONE_IP},
            "build": {"time": WDA_BUILT, "version": WDA_VERSION,
                      "productBundleIdentifier": "com.facebook.WebDriverAgentRunner"},
            "device": "iphone", "simulated": "phoneshell", "instance": ep.instance_id}


def _missing(bundle: str) -> str:
    return f"The application '{bundle}' is not installed on the device under test"


def session_capabilities(ep: Endpoints) -> dict[str, JSON]:
    """What WDA reports for the session: read live from the app the session acts on."""
    bundle = ep.phone.active()[0]
    app = next(a for a in ep.phone.apps() if a.bundle_id == bundle)
    return {"device": "iphone", "sdkVersion": ep.phone.facts.ios_version,
            "browserName": app.name, "CFBundleIdentifier": bundle}


def create_session(ep: Endpoints, req: Request) -> JSON:
    """`POST /session`: end the old session, then start the new one (see the module docstring)."""
    ep.end_session()  # WDA kills the active session before it even reads the request
    try:
        caps = capabilities.parse(req.body)
    except capabilities.CapabilitiesError as exc:
        raise WdaError("session not created", str(exc)) from exc
    bundle = caps.get("bundleId")
    if bundle is not None and not isinstance(bundle, str):
        raise WdaError("session not created", f"'bundleId' must be a string, not "
                                              f"{described(bundle)}")
    phone = ep.phone
    if bundle:
        if bundle not in {a.bundle_id for a in phone.apps()}:
            raise WdaError("session not created", _missing(bundle))
        state = phone.app_state(bundle)
        if state < 3 or capabilities.flag(caps, "forceAppLaunch", True):
            phone.relaunch(bundle)
        elif state == 3:
            phone.launch(bundle)
    url = caps.get("initialUrl")
    if isinstance(url, str):
        try:
            phone.open_url(url)
        except AppNotInstalled as exc:
            raise WdaError("session not created",
                           f"Cannot open the URL {url}. Original error: {exc.message}") from exc
    session = ep.new_session(bundle or None, capabilities.flag(caps, "shouldTerminateApp", True))
    # FBSessionCommands reads these capabilities into the settings of the same names.
    named = ("defaultAlertAction", "shouldUseCompactResponses", "elementResponseAttributes")
    given: dict[str, JSON] = {key: caps[key] for key in named if key in caps}
    if not isinstance(given.get("defaultAlertAction", ""), str):
        del given["defaultAlertAction"]
    try:
        ep.settings = settings.apply(ep.settings, given)
    except settings.SettingsError as exc:
        raise WdaError("session not created", str(exc)) from exc
    return {"sessionId": session.id, "capabilities": session_capabilities(ep)}


def session_info(ep: Endpoints, req: Request) -> JSON:
    """`GET /session/:sid`: the session and the app it acts on now."""
    return {"sessionId": ep.session_id, "capabilities": session_capabilities(ep)}


def delete_session(ep: Endpoints, req: Request) -> JSON:
    """`DELETE /session/:sid`: end the session (terminating its app if it asked for that)."""
    ep.end_session()
    return None


def _bundle(req: Request) -> str:
    """The `bundleId` an app route names. WDA hands it, nil or not, to XCUIApplication's
    initializer, which raises on nil: WDA's exception handler answers `unknown error`. (The
    exception's words are XCTest's assertion, not quoted from a phone.)"""
    bundle = req.text("bundleId")
    if bundle is None:
        raise WdaError("unknown error", "Invalid parameter not satisfying: bundleID")
    return bundle


def launch(ep: Endpoints, req: Request) -> JSON:
    """`apps/launch` and `apps/activate`: start or bring forward (state is kept if running)."""
    bundle = _bundle(req)
    try:
        ep.phone.launch(bundle)
    except AppNotInstalled as exc:
        raise WdaError("invalid argument", _missing(bundle)) from exc
    return None


def launch_unattached(ep: Endpoints, req: Request) -> JSON:
    """`POST /wda/apps/launchUnattached`: launch through the workspace, outside the session."""
    try:
        ep.phone.launch(_bundle(req))
    except AppNotInstalled as exc:
        raise WdaError("unknown error", "LSApplicationWorkspace failed to launch app") from exc
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
    """`apps/list`: the active apps, as XCTest's accessibility client lists them.

    The app in front comes first; SpringBoard follows it, since it stays active under every
    app (it draws the status bar and the home indicator), and is alone on the home screen.
    """
    front, pid = ep.phone.active()
    listed: list[JSON] = [{"pid": pid, "bundleId": front}]
    if front != SPRINGBOARD:
        listed.append({"pid": ep.phone.running[SPRINGBOARD].pid, "bundleId": SPRINGBOARD})
    return listed


def open_url(ep: Endpoints, req: Request) -> JSON:
    """`POST /session/:sid/url` {"url", "bundleId"?}: open it in the app iOS routes it to
    (`urls.py`), or, with `bundleId`, in that app, as WDA's `fb_openUrl:withApplication:` does:
    the named app comes to the front (launched if need be) and shows the URL when it handles
    it (its scheme, or a link the system table sends it); an app that does not handle it only
    opens. A bundle id no installed app has answers WDA's `unknown error`."""
    if not isinstance(req.body.get("url"), str):
        raise WdaError("invalid argument", "URL is required")
    url, bundle_id = str(req.body["url"]), req.body.get("bundleId")
    if not parses(url):  # NSURL reads no URL from it: WDA's fb_openUrl says so
        raise WdaError("unknown error", f"'{url}' is not a valid URL")
    try:
        if bundle_id is None:
            ep.phone.open_url(urls.delivered(url))
        else:
            _open_with(ep, urls.delivered(url), bundle_id)
    except AppNotInstalled as exc:
        raise WdaError("unknown error", exc.message) from exc
    return None


def _open_with(ep: Endpoints, url: str, bundle_id: object) -> None:
    phone = ep.phone
    if not isinstance(bundle_id, str):
        raise WdaError("invalid argument", f"bundleId must be a string, not {bundle_id!r:.40}")
    app = next((a for a in phone.apps() if a.bundle_id == bundle_id), None)
    if app is None or bundle_id == SPRINGBOARD:
        raise AppNotInstalled(f"Cannot open '{url}' with the application '{bundle_id}': no "
                              "installed application has this bundle identifier")
    phone.launch(bundle_id)
    if phone.foreground == bundle_id and app.on_url is not None \
            and urls.claims(app.url_schemes, bundle_id, url):
        app.on_url(phone.running[bundle_id].state, phone, url)
    phone.changed()


def get_settings(ep: Endpoints, req: Request) -> JSON:
    """`GET /appium/settings`: all 33 of WDA's settings (`settings.py`)."""
    return dict(ep.settings)


def set_settings(ep: Endpoints, req: Request) -> JSON:
    """`POST /appium/settings` {"settings": {...}}: apply them as WDA does, return the result."""
    update = req.body.get("settings")
    if not isinstance(update, dict):
        raise WdaError("invalid argument", "'settings' must be an object")
    try:
        ep.settings = settings.apply(ep.settings, update)
    except settings.SettingsError as exc:
        raise WdaError("invalid argument", str(exc)) from exc
    return dict(ep.settings)


def timeouts(ep: Endpoints, req: Request) -> JSON:
    """`POST /timeouts`: accepted and ignored, as WDA does (it waits in its own way)."""
    return None


def healthcheck(ep: Endpoints, req: Request) -> JSON:
    """`GET /wda/healthcheck`: presses Home, as WDA's does (handleGetHealthCheck ->
    XCUIDevice+FBHealthCheck `fb_deviceInteractionCheck`, after a query of the app in front
    that the simulator always passes): the app in front goes to the background."""
    ep.phone.press_button("home")
    return None


ROUTES = (
    Route("GET", "/status", status, "free"),
    Route("POST", "/session", create_session, "free"),
    Route("GET", "", session_info),
    Route("DELETE", "", delete_session),
    Route("GET", "/wda/healthcheck", healthcheck, "free", write=True),
    Route("POST", "/wda/apps/launch", launch),
    Route("POST", "/wda/apps/activate", launch),
    Route("POST", "/wda/apps/launchUnattached", launch_unattached, "free"),
    Route("POST", "/wda/apps/terminate", terminate),
    Route("POST", "/wda/apps/state", app_state),
    Route("GET", "/wda/apps/list", app_list),
    Route("POST", "/url", open_url),
    Route("GET", "/appium/settings", get_settings),
    Route("POST", "/appium/settings", set_settings),
    Route("POST", "/timeouts", timeouts),
)
"""Session and app routes, in the order they are matched."""

