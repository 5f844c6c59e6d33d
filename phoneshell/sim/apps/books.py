"""Books (com.apple.iBooks): the Home, Library, Book Store and Search tabs, and a book's page.

The app opens on Home. The Search tab holds the search field ("Books & Audiobooks"); typing
lists the catalogue's books whose title or author contains the query, ignoring case and
punctuation ("moby dick" finds "Moby Dick" by Herman Melville), or "No Results". Tapping a
book, anywhere, opens its page (title, author, "Get" and "Sample"; back returns). The library
and catalogue are data; nothing is bought or downloaded ("Get" asks to sign in to an Apple
Account).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from phoneshell.sim import layout, lists
from phoneshell.sim.apps import AppModel, Host, register
from phoneshell.sim.back_menu import BackMenu
from phoneshell.sim.ui import EditText, Handler, Node, Rect, Scroll, showing

BUNDLE_ID = "com.apple.iBooks"
TABS = ("Home", "Library", "Book Store", "Search")


@dataclass(frozen=True)
class Book:
    """A book in the store's catalogue."""

    title: str
    author: str
    owned: bool = False
    """In the library (and on Home's Continue shelf when `progress` is set)."""
    progress: str | None = None


CATALOGUE = (
    Book("Pride and Prejudice", "Jane Austen", owned=True, progress="12%"),
    Book("Frankenstein", "Mary Shelley", owned=True),
    Book("The Adventures of Sherlock Holmes", "Arthur Conan Doyle", owned=True),
    Book("Moby Dick", "Herman Melville"),
    Book("Moby Dick: A Graphic Novel", "Herman Melville & Lance Stahlberg"),
    Book("Great Expectations", "Charles Dickens"),
    Book("A Tale of Two Cities", "Charles Dickens"),
    Book("Little Women", "Louisa May Alcott"),
    Book("Dracula", "Bram Stoker"),
    Book("The Odyssey", "Homer"),
    Book("Jane Eyre", "Charlotte Brontë"),
    Book("Wuthering Heights", "Emily Brontë"),
)
TRENDING = ("Dracula", "Little Women", "Great Expectations")
WANT_TO_READ = ("Great Expectations", "Little Women")
TOP_FREE = ("Dracula", "Jane Eyre", "The Odyssey", "Wuthering Heights", "A Tale of Two Cities",
            "Little Women", "Great Expectations")
"""The Book Store's chart; the rest of the catalogue is found only by searching."""


@dataclass
class BooksState:
    """The tab, the open book (if any), a scroll per tab, the query, the sign-in alert."""

    back_menu: BackMenu = field(default_factory=BackMenu)
    """The back button's history menu (a hold on it): whether it shows."""
    tab: int = 0
    book: Book | None = None
    shown: int = 0
    """The open book's showing (`ui.showing`): one pushed again is new views, new ids."""
    scrolls: list[Scroll] = field(default_factory=lambda: [Scroll() for _ in TABS])
    query: EditText = field(default_factory=lambda: EditText("Books & Audiobooks",
                                                       return_key="search"))
    signing_in: bool = False


def _words(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.lower()))


def search(query: str) -> list[Book]:
    """Books whose title or author contains the query (case and punctuation ignored)."""
    q = _words(query)
    return [b for b in CATALOGUE if q and (q in _words(b.title) or q in _words(b.author))]


def _book_row(state: BooksState, book: Book, detail: str | None = None) -> lists.Row:
    def open_book() -> None:
        state.book, state.shown = book, showing()

    return lists.Row(book.title, subtitle=book.author, detail=detail, height=64,
                      on_tap=open_book)


def _sections(state: BooksState, host: Host) -> list[lists.Section]:
    tab = TABS[state.tab]
    if tab == "Home":
        reading = tuple(_book_row(state, b, b.progress) for b in CATALOGUE if b.progress)
        wanted = tuple(_book_row(state, b) for b in CATALOGUE if b.title in WANT_TO_READ)
        return [lists.Section(reading, header="Continue"),
                lists.Section(wanted, header="Want to Read")]
    if tab == "Library":
        return [lists.Section(tuple(_book_row(state, b) for b in CATALOGUE if b.owned),
                               header="Books")]
    if tab == "Book Store":
        return [lists.Section(tuple(_book_row(state, b, "Free") for b in CATALOGUE
                                     if b.title in TOP_FREE), header="Top Free")]
    query = state.query
    head = lists.Section((lists.search_row(query, host, name="Books & Audiobooks"),))
    if not query.text.strip():
        return [head, lists.Section(tuple(lists.Row(t, on_tap=_filler(query, t))
                                           for t in TRENDING), header="Trending")]
    found = tuple(_book_row(state, b) for b in search(query.text))
    return [head, lists.Section(found or (lists.Row("No Results"),))]


def _filler(query: EditText, text: str) -> Handler:
    def fill() -> None:
        query.text = text
    return fill


def _book_page(state: BooksState, host: Host, book: Book) -> list[Node]:
    f = host.facts

    def back() -> None:
        state.book = None

    def get() -> None:
        state.signing_in = True

    owned = (layout.text("In Library", Rect(16, 240, 170, 24)) if book.owned
             else layout.button("Get", Rect(16, 230, 170, 44), get))
    return [layout.nav_bar(f, book.title, back=TABS[state.tab], on_back=back,
                           menu=state.back_menu),
            layout.text(book.title, Rect(16, 140, f.width - 32, 34), header=True),
            layout.text(book.author, Rect(16, 180, f.width - 32, 22)), owned]


def render(state: BooksState, host: Host) -> Node:
    """The open book's page, or the selected tab's list; the tab bar under either."""
    f = host.facts
    tab = TABS[state.tab]

    def choose(index: int) -> Handler:
        def pick() -> None:
            host.focus(None)
            state.book, state.tab = None, index
        return pick

    tabs = layout.tab_bar(f, [(t, choose(i)) for i, t in enumerate(TABS)], state.tab)
    if state.book is not None:
        nodes = [*_book_page(state, host, state.book), tabs]
        if state.signing_in:
            def dismiss() -> None:
                state.signing_in = False

            nodes.append(layout.alert(f, "Apple Account", "Sign in to get books.",
                                      [("Not Now", dismiss)]))
        return layout.screen(f, nodes, key=f"books:{state.book.title}@{state.shown}")
    bottom = f.height - layout.TAB_BAR_HEIGHT
    viewport = Rect(0, layout.LARGE_NAV_BOTTOM, f.width, bottom - layout.LARGE_NAV_BOTTOM)
    table = lists.table(state.scrolls[state.tab], viewport, _sections(state, host),
                         key=f"tab:{tab}", frame=lists.under_bars(f))
    return layout.screen(f, [layout.nav_bar(f, tab, large=True), table, tabs],
                         key=f"books:{tab}")


APP = register(AppModel(BUNDLE_ID, "Books", BooksState, render, rotates=True))
