"""Safari's web, as data: what each URL loads (what typed text does is `address_bar.sent`).

A page is a title and a column of blocks (headings with their level, paragraphs, links,
captions, pictures; a `line` of texts and buttons side by side, `tiles` three to a row, a `gap` a
page's styling leaves); `safari_views.py` lays the blocks out inside the WebView. A text keeps its
own spaces, as WebKit reports them in its value ("Or " beside "try one"). The sites modelled:
example.com (and .org, .net; any scheme, `www.`, trailing slash), IANA's page behind its "More
information..." link, the image probe pages `https://blolabel.ai/probe/<one..ten>/`, Google and
Bing (their search results for any query), Wikipedia and Wiktionary articles for any title,
apple.com, and squoosh.app (the page of the iOS 26 share-sheet dump). Any other host loads Safari's
"can't open the page" error page.

A probe page's picture word is a `picture` block: `safari.py` draws it as an Image whose word
exists only in the screenshot's pixels (`Node.pixels_text`), never in any attribute of the page
source. Pure data and functions: nothing here touches app state.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal
from urllib.parse import parse_qs, quote, quote_plus, unquote, urlsplit

from phoneshell.address_bar import split

BlockKind = Literal["heading", "text", "caption", "link", "picture", "button", "image", "line",
                    "tiles", "gap"]

PROBE_WORDS: dict[str, tuple[str, str]] = {
    "one": ("MERIDIAN", "CARDAMOM"), "two": ("SALTWORT", "PELICAN"),
    "three": ("FULCRUM", "BASALT"), "four": ("ZEPHYR", "JUNIPER"),
    "five": ("OBSIDIAN", "MARLIN"), "six": ("TAMARIND", "THISTLE"),
    "seven": ("QUASAR", "COBALT"), "eight": ("NIMBUS", "SORREL"),
    "nine": ("CINNABAR", "GRANITE"), "ten": ("HALYARD", "WILLOW"),
}
"""Probe page -> (the word in the picture, pixels only; the written word, in the tree)."""

START_PAGE_TITLE = "Start Page"
SEARCH_ENGINE = "https://www.google.com/search?q="
"""Where words typed in the address bar go (Safari's default engine)."""


@dataclass(frozen=True)
class Block:
    """One piece of a page, top to bottom."""

    kind: BlockKind
    text: str
    """What it says (for a picture: the word drawn in its pixels, and nowhere else; for an
    image: its alternative text; for a button: its label, "" for an unlabelled one)."""
    href: str | None = None
    """For links: the URL it opens."""
    level: int = 1
    """For headings: h1, h2... (WebKit reports it as the heading's value)."""
    parts: tuple[Block, ...] = ()
    """For a line or tiles: the texts, buttons and links side by side."""
    height: int = 0
    """For a gap: how many points of the page it leaves empty."""


@dataclass(frozen=True)
class Page:
    """A loaded page: where it is, its title, what the address bar shows, and its content."""

    url: str
    title: str
    address: str
    """The address bar's text while the page shows: the host, or a search's query."""
    blocks: tuple[Block, ...]
    secure: bool = True


def heading(text: str, level: int = 1) -> Block:
    """A page heading (h1 unless `level` says otherwise)."""
    return Block("heading", text, level=level)


def text(words: str) -> Block:
    """A paragraph."""
    return Block("text", words)


def caption(words: str) -> Block:
    """Small grey text (a result's address)."""
    return Block("caption", words)


def link(label: str, href: str) -> Block:
    """A link that opens `href`."""
    return Block("link", label, href)


def web_button(label: str) -> Block:
    """A page's own button (it does nothing here: the simulated web runs no scripts)."""
    return Block("button", label)


def image(alt: str) -> Block:
    """An image with alternative text, which VoiceOver reads."""
    return Block("image", alt)


def line(*parts: Block) -> Block:
    """Texts, buttons and links side by side on one centred line."""
    return Block("line", "", parts=parts)


def tiles(*parts: Block) -> Block:
    """Buttons as tiles, three to a row, centred (squoosh's sample images)."""
    return Block("tiles", "", parts=parts)


def gap(points: int) -> Block:
    """Empty page: what a page's styling leaves between its blocks, beyond the usual margin."""
    return Block("gap", "", height=points)


def parses(url: str) -> bool:
    """Whether `url` can be read as a URL at all: a host with an unclosed `[`
    (`http://[example.com/`) cannot, and Safari searches for such typed text (it never tries
    to load it), as it does for any text that is not an address; WDA's open-URL refuses it."""
    try:
        urlsplit(url.strip())
    except ValueError:
        return False
    return True


def search_url(query: str) -> str:
    """The search engine's results URL for a query."""
    return SEARCH_ENGINE + quote_plus(query.strip())


def _resolved(path: str) -> str:
    """A path with its dot segments resolved, as a browser loads it (WHATWG's URL standard:
    `/probe/four/../../nothing` is `/nothing`, and `.%2e` is `..` too)."""
    kept: list[str] = []
    segments = path.split("/")[1:]
    for i, segment in enumerate(segments):
        low = segment.lower()
        last = i == len(segments) - 1
        if low in ("..", ".%2e", "%2e.", "%2e%2e"):
            if kept:
                kept.pop()
            if last:
                kept.append("")
        elif low in (".", "%2e"):
            if last:
                kept.append("")
        else:
            kept.append(segment)
    return "/" + "/".join(kept)


def normalise(url: str) -> str:
    """A canonical URL: the scheme, host and port as `address_bar.split` reads them (the
    checks' reading: an escape in the host decoded, a default port dropped), at least "/" as
    path, its dot segments resolved; the text itself when it names no web page."""
    got = split(url)
    if got is None:
        return url.strip()
    path, mark, query = got.rest.partition("?")
    return f"{got.scheme}://{got.site}{_resolved(path or '/')}{mark}{query}"


def _site(url: str) -> tuple[str, str, dict[str, list[str]]]:
    """The host (without `www.`, with a port other than the default: no site of the simulated
    web answers on one), the path and the query of a canonical URL."""
    parts = urlsplit(url)
    return parts.netloc.removeprefix("www."), parts.path, parse_qs(parts.query)


def load(url: str) -> Page:
    """The page a URL loads (an error page for hosts the simulated web does not have)."""
    if split(url) is None:
        return cannot_open(url.strip())
    canonical = normalise(url)
    host, path, query = _site(canonical)
    secure = canonical.startswith("https:")
    for suffix, build in _SITES:
        if host == suffix or host.endswith("." + suffix):
            page = build(canonical, host, path, query)
            if page is not None:
                return Page(page.url, page.title, page.address, page.blocks, secure)
    return cannot_open(canonical, host)


def _example(url: str, host: str, path: str, query: dict[str, list[str]]) -> Page:
    return Page(url, "Example Domain", host, (
        heading("Example Domain"),
        text("This domain is for use in illustrative examples in documents. You may use this "
             "domain in literature without prior coordination or asking for permission."),
        link("More information...", "https://www.iana.org/domains/example"),
    ))


def _iana(url: str, host: str, path: str, query: dict[str, list[str]]) -> Page:
    if path.rstrip("/") in ("/domains/example", "/help/example-domains"):
        return Page(url, "Example Domains", host, (
            heading("Example Domains"),
            text("As described in RFC 2606 and RFC 6761, a number of domains such as "
                 "example.com and example.org are maintained for documentation purposes."),
            text("These domains may be used as illustrative examples in documents without "
                 "prior coordination with us. They are not available for registration or "
                 "transfer."),
            link("Example domains", "https://example.com/"),
        ))
    return Page(url, "Internet Assigned Numbers Authority", host, (
        heading("Internet Assigned Numbers Authority"),
        text("The global coordination of the DNS Root, IP addressing, and other Internet "
             "protocol resources is performed as the Internet Assigned Numbers Authority."),
        link("Example domains", "https://www.iana.org/domains/example"),
    ))


def _probe(url: str, host: str, path: str, query: dict[str, list[str]]) -> Page | None:
    parts = [p for p in path.split("/") if p]
    if len(parts) != 2 or parts[0] != "probe" or parts[1] not in PROBE_WORDS:
        return None
    picture, written = PROBE_WORDS[parts[1]]
    # One panel: the picture, then the written word. The title names no word of either.
    return Page(url, "blolabel probe", host, (Block("picture", picture), heading(written)))


def _search(url: str, host: str, path: str, query: dict[str, list[str]]) -> Page:
    engine = "Bing" if host.startswith("bing.") else "Google"
    words = (query.get("q") or [""])[0].strip()
    if path.rstrip("/") != "/search" or not words:
        return Page(url, engine, host, (heading(engine), text(f"Search with {engine}.")))
    title = words[:1].upper() + words[1:]
    article = quote(title.replace(" ", "_"))
    return Page(url, f"{words} - {engine} Search", words, (
        caption(f"{engine} results for \u201c{words}\u201d"),
        link(f"{title} - Wikipedia", f"https://en.wikipedia.org/wiki/{article}"),
        caption(f"en.wikipedia.org \u203a wiki \u203a {title.replace(' ', '_')}"),
        text(f"{title} is described in this encyclopedia article, with examples and "
             "history."),
        link(f"{words} - Wiktionary", f"https://en.wiktionary.org/wiki/{quote(words)}"),
        caption(f"en.wiktionary.org \u203a wiki \u203a {words}"),
        text("People also ask"),
        link(f"What is {words}?", f"https://en.wikipedia.org/wiki/{article}"),
    ))


def _wiki(url: str, host: str, path: str, query: dict[str, list[str]]) -> Page:
    site = "Wiktionary" if "wiktionary" in host else "Wikipedia"
    if not path.startswith("/wiki/") or len(path) <= len("/wiki/"):
        return Page(url, site, host, (heading(site), text(f"{site}, the free encyclopedia."),))
    subject = unquote(path[len("/wiki/"):]).replace("_", " ")
    return Page(url, f"{subject} - {site}", host, (
        heading(subject),
        caption(f"From {site}, the free encyclopedia"),
        text(f"This article is about {subject}."),
    ))


def _apple(url: str, host: str, path: str, query: dict[str, list[str]]) -> Page:
    return Page(url, "Apple", host, (heading("Apple"), text("iPhone"), text("Mac"),
                                     text("iPad"), text("Watch")))


def _squoosh(url: str, host: str, path: str, query: dict[str, list[str]]) -> Page:
    # The page of the iOS 26 share-sheet dump, as its accessible elements read and roughly
    # where they lie: the logo heading, the drop zone's button, "OR Paste", "Or try one of
    # these:" (each text with its own spaces), the sample tiles below the fold from the
    # second row, then the h2 sections.
    return Page(url, "Squoosh", host, (
        gap(36), heading("Squoosh"), gap(144), web_button(""), gap(15),
        line(text("OR"), web_button("Paste")), gap(195),
        line(text("Or "), text("try one"), text(" of these:")), gap(31),
        tiles(web_button("Large photo 2.8MB"), web_button("Artwork 2.9MB"),
              web_button("Device screen 1.6MB"), web_button("SVG icon 13KB")), gap(129),
        heading("Small", 2),
        text("Smaller images mean faster load times. Squoosh can reduce file size and "
             "maintain high quality."),
        image("silhouette of a large 1.4 megabyte image shrunk into a smaller 80 kilobyte "
              "image"),
        heading("Simple", 2),
        text("Open your image, inspect the differences, then save instantly. Feeling "
             "adventurous? Adjust the settings for even smaller files."),
        image("grid of multiple shrunk images displaying various options"),
        heading("Secure", 2),
        text("Worried about privacy? Images never leave your device since Squoosh does all "
             "the work locally."),
        image("silhouette of a cloud with a 'no' symbol on top"),
        link("Privacy", "https://github.com/GoogleChromeLabs/squoosh/blob/dev/README.md"),
        link("Source on Github", "https://github.com/GoogleChromeLabs/squoosh"),
    ))


def cannot_open(url: str, host: str = "") -> Page:
    return Page(url, "Cannot Open Page", host or url, (
        heading("Safari Can\u2019t Open the Page"),
        text(f"Safari can\u2019t open the page \u201c{host or url}\u201d because the "
             "server can\u2019t be found."),
    ), secure=False)


Site = Callable[[str, str, str, dict[str, list[str]]], "Page | None"]
"""A site: (canonical URL, host without www., path, query) -> its page, or None for no such
page there (the error page shows)."""

_SITES: tuple[tuple[str, Site], ...] = (
    ("example.com", _example), ("example.org", _example), ("example.net", _example),
    ("iana.org", _iana), ("blolabel.ai", _probe), ("google.com", _search),
    ("bing.com", _search), ("wikipedia.org", _wiki), ("wiktionary.org", _wiki),
    ("apple.com", _apple), ("squoosh.app", _squoosh),
)

FAVORITES = (("Apple", "https://www.apple.com/"), ("Bing", "https://www.bing.com/"),
             ("Google", "https://www.google.com/"), ("Wikipedia", "https://en.wikipedia.org/"))
"""The start page's Favorites, as on a new iPhone (the dump shows Apple, Yandex, Bing, Google)."""
