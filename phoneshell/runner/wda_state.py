"""WDA's session state, part of the phone's start state: the settings an agent changed in its
turn and a session it opened are put back by the harness, and settings a run finds left in WDA's
session by an earlier client are put back before its first attempt.

WDA keeps its settings with its session, and the harness acts in whatever session WDA has
(`device.wda_link`). An agent's `{"elementResponseAttributes": "attribute/bogus"}` makes every
element find answer an error, so the teardown's slider set-back failed and the next agent's
first find crashed it (red team 87). A session an agent opens for an app with
`shouldTerminateApp` (WDA's default) has that app terminated when any later client opens one:
an honest next agent that does so loses its app under it. The bridge passes every `POST
/session` and `POST S/appium/settings` and logs them (`bridge.sessions`), so only an attempt
whose agent's log shows one pays: its settings are posted back to WDA's defaults first in its
teardown (a slider's set-back finds the slider), and a session it opened is replaced by one of
the harness's (for no app, so nothing is terminated when a later client replaces it, at the
defaults) last, once the teardown has stopped the apps: replacing it sooner would terminate its
app, on the screen the capture grades or under the teardown. Only what the bridge lets a client
change is put back (`xcui.HARMLESS_SETTINGS`, and the pinned one at its default): nothing else
changes through it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from phoneshell.device import Phone
from phoneshell.errors import RIG_DOWN, DeviceError
from phoneshell.records import AuditEvent
from phoneshell.runner.rig import Rig
from phoneshell.runner.setback import Guarded
from phoneshell.xcui import PINNED_SETTINGS

SETTINGS = "/appium/settings"
"""WDA's settings route (under the session)."""
DEFAULTS: Mapping[str, object] = {
    "shouldUseCompactResponses": True, "elementResponseAttributes": "type,label",
    "mjpegServerScreenshotQuality": 25, "mjpegServerFramerate": 10, "mjpegScalingFactor": 100,
    "mjpegFixOrientation": False, "useClearTextShortcut": True, **PINNED_SETTINGS}
"""WDA's defaults (16.x, `FBConfiguration.resetSessionSettings`) of the settings a client may
change through the bridge."""


@dataclass(frozen=True)
class Touched:
    """What of WDA's session state an agent's turn may have changed, by its log."""

    settings: bool = False
    """It posted settings, or opened a session (whose capabilities may set them)."""
    session: bool = False
    """It opened a session, which the harness then acts in."""


def touched(events: Iterable[AuditEvent]) -> Touched:
    """What the agent's intents in `events` show it sent of WDA's settings and sessions: sent,
    whatever WDA answered (it ends the session before it reads a new one's capabilities)."""
    sent = [e for e in events if e.phase == "agent" and e.stage == "intent"]
    opened = any((e.kind == "launch" and e.params.get("via") == "session")
                 or (e.kind == "other" and e.params.get("route") == "/session") for e in sent)
    posted = any(e.kind == "other" and str(e.params.get("route", "")).endswith(SETTINGS)
                 for e in sent)
    return Touched(settings=posted or opened, session=opened)


def settings_back(phone: Phone, changed: Touched, guarded: Guarded) -> tuple[str, ...]:
    """First in the teardown: WDA's settings posted back to the defaults, when the agent may
    have changed them; what stays as it left them (for `Teardown.stays`), when that failed."""
    if not changed.settings:
        return ()

    def put() -> bool:
        phone.act(SETTINGS, {"settings": dict(DEFAULTS)})
        return True

    return () if guarded("putting WDA's settings back", put) else (
        "WDA's settings (how it shapes element replies)",)


def session_back(phone: Phone, changed: Touched, guarded: Guarded) -> tuple[str, ...]:
    """Last in the teardown, its apps stopped: the session the agent opened replaced by one of
    the harness's; what stays as it left it, when that failed."""
    if not changed.session:
        return ()

    def renew() -> bool:
        phone.renew_session()
        return True

    return () if guarded("replacing the session the agent opened", renew) else (
        "WDA's session the agent opened (its app is terminated when another client opens one)",)


def reset_found(rig: Rig, run_id: str) -> str:
    """Before the first attempt: put back to WDA's defaults the settings an earlier client left
    in the session WDA has (a run stopped before a teardown, a client around the bridge); one
    read at most, none when the harness made that session. A line for the user ("" when they
    were at the defaults).

    Raises:
        DeviceError: the rig is down (`errors.RIG_DOWN`); WDA's refusal is said in the line.
    """
    with rig.under_run(run_id, "setup"):
        try:
            found = rig.phone.found_settings()
            off = sorted(name for name, value in DEFAULTS.items()
                         if name in found and found[name] != value)
            if off:
                rig.phone.act(SETTINGS, {"settings": dict(DEFAULTS)})
        except RIG_DOWN:
            raise
        except DeviceError as exc:
            return f"WDA's settings could not be read or put back before the run: {exc}"
    return (f"WDA's session held settings an earlier client changed ({', '.join(off)}): put "
            "back to WDA's defaults before the first attempt" if off else "")


__all__ = ["DEFAULTS", "Touched", "reset_found", "session_back", "settings_back", "touched"]
