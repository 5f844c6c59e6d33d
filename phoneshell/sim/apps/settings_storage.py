"""Settings > General > iPhone Storage's apps: the list by size, each app's page, and offloading,
reinstalling or deleting an app from there (what that does to the app is `installs.py`'s).

The list (below the page's own rows in `settings_pages.py`) has a link row per app on the
phone, offloaded ones too, largest first ("Photos, 21.3 GB"). An app's page has its name and
version ("Version 26.2": Apple's apps carry the iOS version), "App Size" and "Documents &
Data", then, for an app iOS lets the owner delete, "Offload App" (once offloaded, "Reinstall
App", which reinstalls at once) and "Delete App", each with the explanation iOS puts under it.
Offload App and Delete App ask first with an action sheet holding the same button and Cancel;
deleting goes back to the list, where the app is gone. The sizes are invented but fixed, so
the list's order is a phone's (Photos and Messages on top). Inferred from iOS 17-18 phones:
the row and button titles and the footers are a phone's, the sheets' titles are the footers'
first sentence, and the layout is the other Settings pages'.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Literal

from phoneshell.sim import layout, lists
from phoneshell.sim.apps import AppModel, Host, installs
from phoneshell.sim.ui import Handler, Node

STORAGE = "storage"
"""The iPhone Storage page's id."""
APP_PAGE = "storage-app:"
"""Page ids of an app's storage page: this, then its bundle id."""
OFFLOAD_NOTE = ("This will free up storage used by the app, but keep its documents and data. "
                "Reinstalling the app will place back your data if the app is still available "
                "in the App Store.")
DELETE_NOTE = ("This will delete the app and all related data from this iPhone. This action "
               "can't be undone.")

# (App Size, Documents & Data) in MB. Photos, Messages, Music, Safari, Notes and Calculator
# keep the totals this page showed before it listed every app.
SIZES_MB: dict[str, tuple[float, float]] = {
    "com.apple.mobileslideshow": (25.0, 21275.0), "com.apple.MobileSMS": (38.5, 8061.5),
    "com.apple.Music": (86.0, 6314.0), "com.apple.mobilesafari": (212.0, 200.0),
    "com.apple.mobilenotes": (21.0, 75.0), "com.apple.calculator": (2.4, 0.7),
    "com.apple.mobilemail": (54.0, 310.0), "com.apple.Maps": (245.0, 112.0),
    "com.apple.podcasts": (62.0, 188.0), "com.apple.tv": (71.0, 96.0),
    "com.apple.iBooks": (99.0, 41.0), "com.apple.Translate": (19.0, 410.0),
    "com.apple.Health": (44.0, 62.0), "com.apple.Fitness": (52.0, 9.0),
    "com.apple.shortcuts": (58.0, 3.5), "com.apple.weather": (48.0, 5.2),
    "com.apple.mobilephone": (16.0, 38.0), "com.apple.Bridge": (40.0, 2.0),
    "com.apple.Home": (36.0, 4.0), "com.apple.Passbook": (33.0, 6.0),
    "com.apple.mobilecal": (31.0, 8.4), "com.apple.VoiceMemos": (7.9, 24.0),
    "com.apple.AppStore": (28.0, 12.0), "com.apple.findmy": (27.0, 1.2),
    "com.apple.Preferences": (14.0, 1.0), "com.apple.reminders": (18.0, 2.1),
    "com.apple.stocks": (15.0, 3.3), "com.apple.tips": (6.2, 14.0),
    "com.apple.facetime": (14.0, 1.8), "com.apple.DocumentsApp": (12.0, 3.0),
    "com.apple.MobileAddressBook": (7.5, 2.5), "com.apple.Preview": (11.0, 0.6),
    "com.apple.mobiletimer": (9.8, 0.4), "com.apple.camera": (8.0, 0.2),
    "com.apple.measure": (5.1, 0.3), "com.apple.compass": (3.4, 0.2),
}
OTHER_APP_MB = (10.0, 1.0)
"""The sizes of an app the table does not list (a test's own app)."""

Action = Literal["offload", "delete"]


@dataclass(frozen=True)
class Confirm:
    """An action sheet asking to confirm offloading or deleting an app."""

    action: Action
    """What the sheet's button does: offload the app, or delete it."""
    app: str
    """The app's bundle id."""


def app_of(page_id: str) -> str | None:
    """The bundle id whose storage page `page_id` is, if it is one."""
    return page_id[len(APP_PAGE):] if page_id.startswith(APP_PAGE) else None


def _size(mb: float) -> str:
    """A size as iPhone Storage writes it: "21.3 GB", "412 MB", "3.1 MB", "700 KB"."""
    if mb >= 1000:
        return f"{mb / 1000:.1f} GB"
    if mb >= 10:
        return f"{mb:.0f} MB"
    return f"{mb:.1f} MB" if mb >= 1 else "Zero KB" if mb <= 0 else f"{mb * 1000:.0f} KB"


def _sizes(host: Host, bundle_id: str) -> tuple[float, float]:
    """An app's (App Size, Documents & Data) in MB; offloaded, only its data is left."""
    app_mb, data_mb = SIZES_MB.get(bundle_id, OTHER_APP_MB)
    return (0.0 if bundle_id in installs.marked(host, "offloaded") else app_mb), data_mb


def app_list(host: Host, open_page: Callable[[str, str], None]) -> lists.Section:
    """A link row per app on the phone, largest first, each opening the app's page."""
    apps = sorted(installs.on_phone(host), key=lambda a: -sum(_sizes(host, a.bundle_id)))
    return app_rows(apps, open_page, lambda a: APP_PAGE + a.bundle_id,
                    lambda a: _size(sum(_sizes(host, a.bundle_id))))


def app_rows(apps: Iterable[AppModel[Any]], open_page: Callable[[str, str], None],
             page_of: Callable[[AppModel[Any]], str],
             detail: Callable[[AppModel[Any]], str | None] = lambda _: None) -> lists.Section:
    """A row with a chevron per app, in the order given, named as its home-screen icon is, each
    opening the page `page_of` gives it (titled by the app), its `detail` at the right: iPhone
    Storage's list and Apps' (`settings._app_rows`)."""

    def opener(page_id: str, name: str) -> Handler:
        return lambda: open_page(page_id, name)

    return lists.Section(tuple(
        lists.Row(a.name, detail=detail(a), chevron=True, on_tap=opener(page_of(a), a.name))
        for a in apps))


def app_page(host: Host, bundle_id: str, ask: Callable[[Confirm], None]) -> list[lists.Section]:
    """An app's storage page; nothing once the app is gone from the phone."""
    app = next((a for a in installs.on_phone(host) if a.bundle_id == bundle_id), None)
    if app is None:
        return []
    app_mb, data_mb = _sizes(host, bundle_id)
    sections = [lists.Section((
        lists.Row(app.name, subtitle=f"Version {host.facts.ios_version}", height=64),
        lists.Row("App Size", detail=_size(app_mb)),
        lists.Row("Documents & Data", detail=_size(data_mb))))]
    if not installs.deletable(bundle_id):
        return sections
    if bundle_id in installs.marked(host, "offloaded"):
        first = lists.Row("Reinstall App", on_tap=lambda: installs.reinstall(host, bundle_id))
    else:
        first = lists.Row("Offload App", on_tap=lambda: ask(Confirm("offload", bundle_id)))
    return [*sections, lists.Section((first,), footer=OFFLOAD_NOTE),
            lists.Section((lists.Row("Delete App",
                                     on_tap=lambda: ask(Confirm("delete", bundle_id))),),
                          footer=DELETE_NOTE)]


def confirm_sheet(host: Host, confirm: Confirm, close: Handler, back: Handler) -> Node:
    """The action sheet asking to confirm; deleting then goes `back` to the list."""
    def act() -> None:
        close()
        if confirm.action == "offload":
            installs.offload(host, confirm.app)
        else:
            installs.delete(host, confirm.app)
            back()

    label = "Offload App" if confirm.action == "offload" else "Delete App"
    note = OFFLOAD_NOTE if confirm.action == "offload" else DELETE_NOTE
    return layout.sheet(host.facts, note.split(". ")[0] + ".", [(label, act)], close)
