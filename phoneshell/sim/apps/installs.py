"""Which apps the phone has: installed, deleted, removed from the Home Screen, or offloaded.

Every app model the phone was made with (`Host.models`) is installed until the owner deletes
it; what was done to each is kept in SpringBoard's store, as lists of bundle ids, so it
survives a terminate, goes into the `--state` file, and a reset (which empties the stores)
reinstalls everything:

* `deleted`: gone, with its data. No icon, no Spotlight result, no launch: WDA answers as for
  an app that was never installed. Its store is emptied and its notifications dropped.
* `off_home` (Remove from Home Screen): still installed and launchable, and Spotlight still
  finds it (iOS keeps it in the App Library), but it has no icon on the home pages or dock.
* `offloaded` (Settings > General > iPhone Storage > Offload App): iOS deletes the app but
  keeps its documents and data and its icon, so the store stays and the icon stays; it is not
  installed for WDA until its icon is tapped, which reinstalls it (at once here; a phone
  downloads it from the App Store) and opens it.

The App Library, where a phone lists every app and can put one back on the Home Screen, is not
modelled: a reset is the way back.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from phoneshell.sim.apps import AppModel, Host
from phoneshell.sim.apps.notifications import drop_app
from phoneshell.sim.store import JSON

BUNDLE_ID = "com.apple.springboard"
Fate = Literal["deleted", "off_home", "offloaded"]

# Apple's apps that iOS 26 will not delete outside the EU (iOS 17.4-18.2 let EU owners delete
# App Store, Messages, Camera, Photos and Safari; a US phone cannot). Clock, Find My and Health
# became deletable in iOS 16. Wallet is the doubtful one: recent iOS seems to keep it
# undeletable because Apple Pay lives in it; kept here until a phone says otherwise.
UNDELETABLE = frozenset({
    "com.apple.Preferences", "com.apple.mobilephone", "com.apple.MobileSMS",
    "com.apple.camera", "com.apple.mobileslideshow", "com.apple.mobilesafari",
    "com.apple.AppStore", "com.apple.Passbook",
})


def deletable(bundle_id: str) -> bool:
    """Whether iOS lets the owner delete the app (any app can leave the Home Screen)."""
    return bundle_id not in UNDELETABLE


def marked(host: Host, fate: Fate) -> frozenset[str]:
    """The bundle ids SpringBoard's store lists under `fate`."""
    raw = host.store(BUNDLE_ID).data.get(fate)
    return frozenset(b for b in raw if isinstance(b, str)) if isinstance(raw, list) else \
        frozenset()


def _mark(host: Host, fate: Fate, bundle_id: str, on: bool) -> None:
    ids = marked(host, fate) | {bundle_id} if on else marked(host, fate) - {bundle_id}
    store = host.store(BUNDLE_ID)
    if ids:
        store.put(fate, list[JSON](sorted(ids)))
    else:
        store.data.pop(fate, None)


def missing(host: Host) -> frozenset[str]:
    """The apps that are not installed for WDA: deleted or offloaded."""
    return marked(host, "deleted") | marked(host, "offloaded")


def installed(host: Host) -> list[AppModel[Any]]:
    """The apps WDA can launch: every model neither deleted nor offloaded."""
    gone = missing(host)
    return [a for a in host.models() if a.bundle_id not in gone]


def on_phone(host: Host) -> list[AppModel[Any]]:
    """Every app with an icon that is not deleted (offloaded ones too): iPhone Storage's list."""
    gone = marked(host, "deleted")
    return [a for a in host.models() if a.home_icon and a.bundle_id not in gone]


def on_home(host: Host) -> Sequence[AppModel[Any]]:
    """The apps with an icon on the home pages or dock: on the phone, not removed from it."""
    hidden = marked(host, "off_home")
    return [a for a in on_phone(host) if a.bundle_id not in hidden]


def delete(host: Host, bundle_id: str) -> None:
    """Delete an app and its data ("Delete App", then "Delete")."""
    if bundle_id in host.running:
        host.terminate(bundle_id)
    # Deleting an app deletes its data, and iOS drops the notifications it had posted.
    host.store(bundle_id).data.clear()
    drop_app(host, bundle_id)
    _mark(host, "deleted", bundle_id, True)
    _mark(host, "off_home", bundle_id, False)
    _mark(host, "offloaded", bundle_id, False)


def remove_from_home(host: Host, bundle_id: str) -> None:
    """Take an app's icon off the home pages and dock; it stays installed."""
    _mark(host, "off_home", bundle_id, True)


def offload(host: Host, bundle_id: str) -> None:
    """Offload an app: uninstalled for WDA, its data and its icon kept."""
    if bundle_id in host.running:
        host.terminate(bundle_id)
    _mark(host, "offloaded", bundle_id, True)


def reinstall(host: Host, bundle_id: str) -> None:
    """Put an offloaded app back (its icon's tap, Settings' "Reinstall App")."""
    _mark(host, "offloaded", bundle_id, False)


def open_app(host: Host, bundle_id: str) -> None:
    """What tapping an app's icon does: reinstall it if it was offloaded, then open it."""
    if bundle_id in marked(host, "offloaded"):
        reinstall(host, bundle_id)
    host.launch(bundle_id)
