"""The vocabulary of Settings' pages as data (`settings_pages.py`): a page, its sections and
their rows, and one maker per kind of row.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

RowKind = Literal["link", "info", "switch", "slider", "note", "button"]


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
    """For switches and sliders: the Settings store key holding the value."""
    ident: str | None = None
    """The cell's accessibility identifier (name), when the real one differs from the title."""
    subtitle: str | None = None


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


def info(title: str, detail: str = "", ident: str | None = None) -> PageRow:
    """A row that shows a value ("Model Number, MQ163LL/A"), or only its title."""
    return PageRow("info", title, detail=detail, ident=ident)


def choices(*titles: str, selected: str) -> tuple[PageRow, ...]:
    """A list of options with a checkmark on one, shown as Display & Brightness shows "Light":
    the checked row's detail is "Selected"."""
    return tuple(info(t, "Selected" if t == selected else "") for t in titles)


def switch(title: str, key: str, ident: str | None = None) -> PageRow:
    """A row with a switch backed by the store key `key`."""
    return PageRow("switch", title, key=key, ident=ident)


def slider(title: str, key: str) -> PageRow:
    """A row holding a slider backed by the store key `key` (0.0-1.0)."""
    return PageRow("slider", title, key=key)


def note(text: str) -> PageRow:
    """A paragraph of explanatory text."""
    return PageRow("note", text)


def action(title: str) -> PageRow:
    """A button row (e.g. Shut Down) that does nothing in the simulator."""
    return PageRow("button", title)


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
