"""The vocabulary of Settings' pages as data (`settings_pages.py`): a page, its sections and
their rows, and one maker per kind of row.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

RowKind = Literal["link", "info", "switch", "slider", "note", "button", "choice", "readout",
                  "buttons", "joins", "pick"]
STUB = "stub:"
"""The start of the id of a page the simulator draws as a stub (`opens`): a phone's deeper page
(VoiceOver's Speech, a font, an app's), titled by its row."""


@dataclass(frozen=True)
class PageRow:
    """One row of a Settings page."""

    kind: RowKind
    title: str
    target: str | None = None
    """For links: the id of the page the row opens."""
    detail: str | None = None
    """Right-hand text; braces name values filled in at render ("{ios_version}")."""
    key: str | None = None
    """For switches, sliders and choices: the Settings store key holding the value (a choice
    list's key holds the title of the option chosen)."""
    ident: str | None = None
    """The cell's accessibility identifier (name), when the real one differs from the title."""
    subtitle: str | None = None
    chosen: bool = False
    """For a choice: whether it is the option a new phone has chosen."""
    alternate: str | None = None
    """For an info row: the value a tap shows instead of `detail`, and a second tap takes back
    (About's Model Number: the part number, then the regulatory model number)."""
    options: tuple[str, ...] = ()
    """For a row of Buttons that choose (Appearance's Light and Dark): their titles; the store
    key `key` keeps the chosen one's, lower case ("dark")."""


@dataclass(frozen=True)
class PageSection:
    """Rows under an optional header and footer, shown only while switch `when` is on."""

    rows: tuple[PageRow, ...]
    header: str | None = None
    footer: str | None = None
    when: str | None = None


@dataclass(frozen=True)
class Page:
    """One Settings page; `keywords` are extra words Settings search matches it by."""

    id: str
    title: str
    sections: tuple[PageSection, ...]
    keywords: tuple[str, ...] = ()


def link(title: str, target: str, detail: str | None = None, ident: str | None = None) -> PageRow:
    """A row that opens another page."""
    return PageRow("link", title, target=target, detail=detail, ident=ident)


def info(title: str, detail: str = "", ident: str | None = None,
         alternate: str | None = None) -> PageRow:
    """A row that shows a value ("Model Number, MQ163LL/A"), or only its title; with
    `alternate`, a tap switches between the two values."""
    return PageRow("info", title, detail=detail, ident=ident, alternate=alternate)


def choices(key: str, *options: str | tuple[str, str], selected: str) -> tuple[PageRow, ...]:
    """A list of options, one chosen, as Auto-Lock's: tapping one moves the checkmark to it, and
    the store key `key` keeps its title. An option given as (title, short) shows `short` where
    the page's link names the choice (`{choice:key}`: "Record Video, 1080p at 30 fps")."""
    rows = []
    for option in options:
        title, short = option if isinstance(option, tuple) else (option, None)
        rows.append(PageRow("choice", title, key=key, detail=short, chosen=title == selected))
    if sum(row.chosen for row in rows) != 1:
        raise ValueError(f"the choice list {key!r} has no option {selected!r}")
    return tuple(rows)


def buttons(title: str, key: str, *options: str) -> PageRow:
    """A row of Buttons side by side, one chosen (Display & Brightness's Light and Dark): the
    chosen one is selected (WDA reports its value "1"), and a tap on another chooses it."""
    return PageRow("buttons", title, key=key, options=options)


def opens(title: str, detail: str | None = None) -> PageRow:
    """A row that opens a page, with a chevron as a phone's, where the simulator draws the page
    only as a stub titled by the row (`settings._sections`): VoiceOver's Speech, a font, a
    focus's People. Honest navigation passes here as on a phone; the page shows its title alone,
    and no search finds it (it is in no page list)."""
    return PageRow("link", title, target=STUB + title, detail=detail)


def picks(key: str, *options: str, checked: tuple[str, ...] = ()) -> tuple[PageRow, ...]:
    """A list that chooses several (Dictionary's, Accessibility Shortcut's): a tap on an option
    checks it or takes its checkmark off, kept in the store (`key:title`, on or off); `checked`
    are on before a first tap. No set-back knows such a list: the bridge cannot tell one with a
    single checkmark from a list of options, and the set-back finds the checkmarks it added."""
    return tuple(PageRow("pick", option, key=f"{key}:{option}", chosen=option in checked)
                 for option in options)


def switch(title: str, key: str, ident: str | None = None) -> PageRow:
    """A row with a switch backed by the store key `key`."""
    return PageRow("switch", title, key=key, ident=ident)


def slider(title: str, key: str) -> PageRow:
    """A row holding a slider backed by the store key `key` (0.0-1.0)."""
    return PageRow("slider", title, key=key)


def readout(value: str, detail: str) -> PageRow:
    """A large reading at a page's top with a line under it (Battery's charge and when it last
    charged): one cell labelled "VALUE, DETAIL", the value drawn large."""
    return PageRow("readout", value, detail=detail)


def note(text: str) -> PageRow:
    """A paragraph of explanatory text."""
    return PageRow("note", text)


def action(title: str) -> PageRow:
    """A button row (Shut Down, Turn Passcode On, Add Card): a row with the Button trait and no
    chevron, as a phone's; only Shut Down does anything in the simulator (`settings.BUTTONS`)."""
    return PageRow("button", title)


def joins(title: str, detail: str, key: str) -> PageRow:
    """A Wi-Fi network's or a Bluetooth device's row: tapped, the phone joins or connects to it
    (the store key `key` keeps the title of the one joined, and its row reads "Connected"); it
    has the Button trait and a "More Info" Button of its own, and no chevron."""
    return PageRow("joins", title, detail=detail, key=key)


def connected(title: str, key: str) -> PageRow:
    """The network the phone is on: its row shows UIKit's checkmark and a More Info Button of
    its own, as a phone's (a tap on it changes nothing)."""
    return PageRow("joins", title, detail="Connected", key=key, chosen=True)


def sec(*rows: PageRow, header: str | None = None, footer: str | None = None,
        when: str | None = None) -> PageSection:
    """A section of rows (shown only while the switch `when`, if given, is on)."""
    return PageSection(rows, header, footer, when)


def simple(id: str, title: str, *rows: PageRow, footer: str | None = None,
           keywords: tuple[str, ...] = ()) -> Page:
    """A page of one section."""
    return Page(id, title, (sec(*rows, footer=footer),), keywords)


def feature(id: str, title: str, key: str, explanation: str, *below: PageSection,
            keywords: tuple[str, ...] = ()) -> Page:
    """A feature's page as Accessibility's are: its switch, named like the page, with the
    phone's explanation under it, then what the page lists below."""
    return Page(id, title, (sec(switch(title, key), footer=explanation), *below), keywords)
