"""What `POST /url` will do on the phone, checked before it is forwarded.

WDA reads two fields: `url`, and `bundleId`, the app to open it with (when present it calls
`fb_openUrl:withApplication:`, which hands the URL to that app whatever its scheme; when absent,
the app iOS routes the URL to opens it). So the bridge logs both and refuses by what opens:
a URL that places a call or runs a shortcut (`reaches_out_by_url`), a FaceTime link
(facetime.apple.com, which joins a call), and any URL handed by `bundleId` to an app where the
bridge forwards no tap (Phone, FaceTime, Shortcuts, Home, Find My, Watch: `CALLING_APPS`,
`ELSEWHERE_APPS`), as what such an app does with a URL handed to it is not a thing the log can
name. Any other field is ignored by WDA, and so by the log.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from bridge.gate import Refused
from phoneshell.outreach import CALLING_APPS, CALLS, ELSEWHERE_APPS, reaches_out_by_url

CALLING_HOSTS = frozenset({"facetime.apple.com"})
"""Hosts of https links iOS opens in FaceTime, which joins the call they name."""


def _why_not(url: str, bundle_id: str | None) -> str:
    reach = reaches_out_by_url(url)
    if reach:
        return reach
    try:
        parts = urlsplit(url.strip())
        host = (parts.hostname or "").lower()
    except ValueError:  # an unclosed `[` (`https://[example.com/`): no URL, nothing opens
        return ""
    if parts.scheme.lower() in ("http", "https") and host in CALLING_HOSTS:
        return CALLS
    # each reason is a sentence of its own ("it would call someone..."), kept whole
    if bundle_id in CALLING_APPS:
        return f"it hands the URL to {bundle_id}, where {CALLS}"
    if bundle_id in ELSEWHERE_APPS:
        return f"it hands the URL to {bundle_id}, where {ELSEWHERE_APPS[bundle_id]}"
    return ""


def check_open_url(url: str, bundle_id: str | None) -> None:
    """Refuse opening `url` (with the app `bundle_id`, None: the one iOS routes it to) when it
    would reach beyond the phone.

    Raises:
        Refused: it would (the reason names the URL and the app).
    """
    why = _why_not(url, bundle_id)
    if why:
        in_app = f" with {bundle_id}" if bundle_id is not None else ""
        raise Refused(f"opening {url!r}{in_app}: {why}; no task needs it, and nothing after "
                      "the run takes it back", 403, "unsupported operation")
