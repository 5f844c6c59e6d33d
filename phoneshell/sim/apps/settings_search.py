"""Settings' own search (the field in the root's bottom toolbar): the pages it finds for a query.

A phone's Settings search is loose (red team 108: "wifi" found nothing here, only "wi-fi"; red
team 111: "Model Number" answered "No Results"). It indexes each page's title and the titles of
the rows inside it, and matches them ignoring case, and hyphens and spaces where the title has
one: "wifi", "WiFi" and "wi fi" find Wi-Fi, "Model Number" finds General > About. Here a query
matches a title (in the phone's spelling or in US spelling), or one of a page's `keywords`, when,
case folded, it is inside it with the title's hyphens taken out or read as spaces ("tery" finds
Battery, as before: what found a page before finds it still; "wi-f" Wi-Fi), or when each of its
words (split at spaces and hyphens) is some of the title's words whole (split so too), run
together, in a row ("wi fi" is Wi-Fi, "iphonestorage" iPhone Storage; "fonts" is not the keyword
"font size"). A space or hyphen of the query where the title's word has none matches nothing: a
word broken up ("bat tery", "b-luetooth", "w i f i") is other words (red team 119), as a phone
that matches a query's words against a title's words finds nothing for them (inferred).

What it lists are pages: first those found by their title or keywords, in page order (so a
query that found pages before lists them in the same places), then those found only by a row
inside them, each once, under the trail of its parents: "Model Number" lists About under
"General", and opens it with General underneath. A row opening a deeper page the simulator draws
as a stub (VoiceOver's Braille) finds the page it is on, and no search lists a stub. Rows not
indexed: a link to a page (its page is found by its own title), the root's (the root is the
list the search replaces), a list's options, networks and devices (choices, picks, joined
networks), readings and paragraphs.

Unverified on a phone (no device at hand): whether a query word must begin a word of the title
or may sit inside one (this keeps the substring reading the simulator had); that a broken-up
word finds nothing (inferred from a search that matches words); which kinds of row
iOS indexes; the order it lists results in; and above all how it shows a row's result: a phone
may title it by the row ("Model Number", its trail "General > About") where this lists its page.
Listing the page keeps a search's own words from showing back as a result's title, which would
pass checks that look for those words on screen (settings.about.reach's 'Model Number') at the
results, before any page is opened.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from phoneshell.sim.apps.settings_pages import PAGES
from phoneshell.sim.apps.settings_rows import STUB, Page

ROOT = "root"
INDEXED_ROWS = frozenset({"info", "switch", "slider", "button", "buttons"})
"""The kinds of row whose titles find their page (links to a stub do too): settings, not a
list's options or what the phone found around it."""
_HYPHENS = str.maketrans("", "", "-\u2010\u2011\u2012\u2013\u2014\u00ad")
"""Hyphens and dashes (ASCII's, Unicode's, the soft hyphen), which a match ignores."""
_BREAKS = {**{ord(c): " " for c in "-\u2010\u2011\u2012\u2013\u2014"}, 0xAD: None}
"""Hyphens and dashes read as a break between words (`_words`); a soft hyphen is no break."""


def plain(text: str) -> str:
    """`text` as a match reads it: case folded, hyphens taken out ("Wi-Fi" is "wifi"), white
    space runs as one space."""
    return " ".join(text.casefold().translate(_HYPHENS).split())


def _words(text: str) -> list[str]:
    """`text`'s words as a match reads them: case folded, split at white space and at hyphens
    ("Wi-Fi" is "wi", "fi")."""
    return text.casefold().translate(_BREAKS).split()


def _from(asked: list[str], words: list[str]) -> bool:
    """Whether `asked` are, in a row from somewhere in `words`, each some of them whole."""
    return any(_at(asked, words[start:]) for start in range(len(words)))


def _at(asked: list[str], words: list[str]) -> bool:
    """Whether `asked` are, from `words`' start, each some of them whole run together."""
    if not asked:
        return True
    return any("".join(words[:end]) == asked[0] and _at(asked[1:], words[end:])
               for end in range(1, len(words) + 1))


def _matches(query: str, names: Iterator[str]) -> bool:
    """Whether one of `names` holds the query (module docstring)."""
    asked = _words(query)
    read = " ".join(asked)
    for name in names:
        if read in plain(name) or read in " ".join(_words(name)) or _from(asked, _words(name)):
            return True
    return False


def _row_titles(page: Page) -> Iterator[str]:
    """The titles of the rows of `page` that find it (module docstring)."""
    if page.id == ROOT:
        return
    for section in page.sections:
        for row in section.rows:
            if (row.kind in INDEXED_ROWS or (row.target or "").startswith(STUB)) \
                    and "{" not in row.title:
                yield row.title


def search(query: str, spell: Callable[[str], str] = str) -> list[Page]:
    """The pages Settings' search lists for `query`: those whose title (as `spell` writes it
    for the phone's locale, or in US spelling) or keywords hold it, then those one of whose
    rows' titles does. An en_GB phone finds "Game Centre" by the name it shows."""
    if not _words(query):
        return []
    pages = [p for p in PAGES.values() if p.id != ROOT]

    def spelt(titles: Iterator[str]) -> Iterator[str]:
        for title in titles:
            yield title
            yield spell(title)

    by_title = [p for p in pages if _matches(query, spelt(iter((p.title, *p.keywords))))]
    listed = {p.id for p in by_title}
    return by_title + [p for p in pages if p.id not in listed
                       and _matches(query, spelt(_row_titles(p)))]
