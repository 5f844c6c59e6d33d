"""Finishes an instruction leaves open pass, and the cheap ones beside them still fail (red team
107): a book looked up and then opened, the month view marking today, a sentence typed nine
times one copy a line or as nine sentences, a note searched for by one of its words. Each
finish is played with facebook-wda on the simulated iPhone through the bridge, as an agent."""

from __future__ import annotations

from pathlib import Path

import pytest
import wda
from played_finish import Play, failed_checks, played

from phoneshell.sim import SimServer
from phoneshell.tasks import Task

BOOKS, CALENDAR, NOTES = "com.apple.iBooks", "com.apple.mobilecal", "com.apple.mobilenotes"
SENTENCE = "the quick brown fox jumps over the lazy dog"


def finish(task: str, play: Play, sim: SimServer, tmp_path: Path,
           suite: dict[str, Task]) -> dict[str, str]:
    """Play `play` as the agent of `task`; the checks that failed, by kind."""
    return failed_checks(played(sim, tmp_path, suite[task], play))


# books.search: the book looked up, on the results or on its own page ---------------------------

def look_up(query: str, *then: str) -> Play:
    """Books' Search tab, `query` typed into its field, then a tap on each of `then` in turn
    (a result row by its title, a tab by its name)."""
    def play(c: wda.Client) -> None:
        c.app_launch(BOOKS)
        s = c.session()
        s(className="XCUIElementTypeButton", name="Search").click()
        s(className="XCUIElementTypeSearchField").click()
        s.send_keys(query)
        for name in then:
            kind = "Cell" if name.startswith("Moby") else "Button"
            s(className=f"XCUIElementType{kind}", name=name).click()
    return play


@pytest.mark.parametrize("then", [(), ("Moby Dick",)], ids=["results", "book-page"])
def test_books_the_book_looked_up_passes_on_results_or_its_page(
        then: tuple[str, ...], sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    assert finish("books.search", look_up("Moby Dick", *then), sim, tmp_path, suite) == {}


@pytest.mark.parametrize(("play", "kind", "seen"), [
    (look_up("Moby Dick", "Moby Dick", "Home"), "element_exists_anywhere", "'Moby' not found"),
    (look_up("Moby", "Moby Dick"), "typed_into", "was 'Moby'; wanted 'Moby Dick', whole"),
], ids=["opened-then-left", "not-the-title"])
def test_books_the_book_must_show_and_the_title_be_searched(
        play: Play, kind: str, seen: str, sim: SimServer, tmp_path: Path,
        suite: dict[str, Task]) -> None:
    failed = finish("books.search", play, sim, tmp_path, suite)
    assert seen in failed.get(kind, ""), failed


# calendar.today: today marked, in whichever view ------------------------------------------------

def calendar(*taps: str, months_on: int = 0) -> Play:
    """Calendar brought back where setup left it (a day away from today), a tap on each button
    named in `taps`, then `months_on` swipes up (the next month, in the month view)."""
    def play(c: wda.Client) -> None:
        c.app_activate(CALENDAR)
        for name in taps:
            c(className="XCUIElementTypeButton", name=name).click()
        for _ in range(months_on):
            c.swipe(200, 600, 200, 300)
    return play


@pytest.mark.parametrize("taps", [("BackButton", "Today"), ("BackButton",)],
                         ids=["month-then-today", "month-of-today"])
def test_calendar_the_month_view_marking_today_passes(
        taps: tuple[str, ...], sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    assert finish("calendar.today", calendar(*taps), sim, tmp_path, suite) == {}


@pytest.mark.parametrize("play", [calendar(), calendar("BackButton", "Today", months_on=1)],
                         ids=["a-day-away", "next-month"])
def test_calendar_today_unmarked_fails(play: Play, sim: SimServer, tmp_path: Path,
                                       suite: dict[str, Task]) -> None:
    failed = finish("calendar.today", play, sim, tmp_path, suite)
    assert "matched nothing in a selected Button" in failed.get("regex_on_screen", ""), failed


# notes.type_long: the sentence nine times, laid out as people and phones lay it out -------------

def new_note(text: str) -> Play:
    """A new note, `text` typed into it, Done."""
    def play(c: wda.Client) -> None:
        c.app_launch(NOTES)
        s = c.session()
        s(className="XCUIElementTypeButton", name="New Note").click()
        s.send_keys(text)
        s(className="XCUIElementTypeButton", name="Done").click()
    return play


CAPITALISED = f"T{SENTENCE[1:]}."


@pytest.mark.parametrize("text", [
    "\n".join([SENTENCE] * 9), " ".join([CAPITALISED] * 9),
    "\n".join([CAPITALISED] * 4 + [SENTENCE] * 5), " ".join([SENTENCE] * 9),
], ids=["one-a-line", "nine-sentences", "mixed", "run-on"])
@pytest.mark.slow  # 1.9 s measured: the README's command stays quick
def test_notes_nine_copies_laid_out_any_way_pass(text: str, sim: SimServer, tmp_path: Path,
                                                 suite: dict[str, Task]) -> None:
    assert finish("notes.type_long", new_note(text), sim, tmp_path, suite) == {}


@pytest.mark.parametrize("text", [
    "\n".join([SENTENCE] * 8), "\n".join([SENTENCE] * 10), " ".join([CAPITALISED] * 9) + " ok",
], ids=["eight", "ten", "more-after"])
@pytest.mark.slow  # 1.6 s measured: the README's command stays quick
def test_notes_not_nine_copies_alone_fails(text: str, sim: SimServer, tmp_path: Path,
                                           suite: dict[str, Task]) -> None:
    failed = finish("notes.type_long", new_note(text), sim, tmp_path, suite)
    assert "wanted all of it to match" in failed.get("device_value", ""), failed


# notes.search: the note looked for by its words -------------------------------------------------

def search_notes(*queries: str) -> Play:
    """Notes' search field, each query typed in turn over what the last left (cleared)."""
    def play(c: wda.Client) -> None:
        c.app_launch(NOTES)
        s = c.session()
        for query in queries:
            field = s(className="XCUIElementTypeSearchField")
            field.click()
            field.clear_text()
            s.send_keys(query)
    return play


@pytest.mark.parametrize("query", ["phoneshell", "Benchmark", "phoneshell benchmark"])
def test_notes_a_search_for_its_words_finds_it(query: str, sim: SimServer, tmp_path: Path,
                                               suite: dict[str, Task]) -> None:
    assert finish("notes.search", search_notes(query), sim, tmp_path, suite) == {}


@pytest.mark.parametrize(("queries", "seen"), [
    (("phoneshell benchmarks",), "was 'phoneshell benchmarks'; wanted"),
    (("phoneshell", "benchmark test"), "was 'benchmark test'; wanted"),
], ids=["more-than-its-words", "then-another"])
def test_notes_another_search_fails(queries: tuple[str, ...], seen: str, sim: SimServer,
                                    tmp_path: Path, suite: dict[str, Task]) -> None:
    failed = finish("notes.search", search_notes(*queries), sim, tmp_path, suite)
    assert seen in failed.get("typed_into", ""), failed
