"""SpringBoard's App Library: past the last home page, every installed app in category folders.

A swipe left on the last home page shows it, a swipe right goes back to that page, and Home goes
home. No dump shows it, so its elements are inferred, in the dumps' SpringBoard vocabulary: a
`SearchField` named "App Library" (its placeholder too) on top, then the folders, each an `Other`
named by its category holding up to four `Icon`s named by their apps (a tap opens the app where it
was, as a home-screen icon does); a folder of more than four holds three and a cluster (`Other`
named "<folder> folder", labelled with the folder's name) that opens the folder whole. A tap on the
search field lists every app alphabetically (`Cell`s named by the app), what is typed filtering them
as Spotlight does (a name or one of its words starting with it); Return opens nothing, and Cancel
goes back to the folders. The first folder, "Suggestions", holds the apps most recently in front
(inferred: a phone's are Siri's suggestions). The folders and the list scroll (a `CollectionView`
each). Apps removed from the Home Screen are here too, as on a phone. While it shows SpringBoard is
in front, as for Spotlight. Pure on the `Host`: never keeps a phone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from phoneshell.sim import layout
from phoneshell.sim.apps import AppModel, Host, spotlight
from phoneshell.sim.apps.app_switcher import recent
from phoneshell.sim.ui import EditText, Handler, Node, Rect, Scroll, hidden, showing

if TYPE_CHECKING:
    from phoneshell.sim.apps.springboard import SpringBoardState

NAME = "App Library"
CATEGORIES = (
    ("Utilities", ("com.apple.calculator", "com.apple.mobiletimer", "com.apple.compass",
                   "com.apple.measure", "com.apple.DocumentsApp", "com.apple.Preferences",
                   "com.apple.findmy", "com.apple.Translate", "com.apple.VoiceMemos",
                   "com.apple.AppStore", "com.apple.mobilesafari", "com.apple.Preview")),
    ("Productivity & Finance", ("com.apple.mobilenotes", "com.apple.reminders",
                                "com.apple.mobilecal", "com.apple.stocks", "com.apple.mobilemail",
                                "com.apple.shortcuts", "com.apple.Passbook")),
    ("Social", ("com.apple.MobileSMS", "com.apple.mobilephone", "com.apple.facetime",
                "com.apple.MobileAddressBook")),
    ("Information & Reading", ("com.apple.weather", "com.apple.iBooks", "com.apple.tips")),
    ("Travel", ("com.apple.Maps",)),
    ("Entertainment", ("com.apple.Music", "com.apple.tv", "com.apple.podcasts")),
    ("Creativity", ("com.apple.mobileslideshow", "com.apple.camera")),
    ("Health & Fitness", ("com.apple.Health", "com.apple.Fitness", "com.apple.Bridge",
                          "com.apple.Home")),
)
"""Where iOS files Apple's apps (inferred from the App Store's categories); any other app goes in
"Other"."""
FOLDER_PT = 170
TOP = 110


@dataclass
class Library:
    """What the App Library shows: its search, the folder opened whole, how far it scrolled."""

    query: EditText = field(default_factory=lambda: EditText(NAME, return_key="search"))
    folder: str | None = None
    """The folder opened whole (its cluster tapped), if one is."""
    folders: Scroll = field(default_factory=Scroll)
    listed: Scroll = field(default_factory=Scroll)
    """The search's list."""


def open_library(state: SpringBoardState) -> None:
    """Show the App Library (from the last home page), as it first shows."""
    state.overlay, state.shown, state.library = "library", showing(), Library()


def folders(host: Host) -> list[tuple[str, list[AppModel[Any]]]]:
    """The folders, in order, each with its apps: Suggestions, then the categories."""
    apps = [a for a in host.apps() if a.home_icon]
    by_id = {a.bundle_id: a for a in apps}
    suggested = [a for a in recent(host) if a.home_icon][:4] or apps[:4]
    out: list[tuple[str, list[AppModel[Any]]]] = [("Suggestions", suggested)]
    filed: set[str] = set()
    for category, bundles in CATEGORIES:
        held = [by_id[b] for b in bundles if b in by_id]
        filed.update(a.bundle_id for a in held)
        if held:
            out.append((category, held))
    rest = [a for a in apps if a.bundle_id not in filed]
    return out + ([("Other", rest)] if rest else [])


def _opener(host: Host, app: AppModel[Any]) -> Handler:
    def open_it() -> None:
        host.focus(None)
        host.launch(app.bundle_id)
    return open_it


def _icon(host: Host, app: AppModel[Any], frame: Rect) -> Node:
    return Node("Icon", frame, label=app.name, name=app.name, on_tap=_opener(host, app),
                children=(layout.wrap(Node("Other", frame, visible=False), 2, visible=False),))


def _folder(shown: Library, host: Host, name: str, apps: list[AppModel[Any]],
            frame: Rect) -> Node:
    half = (frame.width - 24) // 2
    cells = [Rect(frame.x + 8 + (i % 2) * (half + 8), frame.y + 8 + (i // 2) * (half + 8),
                  half, half) for i in range(4)]
    big = apps if len(apps) <= 4 else apps[:3]
    kids = [_icon(host, a, cells[i]) for i, a in enumerate(big)]
    if len(apps) > 4:
        def expand() -> None:
            shown.folder = name
        kids.append(Node("Other", cells[3], name=f"{name} folder", label=name, accessible=True,
                         on_tap=expand))
    return Node("Other", frame, name=name, label=name, children=(
        *kids, layout.text(name, Rect(frame.x, frame.y + frame.height + 4, frame.width, 18),
                           accessible=False)))


def _row(host: Host, app: AppModel[Any], frame: Rect) -> Node:
    """A row of the search's list, as Spotlight's: the Cell is what VoiceOver reads, its text is
    not apart."""
    return Node("Cell", frame, label=app.name, name=app.name, traits="Button",
                on_tap=_opener(host, app), children=(layout.text(
                    app.name, Rect(72, frame.y + 16, 200, 20), accessible=False),))


def _scrolled(items: list[Node], viewport: Rect, scroll: Scroll) -> Node:
    """The items (placed with the scroll's offset taken off) in a list that scrolls; those whose
    middle lies out of its frame hidden, as scrolled away."""
    kept = [n if viewport.y <= n.frame.y + n.frame.height // 2 < viewport.bottom else hidden(n)
            for n in items]
    return Node("CollectionView", viewport, children=tuple(kept), scroll=scroll)


def library(state: SpringBoardState, host: Host) -> Node:
    """The App Library's screen: the search field, then the folders, a folder opened, or the
    list a search shows (the folders and the list scroll)."""
    f, shown = host.facts, state.library
    full = Rect(0, 0, f.width, f.height)
    viewport = Rect(0, TOP - 10, f.width, f.height - TOP + 10)
    query = shown.query
    query.on_submit = lambda: None  # Return opens nothing (inferred)
    searching = query.focused or bool(query.text)
    width = f.width - 32 - (74 if searching else 0)
    kids = [layout.search_field(query, Rect(16, 62, width, 36), name=NAME)]
    if searching:
        def cancel() -> None:
            host.focus(None)
            query.text, shown.listed.offset = "", 0
        kids.append(layout.button("Cancel", Rect(f.width - 86, 62, 70, 36), cancel))
        apps = sorted(spotlight.matches(host.apps(), query.text) if query.text.strip() else
                      [a for a in host.apps() if a.home_icon], key=lambda a: a.name.lower())
        shown.listed.clamp(52 * len(apps) + 20 - viewport.height)
        kids.append(_scrolled([_row(host, app, Rect(0, TOP + 52 * row - shown.listed.offset,
                                                    f.width, 52))
                               for row, app in enumerate(apps)], viewport, shown.listed))
    elif shown.folder is not None:
        held = dict(folders(host)).get(shown.folder, [])
        kids.append(layout.text(shown.folder, Rect(20, TOP, f.width - 40, 30), header=True))
        for i, app in enumerate(held):
            kids.append(_icon(host, app, Rect(28 + (i % 4) * 93, TOP + 50 + (i // 4) * 100,
                                              69, 69)))
    else:
        filed = folders(host)
        step = FOLDER_PT + 30
        shown.folders.clamp(step * ((len(filed) + 1) // 2) + 20 - viewport.height)
        kids.append(_scrolled([_folder(shown, host, name, apps, Rect(
            16 + (i % 2) * (FOLDER_PT + 20), TOP + (i // 2) * step - shown.folders.offset,
            FOLDER_PT, FOLDER_PT)) for i, (name, apps) in enumerate(filed)],
            viewport, shown.folders))

    def close_folder() -> None:
        shown.folder = None
    back = Node("Other", full, on_tap=close_folder if shown.folder else None)
    return layout.wrap(Node("Other", full, children=(back, *kids),
                            key=f"library@{state.shown}"), 2)
